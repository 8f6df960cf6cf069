"""Shared fixtures of the Python tests."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


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
