"""tracediff.compare(): the CLI's report, its figures as DataFrames."""
import html
import json

from . import _tracediff
from ._args import option_args, side_args


def compare(control, test, **options):
    """Compare CONTROL with TEST as ``tracediff CONTROL TEST [options]`` does.

    control, test: a trace, a directory of traces or a *.tdsum.json summary (or a list
        of them: the first, then --add-control's).
    options: every option of the CLI by name, "-" as "_" (docs/cli.md): ``device="gpu"``,
    ``control_iteration="3-9"``, ``short_names=True``, ``fail_on=["step_time>+5%"]``,
    ``label_control="main"``, ``hta_compat=True``... The file outputs (output, csv,
    json, markdown, perfetto, folded: ``json="report.json"``) are written as the CLI
    writes them, all or none; the Report's methods give them as text too.

    The GIL is released while the traces are read and compared. Raises UsageError (a
    ValueError) for a bad option, TypeError for a keyword that is no option (naming the
    nearest), and TraceDiffError (a RuntimeError) when nothing can be compared, with the
    CLI's messages.
    """
    controls, tests = side_args(control, "control"), side_args(test, "test")
    args = option_args(options)
    for flag, extra in (("--add-control", controls[1:]), ("--add-test", tests[1:])):
        for p in extra:
            args += [flag, p]
    # The paths after "--": a folder named "--hta-compat" is a folder.
    native = _tracediff.Report(args + ["--", controls[0], tests[0]])
    native.write_outputs()
    return Report(native)


def _frame(records):
    import pandas as pd

    return pd.DataFrame.from_records(records) if records else pd.DataFrame()


class Report:
    """One comparison's report: the JSON output's figures as DataFrames, and the CLI's
    outputs (to_html, to_json, to_csv, to_markdown) byte for byte."""

    def __init__(self, native):
        self._native = native
        self._json = None

    @property
    def data(self):
        """The JSON output (docs/output.md) as a dict."""
        if self._json is None:
            self._json = json.loads(self._native.json(False))
        return self._json

    @property
    def verdict(self):
        """The verdict line every view opens with."""
        return self._native.verdict_line

    @property
    def gate_fired(self):
        """Whether a fail_on condition holds (the CLI would exit 3)."""
        return self._native.gate_fired

    @property
    def rows(self):
        """One row per operator, kernel and runtime call: the JSON's `rows`, in its order."""
        return _frame(self.data.get("rows", []))

    @property
    def headline(self):
        """The headline figures (step time, GPU busy, ...), each with its verdict."""
        return _frame(self.data.get("headline", []))

    @property
    def breakdown(self):
        """The breakdown figures under the headline."""
        return _frame(self.data.get("breakdown", []))

    @property
    def families(self):
        """GPU time per kernel family, judged."""
        return _frame(self.data.get("families", []))

    @property
    def steps(self):
        """Each selected step of each side: a `side` column, then the JSON's per-step figures."""
        steps = self.data.get("steps") or {}
        records = []
        for side in ("control", "test"):
            for s in (steps.get(side) or {}).get("per_step", []):
                records.append({"side": side, **s})
        return _frame(records)

    @property
    def tree(self):
        """The call tree as the JSON holds it, one row per node: its depth and path
        (names joined by " > ") and each side's figures per step."""
        records = []

        def walk(nodes, path, depth):
            for n in nodes:
                here = path + [n.get("name", "")]
                row = {"depth": depth, "path": " > ".join(here)}
                for k, v in n.items():
                    if k == "children":
                        continue
                    if isinstance(v, dict):
                        for kk, vv in v.items():
                            row[f"{k}_{kk}"] = vv
                    else:
                        row[k] = v
                records.append(row)
                walk(n.get("children", []), here, depth + 1)

        walk((self.data.get("call_tree") or {}).get("top", []), [], 0)
        return _frame(records)

    def to_html(self, path):
        """Writes the HTML report, the same bytes as the CLI's ``-o PATH``."""
        with open(path, "wb") as f:
            f.write(self._native.html())

    def to_json(self, path=None, full_tree=False):
        """The JSON output (``--json``; ``--json-full-tree`` with full_tree), written to
        PATH, or returned as a str without one."""
        return self._text(self._native.json(full_tree), path)

    def to_csv(self, path=None):
        """The CSV output (``--csv``), written to PATH or returned."""
        return self._text(self._native.csv(), path)

    def to_markdown(self, path=None):
        """The Markdown summary (``--markdown``), written to PATH or returned."""
        return self._text(self._native.markdown(), path)

    @staticmethod
    def _text(data, path):
        if path is None:
            return data.decode("utf-8", errors="surrogateescape")
        with open(path, "wb") as f:
            f.write(data)
        return None

    def _repr_html_(self):
        # Labels and names come from traces: escaped (pandas escapes cells by default).
        head = self.headline
        cols = [c for c in ("label", "control", "test", "diff", "diff_pct", "verdict") if c in head.columns]
        table = head[cols].to_html(index=False, escape=True) if cols else ""
        return f"<p><b>tracediff</b>: {html.escape(self.verdict)}</p>{table}"

    def __repr__(self):
        return f"<tracediff.Report: {self.verdict}>"
