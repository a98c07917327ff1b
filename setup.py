"""Builds tracediff._tracediff with CMake (the `tracediff_python` target of
python/CMakeLists.txt), for `pip install .` and `pip wheel .` (docs/python.md).

Before CMake runs, the build looks for what it needs (cmake, make, a C++ compiler, pybind11,
Python's headers and wheel package, the Boost.JSON, CLI11, zlib and mustache headers) and
stops with one line that names what is missing and its Debian package; a CMake or compiler
failure ends in one line too, taken from the log (build-python/cmake.log), never in a
traceback.
  TRACEDIFF_CMAKE_ARGS   more CMake options (-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  TRACEDIFF_VERBOSE=1    echo CMake's output as it runs (it goes to the log either way)
  TRACEDIFF_SKIP_CHECKS=1  no look before CMake (headers outside the compiler's own paths)
  TRACEDIFF_BUILD_DIR    CMake's build folder (default build-python/)
  TRACEDIFF_TEST_HIDE=cmake,pybind11,...  the look takes these for missing (the names of
                         PIECES below; tests/python/install_errors_test.sh)
The extension needs only glibc, libstdc++, libgcc_s and Python at run time: Boost.JSON and
zlib are linked in and ISA-L is left out (python/CMakeLists.txt, tests/python/wheel_test.sh)."""
import os
import re
import shutil
import subprocess
import sys
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))

# What the build needs: (name for TRACEDIFF_TEST_HIDE, what the message calls it, Debian package).
PIECES = [
    ("cmake", "cmake", "cmake"),
    ("make", "make", "make"),  # or ninja (ninja-build) with CMAKE_GENERATOR=Ninja
    ("c++", "a C++ compiler (c++)", "g++"),
    ("wheel", "Python's wheel package", "python3-wheel"),
    ("pybind11", "pybind11", "pybind11-dev"),
    ("python-headers", "Python's headers (Python.h)", "python3-dev"),
    ("boost", "Boost.JSON's headers (boost/json/src.hpp)", "libboost-json1.81-dev"),
    ("cli11", "CLI11's headers (CLI/CLI.hpp)", "libcli11-dev"),
    ("zlib", "zlib's headers (zlib.h)", "zlib1g-dev"),
    ("mustache", "kainjow mustache's header (kainjow/mustache.hpp)", "libkainjow-mustache-dev"),
]
# The header each library piece is recognised by, looked for with the compiler (__has_include).
HEADERS = {"boost": "boost/json/src.hpp", "cli11": "CLI/CLI.hpp", "zlib": "zlib.h",
           "mustache": "kainjow/mustache.hpp"}


def wheel_package_missing():
    """setuptools before 70.1 builds wheels with the wheel package (Debian 12: python3-wheel);
    without it pip's metadata step ends in "invalid command 'bdist_wheel'"."""
    if "wheel" in os.environ.get("TRACEDIFF_TEST_HIDE", "").split(","):
        return True
    for module in ("setuptools.command.bdist_wheel", "wheel.bdist_wheel"):
        try:
            __import__(module)
            return False
        except ImportError:
            pass
    return True


def missing_line(names):
    """'tracediff: pybind11 not found: apt-get install pybind11-dev' for the pieces NAMES."""
    pieces = [p for p in PIECES if p[0] in names]
    return (f"tracediff: {', '.join(p[1] for p in pieces)} not found: "
            f"apt-get install {' '.join(dict.fromkeys(p[2] for p in pieces))}")


def cmake_args_from_env():
    return os.environ.get("TRACEDIFF_CMAKE_ARGS", "").split()


def find_compiler():
    cxx = os.environ.get("CXX", "").split()
    candidates = [cxx[-1]] if cxx else ["c++", "g++", "clang++"]  # "ccache g++": the compiler
    for c in candidates:
        path = shutil.which(c)
        if path:
            return path
    return None


def find_pybind11():
    """pybind11's CMake folder: pip's pybind11 (import pybind11), else a prefix's
    lib/cmake/pybind11 or share/cmake/pybind11 (Debian: /usr/lib/cmake/pybind11). Where
    CMake finds it by itself, None with found=True."""
    try:
        import pybind11  # noqa: F401 (pip's; Debian's python3-pybind11 has it too)
        return True, pybind11.get_cmake_dir()
    except (ImportError, AttributeError):
        pass
    prefixes = [p for p in os.environ.get("CMAKE_PREFIX_PATH", "").split(os.pathsep) if p]
    prefixes += [sys.prefix, sys.base_prefix, "/usr/local", "/usr"]
    for prefix in prefixes:
        for sub in ("lib/cmake/pybind11", "share/cmake/pybind11",
                    f"lib/{sysconfig.get_config_var('MULTIARCH') or 'x86_64-linux-gnu'}/cmake/pybind11"):
            if os.path.isfile(os.path.join(prefix, sub, "pybind11Config.cmake")):
                return True, None
    return False, None


