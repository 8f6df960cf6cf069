"""Builds the ssdopt wheel with a bundled ssd-opt and installs it into a fresh
virtual environment: shared by bench/gpu/run (on the device and in its dry
run) and test/python/test_wheel.py.

`build_wheel` keeps one wheel per key (a hash over the sources that go into
the wheel, the ssd-opt binary, the CMake defines, the Python and the torch
version) in a cache folder, so an unchanged tree is not built twice.
`fresh_venv` makes a virtual environment that sees the running
interpreter's site-packages (torch, transformers) through a .pth file after
its own, and installs the wheel into its own: `ssdopt` comes from the wheel
even where the checkout's editable install is on that interpreter (an
editable install's import hook lives in a .pth file of the other
site-packages, which a path entry does not run).
"""

from __future__ import annotations

import glob
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]

# What the wheel is built from (scikit-build-core configures the top level
# with SSD_PYTHON_PACKAGE=ON: the runtime, the extension, cmake/).
SOURCES = ["CMakeLists.txt", "cmake", "python", "lib/Runtime", "include/ssd/Runtime"]


def source_hash(ssd_opt: str | None, defines: dict[str, str], env: dict[str, str],
                python: str = sys.executable) -> str:
    digest = hashlib.sha256()
    for top in SOURCES:
        base = ROOT / top
        paths = [base] if base.is_file() else sorted(p for p in base.rglob("*") if p.is_file())
        for path in paths:
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    if ssd_opt:
        digest.update(pathlib.Path(ssd_opt).read_bytes())
    for key in sorted(defines):
        digest.update(f"{key}={defines[key]}\0".encode())
    versions = subprocess.run(
        [python, "-c", "import sys, importlib.metadata as m; print(sys.version, m.version('torch'))"],
        capture_output=True, text=True, check=True).stdout
    digest.update(versions.encode())
    for variable in ("CC", "CXX", "CXXFLAGS", "LDFLAGS", *sorted(env)):
        digest.update(f"{variable}={env.get(variable, os.environ.get(variable, ''))}\0".encode())
    return digest.hexdigest()[:16]


def build_wheel(cache: str | os.PathLike, ssd_opt: str | None, defines: dict[str, str] | None = None,
                env: dict[str, str] | None = None, log=print,
                python: str = sys.executable) -> tuple[str, bool, float]:
    """The wheel for this tree: (path, whether it came from the cache, build
    seconds). `ssd_opt` is the static binary to bundle (None: the wheel
    builds its own, which takes minutes)."""
    defines = dict(defines or {})
    if ssd_opt:
        defines["SSD_WHEEL_SSD_OPT"] = str(ssd_opt)
    key = source_hash(ssd_opt, {k: v for k, v in defines.items() if k != "SSD_WHEEL_SSD_OPT"},
                      env or {}, python)
    folder = pathlib.Path(cache) / key
    found = glob.glob(str(folder / "ssdopt-*.whl"))
    if found:
        log(f"wheel: {found[0]} (cached, key {key})")
        return found[0], True, 0.0
    scratch = pathlib.Path(cache) / f"{key}.tmp"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    # One CMake build folder for every key: a changed tree rebuilds what changed.
    command = [python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
               "-w", str(scratch), f"-Cbuild-dir={pathlib.Path(cache) / 'build'}"]
    command += [f"-Ccmake.define.{k}={v}" for k, v in sorted(defines.items())]
    command.append(str(ROOT / "python"))
    log("wheel: " + " ".join(command))
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True,
                            env={**os.environ, **(env or {})})
    seconds = time.monotonic() - start
    if result.returncode != 0:
        log(result.stdout[-6000:] + result.stderr[-6000:])
        raise RuntimeError(f"pip wheel failed ({result.returncode}) after {seconds:.0f} s")
    built = glob.glob(str(scratch / "ssdopt-*.whl"))
    if len(built) != 1:
        raise RuntimeError(f"pip wheel made {built}")
    shutil.rmtree(folder, ignore_errors=True)
    scratch.rename(folder)
    path = str(folder / os.path.basename(built[0]))
    # Keep the three newest wheels.
    wheels = sorted((p for p in pathlib.Path(cache).iterdir() if p.is_dir() and len(p.name) == 16),
                    key=lambda p: p.stat().st_mtime)
    for old in wheels[:-3]:
        shutil.rmtree(old, ignore_errors=True)
    log(f"wheel: built {path} in {seconds:.0f} s, {os.path.getsize(path)} bytes")
    return path, False, seconds


def cuda_include() -> str | None:
    """The folder of cuda.h: next to nvcc, else /usr/local/cuda/include."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    base = os.path.dirname(os.path.dirname(os.path.realpath(nvcc)))
    for candidate in (os.path.join(base, "include"), os.path.join(base, "targets", "x86_64-linux", "include"),
                      "/usr/local/cuda/include"):
        if os.path.exists(os.path.join(candidate, "cuda.h")):
            return candidate
    return None


def kit_wheel(cache: str | os.PathLike, kit: str | os.PathLike, log=print,
              python: str = sys.executable) -> tuple[str, bool, float]:
    """The wheel as bench/gpu/run builds it: liburing and xxhash from the
    kit's unpacked Debian packages, the kit's static ssd-opt, the runtime's
    CUDA layer on where cuda.h is found (cuda_include())."""
    deps = os.path.join(kit, "deps", "usr")
    libdir = os.path.join(deps, "lib", "x86_64-linux-gnu")
    env = {
        "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2),
        "CMAKE_PREFIX_PATH": deps,
        "PKG_CONFIG_PATH": os.path.join(libdir, "pkgconfig"),
        "CXXFLAGS": f"-isystem {os.path.join(deps, 'include')}",
        "LDFLAGS": f"-L{libdir} -Wl,-rpath-link,{libdir}",
    }
    include = cuda_include()
    defines = {"SSD_ENABLE_CUDA": "OFF"}
    if include:
        defines = {"SSD_ENABLE_CUDA": "ON", "SSD_CUDA_INCLUDE_DIR": include}
    return build_wheel(cache, os.path.join(kit, "ssd-opt"), defines, env=env, log=log, python=python)


def fresh_venv(venv: str | os.PathLike, wheel: str, python: str = sys.executable, log=print) -> str:
    """A new virtual environment at `venv` with `wheel` installed in it and
    `python`'s site-packages behind its own; returns its python."""
    venv = pathlib.Path(venv)
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([python, "-m", "venv", "--without-pip", str(venv)], check=True)
    new_python = str(venv / "bin" / "python")
    site = subprocess.run([new_python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    outer = subprocess.run(
        [python, "-c", "import sysconfig; p = sysconfig.get_paths(); print(p['purelib']); print(p['platlib'])"],
        capture_output=True, text=True, check=True).stdout.split()
    with open(os.path.join(site, "zz-outer-site-packages.pth"), "w") as file:
        file.write("\n".join(dict.fromkeys(outer)) + "\n")
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--no-compile",
                    "--target", site, wheel], check=True, capture_output=True, text=True)
    log(f"venv: {venv} with {os.path.basename(wheel)}; torch from {outer[0]}")
    return new_python


def site_packages(python: str) -> str:
    return subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()

