"""The wheel carries its planner: built with `pip wheel` (scikit-build-core)
and installed into a fresh virtual environment, ssdopt plans and trains with
the statically linked ssd-opt inside it, with PATH reduced to the system's
directories and no library path.

The wheel is built the way bench/gpu/run builds it on a GPU machine
(bench/gpu/wheelkit.py: the kit's static ssd-opt from bench/gpu/prepare) and kept
per source hash in build-wheel-cache/, which test_gpu_kit.py shares: an
unchanged tree is not built twice. Skipped, saying why, only where no static
ssd-opt can be had (MLIR's static archives missing).
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
import textwrap
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("SSD_BUILD_DIR", ROOT / "build"))
CACHE = ROOT / "build-wheel-cache"
KIT = ROOT / "bench" / "gpu" / "kit"
sys.path.insert(0, str(ROOT / "bench" / "gpu"))
import wheelkit  # noqa: E402  (bench/gpu/wheelkit.py)

SYSTEM_PATH = "/usr/bin:/bin"


def prepare_kit() -> None:
    """bench/gpu/prepare: the static ssd-opt (a link in BUILD) and the
    unpacked Debian packages; seconds when they are up to date."""
    if not (BUILD / "build.ninja").exists():
        pytest.fail(f"{BUILD} is not configured; run `make build` first")
    if not pathlib.Path("/usr/lib/llvm-19/lib/libMLIRIR.a").exists():
        pytest.skip("no static MLIR archives (/usr/lib/llvm-19/lib/libMLIRIR.a): "
                    "the wheel's static ssd-opt cannot be built here")
    done = subprocess.run([str(ROOT / "bench" / "gpu" / "prepare"), "--build", str(BUILD)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> dict[str, str]:
    prepare_kit()
    path, cached, seconds = wheelkit.kit_wheel(CACHE, KIT, log=print)
    print(f"wheel {path}: {os.path.getsize(path)} bytes, "
          f"{'cached' if cached else f'built in {seconds:.0f} s'}")
    python = wheelkit.fresh_venv(tmp_path_factory.mktemp("venv") / "env", path, log=print)
    site = wheelkit.site_packages(python)
    return {"wheel": path, "python": python, "site": site,
            "ssd_opt": os.path.join(site, "ssdopt", "bin", "ssd-opt")}


def run_in_venv(venv, code: str, cwd) -> subprocess.CompletedProcess:
    env = {"PATH": SYSTEM_PATH, "HOME": os.environ.get("HOME", "/root"), "LD_LIBRARY_PATH": ""}
    return subprocess.run([venv["python"], "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=cwd, env=env)


def test_wheel_contents(venv):
    with zipfile.ZipFile(venv["wheel"]) as archive:
        infos = {info.filename: info for info in archive.infolist()}
    names = set(infos)
    assert "ssdopt/bin/ssd-opt" in names
    assert (infos["ssdopt/bin/ssd-opt"].external_attr >> 16) & 0o111, "ssd-opt is not executable"
    assert {"ssdopt/libssdrt.so", "ssdopt/libssdrt-checkpoint.so", "ssdopt/planning.py"} <= names
    assert any(name.startswith("ssdopt/_C") and name.endswith(".so") for name in names)
    entry_points = next(name for name in names if name.endswith("entry_points.txt"))
    with zipfile.ZipFile(venv["wheel"]) as archive:
        assert "ssd = ssdopt.dynamo_backend:ssd_backend" in archive.read(entry_points).decode()


def test_bundled_ssd_opt_links_no_mlir(venv):
    done = subprocess.run(["ldd", venv["ssd_opt"]], capture_output=True, text=True)
    listing = done.stdout + done.stderr
    assert "libMLIR" not in listing and "libLLVM" not in listing, listing
    assert "not a dynamic executable" in listing, listing  # fully static
    # It runs with nothing on PATH or the library path.
    version = subprocess.run([venv["ssd_opt"], "--version"], capture_output=True, text=True,
                             env={"PATH": "", "LD_LIBRARY_PATH": ""})
    assert version.returncode == 0 and "LLVM version 19" in version.stdout, version


def test_backend_plans_with_the_bundled_ssd_opt(venv, tmp_path):
    """An MLP trained three steps with the "ssd" backend at a budget that
    makes it offload: bitwise equal to the same compile without a limit,
    planned by the wheel's ssd-opt (none on PATH, which is /usr/bin:/bin)."""
    offload = tmp_path / "offload"
    offload.mkdir()
    done = run_in_venv(venv, f"""
        import copy, os, shutil, torch, ssdopt
        from ssdopt import dynamo_backend, planning
        assert ssdopt.__file__.startswith({venv['site']!r}), ssdopt.__file__
        assert shutil.which("ssd-opt") is None
        assert planning.find_ssd_opt() == {venv['ssd_opt']!r}, planning.find_ssd_opt()
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.ReLU(),
                                    torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10))
        x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))

        def train(budget):
            m = copy.deepcopy(model)
            opt = torch.optim.AdamW(m.parameters(), lr=1e-2)
            torch._dynamo.reset()
            backend = ssdopt.backend(memory_budget=budget, offload_dir={str(offload)!r})
            f = torch.compile(m, backend=backend)
            losses = []
            for _ in range(3):
                opt.zero_grad()
                loss = torch.nn.functional.cross_entropy(f(x), y)
                loss.backward()
                opt.step()
                losses.append(loss.detach())
            backend.close()  # deletes the store's data file
            return losses, [p.detach() for p in m.parameters()]

        base = train(1 << 40)
        peak = dynamo_backend.planned_graphs()[-1]["peak_bytes_before"]
        for fraction in (0.95, 0.97, 0.99):
            ssdopt.reset_stats()
            try:
                run = train(int(peak * fraction))
                break
            except Exception as error:  # no plan at this budget: a larger one
                if "PlanningError" not in repr(error) and "needs" not in str(error):
                    raise
        stats = ssdopt.stats()
        assert stats["bytes_written"] > 0 and stats["bytes_read"] == stats["bytes_written"], stats
        assert all(torch.equal(a, b) for a, b in zip(run[0], base[0]))
        assert all(torch.equal(a, b) for a, b in zip(run[1], base[1]))
        assert not os.listdir({str(offload)!r})
        print("planned by", planning.find_ssd_opt(), "moved", stats["bytes_written"], "bytes per 3 steps")
        """, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "moved" in done.stdout


def test_import_names_both_torch_versions_on_a_mismatch(venv, tmp_path):
    """The extension records the torch it was built for; another one is refused
    at import with both versions in the message."""
    done = run_in_venv(venv, """
        import torch
        from ssdopt import _C
        built = _C.torch_version
        assert built == torch.__version__, (built, torch.__version__)
        torch.__version__ = "2.99.0"
        try:
            import ssdopt._ops
        except ImportError as error:
            assert built in str(error) and "2.99.0" in str(error), error
            print("refused:", error)
        else:
            raise AssertionError("a mismatched torch was accepted")
        """, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "refused: ssdopt._C was built against torch" in done.stdout
