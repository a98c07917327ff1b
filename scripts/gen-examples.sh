#!/usr/bin/env bash
# Regenerates the example trace sets in examples/ with the project's own generator.
#   usage: scripts/gen-examples.sh PATH/TO/tracegen
# series:  12 nightly runs of a small model, 10 % slower from run 8 on, kept as one
#          `tracediff summarize` output each (what a nightly job keeps) with runs.tsv
#          listing them with made-up commit hashes: `tracediff trend --runs-from
#          examples/series/runs.tsv` (tracediff is taken from beside tracegen's build).
# control: 2 ranks x 4 steps of the default 4-layer model.
# test:    the same run (same seed: untouched events keep their ns durations) with a
#          visible regression: aten::mm and its dgrad GEMM 35% slower, a GELU kernel
#          added, the LayerNorm gamma/beta backward kernel removed, and 3 extra
#          aten::add launches per step.
set -euo pipefail

if [[ $# -ne 1 ]]; then
  echo "usage: $0 PATH/TO/tracegen" >&2
  exit 2
fi
tracegen=$1
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

common=(--ranks 2 --steps 4 --seed 1 --gzip)
gelu='void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#4}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)'

rm -f "$root"/examples/control/*.pt.trace.json* "$root"/examples/test/*.pt.trace.json*
"$tracegen" --out "$root/examples/control" "${common[@]}"
"$tracegen" --out "$root/examples/test" "${common[@]}" \
  --slowdown aten::mm=1.35 \
  --slowdown ampere_sgemm_128x64_nn=1.35 \
  --add-kernel "$gelu" \
  --drop-kernel GammaBetaBackwardCUDAKernel \
  --extra-launches 3

# The series: traces in a temporary folder, each run kept as its summary.
tracediff=$(cd "$(dirname "$tracegen")/../.." && pwd)/tracediff
series=$(mktemp -d)
trap 'rm -rf "$series"' EXIT
"$tracegen" --out "$series" --series 12 --shift-at 8 --shift 10 --ranks 1 --steps 8 --layers 2 --jitter 2 \
  --run-offset 1 --seed 1 2>/dev/null
rm -rf "$root/examples/series"
mkdir -p "$root/examples/series"
while IFS=$'\t' read -r run label; do
  "$tracediff" summarize "$series/$run" -o "$root/examples/series/$run.tdsum.json" --label "$label" -q
  printf '%s.tdsum.json\t%s\n' "$run" "$label" >>"$root/examples/series/runs.tsv"
done <"$series/runs.tsv"
