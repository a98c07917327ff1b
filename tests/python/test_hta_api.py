#!/usr/bin/env python3
"""HTA's users switch with one line (docs/python.md): LabeledTrace as HTA has it, HTA's
Trace objects, the instance form of TraceDiff, and compare()'s keywords driven by the
CLI's option table. HTA's own test file and notebook run in tests/python/hta/; these
tests make the same calls on tests/data's copy of HTA's trace_compare pair, and more.
Usage: test_hta_api.py PATH/TO/tracediff (the module on PYTHONPATH). Exits 77 without pandas."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

try:
    import pandas as pd
except ImportError:
    print("python_hta_api: skipped (no pandas: apt-get install python3-pandas)")
    sys.exit(77)

import tracediff
from tracediff import DeviceType, LabeledTrace, TraceDiff

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PAIR = os.path.join(ROOT, "tests", "data", "traces", "hta-trace-compare")
BASE, TEST = os.path.join(PAIR, "base"), os.path.join(PAIR, "test")
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "tracediff")

# HTA's test_trace_diff.py's expectations for this pair (rank 1, iteration 1010).
SUMMARY = {
    "counts": {"ProfilerStep#1010": 1, "aten::as_strided": 1, "aten::empty": 1, "cudaEventQuery": 1,
               "cudaLaunchKernel": 1, "nccl:all_reduce": 1},
    "total_duration": {"ProfilerStep#1010": 122149, "aten::as_strided": 0, "aten::empty": 0, "cudaEventQuery": 4,
                       "cudaLaunchKernel": 4, "nccl:all_reduce": 67},
}
OPS_DIFF = {
    "added": ["AddmmBackward0", "All2All_Pooled_Req", "CatBackward0"],
    "deleted": ["nccl:all_reduce"],
    "increased": [],
    "decreased": [],
    "unchanged": ["ProfilerStep#1010", "aten::as_strided", "aten::empty", "cudaEventQuery", "cudaLaunchKernel"],
}


class LabeledTraceTest(unittest.TestCase):
    def setUp(self):
        self.base = LabeledTrace(label="Base Trace", trace_dir=BASE)

    def test_ranks_iterations_label(self):
        self.assertEqual(self.base.ranks(), [1])
        self.assertEqual(self.base.iterations(), [1009, 1010])
        self.assertEqual(self.base.label, "Base Trace")
        self.assertRegex(LabeledTrace(trace_dir=BASE).label, r"^t([0-9]|10)$")  # HTA's random label

    def test_extract_ops(self):
        cpu = self.base.extract_ops(1, 1010, DeviceType.CPU)
        gpu = self.base.extract_ops(1, 1010, DeviceType.GPU)
        every = self.base.extract_ops(1, 1010, DeviceType.ALL)
        self.assertEqual((len(cpu), len(gpu)), (6, 1))
        self.assertEqual(len(every), len(cpu) + len(gpu))  # CPU and GPU split every event once
        self.assertTrue((cpu["stream"] == -1).all())
        self.assertTrue((gpu["stream"] != -1).all())
        self.assertTrue((every["iteration"] == 1010).all())
        for col in ("index", "ts", "dur", "name", "cat", "stream", "correlation", "iteration"):
            self.assertEqual(str(cpu[col].dtype), "int64", col)
        self.assertNotIn("rank", cpu.columns)
        # Defaults: the smallest rank and iteration, as HTA.
        self.assertEqual(self.base.extract_ops()["iteration"].unique().tolist(), [1009])
        both = self.base.extract_ops(1, [1009, 1010])
        self.assertEqual(len(both), len(self.base.extract_ops(1, 1009)) + len(every))
        # A rank twice counts twice (HTA's concat); then the rows say their rank.
        twice = self.base.extract_ops([1, 1], 1010)
        self.assertEqual(len(twice), 2 * len(every))
        self.assertEqual(twice["rank"].tolist(), [1] * len(twice))

    def test_names_are_symbol_ids(self):
        cpu = self.base.extract_ops(1, 1010, DeviceType.CPU)
        names = sorted(self.base.s_tab[i] for i in cpu["name"])
        self.assertEqual(names, sorted(SUMMARY["counts"]))
        self.assertEqual(self.base.s_map["aten::empty"], self.base.s_tab.tolist().index("aten::empty"))
        self.assertEqual(sorted(self.base.iteration_df["iteration"]), [1009, 1010])

    def test_get_ops_summary(self):
        df = self.base.get_ops_summary(self.base.extract_ops(1, 1010, DeviceType.CPU))
        self.assertEqual(list(df.columns), ["cat", "name", "short_name", "counts", "total_duration", "cat_id", "name_id"])
        self.assertEqual(df.sort_values(by="name")[["name", "counts", "total_duration"]].set_index("name").to_dict(),
                         SUMMARY)
        self.assertEqual(set(df.loc[df["name"] == "nccl:all_reduce", "cat"]), {"user_annotation"})

    def test_errors_as_hta(self):
        for kw, text in (({"rank": 7}, "Invalid argument rank=7."), ({"iteration": 5}, "Invalid argument iteration=5."),
                         ({"rank": "1"}, "Invalid type for argument `rank` 1."),
                         ({"iteration": 1.5}, "Invalid type for argument `iteration` 1.5.")):
            with self.subTest(kw=kw), self.assertRaises(ValueError) as caught:
                self.base.extract_ops(**kw)
            self.assertEqual(str(caught.exception), text)
        with self.assertRaises(ValueError):
            LabeledTrace(trace_dir=os.path.join(PAIR, "no-such-dir"))
        with self.assertRaises(ValueError):
            LabeledTrace()

    def test_read_once(self):
        # The traces are read when the LabeledTrace is made, never again: with its files
        # gone, every call still answers, and the same as before.
        with tempfile.TemporaryDirectory() as tmp:
            b, t = shutil.copytree(BASE, os.path.join(tmp, "b")), shutil.copytree(TEST, os.path.join(tmp, "t"))
            base, test = LabeledTrace(label="B", trace_dir=b), LabeledTrace(label="T", trace_dir=t)
            before = TraceDiff.compare_traces(base, test, device_type=DeviceType.CPU)
            shutil.rmtree(b)
            shutil.rmtree(t)
            pd.testing.assert_frame_equal(TraceDiff.compare_traces(base, test, device_type=DeviceType.CPU), before)
            self.assertEqual(len(base.extract_ops(1, 1010, DeviceType.CPU)), 6)
            self.assertEqual(TraceDiff.ops_diff(base, test, 1, 1, 1010, 1010, DeviceType.CPU), OPS_DIFF)


class CompareLabeledTraces(unittest.TestCase):
    def setUp(self):
        self.base = LabeledTrace(label="Base Trace", trace_dir=BASE)
        self.test = LabeledTrace(label="Test Trace", trace_dir=TEST)

    def test_labels_name_the_columns(self):
        df = TraceDiff.compare_traces(self.base, self.test, 1, 1, 1010, 1010, DeviceType.CPU, True)
        self.assertEqual(list(df.columns)[:4], ["Base Trace_counts", "Base Trace_total_duration", "Test Trace_counts",
                                                "Test Trace_total_duration"])
        self.assertEqual(df["counts_change_categories"].value_counts().to_dict(), {"=": 5, "+": 3, "-": 1})
        gpu = TraceDiff.compare_traces(self.base, self.test, 1, 1, 1010, 1010, device_type=DeviceType.GPU,
                                       use_short_name=True)
        self.assertEqual(gpu["counts_change_categories"].value_counts().to_dict(), {"-": 1})

    def test_same_figures_as_directories(self):
        by_dir = TraceDiff.compare_traces(BASE, TEST, device_type=DeviceType.ALL)
        by_trace = TraceDiff.compare_traces(self.base, self.test)
        by_trace.columns = by_dir.columns
        pd.testing.assert_frame_equal(by_trace, by_dir)
        mixed = TraceDiff.compare_traces(BASE, self.test)  # a directory beside a LabeledTrace
        self.assertEqual(list(mixed.columns)[:3], ["Control_counts", "Control_total_duration", "Test Trace_counts"])

    def test_equal_labels(self):
        # HTA names the test side's columns "<label>_control_test" (it also renames the
        # caller's object; tracediff leaves the object as it was).
        a, b = LabeledTrace(label="run", trace_dir=BASE), LabeledTrace(label="run", trace_dir=TEST)
        df = TraceDiff.compare_traces(a, b)
        self.assertEqual(list(df.columns)[:4], ["run_counts", "run_total_duration", "run_control_test_counts",
                                                "run_control_test_total_duration"])
        self.assertEqual(b.label, "run")
        self.assertEqual(TraceDiff.ops_diff(a, b, 1, 1, 1010, 1010, DeviceType.CPU), OPS_DIFF)

    def test_ops_diff(self):
        self.assertEqual(TraceDiff.ops_diff(self.base, self.test, 1, 1, 1010, 1010, device_type=DeviceType.CPU),
                         OPS_DIFF)

    def test_hta_device_type_accepted(self):
        # HTA's own enum (another class, the same names) where a notebook mixes imports.
        from enum import Enum

        HtaDeviceType = Enum("DeviceType", {"CPU": 1, "GPU": 2, "ALL": 3})
        self.assertEqual(TraceDiff.ops_diff(self.base, self.test, 1, 1, 1010, 1010, HtaDeviceType.CPU), OPS_DIFF)
        with self.assertRaises(TypeError):
            TraceDiff.compare_traces(self.base, self.test, device_type="cpu")


class HtaObjects(unittest.TestCase):
    """HTA's Trace and LabeledTrace, as far as tracediff looks at them: their module and
    class name, trace_path and trace_files. A stand-in module, since HTA is not installed."""

    def setUp(self):
        common = types.ModuleType("hta.common.trace")

        class Trace:
            def __init__(self, trace_files=None, trace_dir=""):
                self.trace_path = trace_dir
                self.trace_files = trace_files

        Trace.__module__ = "hta.common.trace"
        common.Trace = Trace
        self.Trace = Trace
        saved = {k: sys.modules.get(k) for k in ("hta", "hta.common", "hta.common.trace")}
        sys.modules.update({"hta": types.ModuleType("hta"), "hta.common": types.ModuleType("hta.common"),
                            "hta.common.trace": common})
        self.addCleanup(lambda: [sys.modules.pop(k) if v is None else sys.modules.__setitem__(k, v)
                                 for k, v in saved.items()])

    def test_trace_object(self):
        name = os.listdir(BASE)[0]
        control = self.Trace(trace_files={1: name}, trace_dir=BASE)  # relative to trace_path, as HTA allows
        test = self.Trace(trace_files={1: os.path.join(TEST, os.listdir(TEST)[0])}, trace_dir=TEST)
        df = TraceDiff.compare_traces(control, test, 1, 1, 1010, 1010, DeviceType.CPU)
        self.assertEqual(list(df.columns)[:1], ["Control_counts"])  # a Trace gets HTA's default labels
        self.assertEqual(TraceDiff.ops_diff(control, test, 1, 1, 1010, 1010, DeviceType.CPU), OPS_DIFF)
        lt = LabeledTrace(label="x", t=control)
        self.assertEqual(lt.ranks(), [1])
        self.assertIs(lt.t, control)

    def test_hta_never_imported(self):
        code = ("import sys, tracediff\n"
                f"tracediff.TraceDiff.compare_traces({BASE!r}, {TEST!r})\n"
                f"tracediff.TraceDiff.ops_diff(tracediff.LabeledTrace(trace_dir={BASE!r}), {TEST!r})\n"
                "print(sorted(m for m in sys.modules if m == 'hta' or m.startswith('hta.')))\n")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "[]")

    def test_other_objects_refused(self):
        with self.assertRaises(TypeError):
            TraceDiff.compare_traces(object(), TEST)
        with self.assertRaises(ValueError):
            LabeledTrace(t=object())


class InstanceForm(unittest.TestCase):
    def test_guide_form(self):
        trace_diff = TraceDiff(BASE, TEST)
        df = trace_diff.compare_traces()
        pd.testing.assert_frame_equal(df, TraceDiff.compare_traces(BASE, TEST))
        self.assertEqual(trace_diff.ops_diff(df), TraceDiff.ops_diff(BASE, TEST))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "counts.png")
            self.assertIsNone(trace_diff.visualize_counts_diff(df, show_image=False, export_image_path=path))
            self.assertGreater(os.path.getsize(path), 1000)
            self.assertIsNone(trace_diff.visualize_duration_diff(show_image=False))  # its own compare_traces()

    def test_instance_defaults_and_overrides(self):
        trace_diff = TraceDiff(BASE, TEST, device_type=DeviceType.CPU, control_iteration=1010, test_iteration=1010)
        cpu = trace_diff.compare_traces()
        pd.testing.assert_frame_equal(cpu, TraceDiff.compare_traces(BASE, TEST, None, None, 1010, 1010, DeviceType.CPU))
        self.assertEqual(trace_diff.ops_diff(), OPS_DIFF)
        gpu = trace_diff.compare_traces(device_type=DeviceType.GPU)  # a keyword beats the instance's default
        pd.testing.assert_frame_equal(gpu, TraceDiff.compare_traces(BASE, TEST, None, None, 1010, 1010, DeviceType.GPU))
        swapped = trace_diff.compare_traces(TEST, BASE)  # so do other traces
        self.assertEqual(swapped["counts_change_categories"].value_counts().to_dict(), {"=": 5, "-": 3, "+": 1})
        self.assertEqual(TraceDiff.ops_diff(cpu), OPS_DIFF)  # the class form takes a DataFrame too

    def test_mistakes_said_where_they_are_made(self):
        with self.assertRaises(TypeError):
            TraceDiff(BASE, TEST, device_type="CPU")  # at construction, not at the first call
        with self.assertRaises(ValueError):
            TraceDiff(BASE, TEST, control_rank=7)
        trace_diff = TraceDiff(BASE, TEST)
        df = trace_diff.compare_traces()
        self.assertEqual(trace_diff.ops_diff(df=df), trace_diff.ops_diff(df))
        with self.assertRaises(TypeError):
            trace_diff.ops_diff(df, device_type=DeviceType.GPU)  # would change nothing: refused
        with self.assertRaises(ValueError):
            TraceDiff.ops_diff(df.reset_index())  # positions, not names
        # HTA's `in` takes 1010.0 for 1010.
        pd.testing.assert_frame_equal(TraceDiff.compare_traces(BASE, TEST, control_iteration=[1010.0]),
                                      TraceDiff.compare_traces(BASE, TEST, control_iteration=1010))

    def test_missing_path_is_a_value_error(self):
        # HTA raises ValueError for a directory that is not there; so do its calls here.
        missing = os.path.join(PAIR, "no-such-dir")
        for call in (lambda: TraceDiff.compare_traces(missing, TEST), lambda: TraceDiff.ops_diff(BASE, missing),
                     lambda: TraceDiff(missing, TEST)):
            with self.assertRaises(ValueError) as caught:
                call()
            self.assertIsInstance(caught.exception, tracediff.TraceDiffError)
            self.assertIn("no such file or directory", str(caught.exception))

    def test_still_classmethods(self):
        # HTA's notebook lists the API as "the class methods of TraceDiff".
        listed = [a for a, t in TraceDiff.__dict__.items() if not a.startswith("_") and isinstance(t, classmethod)]
        self.assertEqual(listed, ["compare_traces", "ops_diff", "visualize_counts_diff", "visualize_duration_diff"])
        with self.assertRaises(TypeError):
            TraceDiff.compare_traces()  # no traces, no instance
        with self.assertRaises(TypeError):
            TraceDiff(BASE, TEST, device=DeviceType.CPU)  # a default that is no parameter


class OptionTable(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)

    def out(self, name):
        return os.path.join(self.tmp.name, name)

    def test_every_cli_option_is_a_keyword(self):
        help_text = subprocess.run([CLI, "--help"], capture_output=True, text=True).stdout
        cli_options = set(re.findall(r"^\s+(?:-\w,\s*)?--([a-z][a-z-]*)", help_text, re.M)) - {"help", "version"}
        self.assertGreater(len(cli_options), 30)
        keywords = set(tracediff._args.option_specs())
        self.assertEqual({o.replace("-", "_") for o in cli_options}, keywords)

    def test_unknown_keyword_names_the_nearest(self):
        with self.assertRaises(TypeError) as caught:
            tracediff.compare(BASE, TEST, devcie="gpu")
        self.assertIn("'devcie'", str(caught.exception))
        self.assertIn("'device'", str(caught.exception))
        with self.assertRaises(TypeError):
            tracediff.compare(BASE, TEST, short_names="yes")  # a flag takes True or False
        with self.assertRaises(TypeError):
            tracediff.compare(BASE, TEST, device=True)  # an option takes a value
        with self.assertRaises(TypeError):
            tracediff.compare(BASE, TEST, json=[self.out("a.json"), self.out("b.json")])  # not "a.json,b.json"
        self.assertFalse(os.path.exists(self.out("a.json") + "," + self.out("b.json")))
        with self.assertRaises(TypeError):
            tracediff.compare(BASE, TEST, step_marker=["aten::add", "aten::mul"])
        import numpy as np

        flagged = tracediff.compare(BASE, TEST, short_names=np.True_)  # numpy's bool, as a DataFrame gives it
        self.assertTrue(flagged.data["short_names"])

    def test_paths_after_double_dash(self):
        # Folders whose names look like options are folders.
        c, t = self.out("--hta-compat"), self.out("-q")
        shutil.copytree(BASE, c)
        shutil.copytree(TEST, t)
        report = tracediff.compare(c, t)
        self.assertEqual(report.data["mode"], "default")
        self.assertEqual(report.data["control"]["inputs"], [c])

    def test_outputs_as_the_cli_writes_them(self):
        # Every output of the registry (cli/outputs): an option of the CLI, a keyword of
        # compare() that writes the same bytes, and documented in docs/output.md.
        formats = tracediff._tracediff.output_formats()
        self.assertGreaterEqual(len(formats), 6)
        help_text = subprocess.run([CLI, "--help"], capture_output=True, text=True).stdout
        with open(os.path.join(ROOT, "docs", "output.md"), encoding="utf-8") as f:
            docs = f.read()
        cli_flags, kwargs, names = ["-q", "--json-full-tree", "--embed-perfetto"], {"json_full_tree": True,
                                                                                     "embed_perfetto": True}, []
        for option, default_file, directory, _ in formats:
            self.assertIn("--" + option, help_text)
            self.assertIn("--" + option, docs, f"docs/output.md does not mention --{option}")
            name = option + (".d" if directory else ".out")
            names.append(name)
            cli_flags += ["--" + option, self.out("cli-" + name)]
            kwargs[option.replace("-", "_")] = self.out("py-" + name)
        r = subprocess.run([CLI, BASE, TEST, *cli_flags], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        tracediff.compare(BASE, TEST, **kwargs)
        for name in names:
            a, b = self.out("cli-" + name), self.out("py-" + name)
            pairs = [(os.path.join(a, n), os.path.join(b, n)) for n in sorted(os.listdir(a))] if os.path.isdir(a) \
                else [(a, b)]
            if os.path.isdir(a):
                self.assertEqual(sorted(os.listdir(a)), sorted(os.listdir(b)))
            for x, y in pairs:
                with open(x, "rb") as fx, open(y, "rb") as fy:
                    self.assertEqual(fx.read(), fy.read(), x)

    def test_no_half_written_outputs(self):
        # An output that cannot be written is refused before anything is read or written.
        with self.assertRaises(tracediff.TraceDiffError):
            tracediff.compare(BASE, TEST, json=self.out("ok.json"), csv=self.tmp.name)
        self.assertFalse(os.path.exists(self.out("ok.json")))
        with self.assertRaises(tracediff.UsageError):
            tracediff.compare(BASE, TEST, json="-")  # standard output is Python's: use to_json()

    def test_embed_needs_the_page(self):
        # Python writes no report by default: a step to embed needs output=.
        with self.assertRaises(tracediff.UsageError):
            tracediff.compare(BASE, TEST, embed_perfetto=True)
        tracediff.compare(BASE, TEST, embed_perfetto=True, output=self.out("r.html"))
        self.assertTrue(os.path.exists(self.out("r.html")))

    def test_a_refused_folded_leaves_no_folder(self):
        folded = os.path.join(self.tmp.name, "new", "fd")
        with self.assertRaises(tracediff.UsageError):
            tracediff.compare(BASE, TEST, folded=folded, csv=os.path.join(folded, "control.folded"))
        self.assertFalse(os.path.exists(os.path.join(self.tmp.name, "new")))
        with open(self.out("file"), "w") as f:
            f.write("x")
        with self.assertRaises(tracediff.UsageError) as caught:
            tracediff.compare(BASE, TEST, folded=self.out("file"))
        self.assertIn("not a directory", str(caught.exception))

    def test_lists_of_paths(self):
        report = tracediff.compare([BASE], [TEST, TEST], label_test="t")
        self.assertEqual(report.data["test"]["inputs"], [TEST, TEST])


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
