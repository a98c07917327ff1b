"""HTA's TraceDiff API (Holistic Trace Analysis 0.6, hta.trace_diff) on tracediff's
--hta-compat engine: the same tables, to the row, value, order, index and dtype;
LabeledTrace as HTA has it; and the instance form some guides teach."""
import numbers
import os
import random
import sys
import types
from enum import Enum

from . import _tracediff
from ._args import list_arg, path_arg


class DeviceType(Enum):
    """Which operators compare_traces counts, as HTA's DeviceType (the same values): CPU
    (host operators, stream -1), GPU (kernels, memcpy, memset, stream syncs) or ALL."""

    CPU = 1
    GPU = 2
    ALL = 3


class HtaValueError(_tracediff.TraceDiffError, ValueError):
    """TraceDiffError in HTA's API: a ValueError too, as HTA raises for a trace without
    ProfilerStep or a side without ranks."""


_DEVICE = {"CPU": "cpu", "GPU": "gpu", "ALL": "all"}
_EVENTS_DEVICE = {"CPU": 1, "GPU": 2, "ALL": 0}


def _device_name(device_type):
    """"CPU", "GPU" or "ALL" of our DeviceType or of HTA's own (hta.trace_diff.DeviceType)."""
    name = getattr(device_type, "name", None)
    if isinstance(device_type, Enum) and name in _DEVICE:
        return name
    raise TypeError(f"device_type must be a DeviceType, not {type(device_type).__name__}")


def shorten_name(name):
    """HTA's hta.utils.utils.shorten_name, rule for rule: templates, arguments and return
    types removed (memory copies and sets unchanged)."""
    return _tracediff.shorten_name(str(name))


def flatten_column_names(df):
    """HTA's hta.utils.utils.flatten_column_names: a two-level column index joined with
    "_" (("Control", "counts") -> "Control_counts"), in place."""
    import pandas as pd

    if isinstance(df.columns, pd.MultiIndex):
        df.columns = ["_".join(str(c) for c in col).rstrip("_") for col in df.columns.values]


def _hta_trace_paths(t):
    """The trace files of HTA's hta.common.trace.Trace, or HTA's own LabeledTrace's, without
    importing HTA: such an object exists only where HTA was imported."""
    trace = getattr(t, "t", t)  # HTA's LabeledTrace wraps a Trace
    files = getattr(trace, "trace_files", None)
    base = getattr(trace, "trace_path", None)
    if isinstance(files, dict) and files:
        return [f if os.path.isabs(f) or not base else os.path.join(base, f) for f in files.values()]
    if base:
        return [base]
    raise ValueError(f"Invalid argument type for ({t}).")


def _is_hta_object(t):
    return type(t).__module__.split(".")[0] == "hta" and type(t).__name__ in ("Trace", "LabeledTrace")


