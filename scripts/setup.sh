#!/usr/bin/env bash
# Installs what tracediff needs from Debian 12's packages and builds it (Release).
#   scripts/setup.sh          build dependencies, then configure and build in build/
#   scripts/setup.sh --test   also the test tools (chromium, node/npm, clang, GNU time, python3-jsonschema,
#                             cmark-gfm: GitHub's Markdown renderer, for the Markdown tests)
#   scripts/setup.sh --tool   build dependencies, then build only the tracediff binary (not
#                             the tests, tracegen or the benchmarks): what run-example.sh needs
# As root it runs apt-get; otherwise it prints the exact apt-get line and stops.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
packages=(g++ cmake make pkg-config libboost-json1.81-dev libboost-test1.81-dev libcli11-dev
          libkainjow-mustache-dev zlib1g-dev libdeflate-dev libisal-dev)
if [[ "$mode" == "--test" ]]; then
  # python3, curl: the GitHub Action test; python3-jsonschema: the golden reports against docs/*.schema.json
  packages+=(chromium clang ninja-build time cmark-gfm python3 curl python3-jsonschema)
  # the Python module and its test (docs/python.md): pybind11, pandas, matplotlib, pip
  packages+=(pybind11-dev python3-dev python3-pandas python3-matplotlib python3-setuptools python3-pip python3-wheel)
  # IPython runs HTA's demo notebook against the module (tests/python/hta)
  packages+=(python3-ipython)
  # node and npm may come from elsewhere (nodesource's nodejs bundles npm).
  command -v node >/dev/null && command -v npm >/dev/null || packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >/dev/null || apt-get update
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup: missing Debian packages. Run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
targets=()
[[ "$mode" == "--tool" ]] && targets=(--target tracediff)
cmake --build build -j"$(nproc)" "${targets[@]}"
