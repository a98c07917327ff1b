#!/usr/bin/env bash
# Sets up, builds, and compares the bundled example traces (examples/control vs
# examples/test), writing the HTML report, CSV and JSON into out/. Builds only the
# tracediff binary (scripts/setup.sh --tool); scripts/test.sh builds the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tool
mkdir -p out
./build/tracediff examples/control examples/test \
  -o out/example-report.html --csv out/example.csv --json out/example.json
echo
echo "Report: $(pwd)/out/example-report.html   (also out/example.csv, out/example.json)"
