#!/usr/bin/env bash
# Sets up, builds, and compares the bundled example traces (examples/control vs
# examples/test), writing the HTML report, CSV and JSON into out/, and the trend of the
# example series (examples/series) beside them. Builds only the
# tracediff binary (scripts/setup.sh --tool); scripts/test.sh builds the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tool
mkdir -p out
./build/tracediff examples/control examples/test \
  -o out/example-report.html --csv out/example.csv --json out/example.json
# A series of 12 nightly runs (their summaries), 10 % slower from run 8 on.
./build/tracediff trend --runs-from examples/series/runs.tsv \
  -o out/example-trend.html --markdown out/example-trend.md --json out/example-trend.json
echo
echo "Report: $(pwd)/out/example-report.html   (also out/example.csv, out/example.json)"
echo "Trend:  $(pwd)/out/example-trend.html    (also out/example-trend.md, out/example-trend.json)"
