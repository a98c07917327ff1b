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
# Environment: INPUT_CONTROL, INPUT_TEST (required: each a directory, a file, a glob, or a
# list of them, one a line or separated by spaces; see expand_side), INPUT_FAIL_ON (one
# condition a line; blank lines and lines starting with '#' skipped), INPUT_LABEL_CONTROL,
# INPUT_LABEL_TEST, INPUT_REPORT_URL (default: this run's page, where the artifact is),
# INPUT_ARGS (more options, split on white space), TRACEDIFF (the binary: install.sh's
# path output; required, never looked up on PATH), RUNNER_TEMP or TMPDIR (where the
# outputs go).
#
# Trace names and file names are a pull request's to choose (docs/ci.md, "Threat model"):
# everything this step prints, tracediff's terminal summary and warnings included, goes
# out between ::stop-commands::TOKEN and ::TOKEN:: with a fresh random TOKEN, so that the
# runner executes none of it as a workflow command.
set -uo pipefail

# One stream: the runner reads stdout and stderr apart, so a line on stderr could be
# taken before (or after) the window's bounds on stdout.
exec 2>&1
token=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
if ! [[ $token =~ ^[0-9a-f]{32}$ ]]; then
  echo "compare.sh: no random token from /dev/urandom: not running tracediff unguarded"
  exit 1
fi
echo "::stop-commands::$token"
# A newline first: output that ends without one must not swallow the resume line.
trap 'printf "\n::%s::\n" "$token"' EXIT

: "${INPUT_CONTROL:?INPUT_CONTROL: the baseline traces or summary}"
: "${INPUT_TEST:?INPUT_TEST: the traces or summary to check}"
bin=${TRACEDIFF:?"TRACEDIFF: the tracediff binary (install.sh's path output)"}
out_dir=${TRACEDIFF_OUT_DIR:-${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tracediff}
mkdir -p "$out_dir" || exit 1
report=$out_dir/tracediff-report.html
markdown=$out_dir/comment.md
rm -f "$report" "$markdown"   # an earlier run's outputs are not this one's

trim() {  # trim TEXT: TEXT without white space at either end, on stdout
  local s=$1
  s=${s#"${s%%[![:space:]]*}"}
  printf '%s' "${s%"${s##*[![:space:]]}"}"
}

# expand_word WORD: appends to items the path WORD names (as it is), else the paths
# it matches as a glob (*, ?, [...], ** across folders), sorted; fails when neither.
expand_word() {
  local w=$1 IFS= LC_ALL=C matches
  if [ -e "$w" ] || [ -L "$w" ]; then
    items+=("$w")
    return 0
  fi
  case $w in *'*'* | *'?'* | *'['*) ;; *) return 1 ;; esac
  shopt -s nullglob globstar
  # shellcheck disable=SC2206  # the glob is the point; IFS is empty: no word splitting
  matches=($w)
  shopt -u nullglob globstar
  ((${#matches[@]})) || return 1
  items+=("${matches[@]}")
}

# expand_side NAME VALUE: the paths VALUE names, in items. One item a line; a line that
# is neither a path nor a glob that matches is split on white space, each word then read
# the same way (so "a.json b.json" is two files, and "run 1/x.json" one where it exists).
expand_side() {
  local name=$1 line word words
  items=()
  while IFS= read -r line || [ -n "$line" ]; do
    line=$(trim "$line")
    [ -z "$line" ] && continue
    expand_word "$line" && continue
    read -ra words <<<"$line"
    if ((${#words[@]} < 2)); then
      echo "tracediff action: $name: '$line' is no file or directory and matches nothing"
      return 1
    fi
    for word in "${words[@]}"; do
      expand_word "$word" && continue
      echo "tracediff action: $name: '$line' is no file or directory and matches nothing (nor, read as a list, does '$word')"
      return 1
    done
  done <<<"$2"
  if ((${#items[@]} == 0)); then
    echo "tracediff action: $name: no traces given"
    return 1
  fi
}

# A path that starts with '-' would read as an option: ./ in front.
safe_path() { case $1 in -*) printf './%s' "$1" ;; *) printf '%s' "$1" ;; esac; }

# Every value is attached to its option (--opt=VALUE): a label, a condition or a file
# name that starts with '-' stays a value.
args=(-o "$report" --markdown "$markdown")
sides=()
for side in control test; do
  if [ "$side" = control ]; then value=$INPUT_CONTROL; else value=$INPUT_TEST; fi
  if ! expand_side "$side" "$value"; then
    [ -n "${GITHUB_OUTPUT:-}" ] && printf 'exit-code=2\nverdict=tracediff: usage error (exit status 2): see the log\n' >>"$GITHUB_OUTPUT"
    exit 2
  fi
  sides+=("$(safe_path "${items[0]}")")
  for item in "${items[@]:1}"; do args+=("--add-$side=$(safe_path "$item")"); done
done
[ -n "${INPUT_LABEL_CONTROL:-}" ] && args+=("--label-control=$INPUT_LABEL_CONTROL")
[ -n "${INPUT_LABEL_TEST:-}" ] && args+=("--label-test=$INPUT_LABEL_TEST")
url=${INPUT_REPORT_URL:-}
if [ -z "$url" ] && [ -n "${GITHUB_RUN_ID:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
  url=${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID
fi
[ -n "$url" ] && args+=("--report-url=$url")
while IFS= read -r line; do
  line=$(trim "$line")
  [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
  args+=("--fail-on=$line")
done <<<"${INPUT_FAIL_ON:-}"
# Split on white space, never glob-expanded ('kernel:*gemm*' stays as it is).
if [ -n "${INPUT_ARGS:-}" ]; then
  read -ra extra <<<"$INPUT_ARGS"
  args+=("${extra[@]}")
fi

"$bin" "${args[@]}" -- "${sides[@]}"
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
