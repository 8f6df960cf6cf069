"""The "ssd" backend on the model zoo (catalog.py): each model trains 3 AdamW
steps with dropout on, and

(a) at an unlimited budget, losses and parameters are bitwise those of
    `aot_eager`;
(b) at a budget below its peak, bitwise those of (a), with bytes written to
    and read back from the offload directory, which is empty afterwards;
(c) with inductor as the inner compiler, at a budget below its peak, bitwise
    those of plain inductor (its layout optimization, buffer reuse and
    in-place buffers on, as plain inductor has them), with bytes moved.

Also a variable input size: a second sequence length is planned on its own,
at a budget below its peak.
The reach and overhead of each model are measured by bench/python/zoo.
"""

from __future__ import annotations

import logging
import os

import pytest
import torch

import ssdopt
from ssdopt import dynamo_backend, planning

from catalog import ZOO, ZooModel, train

NO_LIMIT = 1 << 50

# The unlimited run of each model, and where its planned steps are, for (b).
_unlimited: dict[str, tuple[object, list[dict], str]] = {}


def graphs_since(start: int) -> list[dict]:
    return dynamo_backend.planned_graphs()[start:]


def unlimited_run(spec: ZooModel, tmp_path_factory) -> tuple[object, list[dict], str]:
    """(a)'s run: the result, the entries of its graphs, and the report_dir
    holding each graph's planned step."""
    if spec.name not in _unlimited:
        reports = str(tmp_path_factory.mktemp(f"{spec.name}-reports"))
        offload = str(tmp_path_factory.mktemp(f"{spec.name}-offload"))
        start = len(dynamo_backend.planned_graphs())
        run = train(spec, ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=offload, report_dir=reports))
        _unlimited[spec.name] = (run, graphs_since(start), reports)
    return _unlimited[spec.name]


def forcing_budget(graphs: list[dict], reports: str) -> int:
    """The lowest budget that every graph's exported step plans with what
    the backend may move (bisection on the largest graph to 1% of its peak,
    then raised to what the others need): every kind of move the backend
    makes is forced, moves inside the forward and inside the backward too."""
    # Graphs that have no step to plan (nothing to move) were not planned.
    planned = sorted((graph for graph in graphs if graph.get("peak_bytes_before")),
                     key=lambda graph: -graph["peak_bytes_before"])
    steps = [open(os.path.join(reports, f"graph{graph['graph']}.mlir")).read() for graph in planned]
    peak = planned[0]["peak_bytes_before"]

    def plans(step: str, budget: int) -> bool:
        try:
            planning.plan(step, memory_budget=budget, target=planned[0]["target"], policy="ssd",
                          movable=dynamo_backend.MOVABLE_ROLES)
        except planning.PlanningError as error:
            assert error.infeasible, error
            return False
        return True

    def lowest(step: str, low: int, high: int) -> int:
        while high - low > peak // 100:
            middle = (low + high) // 2
            low, high = (low, middle) if plans(step, middle) else (middle, high)
        return high

    budget = lowest(steps[0], 0, peak)
    for graph, step in zip(planned[1:], steps[1:]):
        if not plans(step, budget):
            budget = lowest(step, budget, graph["peak_bytes_before"])
    assert budget < peak, f"no budget below the peak plans: {planned[0]}"
    return budget


def needs_moves_within_a_graph(graphs: list[dict], reports: str, budget: int) -> bool:
    """Whether moving saved activations alone (from the forward to the
    backward) cannot meet `budget` in some graph."""
    for graph in graphs:
        if not graph.get("peak_bytes_before"):
            continue
        step = open(os.path.join(reports, f"graph{graph['graph']}.mlir")).read()
        try:
            planning.plan(step, memory_budget=budget, target=graph["target"], policy="ssd", movable="activation")
        except planning.PlanningError as error:
            assert error.infeasible, error
            return True
    return False


