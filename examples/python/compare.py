#!/usr/bin/env python3
"""A notebook's worth of tracediff in Python (docs/python.md); each "# %%" is a cell.

    PYTHONPATH=build/python python3 examples/python/compare.py [CONTROL TEST]

Without arguments it compares HTA's small test pair from tests/data.
"""
# %%
import os
import sys

import tracediff
from tracediff import DeviceType, TraceDiff

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
pair = os.path.join(root, "tests", "data", "traces", "hta-trace-compare")
control, test = sys.argv[1:3] if len(sys.argv) > 2 else (os.path.join(pair, "base"), os.path.join(pair, "test"))

# %% HTA's API: the same table as hta.trace_diff.TraceDiff (first rank, first step).
df = TraceDiff.compare_traces(control, test, device_type=DeviceType.ALL)
print(df.sort_values(by="diff_duration", ascending=False).head(10))

# %% The names by how their counts changed.
for group, names in TraceDiff.ops_diff(control, test).items():
    print(f"{group}: {len(names)}")

# %% A chart (in a notebook, leave show_image at its default).
try:
    import matplotlib

    matplotlib.use("Agg")
    TraceDiff.visualize_duration_diff(df, show_image=False, export_image_path="durations.png")
    print("chart written to durations.png")
except ImportError:
    print("no matplotlib: no chart")

# %% tracediff's own report: every step, per-step medians, verdicts.
report = tracediff.compare(control, test)
print(report.verdict)
print(report.headline[["label", "control", "test", "diff_pct", "verdict"]])
rows = report.rows
print(rows.sort_values(by="diff_per_step_us", ascending=False)[["name", "device", "diff_per_step_us", "verdict"]].head(10))

# %% The same HTML report as the command line's.
report.to_html("tracediff-report.html")
print("report written to tracediff-report.html")
