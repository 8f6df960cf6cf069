"""Shared fixtures of the Python tests, and how they share the cores.

scripts/run-tests runs them on pytest-xdist workers (`-n`, one per core,
`--dist loadgroup`): each worker gets its share of torch's intra-op threads,
and the tests of one file run in one worker, unless the file groups its
tests itself (`xdist_group` marks, as the zoo does)."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Set before any test module imports torch (it reads it once); inherited by
# the processes the tests start (ranks, kits), so that N workers run N
# cores' worth of threads, not N times the machine's.
_WORKERS = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
if _WORKERS > 1:
    os.environ.setdefault("OMP_NUM_THREADS", str(max(1, len(os.sched_getaffinity(0)) // _WORKERS)))
    # Inductor's default is a pool of one compile process per core in every
    # worker (each imports torch); the workers already keep the cores busy,
    # so each compiles its own kernels in place (10 CPU-s less per worker
    # measured on GPT-2's zoo case, docs/development.md).
    os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")


# Files whose tests share files of the checkout, so one worker runs them all:
# the GPU kit's dry run uses the kit and wheel that test_wheel.py prepares
# (bench/gpu/kit, build-wheel-cache/).
_SHARED_GROUPS = {"test/python/test_wheel.py": "wheel-kit", "test/python/test_gpu_kit.py": "wheel-kit"}


def pytest_configure(config):
    config.addinivalue_line("markers", "long: among the longest tests; scheduled first")
    # xdist's loadgroup would otherwise hand out the groups with the most
    # tests first, which put every long test (a group of one) at the end.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Before xdist reads the groups: a file's tests form one group (its
    module and session fixtures, such as a kit build, a SeaweedFS server or
    gloo ranks, are made once), except in files that mark groups of their own.
    Tests marked `long` go first: a worker asks for more work while it still
    has two tests queued, so long ones left to the end would keep one worker
    busy while the other idles; short ones there even the two out."""
    grouping_themselves = {item.path for item in items if item.get_closest_marker("xdist_group")}
    for item in items:
        if item.path not in grouping_themselves:
            name = item.path.relative_to(ROOT).as_posix()
            item.add_marker(pytest.mark.xdist_group(_SHARED_GROUPS.get(name, name)))
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


@pytest.fixture(scope="session")
def ssd_opt() -> str:
    """The `ssd-opt` binary of this checkout's build (SSD_OPT overrides)."""
    path = os.environ.get("SSD_OPT") or str(ROOT / "build" / "bin" / "ssd-opt")
    if not os.access(path, os.X_OK):
        found = shutil.which("ssd-opt")
        if found is None:
            pytest.fail(f"ssd-opt not found at {path}; run `make build` first")
        path = found
    return path
