"""HTA's TraceDiff API (Holistic Trace Analysis 0.6, hta.trace_diff) on tracediff's
--hta-compat engine: the same tables, to the row, value, order, index and dtype."""
from enum import Enum

from . import _tracediff
from ._args import list_arg, path_arg


class DeviceType(Enum):
    """Which operators compare_traces counts, as HTA's DeviceType: CPU (host operators),
    GPU (kernels, memcpy, memset, stream syncs) or ALL."""

    CPU = 0
    GPU = 1
    ALL = 2


class HtaValueError(_tracediff.TraceDiffError, ValueError):
    """TraceDiffError in HTA's API: a ValueError too, as HTA raises for a trace without
    ProfilerStep or a side without ranks."""


_DEVICE = {DeviceType.CPU: "cpu", DeviceType.GPU: "gpu", DeviceType.ALL: "all"}


def _hta_report(control, test, control_rank, test_rank, control_iteration, test_iteration, device_type, use_short_name):
    if not isinstance(device_type, DeviceType):
        raise TypeError(f"device_type must be a DeviceType, not {type(device_type).__name__}")
    args = [path_arg(control, "control"), path_arg(test, "test"), "--hta-compat",
            "--label-control", "Control", "--label-test", "Test", "--device", _DEVICE[device_type]]
    for flag, value, what in (("--control-rank", control_rank, "control_rank"), ("--test-rank", test_rank, "test_rank"),
                              ("--control-iteration", control_iteration, "iteration"),
                              ("--test-iteration", test_iteration, "iteration")):
        text = list_arg(value, what)
        if text is not None:
            args += [flag, text]
    if use_short_name:
        args.append("--short-names")
    try:
        return _tracediff.Report(args)
    except _tracediff.TraceDiffError as e:
        raise HtaValueError(str(e)) from None


def _hta_frame(report):
    """HTA's DataFrame: index `name` (or `short_name`), seven columns named after the
    labels. Dtypes as pandas' outer join leaves them: a side's columns are float64 when
    the other side has names it lacks (filled with 0), durations also when HTA rounded
    the side's fractional timestamps; int64 otherwise."""
    import pandas as pd

    c, t = report.control_label, report.test_label
    rows = report.hta_rows()
    names = [r[0] for r in rows]
    cc = [r[1] for r in rows]
    cd = [r[2] for r in rows]
    tc = [r[3] for r in rows]
    td = [r[4] for r in rows]
    c_missing = any(v == 0 for v in cc)
    t_missing = any(v == 0 for v in tc)
    count_c = "float64" if c_missing else "int64"
    count_t = "float64" if t_missing else "int64"
    dur_c = "float64" if c_missing or report.control_rounded else "int64"
    dur_t = "float64" if t_missing or report.test_rounded else "int64"
    index = pd.Index(names, name="short_name" if report.short_names else "name", dtype="object")
    df = pd.DataFrame(
        {
            f"{c}_counts": pd.Series(cc, index=index, dtype=count_c),
            f"{c}_total_duration": pd.Series(cd, index=index, dtype="float64").astype(dur_c),
            f"{t}_counts": pd.Series(tc, index=index, dtype=count_t),
            f"{t}_total_duration": pd.Series(td, index=index, dtype="float64").astype(dur_t),
        },
        index=index,
    )
    df["diff_counts"] = df[f"{t}_counts"] - df[f"{c}_counts"]
    df["diff_duration"] = df[f"{t}_total_duration"] - df[f"{c}_total_duration"]
    df["counts_change_categories"] = ["+" if d > 0 else "-" if d < 0 else "=" for d in df["diff_counts"]]
    if df.empty:
        df["counts_change_categories"] = df["counts_change_categories"].astype("object")
    return df


