#!/usr/bin/env python3
"""`import tracediff` (docs/python.md): HTA's TraceDiff API against HTA's own tables in
tests/data/reference, and tracediff.compare() against the CLI's outputs for the same
inputs. Usage: test_tracediff.py PATH/TO/tracediff (the module on PYTHONPATH).
Exits 77 (skipped) without pandas."""
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import unittest

try:
    import pandas as pd
except ImportError:
    print("python_module: skipped (no pandas: apt-get install python3-pandas)")
    sys.exit(77)

import tracediff
from tracediff import DeviceType, TraceDiff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "tests", "data")
SHARED = os.environ.get("TRACEDIFF_SHARED_DIR") or os.path.join(os.path.dirname(ROOT), "shared")
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tracediff")


@contextlib.contextmanager
def _chdir(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def trace(rel):
    """A trace of tests/data/traces, else of the shared folder (the large ones); None without it."""
    for base in (os.path.join(DATA, "traces"), os.path.join(SHARED, "traces")):
        p = os.path.join(base, rel)
        if os.path.exists(p):
            return p
    return None


# The pairs of tests/data/README.md (as tests/e2e/parity_test.cpp has them).
PAIRS = {
    "hta-trace-compare": ("hta-trace-compare/base", "hta-trace-compare/test"),
    "ns-vs-nccl": ("formats/ns-resolution.pt.trace.json.gz", "formats/nccl.json.gz"),
    "hta-trace-diff": ("hta-trace-diff/control", "hta-trace-diff/test"),
}


def call_for(name, meta):
    """compare_traces' keywords that reproduce reference file NAME (tests/data/README.md)."""
    kw = {}
    if "_cpu" in name:
        kw["device_type"] = DeviceType.CPU
    if "_gpu" in name:
        kw["device_type"] = DeviceType.GPU
    if "_short" in name:
        kw["use_short_name"] = True
    if name == "compare_all_iterations.csv":
        kw["control_iteration"] = meta["control_iterations"]
        kw["test_iteration"] = meta["test_iterations"]
    if name.startswith("compare_call_"):
        c_rank, t_rank, c_iter, t_iter = (int(v) for v in meta["explicit_call"])
        kw.update(control_rank=c_rank, test_rank=t_rank, control_iteration=c_iter, test_iteration=t_iter)
    return kw


def cli(*args):
    return subprocess.run([CLI, *args], capture_output=True, text=True)


class HtaParity(unittest.TestCase):
    def pair(self, name):
        c, t = (trace(p) for p in PAIRS[name])
        if not c or not t:
            self.skipTest(f"needs traces/{PAIRS[name][0]}")
        return c, t

    def check_pair(self, name):
        control, test = self.pair(name)
        ref_dir = os.path.join(DATA, "reference", name)
        with open(os.path.join(ref_dir, "meta.json")) as f:
            meta = json.load(f)
        files = sorted(f for f in os.listdir(ref_dir) if f.endswith(".csv"))
        self.assertTrue(files)
        for file in files:
            with self.subTest(reference=file):
                ref_path = os.path.join(ref_dir, file)
                ref = pd.read_csv(ref_path, index_col=0, keep_default_na=False)
                ours = TraceDiff.compare_traces(control, test, **call_for(file, meta))
                self.assertEqual(ours.index.name, ref.index.name)
                self.assertEqual(list(ours.columns), list(ref.columns))
                self.assertEqual(list(ours.index), list(ref.index))  # HTA's row order
                for col in ref.columns[:6]:
                    self.assertEqual(ours[col].tolist(), ref[col].astype("float64").tolist(), col)
                self.assertEqual(ours["counts_change_categories"].tolist(), ref["counts_change_categories"].tolist())
                # HTA's dtypes, read from its CSV: pandas writes a float64 column's values
                # with a decimal point ("2.0"), an int64 column's without.
                if len(ref):
                    text = pd.read_csv(ref_path, index_col=0, dtype=str, keep_default_na=False)
                    for col in ref.columns[:6]:
                        floaty = any("." in v for v in text[col])
                        self.assertEqual(str(ours[col].dtype), "float64" if floaty else "int64", col)

    def test_small_pair(self):
        self.check_pair("hta-trace-compare")

    def test_formats_pair(self):
        self.check_pair("ns-vs-nccl")

    def test_large_pair(self):
        self.check_pair("hta-trace-diff")

    def test_ops_diff(self):
        for name in PAIRS:
            if name == "hta-trace-diff" and not trace(PAIRS[name][0]):
                continue
            control, test = self.pair(name)
            with open(os.path.join(DATA, "reference", name, "ops_diff.json")) as f:
                ref = json.load(f)
            with open(os.path.join(DATA, "reference", name, "meta.json")) as f:
                meta = json.load(f)
            for device, groups in ref.items():
                with self.subTest(pair=name, device=device):
                    if device.startswith("call_"):  # meta.json's explicit ranks and iterations
                        kw = call_for("compare_call_", meta)
                        device = device[len("call_"):]
                    else:
                        kw = {}
                    ours = TraceDiff.ops_diff(control, test, device_type=DeviceType[device], **kw)
                    self.assertEqual(list(ours), ["added", "deleted", "increased", "decreased", "unchanged"])
                    self.assertEqual(ours, groups)

    def test_invalid_iteration(self):
        control, test = self.pair("hta-trace-compare")
        with self.assertRaises(ValueError):
            TraceDiff.compare_traces(control, test, control_iteration=1)
        with self.assertRaises(ValueError):
            TraceDiff.compare_traces(control, test, control_iteration="1009")
        import numpy as np

        same = TraceDiff.compare_traces(control, test, control_iteration=np.int64(1010), test_iteration=[1010])
        pd.testing.assert_frame_equal(same, TraceDiff.compare_traces(control, test, control_iteration=1010,
                                                                     test_iteration=1010))
        self.assertIn("ProfilerStep#1010", same.index)

    def test_no_steps_is_a_value_error(self):
        # HTA cannot compare traces without ProfilerStep and says so with a ValueError.
        path = trace("formats/alexnet-no-steps.json.gz")
        r = cli(path, path, "--hta-compat", "--json", "/dev/null", "-q")
        self.assertEqual(r.returncode, 1)
        with self.assertRaises(ValueError) as caught:
            TraceDiff.compare_traces(path, path)
        self.assertIsInstance(caught.exception, tracediff.TraceDiffError)
        self.assertEqual("tracediff: error: " + str(caught.exception), r.stderr.splitlines()[0])

    def test_self_comparison_keeps_int_counts(self):
        control, _ = self.pair("hta-trace-compare")
        df = TraceDiff.compare_traces(control, control)
        self.assertEqual(str(df["Control_counts"].dtype), "int64")
        self.assertTrue((df["diff_counts"] == 0).all())
        self.assertEqual(set(df["counts_change_categories"]), {"="})

    def test_charts(self):
        try:
            import matplotlib

            matplotlib.use("Agg")
        except ImportError:
            self.skipTest("needs matplotlib")
        control, test = self.pair("ns-vs-nccl")
        df = TraceDiff.compare_traces(control, test)
        with tempfile.TemporaryDirectory() as d:
            for draw in (TraceDiff.visualize_counts_diff, TraceDiff.visualize_duration_diff):
                path = os.path.join(d, draw.__name__ + ".png")
                draw(df, show_image=False, export_image_path=path)
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with self.assertRaises(ValueError):
            TraceDiff.visualize_counts_diff(df[["diff_counts"]], show_image=False)


class Compare(unittest.TestCase):
    def setUp(self):
        self.control = trace("hta-trace-compare/base")
        self.test = trace("hta-trace-compare/test")
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def test_rows_and_json_match_cli(self):
        for opts, flags in (({}, []), ({"device": "gpu", "short_names": True}, ["--device", "gpu", "--short-names"]),
                            ({"hta_compat": True}, ["--hta-compat"])):
            with self.subTest(opts=opts):
                r = cli(self.control, self.test, *flags, "--json", self.out("cli.json"), "-q")
                self.assertEqual(r.returncode, 0, r.stderr)
                with open(self.out("cli.json"), "rb") as f:
                    cli_bytes = f.read()
                report = tracediff.compare(self.control, self.test, **opts)
                self.assertEqual(report.to_json().encode(), cli_bytes)
                cli_rows = json.loads(cli_bytes)["rows"]
                self.assertTrue(cli_rows)
                pd.testing.assert_frame_equal(report.rows, pd.DataFrame.from_records(cli_rows))
                self.assertEqual(len(report.headline), len(json.loads(cli_bytes)["headline"]))

    def test_to_html_is_the_clis(self):
        r = cli(self.control, self.test, "-o", self.out("cli.html"), "-q")
        self.assertEqual(r.returncode, 0, r.stderr)
        report = tracediff.compare(self.control, self.test)
        report.to_html(self.out("py.html"))
        with open(self.out("cli.html"), "rb") as a, open(self.out("py.html"), "rb") as b:
            self.assertEqual(a.read(), b.read())

    def test_csv_and_markdown_match_cli(self):
        r = cli(self.control, self.test, "--csv", self.out("cli.csv"), "--markdown", self.out("cli.md"), "-q")
        self.assertEqual(r.returncode, 0, r.stderr)
        report = tracediff.compare(self.control, self.test)
        report.to_csv(self.out("py.csv"))
        report.to_markdown(self.out("py.md"))
        for name in ("csv", "md"):
            with open(self.out("cli." + name), "rb") as a, open(self.out("py." + name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)

    def test_frames(self):
        report = tracediff.compare(self.control, self.test)
        data = report.data
        self.assertEqual(report.verdict, data["verdict"]["line"])
        self.assertEqual(report.headline["figure"].tolist(), [h["figure"] for h in data["headline"]])
        self.assertEqual(report.families["family"].tolist(), [f["family"] for f in data["families"]])
        steps = report.steps
        for side in ("control", "test"):
            self.assertEqual(steps[steps["side"] == side]["step"].tolist(),
                             [s["step"] for s in data["steps"][side]["per_step"]])
        tree = report.tree
        self.assertEqual(len(tree), data["call_tree"]["shown"])
        self.assertEqual(tree[tree["depth"] == 0]["name"].tolist(), [n["name"] for n in data["call_tree"]["top"]])

    def test_repr_html_escapes_labels(self):
        report = tracediff.compare(self.control, self.test, label_control="<img src=x>", label_test="T&T")
        shown = report._repr_html_()
        self.assertIn(report.headline["label"].iloc[0], shown)
        self.assertNotIn("<img", shown)
        self.assertIn("<table", shown)

    def test_gate_as_the_clis_exit(self):
        seen = set()
        for condition in ("added>=1", "step_time>+5%"):
            with self.subTest(condition=condition):
                r = cli(self.control, self.test, "--fail-on", condition, "--json", self.out("g.json"), "-q")
                self.assertIn(r.returncode, (0, 3), r.stderr)
                fired = tracediff.compare(self.control, self.test, fail_on=[condition]).gate_fired
                self.assertEqual(fired, r.returncode == 3)
                seen.add(fired)
        self.assertEqual(seen, {True, False})  # both outcomes checked

    def test_docstring_examples_run(self):
        # Every ``name=value`` example in compare()'s docstring is an option that works.
        import re
        examples = re.findall(r"``(\w+)=(.+?)``", tracediff.compare.__doc__)
        self.assertGreaterEqual(len(examples), 5)
        for name, value in examples:
            if "iteration" in name:
                continue  # steps of the docstring's traces, not of this pair
            with self.subTest(option=name):
                with tempfile.TemporaryDirectory() as cwd, _chdir(cwd):
                    tracediff.compare(self.control, self.test, **{name: eval(value)})

    def test_gil_released_while_comparing(self):
        # The main thread ticks while a worker compares. With the GIL held through the
        # native call the ticks would stop for all of it (one gap as long as the call);
        # released, the gaps stay short (the switch interval, the scheduler's slices).
        import threading
        import time

        control, test = trace("hta-trace-diff/control"), trace("hta-trace-diff/test")
        if not control or not test:
            control, test = trace("formats/ns-resolution.pt.trace.json.gz"), trace("formats/nccl.json.gz")
        span = {}

        def work():
            span["start"] = time.perf_counter()
            tracediff.compare(control, test)
            span["end"] = time.perf_counter()

        interval = sys.getswitchinterval()
        sys.setswitchinterval(0.001)
        self.addCleanup(sys.setswitchinterval, interval)
        worker = threading.Thread(target=work)
        ticks = []
        worker.start()
        while worker.is_alive():
            ticks.append(time.perf_counter())
        worker.join()
        window = span["end"] - span["start"]
        inside = [span["start"]] + [t for t in ticks if span["start"] < t < span["end"]] + [span["end"]]
        longest = max(b - a for a, b in zip(inside, inside[1:]))
        self.assertLess(longest, window / 2, f"main thread stopped {longest * 1e3:.1f} ms of a {window * 1e3:.1f} ms call")

    def errors_match_cli(self, args, kwargs, exc):
        r = cli(*args, "--json", self.out("x.json"), "-q")
        self.assertNotEqual(r.returncode, 0)
        first = r.stderr.splitlines()[0]
        self.assertTrue(first.startswith("tracediff: error: "), first)
        with self.assertRaises(exc) as caught:
            tracediff.compare(args[0], args[1], **kwargs)
        self.assertEqual(str(caught.exception), first[len("tracediff: error: "):])

    def test_missing_input_raises(self):
        missing = self.out("no-such-dir")
        self.errors_match_cli([missing, self.test], {}, tracediff.TraceDiffError)
        self.assertTrue(issubclass(tracediff.TraceDiffError, RuntimeError))

    def test_bad_option_raises(self):
        self.errors_match_cli([self.control, self.test, "--device", "tpu"], {"device": "tpu"}, tracediff.UsageError)
        self.errors_match_cli([self.control, self.test, "--control-rank", "7"], {"control_rank": 7}, tracediff.UsageError)
        self.assertTrue(issubclass(tracediff.UsageError, ValueError))
        with self.assertRaises(TypeError):
            tracediff.compare(self.control, self.test, html="x.html")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
