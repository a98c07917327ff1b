#!/usr/bin/env bash
# The action's "install" step (action.yml): makes tracediff available and prints
# "path=BINARY" to $GITHUB_OUTPUT. In order:
#   1. INPUT_DEB set (a path or an http(s) URL of a released .deb): apt-get installs it;
#   2. tracediff already on PATH (installed by an earlier step): used as it is;
#   3. otherwise: the build dependencies from apt, then a Release build of the
#      action's own checkout (ACTION_PATH), the tracediff target only, into
#      RUNNER_TEMP, cached by the action through actions/cache.
# apt-get needs root or sudo (GitHub's runners have both).
set -euo pipefail

sudo_=""
[ "$(id -u)" = 0 ] || sudo_="sudo"
root=${ACTION_PATH:-$(cd "$(dirname "$0")/../.." && pwd)}
build=${TRACEDIFF_BUILD_DIR:-${RUNNER_TEMP:-/tmp}/tracediff-build}

if [ -n "${INPUT_DEB:-}" ]; then
  deb=$INPUT_DEB
  case $deb in
    http://* | https://*)
      curl -fsSL -o "${RUNNER_TEMP:-/tmp}/tracediff.deb" "$deb"
      deb=${RUNNER_TEMP:-/tmp}/tracediff.deb ;;
  esac
  $sudo_ apt-get install -y -q --no-install-recommends "$(realpath "$deb")"
  bin=$(command -v tracediff)
elif command -v tracediff >/dev/null && [ -z "${TRACEDIFF_FORCE_BUILD:-}" ]; then
  bin=$(command -v tracediff)
elif [ -x "$build/tracediff" ] && "$build/tracediff" --version >/dev/null 2>&1; then
  bin=$build/tracediff   # the cache restored it, and it runs here
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
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null
  cmake --build "$build" -j"$(nproc)" --target tracediff
  bin=$build/tracediff
fi
"$bin" --version
[ -n "${GITHUB_OUTPUT:-}" ] && echo "path=$bin" >>"$GITHUB_OUTPUT"
exit 0
