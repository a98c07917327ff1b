#!/usr/bin/env bash
# The Action's control/test inputs take what action.yml promises (issue 31 item 1): a
# directory, a file, a glob, a list one a line or separated by spaces; each path reaches
# tracediff as one argument (a space in a name splits nothing, a name that starts with
# '-' is no option). tracediff runs behind a wrapper that records its arguments.
#   inputs_test.sh TRACEDIFF_BINARY
set -uo pipefail
bin=$(realpath "${1:?usage: inputs_test.sh TRACEDIFF_BINARY}")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
output() { sed -n "s/^$2=//p" "$1" | tail -1; }

cat >"$tmp/record" <<EOF
#!/usr/bin/env bash
printf '%s\0' "\$@" >"$tmp/argv"
exec "$bin" "\$@"
EOF
chmod +x "$tmp/record"
export TRACEDIFF=$tmp/record RUNNER_TEMP=$tmp/out
in=$tmp/in
mkdir -p "$in/base run" "$in/ctl" "$in/pr"
for r in 0 1; do
  cp "$root/examples/control/rank$r.pt.trace.json.gz" "$in/base run/"
  cp "$root/examples/control/rank$r.pt.trace.json.gz" "$in/ctl/"
done
cp "$root/examples/test/rank0.pt.trace.json.gz" "$in/pr/-o rank0.pt.trace.json.gz"
cp "$root/examples/test/rank1.pt.trace.json.gz" "$in/pr/rank1.pt.trace.json.gz"

# run NAME DIR CONTROL TEST: compare.sh in DIR; its status in $tmp/NAME.rc
run() {
  (cd "$2" && INPUT_CONTROL=$3 INPUT_TEST=$4 GITHUB_OUTPUT=$tmp/$1.out \
    bash "$root/scripts/action/compare.sh" >"$tmp/$1.log" 2>&1)
  echo $? >"$tmp/$1.rc"
  rm -f "$tmp/argv.$1"
  [ -f "$tmp/argv" ] && mv "$tmp/argv" "$tmp/argv.$1"
}
# sides NAME CONTROL... -- TEST...: tracediff got exactly these files per side, each one
# argument (the positional first, --add-SIDE=PATH for the others).
sides() {
  python3 - "$tmp/argv.$1" "${@:2}" <<'PY'
import sys
argv = open(sys.argv[1], "rb").read().decode().split("\0")[:-1]
want = sys.argv[2:]
cut = want.index("--")
ctl, tst = want[:cut], want[cut + 1:]
end = argv.index("--")
got_ctl = [argv[end + 1]] + [a[len("--add-control="):] for a in argv[:end] if a.startswith("--add-control=")]
got_tst = [argv[end + 2]] + [a[len("--add-test="):] for a in argv[:end] if a.startswith("--add-test=")]
assert len(argv) == end + 3, argv[end:]
assert got_ctl == ctl, (got_ctl, ctl)
assert got_tst == tst, (got_tst, tst)
PY
}
ran() { test "$(cat "$tmp/$1.rc")" = 0 && test -s "$(output "$tmp/$1.out" markdown-path)"; }

# A glob (a folder with a space), and a relative glob whose matches start with '-'.
run glob "$in/pr" "$in/base run/*.gz" "*.gz"
check "glob: compare.sh succeeds" ran glob
check "glob: each match one argument; '-o ...' as ./-o ..." sides glob \
  "$in/base run/rank0.pt.trace.json.gz" "$in/base run/rank1.pt.trace.json.gz" -- \
  "./-o rank0.pt.trace.json.gz" "rank1.pt.trace.json.gz"
check "glob: no file written under the attacker's name" test ! -e "$in/pr/rank0.pt.trace.json.gz"

# A list, one a line (blank lines and white space around skipped; a name with a space).
run lines "$in" $'  base run/rank0.pt.trace.json.gz\n\n\tbase run/rank1.pt.trace.json.gz  \n' \
  $'pr/-o rank0.pt.trace.json.gz\npr/rank1.pt.trace.json.gz'
check "list of lines: compare.sh succeeds" ran lines
check "list of lines: the files, names with spaces whole" sides lines \
  "base run/rank0.pt.trace.json.gz" "base run/rank1.pt.trace.json.gz" -- \
  "pr/-o rank0.pt.trace.json.gz" "pr/rank1.pt.trace.json.gz"

# A list separated by spaces (and globs in it), on one line.
run spaces "$in" "ctl/rank0.pt.trace.json.gz ctl/rank1.pt.trace.json.gz" "pr/*0.pt.trace.json.gz  pr/rank1*"
check "list of words: compare.sh succeeds" ran spaces
check "list of words: the files" sides spaces \
  "ctl/rank0.pt.trace.json.gz" "ctl/rank1.pt.trace.json.gz" -- \
  "pr/-o rank0.pt.trace.json.gz" "pr/rank1.pt.trace.json.gz"

# A directory and a file (as before).
run dirfile "$in" "base run" "$root/examples/test/rank0.pt.trace.json.gz"
check "a directory and a file: as given" sides dirfile "base run" -- "$root/examples/test/rank0.pt.trace.json.gz"
check "a directory and a file: compare.sh succeeds" ran dirfile

# A name that starts with '-' given as it is (relative): ./ in front.
run dash "$in/pr" "$in/ctl/rank0.pt.trace.json.gz" "-o rank0.pt.trace.json.gz"
check "a file named '-o ...': compare.sh succeeds" ran dash
check "a file named '-o ...': passed as ./-o ..." sides dash "$in/ctl/rank0.pt.trace.json.gz" -- "./-o rank0.pt.trace.json.gz"

# Nothing matches: a usage error that says which, tracediff not run.
run none "$in" "base run/*.nothing" "pr"
check "no match: exit 2" test "$(cat "$tmp/none.rc")" = 2
check "no match: exit-code output 2" test "$(output "$tmp/none.out" exit-code)" = 2
check "no match: the log names the input" grep -qF "control: 'base run/*.nothing'" "$tmp/none.log"
check "no match: tracediff not run" test ! -e "$tmp/argv.none"

if ((failures)); then
  for f in "$tmp"/*.log; do echo "--- $f"; tail -c 1500 "$f"; done
  echo "inputs test: $failures failed"
  exit 1
fi
echo "inputs test: all passed"
