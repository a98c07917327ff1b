#!/usr/bin/env bash
# Rewrites the man page, the bash completion and docs/cli.md's options tables from the
# option table in src/cli (tools/cli-docs), after an option is added or changed. The
# cli_docs ctest fails until this is run. Usage: scripts/update-cli-docs.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" --target cli_docs >/dev/null
gen=$build/tools/cli-docs/cli_docs
update() {  # update FILE ARGS...: FILE becomes what cli_docs ARGS prints
  local file=$1 tmp
  shift
  tmp=$(mktemp)
  "$gen" "$@" >"$tmp" && cat "$tmp" >"$file"
  rm -f "$tmp"
}
update packaging/tracediff.1 man packaging/tracediff.1
update packaging/tracediff.bash-completion bash
update docs/cli.md markdown docs/cli.md
git status --short packaging/tracediff.1 packaging/tracediff.bash-completion docs/cli.md