class TraceDiff:
    """HTA's TraceDiff: replace ``from hta.trace_diff import TraceDiff`` by
    ``from tracediff import TraceDiff``.

    HTA's defaults are followed here, quirks included (docs/python.md): with no rank, the
    smallest rank of each side and only that one; with no iteration, the smallest
    ProfilerStep number of each side and only that one; durations are inclusive totals
    in µs (ProfilerStep#N rows included); fractional timestamps are rounded as HTA
    rounds them. tracediff's own comparison (all ranks and steps, per-step medians,
    noise-aware verdicts) is ``tracediff.compare``.
    """

    @classmethod
    def compare_traces(cls, control, test, control_rank=None, test_rank=None, control_iteration=None,
                       test_iteration=None, device_type=DeviceType.ALL, use_short_name=False):
        """Counts and total durations of each operator name on both sides, as HTA's
        compare_traces returns them.

        control, test: a directory of traces (one file per rank; a single trace file is
            taken as well).
        control_rank, test_rank: a rank or a list of ranks; None (HTA's default): the
            smallest rank only.
        control_iteration, test_iteration: a ProfilerStep number or a list of them; None
            (HTA's default): the smallest step only.
        device_type: DeviceType.ALL (default), CPU or GPU.
        use_short_name: key rows by HTA's short names (templates and arguments removed).

        Returns a DataFrame indexed by `name` (or `short_name`) with the columns
        Control_counts, Control_total_duration, Test_counts, Test_total_duration,
        diff_counts, diff_duration (µs) and counts_change_categories ("+", "-", "=").
        Raises ValueError as HTA does, with the CLI's messages: UsageError for a rank or
        iteration the side lacks, HtaValueError (also a TraceDiffError) when a side has no
        ProfilerStep or cannot be read.
        """
        report = _hta_report(control, test, control_rank, test_rank, control_iteration, test_iteration,
                             device_type, use_short_name)
        return _hta_frame(report)

    @classmethod
    def ops_diff(cls, control, test, control_rank=None, test_rank=None, control_iteration=None,
                 test_iteration=None, device_type=DeviceType.ALL):
        """HTA's ops_diff: the names (full names, in compare_traces' row order) in five
        lists by count: added, deleted, increased, decreased, unchanged. Defaults as
        compare_traces'."""
        df = cls.compare_traces(control, test, control_rank, test_rank, control_iteration, test_iteration,
                                device_type, use_short_name=False)
        c, t = df.iloc[:, 0].to_numpy(), df.iloc[:, 2].to_numpy()
        d = t - c
        names = df.index
        return {
            "added": names[(c == 0) & (t > 0)].tolist(),
            "deleted": names[(c > 0) & (t == 0)].tolist(),
            "increased": names[(c > 0) & (d > 0)].tolist(),
            "decreased": names[(t > 0) & (d < 0)].tolist(),
            "unchanged": names[(t > 0) & (d == 0)].tolist(),
        }

    @classmethod
    def visualize_counts_diff(cls, df, show_image=True, export_image_path=None):
        """Bar chart of each side's counts per name (HTA draws it with plotly; this one
        with matplotlib). show_image: show it (plt.show()); export_image_path: also save
        it there (the format from the suffix: .png, .svg, .pdf)."""
        _bar_chart(df, "counts", "Operator counts", "count", show_image, export_image_path)

    @classmethod
    def visualize_duration_diff(cls, df, show_image=True, export_image_path=None):
        """Bar chart of each side's total duration per name (µs); as visualize_counts_diff."""
        _bar_chart(df, "total_duration", "Operator durations", "total duration (µs)", show_image, export_image_path)


def _bar_chart(df, suffix, title, xlabel, show_image, export_image_path):
    import matplotlib.pyplot as plt

    cols = [col for col in df.columns if col.endswith("_" + suffix)][:2]
    if len(cols) != 2:
        raise ValueError(f"df has no pair of *_{suffix} columns: pass what compare_traces returned")
    diff = "diff_counts" if suffix == "counts" else "diff_duration"
    data = df.sort_values(by=diff) if diff in df.columns else df
    fig, ax = plt.subplots(figsize=(10, max(3.0, 0.3 * len(data) + 1.5)))
    pos = range(len(data))
    height = 0.4
    ax.barh([p - height / 2 for p in pos], data[cols[0]], height=height, label=cols[0])
    ax.barh([p + height / 2 for p in pos], data[cols[1]], height=height, label=cols[1])
    ax.set_yticks(list(pos))
    # A trace's names are text, never mathtext: "$" would start a formula.
    ax.set_yticklabels([_label(n) for n in data.index])
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.legend()
    fig.tight_layout()
    if export_image_path:
        fig.savefig(export_image_path)
    if show_image:
        plt.show()
    else:
        plt.close(fig)


def _label(name):
    text = str(name)
    text = text if len(text) <= 80 else text[:79] + "…"
    return text.replace("$", r"\$")
