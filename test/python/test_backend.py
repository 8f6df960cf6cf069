"""The torch.compile backend "ssd" on the CPU: training under a budget that
forces offload is bitwise identical to the same compilation without offload,
the bytes really go through files in offload_dir, and bad input fails early."""

from __future__ import annotations

import contextlib
import copy
import json
import logging
import os
import subprocess

import pytest
import torch

import ssdopt
from ssdopt import dynamo_backend, planning

NO_LIMIT = 1 << 50


def make_mlp() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 256), torch.nn.ReLU(),
        torch.nn.Linear(256, 10),
    )
    return model, (torch.randn(32, 64),)


def make_cnn() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
        torch.nn.Conv2d(16, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(16, 10),
    )
    return model, (torch.randn(8, 3, 16, 16),)


class TinyGPT2(torch.nn.Module):
    def __init__(self):
        super().__init__()
        from transformers import GPT2Config, GPT2LMHeadModel

        config = GPT2Config(
            n_layer=2, n_head=2, n_embd=64, vocab_size=256, n_positions=64,
            resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
        )
        self.model = GPT2LMHeadModel(config)

    def forward(self, tokens):
        return self.model(tokens, use_cache=False).logits


def make_gpt2() -> tuple[torch.nn.Module, tuple[torch.Tensor, ...]]:
    return TinyGPT2(), (torch.randint(0, 256, (4, 32)),)


MODELS = {"mlp": make_mlp, "cnn": make_cnn, "gpt2": make_gpt2}
OPTIMIZERS = {
    "sgd": lambda params: torch.optim.SGD(params, lr=0.05, momentum=0.9),
    "adamw": lambda params: torch.optim.AdamW(params, lr=1e-3),
}


def loss_of(output: torch.Tensor) -> torch.Tensor:
    return output.float().pow(2).mean()


def train(model, inputs, optimizer_name, steps, compile_backend=None):
    model = copy.deepcopy(model)
    optimizer = OPTIMIZERS[optimizer_name](model.parameters())
    forward = torch.compile(model, backend=compile_backend) if compile_backend else model
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        loss = loss_of(forward(*inputs))
        loss.backward()
        optimizer.step()
        losses.append(loss.detach().clone())
    return losses, [p.detach().clone() for p in model.parameters()]


def forcing_budget(model, inputs, offload_dir, inner="eager") -> int:
    """A budget below the unplanned peak that offloading saved activations
    can meet: the peak less a share of the movable bytes, the largest share
    (a third, a sixth, ...) for which ssd-opt finds a plan."""
    torch._dynamo.reset()
    start = len(dynamo_backend.planned_graphs())
    train(model, inputs, "sgd", 1, ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=offload_dir, inner=inner))
    graphs = dynamo_backend.planned_graphs()[start:]
    biggest = max(graphs, key=lambda graph: graph["movable_bytes"])
    assert biggest["movable_bytes"] > 0, biggest
    for share in (3, 6, 12, 24):
        budget = biggest["peak_bytes_before"] - biggest["movable_bytes"] // share
        torch._dynamo.reset()
        backend = ssdopt.backend(memory_budget=budget, offload_dir=offload_dir, inner=inner)
        try:
            train(model, inputs, "sgd", 1, backend)
        except Exception as error:  # BackendCompilerFailed around a PlanningError
            if "could not plan" not in str(error):
                raise
            continue
        finally:
            backend.close()  # its reserved data file
        return budget
    pytest.fail(f"no budget below the peak plans: {biggest}")


