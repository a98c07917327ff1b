#!/usr/bin/env bash
# Builds the tool and the tests with AddressSanitizer and UndefinedBehaviorSanitizer
# (-DTRACEDIFF_SANITIZE=ON) in build-asan and runs the whole ctest suite there; the
# end-to-end tests then run the sanitized binary too. Any report fails the run.
#
#   scripts/sanitize.sh [ctest arguments, e.g. -R malformed]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-asan
cd "$root"

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTRACEDIFF_SANITIZE=ON >/dev/null
cmake --build "$build"

# Leaks are errors; the first report stops the process with a stack.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:check_initialization_order=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
