#!/usr/bin/env bash
# Installs the Debian packages idxmap needs that are not installed yet (DESIGN.md,
# "Dependencies"). When everything is present it touches nothing: no apt-get update, so a
# second run costs a few dpkg-query calls.
set -euo pipefail

packages=(
  # Build tools; ccache keeps compiled objects under the home folder across builds and clones.
  cmake ninja-build g++ pkg-config ccache
  # Libraries the library and the CLI link against.
  libisl-dev libz3-dev libboost-dev libcli11-dev nlohmann-json3-dev
  # Tests and benchmarks; cvc5 and Coq prove rewrite rules Z3 does not
  # (rule_universal_proof_test, simplifier/proofs/).
  libgtest-dev libbenchmark-dev cvc5 coq
  # The Python bindings (python/) and their tests (NumPy: Program.run, idxmap.testing).
  python3-dev pybind11-dev python3-pytest python3-numpy
  # `pip install .` into a virtual environment (pyproject.toml, scripts/pip-install.sh).
  python3-pip python3-venv python3-setuptools
  # The libFuzzer target needs clang and its runtime (libFuzzer, sanitizers); the kernel
  # ThreadSanitizer test needs LLVM's OpenMP runtime with its Archer tool (libomp-dev).
  clang libclang-rt-14-dev libomp-dev
  # lld: links every tree in a quarter of GNU ld's time (CMakeLists.txt, IDXMAP_LLD).
  lld
  # scripts/tidy.sh (run-clang-tidy-14 comes with clang-tidy-14).
  clang-tidy
  # The draw tests check that pictures parse with a real SVG library (rsvg-convert).
  librsvg2-bin
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$package")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

# Root (containers, CI images) has no sudo; everyone else needs it.
sudo=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "install-deps: missing ${missing[*]}; run as root or install sudo" >&2
    exit 1
  fi
  sudo=(sudo)
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  "${missing[@]}"
