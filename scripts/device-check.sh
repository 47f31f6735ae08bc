#!/usr/bin/env bash
# The checks that need a GPU, run on a GPU machine from the repository root with .gpu/ packed by
# scripts/device-pack.sh: the CUDA tests with IDXMAP_CUDA_DEVICE=1 (kernels compiled by nvcc for
# that GPU and run there against the reference: CudaKernels.OnTheGpu, the segmented, vectors
# and HLO tests), `idxmap run --engine cuda` on the spec's example, and the CUDA kernel bench
# (16M rows: each kernel against cudaMemcpy device to device in the same run). Logs go to
# $OUT (or /tmp/device-check). Exit status: the tests'.
#
#   IDXMAP_BUILT_AT: the source folder the binaries were built in (they read examples/ and
#   ../shared/ from there; default /work/main); linked to this checkout when it is absent.
set -uo pipefail
cd "$(dirname "$0")/.."
[[ -d .gpu ]] || cd ..  # run as .gpu/device-check.sh or scripts/device-check.sh

out=${OUT:-/tmp/device-check}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/.gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH=/usr/local/cuda/bin:$PATH
export IDXMAP_CACHE_DIR=/tmp/idxmap-device-cache
built_at=${IDXMAP_BUILT_AT:-/work/main}
if [[ ! -e $built_at ]]; then
  mkdir -p "$(dirname "$built_at")"
  ln -s "$PWD" "$built_at"
fi
shared=$(dirname "$built_at")/shared
[[ -e $shared || ! -d .gpu/shared ]] || ln -s "$PWD/.gpu/shared" "$shared"

{
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  nvcc --version | tail -2
  nproc
} 2>&1 | tee "$out/machine.txt"

IDXMAP_CUDA_DEVICE=1 timeout 420 .gpu/codegen_tests \
  --gtest_filter='CudaKernels.*:SegmentedScatter.*:CudaVectors.*:Targets/HloKernelTargets.*' \
  > "$out/tests.log" 2>&1
status=$?
grep -E "^\[  (PASSED|FAILED) |on the GPU|^\[  FAILED|tests ran" "$out/tests.log"

(cd "$built_at" && "$OLDPWD/.gpu/idxmap" run --engine cuda examples/spec_example.mlir) \
  > "$out/run.log" 2>&1
echo "idxmap run --engine cuda: exit $? ($(tr '\n' ' ' < "$out/run.log" | cut -c1-200))"

timeout 150 .gpu/cuda_kernel_bench --benchmark_filter='16M|CopyDeviceToDevice' \
  --benchmark_min_time=0.2 > "$out/bench.txt" 2>&1
echo "cuda_kernel_bench: exit $?"
cat "$out/bench.txt"
exit $status
