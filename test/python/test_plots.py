"""Tests of bench/planner/plots.py on a step planned by ssd-opt: the memory
timeline reads the Chrome trace's device-memory counter (the planned and
unplanned peaks of the report, the budget, the backward start) and draws
PNGs; step time against budget draws one PNG per model with the
recomputation baseline beside the offload policies."""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "planner"))
plots = pytest.importorskip("plots")

STEP = ROOT / "test" / "Transforms" / "offload-pipeline-recompute.mlir"
PNG = b"\x89PNG\r\n\x1a\n"


def pipeline(ssd_opt, tmp_path, budget, policy="ssd", trace=None):
    report = tmp_path / f"{policy}-{budget}.json"
    options = f"memory-budget={budget} policy={policy} report={report} report-recompute=1"
    if trace:
        options += f" report-trace={trace}"
    subprocess.run([ssd_opt, str(STEP), "-o", "/dev/null",
                    f"-ssd-offload-pipeline={options}"], check=True)
    return json.loads(report.read_text())


def test_timeline_from_the_trace(ssd_opt, tmp_path):
    trace = tmp_path / "trace.json"
    report = pipeline(ssd_opt, tmp_path, 40960, trace=trace)
    info, slices, memory = plots._read_trace(trace)
    assert info["memory_budget_bytes"] == 40960
    assert info["backward_start"] == 3
    assert len(memory) == report["ops"] + 1  # every op and the return
    assert max(e["args"]["planned"] for e in memory) == report["peak_bytes_after"]
    assert max(e["args"]["unplanned"] for e in memory) == report["peak_bytes_before"]
    assert len(slices["compute"]) == report["ops"]
    assert slices.get("ssd_write") and slices.get("ssd_read")  # the offload of f@0
    out = plots.timeline(trace, tmp_path / "timeline.png")
    assert pathlib.Path(out).read_bytes().startswith(PNG)


def test_step_time_against_budget(ssd_opt, tmp_path):
    rows = []
    for budget in (40960, 45000):
        for policy in ("ssd", "fixed-depth"):
            report = pipeline(ssd_opt, tmp_path, budget, policy)
            row = {"model": "tiny", "target": report["target"], "budget": str(budget),
                   "budget_bytes": budget, "policy": policy,
                   "peak_bytes_before": report["peak_bytes_before"],
                   "compute_seconds": report["compute_seconds"],
                   "predicted_step_seconds": report["predicted_step_seconds"]}
            rows.append(row)
            if policy == "ssd":
                recompute = report["recompute"]
                assert recompute["fits"]
                rows.append({**row, "policy": "recompute", "fits": True,
                             "predicted_step_seconds": recompute["predicted_step_seconds"]})
    written = plots.step_time_against_budget(rows, tmp_path / "plots")
    assert [pathlib.Path(p).name for p in written] == ["budget-tiny.png"]
    assert pathlib.Path(written[0]).read_bytes().startswith(PNG)
