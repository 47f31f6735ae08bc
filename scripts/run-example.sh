#!/usr/bin/env bash
# Installs missing dependencies, builds the idxmap CLI and runs it on the bundled examples:
# the reshape round trip of spec 004 (simplifies to the identity), then spec 000's gather
# and scatter examples evaluated with their checks, the maps of examples/gather.mlir, and
# the index claims of examples/scatter_claims.mlir proven or refuted, those of a JAX
# scatter-add written back (annotate), and the kernels of
# examples/gather.mlir emitted (the start of one, with its proofs) and run on spec 000's
# examples.
#   ./scripts/run-example.sh [FILE] [idxmap simplify options...]   (only simplify FILE)
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/build.sh idxmap_cli
show() {
  echo "\$ idxmap $*"
  build/idxmap "$@"
}
if [[ $# -gt 0 ]]; then
  show simplify "$@"
  exit
fi
show simplify examples/reshape_roundtrip.map
echo
show run --engine maps examples/spec_example.mlir
echo
show analyze examples/gather.mlir
echo
# Exit 1: the example's first scatter claims unique indices that collide (on purpose).
show verify examples/scatter_claims.mlir || echo "(exit status $?: a claimed property is false)"
echo
# JAX's scatter-add behind its negative-index fix-up: the claims XLA reads, proven and written.
show annotate examples/jax_scatter_add.mlir -o build/jax_scatter_add.annotated.mlir
grep -n 'index_vector_dim = 1>' build/jax_scatter_add.annotated.mlir
echo
show emit examples/gather.mlir -o build/gather_kernels.cpp
echo "(wrote build/gather_kernels.cpp; one kernel:)"
sed -n '/gather.mlir:17:11$/,/^}/p' build/gather_kernels.cpp
echo
show emit examples/softmax.hlo -o build/softmax_kernels.cpp
echo "(wrote build/softmax_kernels.cpp; its header:)"
sed -n '/^\/\/ idxmap kernel: fusion/,/^\/\/ index arithmetic/p' build/softmax_kernels.cpp
echo
show run --engine kernel examples/spec_example.mlir
echo
show prove-equal examples/prove_equal/index_select.mlir examples/prove_equal/index_select_tcp.mlir
echo
# Exit 1: the second lowering broadcasts the indices along the wrong axis (on purpose).
show prove-equal examples/prove_equal/tf_gather.mlir examples/prove_equal/tf_gather_wrong_axis.mlir \
  || echo "(exit status $?: the lowering is wrong, and the counterexample replays)"
echo
# Exit 1: (a + b) + c and a + (b + c) in f32 round otherwise; the printed values replay.
show prove-equal examples/prove_equal/sum_left.mlir examples/prove_equal/sum_right.mlir \
  || echo "(exit status $?: IEEE rounding tells them apart, bit for bit)"
