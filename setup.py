"""Builds tracediff._tracediff with CMake (the `tracediff_python` target of
python/CMakeLists.txt), for `pip install .` and `pip wheel .` (docs/python.md)."""
import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # Beside build/ (same depth): ccache finds the objects of a build/ made with the
        # same options (CCACHE_BASEDIR makes their paths relative).
        build_dir = os.path.join(ROOT, "build-python")
        os.makedirs(build_dir, exist_ok=True)
        # ISA-L off: Debian has only a shared libisal, which a wheel cannot count on
        # (python/CMakeLists.txt, docs/python.md).
        config = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF", "-DTRACEDIFF_PYTHON=ON",
                  "-DTRACEDIFF_ISAL=OFF", f"-DPython3_EXECUTABLE={sys.executable}"]
        config += os.environ.get("TRACEDIFF_CMAKE_ARGS", "").split()
        subprocess.check_call(["cmake", "-S", ROOT, "-B", build_dir, *config])
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        subprocess.check_call(["cmake", "--build", build_dir, "--target", "tracediff_python", "-j", jobs])
        built = os.path.join(build_dir, "python", "tracediff")
        names = [n for n in os.listdir(built) if n.startswith("_tracediff") and n.endswith(".so")]
        if len(names) != 1:
            raise RuntimeError(f"the CMake build left {names!r} in {built}, not one module")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, names[0]), target)


os.makedirs(os.path.join(ROOT, "build-python"), exist_ok=True)
setup(ext_modules=[Extension("tracediff._tracediff", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-python/setuptools"}, "egg_info": {"egg_base": "build-python"}})
