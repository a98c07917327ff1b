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

build_deb() { (cd "$build" && cpack -G DEB -B "$tmp/pkg") && ls "$tmp"/pkg/tracediff_*.deb; }
check "cpack -G DEB builds a package" build_deb
deb=$(ls "$tmp"/pkg/tracediff_*.deb 2>/dev/null | head -1)
root=$tmp/root
bin=$root/usr/bin/tracediff
man=$root/usr/share/man/man1/tracediff.1.gz
comp=$root/usr/share/bash-completion/completions/tracediff
check "dpkg-deb -x unpacks it" dpkg-deb -x "${deb:-missing.deb}" "$root"

control_fields() {
  dpkg-deb -f "$deb" Package Version Depends
  [ "$(dpkg-deb -f "$deb" Package)" = tracediff ] && dpkg-deb -f "$deb" Depends | grep -q libc6
}
check "the control file names the package and its dependencies" control_fields
check "the binary is executable" test -x "$bin"
version() { "$bin" --version | grep -Eq '^tracediff [0-9]+\.[0-9]+\.[0-9]+$'; }
check "--version runs from the unpacked tree" version
compare_examples() {
  "$bin" -q examples/control examples/test -o "$tmp/r.html" --csv "$tmp/r.csv" &&
    grep -q '<html' "$tmp/r.html" && [ "$(wc -l <"$tmp/r.csv")" -gt 10 ]
}
check "it compares examples/ (exit 0, the report and the CSV written)" compare_examples

check "the man page is gzipped in share/man/man1" gzip -t "$man"
man_sections() {
  zcat "$man" >"$tmp/tracediff.1" || return 1
  for s in NAME SYNOPSIS COMMANDS OPTIONS 'EXIT STATUS' ENVIRONMENT EXAMPLES; do
    grep -Eq "^\.SH \"?$s\"?$" "$tmp/tracediff.1" || { echo "no section $s"; return 1; }
  done
}
check "the man page has synopsis, commands, options, exit status and examples" man_sections
man_renders() {  # man(1) is not in a minimal system: then only groff's absence is said
  command -v man >/dev/null || { echo "man is not installed: not rendered"; return 0; }
  local out
  out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
  [ -z "$out" ] || { echo "$out"; return 1; }
}
check "man renders it without warnings" man_renders
check "the bash completion is in share/bash-completion/completions" test -f "$comp"
# Every long option that --help lists (of each command) is in the man page and the completion.
options_documented() {
  local o bad=0
  for o in $({ "$bin" --help; "$bin" summarize --help; "$bin" merge --help; } | grep -oE -- '--[a-z][a-z-]+' | sort -u); do
    grep -qF -- "${o//-/\\-}" "$tmp/tracediff.1" || { echo "man page lacks $o"; bad=1; }
    grep -qw -- "$o" "$comp" || { echo "completion lacks $o"; bad=1; }
  done
  return $bad
}
check "every option of --help is in the man page and the completion" options_documented

completes() {  # completes EXPECTED WORD...: the completions of the last word are EXPECTED
  local expected=$1 got
  shift
  got=$(bash -c 'source "$1"; shift; compopt() { :; }; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tracediff; echo "${COMPREPLY[*]}"' \
    _ "$comp" "$@")
  [ "$got" = "$expected" ] || { echo "$* -> '$got', not '$expected'"; return 1; }
}
check "completion: subcommands" completes merge tracediff me
check "completion: options" completes --device tracediff --dev
check "completion: --device values" completes "cpu gpu all" tracediff a b --device ""
check "completion: --launcher values" completes "innermost module outermost" tracediff a b --launcher ""
check "completion: --color= values" completes always tracediff --color = al
check "completion: summarize's options" completes --launcher tracediff summarize x --lau
check "completion: merge's options" completes --quiet tracediff merge --q

echo "package: $passed passed, $failed failed"
((failed == 0))