class LabeledTrace:
    """HTA's LabeledTrace: a side's traces with a label, read once and kept in memory
    (tracediff's reader, --hta-compat's fields), for ranks(), iterations(), extract_ops()
    and every comparison that names it.

    label: the label of its columns in compare_traces (HTA's default: "t0" to "t10" at
        random).
    t: HTA's hta.common.trace.Trace (or HTA's LabeledTrace): its files are read.
    trace_dir: a directory of traces (one file per rank); a single trace file is taken too.
    """

    def __init__(self, label=None, t=None, trace_dir=None):
        self.label = label if label else f"t{random.randint(0, 10)}"
        if t is not None:
            if isinstance(t, LabeledTrace):
                paths = list(t._side.paths)
            elif _is_hta_object(t):
                paths = _hta_trace_paths(t)
            else:
                raise ValueError(f"Invalid argument type for ({t}).")
        elif trace_dir is not None and isinstance(trace_dir, (str, os.PathLike)) and os.path.exists(trace_dir):
            paths = [os.fspath(trace_dir)]
        else:
            raise ValueError("either a trace object or a valid trace dir must be provided in LabeledTrace.__init__()")
        self.t = t
        self.trace_dir = paths[0]
        try:
            self._side = _tracediff.HtaSide(paths, self.label)
        except _tracediff.TraceDiffError as e:
            raise HtaValueError(str(e)) from None
        self._symbols = None

    def __repr__(self):
        return f"LabeledTrace(label={self.label!r}, trace_dir={self.trace_dir!r})"

    def ranks(self):
        """Every rank of the traces, ascending."""
        return self._side.ranks()

    def iterations(self):
        """Every N of a ProfilerStep#N in any rank, ascending (HTA's list, §3.2)."""
        return self._side.iterations()

    @property
    def s_tab(self):
        """The symbol table as HTA's pandas Series: id -> name or category (ids of
        extract_ops' `name` and `cat` columns; sorted, so stable across runs)."""
        import pandas as pd

        if self._symbols is None:
            self._symbols = self._side.symbols()
        return pd.Series(self._symbols, dtype="object")

    @property
    def s_map(self):
        """The symbol table the other way: name or category -> id."""
        import pandas as pd

        tab = self.s_tab
        return pd.Series(tab.index.to_numpy(), index=tab.to_numpy())

    @property
    def iteration_df(self):
        """HTA's iteration_df: one row per ProfilerStep symbol (symbol, id, iteration)."""
        import pandas as pd

        tab = self.s_tab
        rows = [(s, i, int(s[len("ProfilerStep#"):])) for i, s in tab.items()
                if s.startswith("ProfilerStep#") and s[len("ProfilerStep#"):].isdigit()]
        return pd.DataFrame(rows, columns=["symbol", "id", "iteration"])

    def _ranks_arg(self, rank):
        available = self.ranks()
        if rank is None:
            if not available:
                raise ValueError(f"Trace {self.label} doesn't have any rank.")
            return available[:1]
        if isinstance(rank, numbers.Integral) and not isinstance(rank, bool):
            ranks = [int(rank)]
        elif isinstance(rank, list) and rank:
            ranks = rank
        else:
            raise ValueError(f"Invalid type for argument `rank` {rank}.")
        for r in ranks:
            if r not in available:
                raise ValueError(f"Invalid argument rank={rank}.")
        return [int(r) for r in ranks]

    def _iterations_arg(self, iteration):
        available = self.iterations()
        if iteration is None:
            if not available:
                raise ValueError(f"Trace {self.label} doesn't have any iteration.")
            return available[:1]
        if isinstance(iteration, numbers.Integral) and not isinstance(iteration, bool):
            iterations = [int(iteration)]
        elif isinstance(iteration, list) and iteration:
            iterations = iteration
        else:
            raise ValueError(f"Invalid type for argument `iteration` {iteration}.")
        for n in iterations:
            if n not in available:
                raise ValueError(f"Invalid argument iteration={n}.")
        return [int(n) for n in iterations]

    def extract_ops(self, rank=None, iteration=None, device_type=DeviceType.ALL):
        """HTA's extract_ops: one row per event of the ranks (default: the smallest) and
        iterations (default: the smallest) selected, filtered by device as HTA does (CPU:
        stream -1; GPU: the rest). Columns: index (position in traceEvents), ts, dur (µs,
        rounded as HTA rounds fractional traces), name and cat (ids into s_tab), pid,
        tid, stream, correlation, iteration; rank when several ranks are selected."""
        import pandas as pd

        ranks = self._ranks_arg(rank)
        iterations = self._iterations_arg(iteration)
        cols = self._side.events(ranks, iterations, _EVENTS_DEVICE[_device_name(device_type)])
        float_durations = cols.pop("float_durations")
        ranks_col = cols.pop("rank")
        df = pd.DataFrame(cols)
        for c in ("index", "ts", "name", "cat", "stream", "correlation", "iteration"):
            df[c] = df[c].astype("int64")
        df["dur"] = df["dur"].astype("float64" if float_durations else df["dur"].dtype if len(df) else "int64")
        if len(ranks) > 1:
            df.insert(0, "rank", pd.Series(ranks_col, dtype="int64"))
        return df

    def get_ops_summary(self, ops):
        """HTA's get_ops_summary: counts and total duration of OPS (extract_ops' rows) by
        category and name. Columns: cat, name, short_name, counts, total_duration,
        cat_id, name_id."""
        df = ops[["cat", "name", "dur"]].groupby(["cat", "name"]).aggregate(["count", "sum"])
        df.columns = ["_".join(col).rstrip("_") for col in df.columns.values]
        df.reset_index(inplace=True)
        df.rename(columns={"name": "name_id", "cat": "cat_id", "dur_count": "counts", "dur_sum": "total_duration"},
                  inplace=True)
        tab = self.s_tab
        df["cat"] = df["cat_id"].apply(lambda i: tab[i])
        df["name"] = df["name_id"].apply(lambda i: tab[i])
        df["short_name"] = df["name"].apply(shorten_name)
        return df[["cat", "name", "short_name", "counts", "total_duration", "cat_id", "name_id"]]


def _labeled(t, default_label):
    """HTA's _trace_argument_adapter: a directory (or trace file), HTA's Trace or a
    LabeledTrace, as a LabeledTrace."""
    if isinstance(t, LabeledTrace):
        return t
    if isinstance(t, (str, os.PathLike)):
        path = path_arg(t, default_label.lower())
        if not os.path.exists(path):
            # The CLI's message for a missing input; a ValueError too, as HTA raises.
            raise HtaValueError(f"{path}: no such file or directory")
        return LabeledTrace(label=default_label, trace_dir=path)
    if _is_hta_object(t):
        return LabeledTrace(label=getattr(t, "label", None) or default_label, t=t)
    raise TypeError(f"{default_label.lower()} must be a path, a LabeledTrace or HTA's Trace, not {type(t).__name__}")