@pytest.mark.parametrize("model_name,optimizer_name", [("mlp", "adamw"), ("mlp", "sgd"), ("cnn", "sgd"), ("cnn", "adamw"), ("gpt2", "adamw")])
def test_offload_is_bitwise_identical(tmp_path, model_name, optimizer_name):
    torch.manual_seed(0)
    model, inputs = MODELS[model_name]()
    budget = forcing_budget(model, inputs, str(tmp_path))
    steps = 3

    torch._dynamo.reset()
    reference_losses, reference_params = train(
        model, inputs, optimizer_name, steps, ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path))
    )
    torch._dynamo.reset()
    ssdopt.reset_stats()
    start = len(dynamo_backend.planned_graphs())
    backend = ssdopt.backend(memory_budget=budget, offload_dir=str(tmp_path))
    losses, params = train(model, inputs, optimizer_name, steps, backend)
    stats = ssdopt.stats()
    graphs = stats["graphs"][start:]

    assert any(graph["offloaded_tensors"] > 0 for graph in graphs), graphs
    assert all(graph["peak_bytes_after"] <= budget for graph in graphs if graph["offloaded_tensors"])
    assert stats["bytes_written"] > 0
    # A tensor moved in several gaps is written once and read in each.
    assert stats["bytes_read"] >= stats["bytes_written"]
    assert stats["live_handles"] == 0
    # The store keeps its data file, the planned writes' space reserved in
    # it, from step to step; closing the store deletes it.
    assert os.listdir(tmp_path), "the reserved data file is kept between steps"
    backend.close()
    assert os.listdir(tmp_path) == [], "the offload files must be gone once the store is closed"

    for got, want in zip(losses, reference_losses):
        assert torch.equal(got, want)
    for got, want in zip(params, reference_params):
        assert torch.equal(got, want)

    eager_losses, eager_params = train(model, inputs, optimizer_name, steps)
    for got, want in zip(losses, eager_losses):
        torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-5)
    for got, want in zip(params, eager_params):
        torch.testing.assert_close(got, want, rtol=1e-3, atol=1e-4)


def test_registered_by_name_with_options(tmp_path, caplog):
    torch.manual_seed(0)
    model, inputs = make_mlp()
    budget = forcing_budget(model, inputs, str(tmp_path))
    torch._dynamo.reset()
    ssdopt.reset_stats()
    compiled = torch.compile(copy.deepcopy(model), backend="ssd", options={"memory_budget": budget, "offload_dir": str(tmp_path)})
    with caplog.at_level(logging.INFO, logger="ssdopt"):
        loss_of(compiled(*inputs)).backward()
    assert ssdopt.stats()["bytes_written"] > 0
    assert any("offloading" in record.getMessage() for record in caplog.records)


def test_inductor_inner(tmp_path):
    # ReLU rather than GELU: inductor's min-cut partition recomputes GELU in
    # the backward, where its peak then lies, beyond what moving saved
    # activations can lower.
    torch.manual_seed(0)
    model = torch.nn.Sequential(
        torch.nn.Linear(64, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256), torch.nn.ReLU(),
        torch.nn.Linear(256, 256), torch.nn.ReLU(), torch.nn.Linear(256, 10),
    )
    inputs = (torch.randn(256, 64),)
    budget = forcing_budget(model, inputs, str(tmp_path), inner="inductor")
    torch._dynamo.reset()
    ssdopt.reset_stats()
    losses, params = train(model, inputs, "sgd", 2, ssdopt.backend(memory_budget=budget, offload_dir=str(tmp_path), inner="inductor"))
    eager_losses, eager_params = train(model, inputs, "sgd", 2)
    assert ssdopt.stats()["bytes_written"] > 0
    for got, want in zip(params, eager_params):
        torch.testing.assert_close(got, want, rtol=1e-3, atol=1e-4)


def test_inductor_channels_last_saved_tensors_come_back_as_plain_inductor_has_them(tmp_path):
    """Inductor's layout optimization makes the saved convolution outputs
    channels-last; offloaded, they come back with those strides (each
    backward is compiled with the strides its forward's lowering chose),
    and the steps are bitwise those of plain inductor, whose buffer reuse
    stays on."""
    torch.manual_seed(0)
    nn = torch.nn
    model = nn.Sequential(
        nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 16, 3, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10),
    )
    inputs = (torch.randn(8, 3, 32, 32),)
    torch._dynamo.reset()
    reference_losses, reference_params = train(model, inputs, "sgd", 2, "inductor")
    torch._dynamo.reset()
    ssdopt.reset_stats()
    known = set(dynamo_backend._inductor_layouts)
    losses, params = train(
        model, inputs, "sgd", 2, ssdopt.backend(memory_budget="90%", offload_dir=str(tmp_path), inner="inductor")
    )
    assert ssdopt.stats()["bytes_written"] > 0
    strides = [layout.stride for token, layout in dynamo_backend._inductor_layouts.items() if token not in known]
    assert any(len(stride) == 4 and stride[1] == 1 for stride in strides), strides  # channels-last
    for got, want in zip(losses + params, reference_losses + reference_params):
        assert torch.equal(got, want)


