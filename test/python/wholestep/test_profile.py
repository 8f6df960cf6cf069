"""compile_step's profile-guided planning (options={"profile_steps": N}):
the first N steps of a shape time each op, the shape is planned again with
the medians as the ops' cost_seconds, and the results stay bitwise those of
the unprofiled step (a plan decides only where tensors live)."""

from __future__ import annotations

import logging
import re

import pytest
import torch

import ssdopt
from ssdopt import planning, wholestep

import cases


def run(ssd_opt, directory, **extra):
    model, batches, loss_fn = cases.mlp()
    optimizer = cases.adamw(model)
    options = {"memory_budget": "50%", "offload_dir": str(directory), "ssd_opt": ssd_opt,
               "max_grad_norm": 1.0, **extra}
    with ssdopt.compile_step(model, optimizer, loss_fn, options) as step:
        losses = [step(**batch).detach().clone() for batch in batches]
        state = {name: value.clone() for name, value in step.state_dict().items()}
        record = step._programs[step._key((), batches[0])].record
        return losses, state, record


def test_profiled_step_is_bitwise_the_unprofiled_one_and_replanned(ssd_opt, tmp_path, caplog):
    plain_dir, profiled_dir, reports = tmp_path / "plain", tmp_path / "profiled", tmp_path / "reports"
    for directory in (plain_dir, profiled_dir, reports):
        directory.mkdir()
    losses, state, plain = run(ssd_opt, plain_dir)
    assert plain["profiled_op_seconds"] is None
    before = len(wholestep.planned_programs())
    with caplog.at_level(logging.INFO, logger="ssdopt"):
        profiled_losses, profiled_state, record = run(ssd_opt, profiled_dir, profile_steps=2,
                                                      report_dir=str(reports))
    # Same values, whatever the second plan moves.
    assert all(torch.equal(a, b) for a, b in zip(losses, profiled_losses))
    assert state.keys() == profiled_state.keys()
    assert all(torch.equal(state[name], profiled_state[name]) for name in state)
    # One record per program: the re-plan's replaced the first plan's.
    assert len(wholestep.planned_programs()) == before + 1
    assert wholestep.planned_programs()[-1] is record
    assert record["steps"] == 5
    assert any("re-planned the step" in message for message in caplog.messages)
    # The re-planned graph: every ssd.kernel carries the measured time, and
    # the predicted compute is their sum (the unprofiled plan's was the model's).
    # report_dir numbers the plans: the first one's graph, then the re-plan's.
    first, replanned = sorted(reports.glob("step*.mlir"), key=lambda p: int(p.stem[4:]))
    text = replanned.read_text()
    kernels = [line for line in text.splitlines() if '= "ssd.kernel"(' in line]
    costs = [float(re.search(r"cost_seconds = ([^ ]+) : f64", line)[1]) for line in kernels]
    assert len(costs) == len(kernels) > 0
    assert "cost_seconds" not in first.read_text()
    assert sum(costs) > 0
    assert record["profiled_op_seconds"] == pytest.approx(sum(costs), rel=1e-9)
    assert record["predicted_compute_seconds"] == pytest.approx(sum(costs), rel=1e-6)
    assert record["predicted_compute_seconds"] != plain["predicted_compute_seconds"]
    # It still plans transfers at this budget.
    assert record["bytes_offloaded"] > 0


def test_cost_seconds_text_and_bad_option(ssd_opt, tmp_path):
    text = ('    %a = "ssd.kernel"(%x) {name = "aten.relu", flops = 0.0 : f64, bytes = 8 : i64} '
            ': (tensor<2xf32>) -> tensor<2xf32>')
    assert 'cost_seconds = 1e-05 : f64' not in planning.with_cost_seconds(text, [1e-5])
    assert '{cost_seconds = 1.0e-05 : f64, name = "aten.relu"' in planning.with_cost_seconds(text, [1e-5])
    with pytest.raises(ValueError, match="1 ssd.kernel ops, but 2 op times"):
        planning.with_cost_seconds(text, [1e-5, 2e-5])
    model, _, loss_fn = cases.mlp()
    with pytest.raises(wholestep.StepError, match="profile_steps must be a non-negative integer"):
        ssdopt.compile_step(model, cases.adamw(model), loss_fn, {
            "memory_budget": "50%", "offload_dir": str(tmp_path), "ssd_opt": ssd_opt,
            "profile_steps": -1})


def test_new_budget_profiles_again_under_its_plan(ssd_opt, tmp_path):
    """A new memory_budget drops the times: its first plan is the model's,
    its next profile_steps steps are timed, then it is planned with them."""
    model, batches, loss_fn = cases.mlp()
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn, {
            "memory_budget": "100%", "offload_dir": str(tmp_path), "ssd_opt": ssd_opt,
            "profile_steps": 1}) as step:
        key = step._key((), batches[0])
        for batch in batches[:2]:  # the first (not profiled), the profile
            step(**batch)
        assert step._programs[key].record["profiled_op_seconds"] is not None
        step.memory_budget = "50%"
        first = step.prepare(**batches[0])
        assert first["profiled_op_seconds"] is None
        step(**batches[2])
        replanned = step._programs[key].record
        assert replanned is not first and replanned["profiled_op_seconds"] is not None
        assert replanned["predicted_compute_seconds"] == pytest.approx(replanned["profiled_op_seconds"],
                                                                       rel=1e-6)