def python_include():
    return sysconfig.get_paths().get("include") or sysconfig.get_config_var("INCLUDEPY") or ""


def missing_headers(compiler, names):
    """The pieces of NAMES whose header the compiler cannot find (its own search path, CPATH,
    CPLUS_INCLUDE_PATH), by preprocessing one line of __has_include per header; none when the
    compiler cannot be run at all (CMake then says what is wrong)."""
    lines = [f"#if !__has_include(<{HEADERS[n]}>)\n#error tracediff-missing:{n}\n#endif" for n in names]
    try:
        run = subprocess.run([compiler, "-x", "c++", "-E", "-o", os.devnull, "-"],
                             input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return []
    return re.findall(r"tracediff-missing:([\w+-]+)", run.stderr)


def check_prerequisites(generator):
    """The pieces that are missing, as PIECES names; the cmake folder of pybind11 to pass."""
    hide = {h.strip() for h in os.environ.get("TRACEDIFF_TEST_HIDE", "").split(",") if h.strip()}
    missing = []
    if "cmake" in hide or not shutil.which("cmake"):
        missing.append("cmake")
    tools = ("ninja", "ninja-build") if "ninja" in (generator or "").lower() else ("gmake", "make")
    if "make" in hide or not any(shutil.which(t) for t in tools):
        missing.append("make")
    compiler = None if "c++" in hide else find_compiler()
    if not compiler:
        missing.append("c++")
    found, pybind11_dir = (False, None) if "pybind11" in hide else find_pybind11()
    if not found:
        missing.append("pybind11")
    if "python-headers" in hide or not os.path.isfile(os.path.join(python_include(), "Python.h")):
        missing.append("python-headers")
    headers = [n for n in HEADERS if n not in hide]
    missing += [n for n in HEADERS if n in hide]
    if compiler:
        missing += missing_headers(compiler, headers)
    return missing, pybind11_dir


def first_cmake_error(text):
    """The message of the first 'CMake Error' in TEXT, its indented lines joined into one,
    shortened; the first compiler error in it (a failed compiler test) kept whole."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.startswith("CMake Error"):
            continue
        head = re.sub(r"^CMake Error( at [^:]+:\d+ \([^)]*\))?:\s*", "", line).strip()
        body = [head] if head else []
        for more in lines[i + 1:]:
            if more.strip() and not more.startswith(" "):
                break
            if more.strip():
                body.append(more.strip())
        message = shorten(" ".join(body), 100)
        errors = [b for b in body if re.search(r"\berror\b", b)]
        return f"{message} [{shorten(errors[0], 120)}]" if errors else message
    return None


# A CMake error that names one of these is that piece missing (a build run without the look).
CMAKE_CLUES = [("boost_json", "boost"), ("Boost", "boost"), ("CLI11", "cli11"), ("ZLIB", "zlib"),
               ("MUSTACHE_INCLUDE_DIR", "mustache"), ("CMAKE_CXX_COMPILER", "c++"),
               ("CMAKE_MAKE_PROGRAM", "make"), ("build program", "make"), ("Python3", "python-headers"),
               ("pybind11", "pybind11")]


def failure_line(step, text, log):
    """One line for a failed CMake STEP ('configure' or 'build') from its output TEXT."""
    where = os.path.relpath(log, ROOT) if log.startswith(ROOT) else log
    ours = re.search(r"^\s*(tracediff: .*(?:\n  \S.*)*)", text, re.M)  # our message(FATAL_ERROR)s
    if ours:
        return " ".join(part.strip() for part in ours.group(1).splitlines())
    if step == "configure":
        message = first_cmake_error(text) or "no CMake Error in its output"
        for clue, piece in CMAKE_CLUES:
            if clue in message:
                return f"{missing_line([piece])} (CMake: {message}; log: {where})"
        return f"tracediff: CMake could not configure the build: {message} (log: {where})"
    errors = [ln.strip() for ln in text.splitlines()
              if re.search(r"\berror\b|undefined reference", ln) and not re.match(r"g?make", ln)]
    located = [e for e in errors if re.match(r"\S+:\d+:(\d+:)? (fatal )?error:", e)]
    message = (located or errors)[0] if errors else (text.strip().splitlines() or ["no output"])[-1]
    return f"tracediff: the build failed: {shorten(message, 200)} (log: {where})"


def shorten(text, n):
    return text if len(text) <= n else text[:n - 3].rstrip() + "..."


def run_logged(cmd, log, step):
    """Runs CMD with its output into LOG (and the console with TRACEDIFF_VERBOSE); a failure
    leaves by SystemExit with one line (pip shows it under its own frame, no traceback)."""
    verbose = os.environ.get("TRACEDIFF_VERBOSE", "") not in ("", "0")
    with open(log, "a", encoding="utf-8") as out:
        out.write("$ " + " ".join(cmd) + "\n")
        out.flush()
        try:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                    text=True, errors="replace")
        except FileNotFoundError:  # cmd[0] is cmake
            raise SystemExit(missing_line(["cmake"])) from None
        except OSError as e:
            raise SystemExit(f"tracediff: cannot run {cmd[0]}: {e.strerror}") from None
        captured = []
        for line in proc.stdout:
            out.write(line)
            captured.append(line)
            if verbose:
                sys.stdout.write(line)
                sys.stdout.flush()
        if proc.wait() != 0:
            raise SystemExit(failure_line(step, "".join(captured), log))


def cmake_generator(user_args):
    if "-G" in user_args[:-1]:
        return user_args[user_args.index("-G") + 1]
    return os.environ.get("CMAKE_GENERATOR", "")


LOOKED = []  # [pybind11's CMake folder] once looked


def look_before_building(generator):
    """check_prerequisites once (unless TRACEDIFF_SKIP_CHECKS): SystemExit with one line when
    something is missing, else pybind11's CMake folder to pass (or None)."""
    if not LOOKED:
        pybind11_dir = None
        if os.environ.get("TRACEDIFF_SKIP_CHECKS", "") in ("", "0"):
            missing, pybind11_dir = check_prerequisites(generator)
            if missing:
                raise SystemExit(missing_line(missing))
        LOOKED.append(pybind11_dir)
    return LOOKED[0]


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        # Beside build/ (same depth): ccache finds the objects of a build/ made with the
        # same options (CCACHE_BASEDIR makes their paths relative).
        build_dir = os.path.abspath(os.environ.get("TRACEDIFF_BUILD_DIR") or
                                    os.path.join(ROOT, "build-python"))
        os.makedirs(build_dir, exist_ok=True)
        user_args = cmake_args_from_env()
        generator = cmake_generator(user_args)
        pybind11_dir = look_before_building(generator)
        # TRACEDIFF_PYTHON_REQUIRED: no module is an error here, not a quiet skip. ISA-L off:
        # Debian has only a shared libisal, which a wheel cannot count on (docs/python.md).
        config = ["-DCMAKE_BUILD_TYPE=Release", "-DBUILD_TESTING=OFF", "-DTRACEDIFF_PYTHON=ON",
                  "-DTRACEDIFF_PYTHON_REQUIRED=ON", "-DTRACEDIFF_ISAL=OFF",
                  f"-DPython3_EXECUTABLE={sys.executable}"]
        if pybind11_dir:
            config.append(f"-Dpybind11_DIR={pybind11_dir}")
        config += user_args
        log = os.path.join(build_dir, "cmake.log")
        open(log, "w").close()
        run_logged(["cmake", "-S", ROOT, "-B", build_dir, *config], log, "configure")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        run_logged(["cmake", "--build", build_dir, "--target", "tracediff_python", "-j", jobs], log, "build")
        built = os.path.join(build_dir, "python", "tracediff")
        names = [n for n in os.listdir(built) if n.startswith("_tracediff") and n.endswith(".so")] \
            if os.path.isdir(built) else []
        if len(names) != 1:
            raise SystemExit(f"tracediff: the CMake build left {names!r} in {built}, not one module "
                             f"(log: {os.path.relpath(log, ROOT)})")
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, names[0]), target)


# Before setuptools runs, so that pip shows the one line alone: the wheel package for
# pip's metadata and wheel steps (a Python not Debian's gets it from pip), and the rest of
# the build's needs for a step that builds.
if {"bdist_wheel", "dist_info"} & set(sys.argv[1:]) and wheel_package_missing():
    raise SystemExit(missing_line(["wheel"]) if sys.base_prefix == "/usr"
                     else "tracediff: Python's wheel package not found: pip install wheel")
if {"bdist_wheel", "build", "build_ext", "install", "develop", "editable_wheel"} & set(sys.argv[1:]):
    look_before_building(cmake_generator(cmake_args_from_env()))
os.makedirs(os.path.join(ROOT, "build-python"), exist_ok=True)
setup(ext_modules=[Extension("tracediff._tracediff", sources=[])], cmdclass={"build_ext": CMakeBuild},
      options={"build": {"build_base": "build-python/setuptools"}, "egg_info": {"egg_base": "build-python"}})
