#!/usr/bin/env python3
"""HTA's own TraceDiff tests and demo notebook (this folder: HTA's files, MIT, see
README.md) run against tracediff with only the imports changed, on HTA's test data laid
out as HTA's repository has it (tests/data/trace_compare, tests/data/trace_diff).

Usage: run_hta.py [tests|notebook]... (both by default), with the tracediff package on
PYTHONPATH. Prints "hta-tests: N passed" / "hta-notebook: ..."; exits 77 (skipped) when
what a part needs is missing: pandas; IPython for the notebook (python3-ipython); HTA's
trace_diff pair (../shared/traces/hta-trace-diff) for the notebook."""
import contextlib
import io
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
SHARED = os.environ.get("TRACEDIFF_SHARED_DIR") or os.path.join(os.path.dirname(ROOT), "shared")
SKIP = 77


def data_dir(name):
    """HTA's tests/data/NAME pair: ours (tests/data/traces) or the shared folder's."""
    for base in (os.path.join(ROOT, "tests", "data", "traces"), os.path.join(SHARED, "traces")):
        p = os.path.join(base, name)
        if os.path.isdir(os.path.join(p, "test")):
            return p
    return None


def the_import_changed(text):
    """The one change: HTA's modules are tracediff."""
    return re.sub(r"\bfrom hta\.(trace_diff|utils\.utils) import\b", "from tracediff import", text)


def layout(root):
    """HTA's checkout as the tests and the notebook find it: ROOT/tests/data/trace_*
    and, for the notebook's `find ~/ -name TraceAnalyzer`, ROOT/TraceAnalyzer/hta."""
    repo = os.path.join(root, "TraceAnalyzer")
    os.makedirs(os.path.join(repo, "hta"))
    os.makedirs(os.path.join(repo, "tests", "data"))
    for name, hta_name in (("hta-trace-compare", "trace_compare"), ("hta-trace-diff", "trace_diff")):
        src = data_dir(name)
        if src:
            os.symlink(src, os.path.join(repo, "tests", "data", hta_name))
    return repo


def run_tests(repo):
    with open(os.path.join(HERE, "test_trace_diff.py"), encoding="utf-8") as f:
        text = the_import_changed(f.read())
    assert text.count("from tracediff import") == 1, "HTA's test file changed: its import is not where it was"
    with open(os.path.join(repo, "test_trace_diff.py"), "w", encoding="utf-8") as f:
        f.write(text)
    import tracediff

    # The package this process imports, wherever PYTHONPATH said it was (relative or not).
    package = os.path.dirname(os.path.dirname(os.path.abspath(tracediff.__file__)))
    path = os.pathsep.join([package] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    r = subprocess.run([sys.executable, "-m", "unittest", "-v", "test_trace_diff"], cwd=repo,
                       env={**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": path}, capture_output=True, text=True)
    sys.stderr.write(r.stderr)
    ran = re.search(r"^Ran (\d+) tests?", r.stderr, re.M)
    n = int(ran.group(1)) if ran else 0
    if r.returncode != 0 or n != 7:  # HTA's file holds 7 tests
        print(f"hta-tests: failed ({n} ran, exit {r.returncode})")
        return False
    print(f"hta-tests: {n} passed")
    return True


def run_notebook(root, repo):
    try:
        from IPython.core.interactiveshell import InteractiveShell
        from traitlets.config import Config
    except ImportError:
        print("hta-notebook: skipped (no IPython: apt-get install python3-ipython)")
        return None
    if not os.path.isdir(os.path.join(repo, "tests", "data", "trace_diff")):
        print("hta-notebook: skipped (no hta-trace-diff pair: ../shared/traces)")
        return None
    with open(os.path.join(HERE, "trace_diff_demo.ipynb"), encoding="utf-8") as f:
        nb = json.load(f)
    os.environ["HOME"] = root  # the notebook's `find ~/ -name TraceAnalyzer`
    os.environ["IPYTHONDIR"] = os.path.join(root, ".ipython")
    os.environ["MPLBACKEND"] = "Agg"
    config = Config()
    config.HistoryManager.enabled = False  # no database in a folder that goes away
    shell = InteractiveShell.instance(config=config)
    printed = io.StringIO()
    cells = [c for c in nb["cells"] if c["cell_type"] == "code"]
    for k, cell in enumerate(cells):
        source = "".join(cell["source"])
        if k == 0:
            source = the_import_changed(source)
            assert source.count("from tracediff import") == 2, "the notebook's imports are not where they were"
        with contextlib.redirect_stdout(printed):
            result = shell.run_cell(source, store_history=True)
        if not result.success:
            print(printed.getvalue()[-3000:])
            print(f"hta-notebook: cell {k + 1} of {len(cells)} failed: {result.error_in_exec or result.error_before_exec!r}")
            return False
    ns = shell.user_ns
    out = printed.getvalue()
    # What HTA's notebook shows (hta-tracediff-semantics.md §10.2).
    checks = {
        "ranks": "available ranks for control_t: [3]" in out and "available ranks for test_t: [1]" in out,
        "iterations": out.count("available ranks for iterations: [1009, 1010, 1011, 1012, 1013, 1014]") == 2,
        "methods": all(f"\t{m}" in out for m in ("compare_traces", "ops_diff", "visualize_counts_diff",
                                                 "visualize_duration_diff")),
        "231 rows x 7 columns": ns["df_comp"].shape == (231, 7),
        "first row": ns["df_comp"].iloc[0].tolist()[:4] == [2, 35, 2, 38],
        "CPU ops_diff 5/72/20/56/78": [len(ns["ops_diff"][k]) for k in
                                       ("added", "deleted", "increased", "decreased", "unchanged")] == [5, 72, 20, 56, 78],
        "GPU ops_diff 27/66/15/9": [len(ns["kernel_diff"][k]) for k in ("added", "deleted", "increased", "decreased")]
        == [27, 66, 15, 9],
        "short kernel names": "\tvolta_sgemm_128x64_nn" in out or "\tgemv2T_kernel_val" in out,
    }
    failed = [name for name, ok in checks.items() if not ok]
    if failed:
        print(out[-3000:])
        print(f"hta-notebook: {len(cells)} cells ran; wrong: {', '.join(failed)}")
        return False
    print(f"hta-notebook: {len(cells)} cells ran, {len(checks)} figures as HTA's")
    return True


def main():
    try:
        import pandas  # noqa: F401
    except ImportError:
        print("hta: skipped (no pandas)")
        return SKIP
    parts = sys.argv[1:] or ["tests", "notebook"]
    with tempfile.TemporaryDirectory(prefix="tracediff-hta-") as root:
        repo = layout(root)
        results = []
        if "tests" in parts:
            results.append(run_tests(repo) if data_dir("hta-trace-compare") else None)
        if "notebook" in parts:
            results.append(run_notebook(root, repo))
    if any(r is False for r in results):
        return 1
    return 0 if any(r for r in results) else SKIP


if __name__ == "__main__":
    sys.exit(main())
