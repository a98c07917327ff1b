#!/usr/bin/env python3
"""Writes the grammar-aware fuzz seeds of tests/fuzz/corpus (seed-*): small Kineto
traces in the pathological shapes of issue #16, each under 64 KiB (fuzz.sh's
-max_len), so that libFuzzer starts from them rather than having to build them:

  deep nesting, heavy overlap, many kernel names under one launcher, runtime calls
  under a deep stack of annotations, many steps, hostile names (escape sequences,
  bidi, line breaks, formulas, Markdown links), and a control/test pair of each
  (split by fuzz_entry.hpp's marker) for fuzz_pipeline.

The files are committed; run this again after changing it:
  python3 tests/fuzz/make_seeds.py tests/fuzz/corpus
"""
import json
import os
import sys

SPLIT = "\n#tracediff-fuzz-split#\n"
LIMIT = 60_000


def ev(cat, name, ts, dur, pid=1, tid=1, args=None):
    e = {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur}
    if args:
        e["args"] = args
    return e


def doc(events, rank=0):
    return json.dumps({"distributedInfo": {"rank": rank}, "traceEvents": events}, separators=(",", ":"))


def fit(make, n):
    """The largest n' <= n whose trace fits LIMIT bytes."""
    while n > 1 and len(make(n)) > LIMIT:
        n = n * 9 // 10
    return make(n)


def step(n, ts, dur):
    return ev("user_annotation", "ProfilerStep#%d" % n, ts, dur)


def deep_nesting(n):
    es = [step(1, 0, 4 * n + 10)]
    es += [ev("cpu_op", "op%d" % (i % 7), 1 + i, 4 * n - 2 * i) for i in range(n)]
    return doc(es)


def heavy_overlap(n):
    # Each starts just after the previous one and all run to the end.
    es = [step(1, 0, 2 * n + 10)]
    es += [ev("cpu_op", "aten::add", 1 + i, 2 * n - i) for i in range(n)]
    return doc(es)


def many_names_one_launcher(n):
    es = [step(1, 0, 10 * n + 100), ev("cpu_op", "aten::mm", 1, 10 * n + 50)]
    for i in range(n):
        es.append(ev("cuda_runtime", "cudaLaunchKernel", 2 + 10 * i, 5, args={"correlation": 1000 + i}))
        es.append(ev("kernel", "k%d" % i, 3 + 10 * i, 4, pid=0, tid=7,
                     args={"correlation": 1000 + i, "device": 0, "stream": 7}))
    return doc(es)


def runtime_under_annotations(n):
    depth = n
    es = [step(1, 0, 10 * n + 4 * depth + 100)]
    es += [ev("user_annotation", "ann%d" % i, 1 + i, 10 * n + 4 * depth - 2 * i) for i in range(depth)]
    for i in range(n):
        es.append(ev("cuda_runtime", "cudaLaunchKernel", depth + 2 + 10 * i, 5, args={"correlation": 1 + i}))
        es.append(ev("kernel", "gemm", depth + 3 + 10 * i, 4, pid=0, tid=7,
                     args={"correlation": 1 + i, "device": 0, "stream": 7}))
    return doc(es)


def many_steps(n):
    es = []
    for s in range(n):
        es.append(step(s, 100 * s, 90))
        es.append(ev("cpu_op", "op%d" % (s % 13), 100 * s + 1, 10 + s % 5))
    return doc(es)


HOSTILE = ["esc\x1b[31mred\x1b[0m", "clear\x1b[2J", "osc\x1b]52;c;ZXZpbA==\x07", "nl\ntracediff: error: forged",
           "rlo\u202eexe.txt", "c1\u009b31m", "iso\u2066x\u2069", "ls\u2028ps\u2029", "=HYPERLINK(\"http://e\")",
           "+cmd", "-1", "@SUM(A1)", "\tlead", "http://x.example", "www.x.example", "[a](http://b)", "![i](u)",
           "<http://z>", "<script>alert(1)</script>", "a|b", "x`y", "@octocat", "#12", "mail@example.com"]


def hostile_names(factor):
    es = [step(1, 0, 100000)]
    for i, name in enumerate(HOSTILE):
        es.append(ev("cpu_op", name, 10 + 100 * i, 10 * factor))
        es.append(ev("kernel", name, 10 + 100 * i, 5 * factor, pid=0, tid=7,
                     args={"correlation": 1 + i, "device": 0, "stream": 7}))
        es.append(ev("cuda_runtime", "cudaLaunchKernel", 11 + 100 * i, 2, args={"correlation": 1 + i}))
    return doc(es)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus")
    seeds = {
        "deep-nesting": fit(deep_nesting, 2000),
        "heavy-overlap": fit(heavy_overlap, 2000),
        "many-names-one-launcher": fit(many_names_one_launcher, 1000),
        "runtime-under-annotations": fit(runtime_under_annotations, 600),
        "many-steps": fit(many_steps, 2000),
        "hostile-names": hostile_names(1),
    }
    seeds["pair-hostile-names"] = hostile_names(1) + SPLIT + hostile_names(2)
    seeds["pair-heavy-overlap"] = fit(heavy_overlap, 300) + SPLIT + fit(heavy_overlap, 400)
    for name, text in seeds.items():
        data = text.encode("utf-8")
        assert len(data) <= 65536, name
        with open(os.path.join(out, "seed-%s.json" % name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
