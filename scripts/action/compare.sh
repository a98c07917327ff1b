#!/usr/bin/env bash
# The action's "compare" step (action.yml), runnable anywhere: compares INPUT_CONTROL
# with INPUT_TEST, writes the HTML report and the Markdown, appends the Markdown to
# $GITHUB_STEP_SUMMARY and sets the step's outputs in $GITHUB_OUTPUT:
#   exit-code    tracediff's exit status (0 ok, 1 fatal, 2 usage, 3 gate)
#   verdict      the Markdown's verdict line ("❌ 3 significant regressions: ...")
#   report-path  the HTML report;  markdown-path  the Markdown
# Exits 0 on 0 and 3 (the action fails the job after the upload and the comment), and
# with tracediff's status on 1 and 2 (nothing to upload or post).
#
# Environment: INPUT_CONTROL, INPUT_TEST (required), INPUT_FAIL_ON (one condition a
# line; blank lines and lines starting with '#' skipped), INPUT_LABEL_CONTROL,
# INPUT_LABEL_TEST, INPUT_REPORT_URL (default: this run's page, where the artifact is),
# INPUT_ARGS (more options, split on white space), TRACEDIFF (the binary; default
# tracediff on PATH), RUNNER_TEMP or TMPDIR (where the outputs go).
set -uo pipefail

: "${INPUT_CONTROL:?INPUT_CONTROL: the baseline traces or summary}"
: "${INPUT_TEST:?INPUT_TEST: the traces or summary to check}"
bin=${TRACEDIFF:-tracediff}
out_dir=${TRACEDIFF_OUT_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tracediff}
mkdir -p "$out_dir" || exit 1
report=$out_dir/tracediff-report.html
markdown=$out_dir/comment.md

args=("$INPUT_CONTROL" "$INPUT_TEST" -o "$report" --markdown "$markdown")
[ -n "${INPUT_LABEL_CONTROL:-}" ] && args+=(--label-control "$INPUT_LABEL_CONTROL")
[ -n "${INPUT_LABEL_TEST:-}" ] && args+=(--label-test "$INPUT_LABEL_TEST")
url=${INPUT_REPORT_URL:-}
if [ -z "$url" ] && [ -n "${GITHUB_RUN_ID:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
  url=${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID
fi
[ -n "$url" ] && args+=(--report-url "$url")
while IFS= read -r line; do
  line=${line#"${line%%[![:space:]]*}"}   # trim both ends
  line=${line%"${line##*[![:space:]]}"}
  [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
  args+=(--fail-on "$line")
done <<<"${INPUT_FAIL_ON:-}"
# Split on white space, never glob-expanded ('kernel:*gemm*' stays as it is).
if [ -n "${INPUT_ARGS:-}" ]; then
  read -ra extra <<<"$INPUT_ARGS"
  args+=("${extra[@]}")
fi

"$bin" "${args[@]}"
status=$?

# One line, no control characters: what GITHUB_OUTPUT's key=value format needs.
verdict=""
if [ -f "$markdown" ]; then
  verdict=$(sed -n '2s/^### //p' "$markdown" | sed -E 's/\\([][\\`*_<>|~&$!{}#])/\1/g' | tr -d '\000-\037\177')
fi
if [ -z "$verdict" ]; then
  case $status in
    1) verdict="tracediff failed (exit status 1): see the log" ;;
    2) verdict="tracediff: usage error (exit status 2): see the log" ;;
  esac
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  {
    echo "exit-code=$status"
    echo "verdict=$verdict"
    [ -f "$report" ] && echo "report-path=$report"
    [ -f "$markdown" ] && echo "markdown-path=$markdown"
  } >>"$GITHUB_OUTPUT"
fi
if [ -f "$markdown" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  cat "$markdown" >>"$GITHUB_STEP_SUMMARY"
fi
case $status in
  0 | 3) exit 0 ;;
  *) exit "$status" ;;
esac
