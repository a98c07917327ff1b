#!/usr/bin/env bash
# ctest cli_docs: the man page, the bash completion and docs/cli.md are what cli_docs
# generates from src/cli's option table, and every option is in each command's --help.
# Usage: check.sh CLI_DOCS TRACEDIFF (run from the repository root).
set -u
cli_docs=$1 tracediff=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

same() {  # same FILE GENERATED...: FILE is what the command prints
  local file=$1
  shift
  if ! "$@" >"$tmp/out"; then
    echo "FAIL: $* failed"
    bad=1
  elif ! diff -u "$file" "$tmp/out"; then
    echo "FAIL: $file is not what src/cli's options give: run scripts/update-cli-docs.sh"
    bad=1
  fi
}
same packaging/tracediff.1 "$cli_docs" man packaging/tracediff.1
same packaging/tracediff.bash-completion "$cli_docs" bash
same docs/cli.md "$cli_docs" markdown docs/cli.md

# --help is CLI11's own, from the same declarations: an option hidden from it, or a
# command that declares its options elsewhere, shows here.
"$cli_docs" names >"$tmp/names" || { echo "FAIL: cli_docs names"; exit 1; }
[[ -s $tmp/names ]] || { echo "FAIL: cli_docs names printed nothing"; exit 1; }
while read -r command option; do
  args=(--help) && [[ $command != - ]] && args=("$command" --help)
  help=$("$tracediff" "${args[@]}")
  grep -qE -- "(^|[ ,])$option([ ,=]|$)" <<<"$help" || { echo "FAIL: $option is not in tracediff ${args[*]}"; bad=1; }
done <"$tmp/names"

((bad == 0)) && echo "the man page, the completion and docs/cli.md match src/cli's options"
exit $bad
