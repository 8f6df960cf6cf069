"""bench/gpu/run --dry-run: the GPU kit end to end on this machine, with the
runtime's CUDA layer on the unit tests' fake driver and the backend on CPU,
so that the kit is known to work before a device is lent.

bench/gpu/prepare makes the kit (seconds when it is up to date); the wheel
is shared with test_wheel.py through build-wheel-cache/ (one build per
source hash). Skipped, saying why, only where no static ssd-opt can be had.
"""

from __future__ import annotations

import json
import subprocess
import sys

from test_wheel import CACHE, ROOT, prepare_kit


def test_dry_run(tmp_path):
    prepare_kit()
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gpu" / "run"), "--dry-run", "--out", str(out),
         "--wheel-cache", str(CACHE), "--work", str(tmp_path), "--seconds", "600"],
        capture_output=True, text=True)
    log = (out / "gpu-kit.log").read_text()
    assert done.returncode == 0, log[-8000:]
    result = json.loads((out / "gpu-kit.json").read_text())
    assert result["ok"] and result["dry_run"]
    stages = result["stages"]

    # The bundled planner is the kit's static ssd-opt.
    assert "not a dynamic executable" in stages["build"]["bundled_ssd_opt_ldd"]

    # The CUDA path of the runtime, on the fake driver: every tensor back
    # bitwise (the odd sizes one at a time too), each way of waiting used,
    # bytes through the staging pool.
    trip = stages["runtime"]["roundtrip"]
    assert trip["ok"] and trip["mismatched_tensors"] == 0 and trip["bytes"] == 64 << 20
    assert trip["tensors"] >= 6 and min(trip["waits"].values()) >= 1
    assert trip["bytes_written"] >= trip["bytes"] and trip["bytes_read"] >= trip["bytes"]
    assert trip["staged_bytes"] > 0
    assert trip["odd_sizes"] == {"tensors": 4, "mismatched": 0}

    # fio ran on the same directory (scripts/setup installs it here).
    assert stages["fio"]["ok"] and stages["fio"]["read_bw"] > 0 and "offload_vs_fio_write" in stages["fio"]

    # The backend: both budgets moved activations and matched the run without
    # offload bitwise; the lowest one is below 90% of the peak.
    backend = stages["backend"]
    assert backend["ok"] and backend["ssd_opt"].endswith("ssdopt/bin/ssd-opt")
    unlimited = backend["runs"]["unlimited"]
    for name in ("lowest", "p90"):
        run = backend["runs"][name]
        assert run["bitwise_equal_to_unlimited"] and run["bytes_written"] > 0, run
        assert run["planned_peak_bytes"] <= run["budget_bytes"], run
    assert backend["runs"]["lowest"]["budget_bytes"] < backend["runs"]["p90"]["budget_bytes"]
    assert backend["runs"]["p90"]["budget_bytes"] == int(unlimited["planned_peak_bytes"] * 0.9)

    # The whole step (bench/python/wholestep as it is, on a target of the
    # device's probe and fio's disk rates): its rows printed, the bytes it
    # moved at 50% the plan's, a prediction.
    whole = stages["wholestep"]
    assert whole["ok"] and whole["target"]["compute_flops"] > 0, whole
    assert whole["target"]["ssd_read_bandwidth"] == stages["fio"]["read_bw"]
    assert any(row.startswith("| mlp |") for row in whole["table"]), whole["table"]
    half = whole["models"][0]["shares"]["50"]
    assert half["bytes_moved_per_step"] == half["planned_bytes_per_step"] > 0, half
    assert half["predicted_step_seconds"] > 0 and half["step_seconds"] > 0, half
