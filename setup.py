"""The native module for `pip install .` (pyproject.toml): this project's CMake builds the
`idxmap_python` target and the module is copied into the wheel beside python/idxmap/.

IDXMAP_BUILD_DIR=path reuses a configured build tree (scripts/build.sh's `build/`: only what
changed is rebuilt); otherwise a Release tree under setuptools' temporary folder is configured
for the interpreter running pip, without tests or benchmarks.
"""
import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE = pathlib.Path(__file__).parent.resolve()


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        given = os.environ.get("IDXMAP_BUILD_DIR")
        tree = pathlib.Path(given).resolve() if given else \
            pathlib.Path(self.build_temp).resolve() / "cmake"
        if not (tree / "CMakeCache.txt").exists():
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.run(["cmake", "-S", str(SOURCE), "-B", str(tree), *generator,
                            "-DCMAKE_BUILD_TYPE=Release", f"-DPython_EXECUTABLE={sys.executable}",
                            "-DIDXMAP_BUILD_TESTS=OFF", "-DIDXMAP_BUILD_BENCH=OFF",
                            "-DIDXMAP_PYTHON=ON"], check=True)
        subprocess.run(["cmake", "--build", str(tree), "--target", "idxmap_python"], check=True)
        built = sorted((tree / "python" / "idxmap").glob("_idxmap*.so"))
        if not built:
            sys.exit(f"setup.py: CMake built no _idxmap module in {tree}/python/idxmap "
                     "(pybind11-dev and python3-dev installed?)")
        target = pathlib.Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)


setup(
    packages=["idxmap"],
    package_dir={"idxmap": "python/idxmap"},
    ext_modules=[Extension("idxmap._idxmap", sources=[])],
    cmdclass={"build_ext": CMakeBuild},
)
