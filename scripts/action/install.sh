#!/usr/bin/env bash
# The action's "install" step (action.yml): makes the action's own tracediff available
# and prints "path=BINARY" (an absolute path) to $GITHUB_OUTPUT. In order:
#   1. INPUT_DEB set (a path or an http(s) URL of a released .deb): apt-get installs it
#      (and its dependencies); the binary is the one that package installed;
#   2. a build of this very checkout in TRACEDIFF_BUILD_DIR (default
#      RUNNER_TEMP/tracediff-build), restored by actions/cache: used when the key beside
#      it (tracediff.key) is the key of these sources and it runs here;
#   3. otherwise: the build dependencies from apt, then a Release build of the action's
#      own checkout (ACTION_PATH), the tracediff target only, with its key beside it.
# A tracediff found on PATH is never used: on a self-hosted runner it may be an earlier
# job's, of another version, or anyone's.
# apt-get needs root or sudo (GitHub's runners have both).
#
#   install.sh --key   prints the key of the sources a build reads (action.yml's cache key)
set -euo pipefail

root=${ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
root=$(cd "$root" && pwd)
build=${TRACEDIFF_BUILD_DIR:-${RUNNER_TEMP:-/tmp}/tracediff-build}

source_key() {  # the hash of the sources that the build reads
  (cd "$root" && find CMakeLists.txt cmake src templates assets -type f 2>/dev/null | LC_ALL=C sort |
    xargs -d '\n' sha256sum | sha256sum | cut -c1-16)
}
if [ "${1:-}" = --key ]; then
  source_key
  exit 0
fi

sudo_=""
[ "$(id -u)" = 0 ] || sudo_="sudo"
# The version these sources build (project(tracediff VERSION x.y.z) in CMakeLists.txt).
want=$(sed -nE 's/^project\(tracediff VERSION ([0-9][0-9.]*).*/\1/p' "$root/CMakeLists.txt" | head -1)

if [ -n "${INPUT_DEB:-}" ]; then
  deb=$INPUT_DEB
  case $deb in
    http://* | https://*)
      curl -fsSL -o "${RUNNER_TEMP:-/tmp}/tracediff.deb" "$deb"
      deb=${RUNNER_TEMP:-/tmp}/tracediff.deb ;;
  esac
  deb=$(realpath "$deb")
  pkg=$(dpkg-deb -f "$deb" Package)
  $sudo_ apt-get install -y -q --no-install-recommends "$deb"
  # The package's own binary, wherever PATH points.
  bin=$(dpkg-query -L "$pkg" | grep -m1 '/bin/tracediff$' || true)
  [ -n "$bin" ] || { echo "install.sh: package $pkg has no bin/tracediff" >&2; exit 1; }
  deb_version=$(dpkg-deb -f "$deb" Version)
  if [ -n "$want" ] && [ "${deb_version%%[-~+]*}" != "$want" ]; then
    echo "::warning::tracediff: the .deb is version $deb_version, the action's sources $want"
  fi
else
  key=$(source_key)
  if [ -x "$build/tracediff" ] && [ "$(cat "$build/tracediff.key" 2>/dev/null)" = "$key" ] &&
    "$build/tracediff" --version >/dev/null 2>&1; then
    :   # the cache restored the build of these sources, and it runs here
  else
    $sudo_ apt-get update -q
    # Boost with Boost.JSON: Debian 12 names it by version (its default Boost, 1.74, has
    # none); newer releases have it in the unversioned packages.
    boost=(libboost-json-dev libboost-test-dev)
    if apt-cache show libboost-json1.81-dev >/dev/null 2>&1; then
      boost=(libboost-json1.81-dev libboost-test1.81-dev)
    fi
    $sudo_ apt-get install -y -q --no-install-recommends g++ cmake make pkg-config "${boost[@]}" \
      libcli11-dev zlib1g-dev libkainjow-mustache-dev libdeflate-dev libisal-dev
    rm -f "$build/tracediff" "$build/tracediff.key"
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target tracediff
    printf '%s\n' "$key" >"$build/tracediff.key"
  fi
  bin=$(cd "$build" && pwd)/tracediff
  version=$("$bin" --version)
  if [ -n "$want" ] && [ "$version" != "tracediff $want" ]; then
    echo "install.sh: $bin says '$version', the action's sources are $want" >&2
    exit 1
  fi
fi
"$bin" --version
[ -n "${GITHUB_OUTPUT:-}" ] && echo "path=$bin" >>"$GITHUB_OUTPUT"
exit 0