def _hta_report(control, test, control_rank, test_rank, control_iteration, test_iteration, device_type, use_short_name):
    device = _DEVICE[_device_name(device_type)]
    c, t = _labeled(control, "Control"), _labeled(test, "Test")
    c_label, t_label = c.label, t.label
    if c_label == t_label:
        t_label = f"{t_label}_control_test"  # HTA's columns for two equal labels (its object keeps its label here)
    args = ["--hta-compat", "--label-control", c_label, "--label-test", t_label, "--device", device]
    for flag, value, what in (("--control-rank", control_rank, "control_rank"), ("--test-rank", test_rank, "test_rank"),
                              ("--control-iteration", control_iteration, "iteration"),
                              ("--test-iteration", test_iteration, "iteration")):
        text = list_arg(value, what)
        if text is not None:
            args += [flag, text]
    if use_short_name:
        args.append("--short-names")
    args += ["--", c.trace_dir, t.trace_dir]
    try:
        return _tracediff.Report(args, c._side, t._side)
    except _tracediff.UsageError:
        raise
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


def _groups(df):
    """ops_diff's five groups from a compare_traces DataFrame (its first and third
    columns are the two sides' counts, whatever the labels)."""
    counts = [col for col in df.columns if col.endswith("_counts") and col != "diff_counts"]
    if len(counts) != 2:
        raise ValueError("df has no pair of *_counts columns: pass what compare_traces returned")
    if df.index.name not in ("name", "short_name"):
        raise ValueError(f"df's index is {df.index.name!r}, not the names (name or short_name): pass what "
                         "compare_traces returned, without reset_index()")
    c, t = df[counts[0]].to_numpy(), df[counts[1]].to_numpy()
    d = t - c
    names = df.index
    return {
        "added": names[(c == 0) & (t > 0)].tolist(),
        "deleted": names[(c > 0) & (t == 0)].tolist(),
        "increased": names[(c > 0) & (d > 0)].tolist(),
        "decreased": names[(t > 0) & (d < 0)].tolist(),
        "unchanged": names[(t > 0) & (d == 0)].tolist(),
    }


class _Default:
    """A parameter left out: HTA's default, or the instance's (TraceDiff(control, test,
    **defaults)). Shows as HTA's default in help()."""

    def __init__(self, value):
        self.value = value

    def __repr__(self):
        return repr(self.value)


_NONE, _ALL, _FALSE = _Default(None), _Default(DeviceType.ALL), _Default(False)


class _class_or_instance(classmethod):
    """HTA's class methods (TraceDiff.compare_traces(control, test, ...)) that also work
    on an instance (TraceDiff(control, test).compare_traces()), with the instance's
    traces and defaults. Still a classmethod to anything that asks."""

    def __get__(self, obj, objtype=None):
        return types.MethodType(self.__func__, obj if obj is not None else objtype)


_PARAMS = ("control", "test", "control_rank", "test_rank", "control_iteration", "test_iteration", "device_type",
           "use_short_name")


def _resolve(owner, given):
    """The call's arguments: what was given, else the instance's, else HTA's default."""
    defaults = owner._defaults if isinstance(owner, TraceDiff) else {}
    out = {}
    for name, value in given.items():
        if isinstance(value, _Default):
            value = defaults.get(name, value.value)
        out[name] = value
    if out.get("control") is None or out.get("test") is None:
        raise TypeError("compare_traces() needs control and test (or a TraceDiff(control, test) instance)")
    return out


