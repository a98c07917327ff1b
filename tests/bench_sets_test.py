#!/usr/bin/env python3
"""scripts/bench.sh's input sets: each one bench.sh accepts is in bench/README.md's table,
and the sets made with tracegen --memory (set f) carry what they are there for: [memory]
events on both sides, the test side's peak and leak above the control's. Their tracegen
arguments are bench.sh's own, made small (one rank, a few steps) so that this runs in
seconds.

usage: bench_sets_test.py REPO TRACEGEN TRACEDIFF
"""
import json
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path


def fail(msg):
    print("bench_sets_test: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    repo, tracegen, tracediff = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    bench = (repo / "scripts/bench.sh").read_text()
    readme = (repo / "bench/README.md").read_text()
    accepted = re.search(r"\[\[ (\$s == \w \|\| )*\$s == \w \]\] \|\| die \"--sets: unknown", bench)
    if not accepted:
        fail("bench.sh's check of --sets not found")
    sets = re.findall(r"\$s == (\w)", accepted.group(0))
    for s in sets:
        if not re.search(rf"^\| {s} \|", readme, re.M):
            fail(f"set {s} is missing from bench/README.md's table")
    # Each set's gen_side lines: CONTROL first, TEST second.
    gens = {}
    for side, s, args in re.findall(r'gen_side "\$\{(CONTROL|TEST)\[(\w)\]\}" (.*)', bench):
        gens.setdefault(s, {})[side] = shlex.split(args)
    memory_sets = [s for s, g in gens.items() if "--memory" in g.get("CONTROL", [])]
    if "f" not in memory_sets:
        fail(f"no set made with tracegen --memory (sets with tracegen: {sorted(gens)})")

    def small(args):
        out, skip = [], False
        for a in args:
            if skip:
                skip = False
                continue
            if a in ("--ranks", "--target-mb", "--steps", "--layers"):
                skip = True
                continue
            out.append(a)
        return out + ["--ranks", "1", "--steps", "4", "--layers", "2"]

    with tempfile.TemporaryDirectory() as tmp:
        for s in memory_sets:
            dirs = {}
            for side in ("CONTROL", "TEST"):
                d = Path(tmp) / f"{s}-{side}"
                subprocess.run([tracegen, "--out", str(d)] + small(gens[s][side]), check=True, stdout=subprocess.DEVNULL)
                dirs[side] = str(d)
            out = Path(tmp) / f"{s}.json"
            subprocess.run([tracediff, dirs["CONTROL"], dirs["TEST"], "--json", str(out), "-q"], check=True)
            report = json.loads(out.read_text())
            gpu = [d for d in report["memory"] if d["device_type"] == 1]
            if not gpu:
                fail(f"set {s}: no GPU memory in the report")
            figures = {f["figure"]: f for f in gpu[0]["figures"]}
            for name in ("peak_allocated", "net_change"):
                f = figures.get(name)
                if f is None or f["control"] is None or f["test"] is None:
                    fail(f"set {s}: {name} missing on a side")
                if not f["test"] > f["control"]:
                    fail(f"set {s}: the test side's {name} ({f['test']}) is not above the control's ({f['control']})")
            for side in ("control", "test"):
                if report["memory_timeline"][side] is None:
                    fail(f"set {s}: no memory timeline on the {side} side")
            print(f"set {s}: peak allocated {figures['peak_allocated']['control']} -> {figures['peak_allocated']['test']}, "
                  f"net change {figures['net_change']['control']} -> {figures['net_change']['test']}")
    print(f"bench sets {','.join(sets)}: in bench/README.md; memory sets checked: {','.join(memory_sets)}")


if __name__ == "__main__":
    main()
