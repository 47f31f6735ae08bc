#!/usr/bin/env bash
# `pip install .` into a fresh virtual environment, offline, then the package used from there
# (not from build/python): a map simplified, a program run on NumPy arrays, and the worked
# pytest example. Usage: scripts/pip-install.sh [VENV]   (default: a temporary folder, removed)
#   IDXMAP_BUILD_DIR=build scripts/pip-install.sh   reuses scripts/build.sh's tree (CI: only
#                                                   the packaging is new); without it pip's
#                                                   build configures a Release tree of its own.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-}
if [[ -z "$venv" ]]; then
  venv=$(mktemp -d /tmp/idxmap-venv.XXXXXX)
  trap 'rm -rf "$venv"' EXIT
fi
# --system-site-packages: setuptools (the build backend) and NumPy from Debian, since pip cannot
# download them here; --no-build-isolation for the same reason.
/usr/bin/python3 -m venv --system-site-packages "$venv"
"$venv/bin/pip" install --quiet --no-build-isolation --no-deps .
rm -rf idxmap.egg-info python/idxmap.egg-info
cd /  # away from the checkout: `import idxmap` must find the installed package
"$venv/bin/python" - <<'PY'
import idxmap, numpy
assert "site-packages" in idxmap.__file__, idxmap.__file__
print("installed:", idxmap.__file__)
print(idxmap.simplify("(d0, d1) -> ((d0 * 16 + d1) floordiv 64, (d0 * 16 + d1) mod 64), "
                      "domain: d0 in [0, 7], d1 in [0, 15]"))
program = idxmap.Program("""func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
  %y = stablehlo.add %x, %x : tensor<3xi32>
  return %y : tensor<3xi32>
}""")
assert program.run(numpy.array([1, 2, 3])).tolist() == [2, 4, 6]
PY
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$OLDPWD/python/examples"
echo "pip-install: installed into $venv and used from there"