class TraceDiff:
    """HTA's TraceDiff: replace ``from hta.trace_diff import TraceDiff`` by
    ``from tracediff import TraceDiff``.

    Class methods as HTA's: ``TraceDiff.compare_traces(control, test, ...)``,
    ``TraceDiff.ops_diff(...)``, ``TraceDiff.visualize_counts_diff(df)``. Or an
    instance, as some guides teach: ``trace_diff = TraceDiff(control, test, **defaults)``
    reads both sides once; its methods take the same arguments, the instance's as their
    defaults (``trace_diff.compare_traces()``, ``trace_diff.ops_diff(df)``).

    HTA's defaults are followed, quirks included (docs/python.md): with no rank, the
    smallest rank of each side and only that one; with no iteration, the smallest
    ProfilerStep number of each side and only that one; durations are inclusive totals
    in µs (ProfilerStep#N rows included); fractional timestamps are rounded as HTA
    rounds them. tracediff's own comparison (all ranks and steps, per-step medians,
    noise-aware verdicts) is ``tracediff.compare``.
    """

    def __init__(self, control, test, **defaults):
        unknown = sorted(set(defaults) - set(_PARAMS[2:]))
        if unknown:
            raise TypeError(f"TraceDiff() got an unexpected keyword argument {unknown[0]!r}")
        self.control = _labeled(control, "Control")
        self.test = _labeled(test, "Test")
        # The defaults checked now, where the mistake is, not at the first call.
        if "device_type" in defaults:
            _device_name(defaults["device_type"])
        for side, trace in (("control", self.control), ("test", self.test)):
            if f"{side}_rank" in defaults and defaults[f"{side}_rank"] is not None:
                trace._ranks_arg(defaults[f"{side}_rank"])
            if f"{side}_iteration" in defaults and defaults[f"{side}_iteration"] is not None:
                trace._iterations_arg(defaults[f"{side}_iteration"])
        self._defaults = {"control": self.control, "test": self.test, **defaults}

    def __repr__(self):
        return f"TraceDiff({self.control!r}, {self.test!r})"

    @_class_or_instance
    def compare_traces(cls, control=_NONE, test=_NONE, control_rank=_NONE, test_rank=_NONE,
                       control_iteration=_NONE, test_iteration=_NONE, device_type=_ALL, use_short_name=_FALSE):
        """Counts and total durations of each operator name on both sides, as HTA's
        compare_traces returns them.

        control, test: a directory of traces (one file per rank; a single trace file is
            taken as well), a LabeledTrace (its label names the columns), or HTA's Trace.
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
        a = _resolve(cls, dict(control=control, test=test, control_rank=control_rank, test_rank=test_rank,
                               control_iteration=control_iteration, test_iteration=test_iteration,
                               device_type=device_type, use_short_name=use_short_name))
        return _hta_frame(_hta_report(**a))

    @_class_or_instance
    def ops_diff(cls, control=_NONE, test=_NONE, control_rank=_NONE, test_rank=_NONE, control_iteration=_NONE,
                 test_iteration=_NONE, device_type=_ALL, df=None):
        """HTA's ops_diff: the names (full names, in compare_traces' row order) in five
        lists by count: added, deleted, increased, decreased, unchanged. Defaults as
        compare_traces'. Given a DataFrame that compare_traces returned (instead of
        control, or as df=), the five lists of its rows; nothing else may be given then."""
        if df is not None or _is_frame(control):
            frame = df if df is not None else control
            given = [n for n, v in (("control", None if df is None else control), ("test", test),
                                    ("control_rank", control_rank), ("test_rank", test_rank),
                                    ("control_iteration", control_iteration), ("test_iteration", test_iteration),
                                    ("device_type", device_type)) if v is not None and not isinstance(v, _Default)]
            if given:
                raise TypeError(f"ops_diff(df) reads the DataFrame's rows as they are: {', '.join(given)} "
                                "would change nothing (pass them to compare_traces)")
            if not _is_frame(frame):
                raise TypeError("df must be the DataFrame that compare_traces returned")
            return _groups(frame)
        a = _resolve(cls, dict(control=control, test=test, control_rank=control_rank, test_rank=test_rank,
                               control_iteration=control_iteration, test_iteration=test_iteration,
                               device_type=device_type, use_short_name=False))
        a["use_short_name"] = False  # HTA's ops_diff never shortens (§5.1)
        return _groups(_hta_frame(_hta_report(**a)))

    @_class_or_instance
    def visualize_counts_diff(cls, df=None, show_image=True, export_image_path=None):
        """Bar chart of each side's counts per name (HTA draws it with plotly; this one
        with matplotlib). df: what compare_traces returned (on an instance, its
        compare_traces() when left out). show_image: show it (plt.show());
        export_image_path: also save it there (the format from the suffix: .png, .svg)."""
        _bar_chart(_frame_arg(cls, df), "counts", "Operator counts", "count", show_image, export_image_path)

    @_class_or_instance
    def visualize_duration_diff(cls, df=None, show_image=True, export_image_path=None):
        """Bar chart of each side's total duration per name (µs); as visualize_counts_diff."""
        _bar_chart(_frame_arg(cls, df), "total_duration", "Operator durations", "total duration (µs)", show_image,
                   export_image_path)


def _is_frame(value):
    pd = sys.modules.get("pandas")
    return pd is not None and isinstance(value, pd.DataFrame)


def _frame_arg(owner, df):
    if df is None and isinstance(owner, TraceDiff):
        return owner.compare_traces()
    if not _is_frame(df):
        raise TypeError("df must be the DataFrame that compare_traces returned")
    return df


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
