#!/usr/bin/env bash
# Builds the Debian package from a configured and built tree (`cpack -G DEB`), unpacks it
# into a temporary folder with `dpkg-deb -x` (no install, no root), and checks it as a user
# would get it: the binary runs from there (--version, a comparison of examples/), the man
# page and the bash completion are in it and work.
#   scripts/package-test.sh [BUILD_DIR]     (default build)
# Ends with "package: N passed, M failed"; skipped (exit 0) where dpkg-deb is missing.
set -uo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
if ! command -v dpkg-deb >/dev/null || ! command -v cpack >/dev/null; then
  echo "package: skipped: dpkg-deb or cpack is missing"
  echo "package: 0 passed, 0 failed, 1 skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@" >"$tmp/out" 2>&1; then
    passed=$((passed + 1))
    echo "ok   $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name"
    sed 's/^/     /' "$tmp/out" | tail -20
  fi
}

check "cpack -G DEB builds a package" \
  bash -c "cd '$build' && cpack -G DEB -B '$tmp/pkg' && ls '$tmp'/pkg/tracediff_*.deb"
deb=$(ls "$tmp"/pkg/tracediff_*.deb 2>/dev/null | head -1)
root=$tmp/root
check "dpkg-deb -x unpacks it" dpkg-deb -x "${deb:-missing.deb}" "$root"
bin=$root/usr/bin/tracediff
check "the control file names the package, its version and its dependencies" \
  bash -c "dpkg-deb -f '$deb' Package Version Depends | tee /dev/stderr | grep -q '^Package: tracediff' &&
           dpkg-deb -f '$deb' Depends | grep -q libc6"
check "the binary is executable" test -x "$bin"
check "--version runs from the unpacked tree" \
  bash -c "'$bin' --version | grep -Eq '^tracediff [0-9]+\.[0-9]+\.[0-9]+$'"
check "it compares examples/ (exit 0, the report and the CSV written)" \
  bash -c "'$bin' -q examples/control examples/test -o '$tmp/r.html' --csv '$tmp/r.csv' &&
           grep -q '<html' '$tmp/r.html' && test \$(wc -l <'$tmp/r.csv') -gt 10"
man=$root/usr/share/man/man1/tracediff.1.gz
check "the man page is gzipped in share/man/man1" bash -c "gzip -t '$man'"
check "the man page has synopsis, options, exit status and examples" \
  bash -c "zcat '$man' > '$tmp/tracediff.1' && for s in NAME SYNOPSIS OPTIONS 'EXIT STATUS' EXAMPLES; do
             grep -q \"^\\.SH \\\"\\?\$s\" '$tmp/tracediff.1' || { echo \"no section \$s\"; exit 1; }; done"
if command -v man >/dev/null; then
  check "man renders it without warnings" \
    bash -c "out=\$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l '$man' 2>&1 >/dev/null); [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
fi
# Every long option of --help is in the man page and in the completion.
comp=$root/usr/share/bash-completion/completions/tracediff
check "the bash completion is in share/bash-completion/completions" test -f "$comp"
check "every option of --help is in the man page and the completion" bash -c "
  for o in \$('$bin' --help | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
    grep -q -- \"\\\\\\-\\\\\\-\${o#--}\" '$tmp/tracediff.1' || { echo \"man page lacks \$o\"; exit 1; }
    grep -qw -- \"\$o\" '$comp' || { echo \"completion lacks \$o\"; exit 1; }
  done"
complete_line() {  # complete_line WORD... -> the completions, on one line
  bash -c 'source "$1"; shift; compopt() { :; }; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tracediff; echo "${COMPREPLY[*]}"' \
    _ "$comp" "$@"
}
check "completion: subcommands" bash -c "[ \"\$($(declare -f complete_line); complete_line tracediff me)\" = merge ]"
check "completion: options" bash -c "[ \"\$($(declare -f complete_line); complete_line tracediff --dev)\" = --device ]"
check "completion: --device values" \
  bash -c "[ \"\$($(declare -f complete_line); complete_line tracediff a b --device '')\" = 'cpu gpu all' ]"
check "completion: --launcher values" \
  bash -c "[ \"\$($(declare -f complete_line); complete_line tracediff a b --launcher '')\" = 'innermost outermost module' ]"
check "completion: --color= values" \
  bash -c "[ \"\$($(declare -f complete_line); complete_line tracediff --color = al)\" = always ]"
check "completion: merge's options" bash -c "[ \"\$($(declare -f complete_line); complete_line tracediff merge --q)\" = --quiet ]"

echo "package: $passed passed, $failed failed"
((failed == 0))