def assert_offloaded_and_cleaned(stats: dict, backend, offload_dir: str, graphs: list[dict], within: bool) -> None:
    """After runs since ssdopt.reset_stats() that planned `graphs` with
    `backend`; `within`: the budget needs moves inside a graph."""
    # A tensor moved in several gaps is written once and read in each.
    assert stats["bytes_written"] > 0 and stats["bytes_read"] >= stats["bytes_written"], stats
    assert stats["reloads"] >= stats["offloads"], stats
    assert not within or any(graph["moved_within_graph"] for graph in graphs), graphs
    assert all(graph["unapplied_moves"] == 0 for graph in graphs if "unapplied_moves" in graph), graphs
    assert all(graph["fallback"] is None for graph in graphs), graphs
    # The store keeps its data file (the planned writes' space reserved)
    # from step to step; closing it deletes the file.
    assert os.listdir(offload_dir), "the store's reserved data file is kept between steps"
    backend.close()
    assert os.listdir(offload_dir) == [], "the offload files must be gone once the store is closed"


MODELS = sorted(name for name, spec in ZOO.items() if spec.in_suite)
# (a) and (b) of a model share (a)'s run (unlimited_run): one xdist worker
# runs both. Every other case stands alone, so the workers take the models'
# cases side by side (test/python/conftest.py).
WITH_UNLIMITED_RUN = [pytest.param(name, marks=pytest.mark.xdist_group(f"zoo-{name}")) for name in MODELS]


@pytest.mark.parametrize("name", WITH_UNLIMITED_RUN)
def test_a_unlimited_budget_is_aot_eager(name, tmp_path_factory):
    spec = ZOO[name]
    run, graphs, _ = unlimited_run(spec, tmp_path_factory)
    assert graphs and all(graph["fallback"] is None for graph in graphs), graphs
    assert all(graph["offloaded_tensors"] == 0 for graph in graphs)
    assert run.bitwise_equal(train(spec, "aot_eager"))


@pytest.mark.parametrize("name", WITH_UNLIMITED_RUN)
def test_b_forced_offload_is_the_unlimited_run(name, tmp_path_factory, tmp_path):
    spec = ZOO[name]
    unlimited, graphs, reports = unlimited_run(spec, tmp_path_factory)
    budget = forcing_budget(graphs, reports)
    ssdopt.reset_stats()
    start = len(dynamo_backend.planned_graphs())
    backend = ssdopt.backend(memory_budget=budget, offload_dir=str(tmp_path))
    run = train(spec, backend)
    stats = ssdopt.stats()
    planned = graphs_since(start)
    assert any(graph["offloaded_tensors"] for graph in planned), planned
    assert all(graph["peak_bytes_after"] <= budget for graph in planned if graph["peak_bytes_after"])
    assert_offloaded_and_cleaned(stats, backend, str(tmp_path), planned, needs_moves_within_a_graph(graphs, reports, budget))
    assert run.bitwise_equal(unlimited)


@pytest.fixture
def deterministic():
    """Inductor's CPU scatter-adds (embedding backward) are atomic adds in
    threads, whose order varies from run to run: bitwise comparisons need
    torch's deterministic mode, which makes inductor call ATen for them."""
    previous = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    yield
    torch.use_deterministic_algorithms(previous)


def eager_inner_compile(gm, example_inputs, **kwargs):
    """In place of inductor's code generation: runs the partitioned graph
    as it is. The graphs and the plans are those of an inductor compile
    (everything before code generation is inductor's own)."""
    from functorch.compile import make_boxed_func

    return make_boxed_func(gm.forward)


# (c) runs on every model; SSDOPT_ZOO_INDUCTOR=gpt2,bert (a comma list)
# narrows it while working on the backend.
_INDUCTOR_CHOICE = os.environ.get("SSDOPT_ZOO_INDUCTOR", "all")
INDUCTOR_MODELS = MODELS if _INDUCTOR_CHOICE == "all" else [
    name for name in MODELS if name in _INDUCTOR_CHOICE.split(",")
]