def lowest_inductor_budget(model, inputs, tmp_path) -> int:
    """The lowest budget (to 1% of the peak) at which every role the backend
    moves plans inductor's partition of the model's one graph: one step at
    an unlimited budget exports it (inductor's code generation skipped),
    then ssd-opt alone bisects."""
    from functorch.compile import make_boxed_func

    reports = tmp_path / "probe"
    reports.mkdir()
    torch._dynamo.reset()
    start = len(dynamo_backend.planned_graphs())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dynamo_backend, "_inductor_inner_compile", lambda gm, example_inputs, **kwargs: make_boxed_func(gm.forward))
        backend = ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path), report_dir=str(reports), inner="inductor")
        train(model, inputs, "sgd", 1, backend)
    (graph,) = dynamo_backend.planned_graphs()[start:]
    step = (reports / f"graph{graph['graph']}.mlir").read_text()
    low, high = 0, graph["peak_bytes_before"]
    while high - low > graph["peak_bytes_before"] // 100:
        middle = (low + high) // 2
        try:
            planning.plan(step, memory_budget=middle, target=graph["target"], policy="ssd", movable=dynamo_backend.MOVABLE_ROLES)
            high = middle
        except planning.PlanningError as error:
            assert error.infeasible, error
            low = middle
    return high


def train_under_inductor_at(model, inputs, budget, offload_dir):
    """Two steps with the backend under inductor at `budget`: the losses and
    parameters, its one graph's entry, and the graphs inductor compiled."""
    compiled = []

    def inner_compile(gm, example_inputs, **kwargs):
        compiled.append(gm)
        return inner(gm, example_inputs, **kwargs)

    inner = dynamo_backend._inductor_inner_compile
    torch._dynamo.reset()
    start = len(dynamo_backend.planned_graphs())
    backend = ssdopt.backend(memory_budget=budget, offload_dir=offload_dir, inner="inductor")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dynamo_backend, "_inductor_inner_compile", inner_compile)
        losses, params = train(model, inputs, "sgd", 2, backend)
    backend.close()
    (graph,) = dynamo_backend.planned_graphs()[start:]
    assert graph["unapplied_moves"] == 0 and graph["fallback"] is None, graph
    return losses + params, graph, compiled


class _ResidualCNN(torch.nn.Module):
    """Three convolutions and a skip connection: at the lowest budget, the
    plan moves values inside the forward and inside the backward (the skip's
    gradient, made early in the backward and added late). `shifted` adds a
    constant (torch.full) used first and last."""

    def __init__(self, shifted: bool = False):
        super().__init__()
        nn = torch.nn
        self.conv1, self.conv2, self.conv3 = nn.Conv2d(3, 16, 3, padding=1), nn.Conv2d(16, 16, 3, padding=1), nn.Conv2d(16, 16, 3, padding=1)
        self.head = nn.Linear(16, 10)
        self.shifted = shifted

    def forward(self, x):
        y = self.conv1(x)
        shift = torch.full(y.shape, 0.5) if self.shifted else None
        y = torch.maximum(y, shift) if self.shifted else torch.relu(y)
        z = torch.relu(self.conv3(torch.relu(self.conv2(y))) + y)
        return self.head((z * shift if self.shifted else z).mean((2, 3)))


