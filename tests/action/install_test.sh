#!/usr/bin/env bash
# The Action runs its own tracediff, never one found on PATH (issue 31 item 1): with a
# fake `tracediff` first on PATH, and fake apt-get, cmake, dpkg-deb and dpkg-query that
# log what they are asked,
#   - a cached build of these sources (its key beside it) is used as it is;
#   - a stale binary in the build folder (no key, or another key) is rebuilt;
#   - a .deb's own binary is used (the path the package installed);
#   - compare.sh without TRACEDIFF refuses to look tracediff up on PATH.
#   install_test.sh TRACEDIFF_BINARY
set -uo pipefail
bin=$(realpath "${1:?usage: install_test.sh TRACEDIFF_BINARY}")
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...
  if "${@:2}"; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
output() { sed -n "s/^$2=//p" "$1" | tail -1; }

fake=$tmp/fakebin
mkdir -p "$fake" "$tmp/debroot/usr/bin"
cp "$bin" "$tmp/debroot/usr/bin/tracediff"
cat >"$fake/tracediff" <<EOF
#!/bin/sh
echo "\$*" >>"$tmp/fake-tracediff-used"
echo "tracediff 0.0.1-fake"
EOF
cat >"$fake/sudo" <<'EOF'
#!/bin/sh
exec "$@"
EOF
for tool in apt-get apt-cache; do
  printf '#!/bin/sh\necho "%s $*" >>"%s/tools.log"\n' "$tool" "$tmp" >"$fake/$tool"
done
cat >"$fake/cmake" <<EOF
#!/bin/sh
echo "cmake \$*" >>"$tmp/tools.log"
# "cmake --build DIR ...": the build, faked by a copy of the real binary.
if [ "\$1" = --build ]; then cp "$bin" "\$2/tracediff"; else
  while [ \$# -gt 0 ]; do [ "\$1" = -B ] && mkdir -p "\$2"; shift; done; fi
EOF
cat >"$fake/dpkg-deb" <<'EOF'
#!/bin/sh
case $3 in Package) echo tracediff ;; Version) echo 0.1.0-1 ;; esac
EOF
cat >"$fake/dpkg-query" <<EOF
#!/bin/sh
printf '/usr\n/usr/bin\n$tmp/debroot/usr/bin/tracediff\n'
EOF
chmod +x "$fake"/*
export PATH="$fake:$PATH"
check "the fake tracediff is the one on PATH" test "$(command -v tracediff)" = "$fake/tracediff"

# --- a cached build of these sources.
key=$(bash "$root/scripts/action/install.sh" --key)
check "install.sh --key prints a key" test -n "$key"
mkdir -p "$tmp/cached"
cp "$bin" "$tmp/cached/tracediff"
echo "$key" >"$tmp/cached/tracediff.key"
: >"$tmp/tools.log"
TRACEDIFF_BUILD_DIR=$tmp/cached GITHUB_OUTPUT=$tmp/out1 bash "$root/scripts/action/install.sh" >"$tmp/install1.log" 2>&1
check "cached build: install.sh succeeds" test $? = 0
check "cached build: path is the cached binary, not PATH's" test "$(output "$tmp/out1" path)" = "$tmp/cached/tracediff"
check "cached build: nothing rebuilt" test ! -s "$tmp/tools.log"

# --- a stale binary (an earlier job's, no key): rebuilt from the action's sources.
mkdir -p "$tmp/stale"
cp "$fake/tracediff" "$tmp/stale/tracediff"
TRACEDIFF_BUILD_DIR=$tmp/stale GITHUB_OUTPUT=$tmp/out2 bash "$root/scripts/action/install.sh" >"$tmp/install2.log" 2>&1
check "stale build: install.sh succeeds" test $? = 0
check "stale build: rebuilt from the action's checkout" grep -qF -- "cmake -S $root -B $tmp/stale" "$tmp/tools.log"
check "stale build: path is the new build" test "$(output "$tmp/out2" path)" = "$tmp/stale/tracediff"
check "stale build: the key is kept beside it" test "$(cat "$tmp/stale/tracediff.key" 2>/dev/null)" = "$key"
# Another key (other sources): rebuilt too.
echo "0000000000000000" >"$tmp/cached/tracediff.key"
: >"$tmp/tools.log"
TRACEDIFF_BUILD_DIR=$tmp/cached GITHUB_OUTPUT=$tmp/out3 bash "$root/scripts/action/install.sh" >"$tmp/install3.log" 2>&1
check "another key: rebuilt" grep -qF -- "cmake --build $tmp/cached" "$tmp/tools.log"

# --- a .deb: the package's binary.
touch "$tmp/tracediff_0.1.0_amd64.deb"
: >"$tmp/tools.log"
INPUT_DEB=$tmp/tracediff_0.1.0_amd64.deb GITHUB_OUTPUT=$tmp/out4 bash "$root/scripts/action/install.sh" >"$tmp/install4.log" 2>&1
check "deb: install.sh succeeds" test $? = 0
check "deb: apt-get installs the .deb" grep -qF "apt-get install -y -q --no-install-recommends $tmp/tracediff_0.1.0_amd64.deb" "$tmp/tools.log"
check "deb: path is the package's binary, not PATH's" test "$(output "$tmp/out4" path)" = "$tmp/debroot/usr/bin/tracediff"

# --- compare.sh without TRACEDIFF: no PATH lookup.
(unset TRACEDIFF; INPUT_CONTROL=$root/examples/control INPUT_TEST=$root/examples/test RUNNER_TEMP=$tmp \
  bash "$root/scripts/action/compare.sh" >"$tmp/compare.log" 2>&1)
check "compare.sh without TRACEDIFF fails" test $? != 0
check "the fake tracediff on PATH never ran" test ! -e "$tmp/fake-tracediff-used"

if ((failures)); then
  for f in "$tmp"/*.log; do echo "--- $f"; tail -c 1500 "$f"; done
  echo "install test: $failures failed"
  exit 1
fi
echo "install test: all passed"