# Each (c) case compiles inductor's kernels for plain inductor and for the
# offload run, about 1.2 CPU-s of g++ each with the cache cold (60-110 per
# model). These models keep inductor's vectorized kernels; the others compile
# scalar ones (`cpp.vec_isa_ok=False` for both runs), which costs a third less
# (GPT-2 100 -> 67 CPU-s, MobileNetV3 161 -> 111, docs/development.md) and
# changes nothing (c) checks: the partition, the layouts, buffer reuse and
# where the moves go are all decided before code generation.
VECTORIZED = {"gpt2", "resnet50"}


@pytest.mark.long
@pytest.mark.parametrize("name", INDUCTOR_MODELS)
def test_c_inductor_inner_is_plain_inductor(name, tmp_path_factory, tmp_path, deterministic, monkeypatch):
    from torch._inductor import config

    if name not in VECTORIZED:
        monkeypatch.setattr(config.cpp, "vec_isa_ok", False)
    spec = ZOO[name]
    # One step at an unlimited budget finds the peaks of inductor's
    # partition (its min-cut saves other tensors than the default one),
    # without inductor's code generation, which that step does not need.
    reports = str(tmp_path_factory.mktemp(f"{name}-inductor-reports"))
    start = len(dynamo_backend.planned_graphs())
    with monkeypatch.context() as patch:
        patch.setattr(dynamo_backend, "_inductor_inner_compile", eager_inner_compile)
        train(spec, ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path), report_dir=reports, inner="inductor"), steps=1)
    probe = graphs_since(start)
    budget = forcing_budget(probe, reports)
    reference = train(spec, "inductor")
    ssdopt.reset_stats()
    start = len(dynamo_backend.planned_graphs())
    backend = ssdopt.backend(memory_budget=budget, offload_dir=str(tmp_path), inner="inductor")
    run = train(spec, backend)
    assert_offloaded_and_cleaned(ssdopt.stats(), backend, str(tmp_path), graphs_since(start),
                                 needs_moves_within_a_graph(probe, reports, budget))
    assert run.bitwise_equal(reference)


@pytest.mark.long
@pytest.mark.parametrize("name", ["gpt2", "bert"])
def test_another_sequence_length_is_planned_for_its_shape(name, tmp_path_factory, tmp_path, caplog):
    """The second length makes dynamo recompile the graph with symbolic
    sizes; the backend plans it once per concrete shape, at a budget below
    the longer sequence's peak."""
    spec = ZOO[name]
    sizes = [spec.size, spec.other_size, spec.size]
    reference = train(spec, "aot_eager", sizes)
    reports = str(tmp_path_factory.mktemp(f"{name}-sizes-reports"))
    start = len(dynamo_backend.planned_graphs())
    unlimited = train(spec, ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path), report_dir=reports), sizes)
    sized = graphs_since(start)
    budget = forcing_budget(sized, reports)
    ssdopt.reset_stats()
    start = len(dynamo_backend.planned_graphs())
    with caplog.at_level(logging.INFO, logger="ssdopt"):
        backend = ssdopt.backend(memory_budget=budget, offload_dir=str(tmp_path))
        run = train(spec, backend, sizes)
    planned_shapes = [record.getMessage() for record in caplog.records if "planning the graph for the shapes" in record.getMessage()]
    assert any(f"(2, {spec.other_size})" in message for message in planned_shapes), planned_shapes
    assert any(f"(2, {spec.size})" in message for message in planned_shapes), planned_shapes
    assert_offloaded_and_cleaned(ssdopt.stats(), backend, str(tmp_path), graphs_since(start),
                                 needs_moves_within_a_graph(sized, reports, budget))
    assert unlimited.bitwise_equal(reference)
    assert run.bitwise_equal(reference)
