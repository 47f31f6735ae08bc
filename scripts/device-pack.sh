#!/usr/bin/env bash
# Packs what the GPU checks need into .gpu/ (ignored by git): the codegen tests, the CLI and the
# CUDA kernel bench from build/ (stripped), and the shared libraries they load that a GPU
# machine's image does not have (isl, Z3, GMP, Google Benchmark), and ../shared/conformance. scripts/device-check.sh runs
# them there. A GPU machine of this workplace takes the folder as a carried path (64 MiB at
# most: about 40 MiB today, most of it Z3).
#
#   ninja -C build codegen_tests idxmap_cli cuda_kernel_bench && scripts/device-pack.sh
set -euo pipefail
cd "$(dirname "$0")/.."

out=.gpu
rm -rf "$out"
mkdir -p "$out/lib"
grep -qx '/.gpu/' .git/info/exclude 2>/dev/null || echo '/.gpu/' >> .git/info/exclude

for binary in build/tests/codegen_tests build/idxmap build/bench/cuda_kernel_bench; do
  [[ -x $binary ]] || { echo "device-pack.sh: $binary is not built" >&2; exit 2; }
  strip -o "$out/$(basename "$binary")" "$binary"
done
for library in libisl.so.23 libz3.so.4 libgmp.so.10 libbenchmark.so.1debian; do
  cp -L "$(ldconfig -p | awk -v l="$library" '$1 == l {print $NF; exit}')" "$out/lib/$library"
done
# The conformance data the HLO kernel tests read, where this checkout has it.
if [[ -d ../shared/conformance ]]; then
  mkdir -p "$out/shared"
  cp -r ../shared/conformance "$out/shared/"
fi
cp scripts/device-check.sh "$out/"
du -sh "$out"
