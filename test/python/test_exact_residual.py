"""policy=exact on the smallest steps of the second generator
(bench/planner/residual_mlp.py), at the budgets bench/planner/models
compares against the optimum (residual_mlp.exact_family()): the search
proves the optimum within a node limit (deterministic, unlike the time
limit), the plan meets the budget, no heuristic policy is faster and the
latency-aware lower bound is not beaten; a node limit that ends the search
says so. (The bound that makes a 1-layer member fit in 10^6 nodes is the
one of docs/planner.md, "The exact policy"; the search before it needed
more.)"""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench" / "planner"))
import residual_mlp  # noqa: E402

TARGET = "h100-pcie5-pm1743"
POLICIES = ["ssd", "reload-on-use", "stash-window", "aot-prefetch", "fixed-depth"]
# The smallest member of each depth in the exact family.
CASES = [(member, percent) for member, percent in residual_mlp.exact_family()
         if member.width == 16]


def pipeline(ssd_opt, path, report, options):
    proc = subprocess.run(
        [ssd_opt, str(path), "-o", "/dev/null",
         f"-ssd-offload-pipeline=target={TARGET} group-min-bytes=0 {options} "
         f"report={report}"], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr
    return json.loads(report.read_text()), ""


def test_the_cases_cover_both_depths():
    assert sorted(member.layers for member, _ in CASES) == [1, 2]


@pytest.mark.parametrize("member,percent", CASES, ids=lambda c: getattr(c, "name", c))
def test_exact_proves_the_optimum(ssd_opt, tmp_path, member, percent):
    path = tmp_path / f"{member.name}.mlir"
    ops = residual_mlp.write_step(member, path)
    assert ops <= 80
    unplanned, error = pipeline(ssd_opt, path, tmp_path / "peak.json", "memory-budget=1TB")
    assert unplanned, error
    budget = unplanned["peak_bytes_before"] * percent // 100
    exact, error = pipeline(
        ssd_opt, path, tmp_path / "exact.json",
        f"memory-budget={budget} policy=exact exact-time-limit=600 "
        f"exact-node-limit=1000000")
    assert exact, error
    assert exact["policy_detail"] == "optimal"
    assert exact["peak_bytes_after"] <= budget < unplanned["peak_bytes_before"]
    assert exact["bytes_offloaded"] > 0
    optimum = exact["predicted_step_seconds"]
    assert optimum >= exact["lower_bound_latency_seconds"] * (1 - 1e-9)
    for policy in POLICIES:
        report, error = pipeline(ssd_opt, path, tmp_path / f"{policy}.json",
                                 f"memory-budget={budget} policy={policy}")
        assert report, error
        assert optimum <= report["predicted_step_seconds"] * (1 + 1e-9), policy


def test_a_node_limit_that_ends_the_search_says_so(ssd_opt, tmp_path):
    member, percent = CASES[0]
    path = tmp_path / f"{member.name}.mlir"
    residual_mlp.write_step(member, path)
    unplanned, _ = pipeline(ssd_opt, path, tmp_path / "peak.json", "memory-budget=1TB")
    budget = unplanned["peak_bytes_before"] * percent // 100
    report, error = pipeline(ssd_opt, path, tmp_path / "exact.json",
                             f"memory-budget={budget} policy=exact exact-node-limit=1000")
    assert report is None
    assert "node limit of 1000 nodes before proving a plan optimal" in error
    assert "exact-node-limit" in error