def test_inductor_moves_channels_last_values_inside_one_graph(tmp_path):
    """The model and its input in channels-last: a value moved inside the
    forward or the backward is written and waited for with the strides
    inductor's lowering gave it (the wait's lowering takes them from its
    offload's), and the steps are bitwise those of plain inductor."""
    torch.manual_seed(0)
    model = _ResidualCNN().to(memory_format=torch.channels_last)
    inputs = (torch.randn(8, 3, 16, 16).contiguous(memory_format=torch.channels_last),)
    budget = lowest_inductor_budget(model, inputs, tmp_path)
    torch._dynamo.reset()
    reference = train(model, inputs, "sgd", 2, "inductor")
    got, graph, compiled = train_under_inductor_at(model, inputs, budget, str(tmp_path))
    assert graph["moved_within_graph"] > 0, graph

    def tokens(gm, op):
        return {node.meta["ssdopt_layout"] for node in gm.graph.find_nodes(op="call_function", target=op)}

    within = set().union(*(tokens(gm, torch.ops.ssdopt.offload.default) & tokens(gm, torch.ops.ssdopt.wait.default) for gm in compiled))
    strides = [dynamo_backend._inductor_layouts[token].stride for token in within]
    assert any(len(stride) == 4 and stride[1] == 1 for stride in strides), strides  # channels-last
    for value, want in zip(got, reference[0] + reference[1]):
        assert torch.equal(value, want)


def test_inductor_never_moves_a_constant(tmp_path):
    """A constant is made again at each use (exporter.rematerialize_constants),
    so no plan moves it, even at the lowest budget, where one made once
    would move (the forward's torch.full, live from the first convolution
    to the last use): moved, it would be a buffer where plain inductor folds
    it into the kernels that use it. Bitwise those of plain inductor."""
    from ssdopt.exporter import makes_constant

    torch.manual_seed(0)
    model, inputs = _ResidualCNN(shifted=True), (torch.randn(8, 3, 16, 16),)
    budget = lowest_inductor_budget(model, inputs, tmp_path)
    torch._dynamo.reset()
    reference = train(model, inputs, "sgd", 2, "inductor")
    got, graph, compiled = train_under_inductor_at(model, inputs, budget, str(tmp_path))
    offloaded = [node.args[0] for gm in compiled for node in gm.graph.find_nodes(op="call_function", target=torch.ops.ssdopt.offload.default)]
    assert graph["moved_within_graph"] > 0, graph
    assert not any(makes_constant(node) for node in offloaded), offloaded
    for value, want in zip(got, reference[0] + reference[1]):
        assert torch.equal(value, want)


def test_graph_breaks_are_planned_separately(tmp_path):
    class Broken(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.first = torch.nn.Linear(32, 128)
            self.second = torch.nn.Linear(128, 32)

        def forward(self, x):
            x = torch.relu(self.first(x))
            torch._dynamo.graph_break()
            return torch.relu(self.second(x))

    torch._dynamo.reset()
    start = len(dynamo_backend.planned_graphs())
    model = Broken()
    compiled = torch.compile(model, backend=ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path)))
    loss_of(compiled(torch.randn(16, 32))).backward()
    assert len(dynamo_backend.planned_graphs()) - start == 2


@pytest.mark.parametrize(
    "options,message",
    [
        ({"memory_budget": "1GiB", "offload_dir": "{tmp}", "colour": "red"}, "unknown option 'colour'"),
        ({"memory_budget": "lots", "offload_dir": "{tmp}"}, "cannot parse memory size 'lots'"),
        ({"memory_budget": "1GiB", "offload_dir": "{tmp}/missing"}, "does not exist"),
        ({"offload_dir": "{tmp}"}, "needs the option 'memory_budget'"),
        ({"memory_budget": "1GiB"}, "needs the option 'offload_dir'"),
        ({"memory_budget": "1GiB", "offload_dir": "{tmp}", "inner": "tvm"}, "unknown inner compiler 'tvm'"),
        ({"memory_budget": "1GiB", "offload_dir": "{tmp}", "policy": "lru"}, "unknown policy 'lru'"),
        ({"memory_budget": "120%", "offload_dir": "{tmp}"}, "at most 100%"),
        ({"memory_budget": "x%", "offload_dir": "{tmp}"}, "expected a share like '80%'"),
        ({"memory_budget": "1GiB", "offload_dir": "{tmp}", "strict": "yes"}, "strict must be True or False"),
    ],
)
def test_bad_options_fail_before_compiling(tmp_path, options, message):
    options = {key: value.replace("{tmp}", str(tmp_path)) if isinstance(value, str) else value for key, value in options.items()}
    with pytest.raises(ValueError, match=message):
        ssdopt.backend(**options)
    model, inputs = make_mlp()
    torch._dynamo.reset()
    compiled = torch.compile(model, backend="ssd", options=options)
    with pytest.raises(Exception, match=message):
        compiled(*inputs)


