#!/usr/bin/env bash
# Regenerates the example trace sets in examples/ with the project's own generator.
#   usage: scripts/gen-examples.sh PATH/TO/tracegen
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