@contextlib.contextmanager
def tmpfs(directory, options):
    """A tmpfs mounted on `directory` (root only) for the duration."""
    directory.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(directory)], check=True)
    try:
        yield str(directory)
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=True)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to mount a tmpfs")


@needs_root
def test_unwritable_offload_dir(tmp_path):
    with tmpfs(tmp_path / "ro", "size=1M,ro") as directory:
        with pytest.raises(ValueError, match="not writable"):
            ssdopt.backend(memory_budget="1GiB", offload_dir=directory)


def test_budget_no_plan_can_meet_is_an_error(tmp_path):
    model, inputs = make_mlp()
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=ssdopt.backend(memory_budget=1024, offload_dir=str(tmp_path)))
    with pytest.raises(Exception, match="ssd-opt could not plan") as raised:
        loss_of(compiled(*inputs)).backward()
    error = raised.value.inner_exception  # dynamo's BackendCompilerFailed
    assert isinstance(error, ssdopt.PlanningError) and error.infeasible
    assert error.op.startswith("aten.") and " %" in error.op, error.op
    assert error.budget_bytes == 1024 < error.required_bytes, str(error)
    assert error.unmovable_bytes <= error.required_bytes


class DataDependent(torch.nn.Module):
    """Keeps the rows whose sum is positive: how many is known only when
    the step runs, so the graph has a size ssd-opt cannot plan."""

    def __init__(self):
        super().__init__()
        self.linear = torch.nn.Linear(32, 32)

    def forward(self, x):
        hidden = torch.relu(self.linear(x))
        return hidden[hidden.sum(dim=1) > 0]


@pytest.mark.parametrize("inner", ["eager", "inductor"])
def test_a_graph_it_cannot_plan_runs_without_offload(tmp_path, caplog, inner):
    torch.manual_seed(0)
    model, inputs = DataDependent(), (torch.randn(64, 32),)
    with torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True):
        torch._dynamo.reset()
        reference_losses, reference_params = train(model, inputs, "sgd", 2, "aot_eager" if inner == "eager" else "inductor")
        torch._dynamo.reset()
        start = len(dynamo_backend.planned_graphs())
        with caplog.at_level(logging.WARNING, logger="ssdopt"):
            losses, params = train(
                model, inputs, "sgd", 2, ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path), inner=inner)
            )
    graphs = dynamo_backend.planned_graphs()[start:]
    assert [graph["fallback"] is not None for graph in graphs] == [True], graphs
    assert "symbolic shape" in graphs[0]["fallback"]
    assert ssdopt.stats()["fallback_graphs"] >= 1
    assert any("cannot be planned, so it runs without offload" in record.getMessage() for record in caplog.records)
    for got, want in zip(losses + params, reference_losses + reference_params):
        assert torch.equal(got, want)


def test_strict_makes_a_graph_it_cannot_plan_an_error(tmp_path):
    model, inputs = DataDependent(), (torch.randn(64, 32),)
    with torch._dynamo.config.patch(capture_dynamic_output_shape_ops=True):
        torch._dynamo.reset()
        compiled = torch.compile(model, backend=ssdopt.backend(memory_budget=NO_LIMIT, offload_dir=str(tmp_path), strict=True))
        with pytest.raises(Exception, match="symbolic shape"):
            loss_of(compiled(*inputs)).backward()


def test_share_of_the_peak_budget(tmp_path):
    torch.manual_seed(0)
    model, inputs = make_mlp()
    torch._dynamo.reset()
    start = len(dynamo_backend.planned_graphs())
    train(model, inputs, "sgd", 1, ssdopt.backend(memory_budget="95%", offload_dir=str(tmp_path)))
    (graph,) = dynamo_backend.planned_graphs()[start:]
    assert graph["memory_budget_bytes"] == int(graph["peak_bytes_before"] * 0.95)
    assert graph["peak_bytes_after"] <= graph["memory_budget_bytes"] and graph["offloaded_tensors"] > 0


@needs_root
def test_disk_full_during_the_step_raises(tmp_path):
    torch.manual_seed(0)
    model, inputs = make_mlp()
    budget = forcing_budget(model, inputs, str(tmp_path))
    with tmpfs(tmp_path / "small", "size=4K") as small:
        torch._dynamo.reset()
        compiled = torch.compile(copy.deepcopy(model), backend=ssdopt.backend(memory_budget=budget, offload_dir=small))
        with pytest.raises(RuntimeError, match=r"(?i)no space|ENOSPC"):
            loss_of(compiled(*inputs)).backward()


def test_report_dir_gets_each_graphs_plan(tmp_path):
    torch.manual_seed(0)
    model, inputs = make_mlp()
    budget = forcing_budget(model, inputs, str(tmp_path))
    reports = tmp_path / "reports"
    reports.mkdir()
    offload = tmp_path / "offload"
    offload.mkdir()
    torch._dynamo.reset()
    start = len(dynamo_backend.planned_graphs())
    train(model, inputs, "sgd", 1, ssdopt.backend(memory_budget=budget, offload_dir=str(offload), report_dir=str(reports)))
    graph = dynamo_backend.planned_graphs()[start]
    report = json.loads((reports / f"graph{graph['graph']}.json").read_text())
    assert report["memory_budget_bytes"] == budget
    assert report["peak_bytes_after"] <= budget < report["peak_bytes_before"]
    assert any(gap["writes"] for gap in report["plan"])


def test_inductor_keeps_the_runtime_ops_in_graph_order(tmp_path, monkeypatch):
    """Inductor orders kernels by their data only, and may pick another
    topological order for its estimate of peak memory: the second prefetch
    of one copy on disk depends on the handle alone, and ran before the
    first gap's wait, which the runtime refuses ("already prefetched").
    The backend's lowerings keep the runtime ops in graph order, even under
    a breadth-first order that starts every prefetch as soon as it can."""
    from torch._inductor import memory
    from torch._inductor.compile_fx import compile_fx_inner
    from torch._inductor.utils import run_and_get_code
    from torch.fx.experimental.proxy_tensor import make_fx

    from ssdopt import runtime

    store = runtime.open_store(str(tmp_path))
    ops = torch.ops.ssdopt

    def step(x):
        y = x * 2
        handle = ops.offload(y, store)
        first = ops.wait(ops.prefetch(handle), list(y.shape), list(y.stride()), y.dtype, y.device, keep=True)
        z = first.sin() * 3
        second = ops.wait(ops.prefetch(handle), list(y.shape), list(y.stride()), y.dtype, y.device)
        return (z + second.cos(),)

    x = torch.randn(64, 64)
    gm = make_fx(step)(x)
    dynamo_backend._register_inductor_offload()

    def breadth_first(nodes, *planning_info):
        memory.prepare_planning_info(nodes, *planning_info)
        return memory.topological_sort_bfs(nodes)

    monkeypatch.setattr(memory, "reorder_for_peak_memory", breadth_first)
    compiled, (code,) = run_and_get_code(lambda: compile_fx_inner(gm, [x]))
    calls = [line.split("(")[0].split(".")[-2] for line in code.splitlines() if "torch.ops.ssdopt." in line and "=" in line]
    assert calls == ["offload", "prefetch", "wait", "prefetch", "wait"], calls
    (got,) = compiled([x.clone()])
    torch.testing.assert_close(got, step(x)[0])
    runtime.close_store(store)
