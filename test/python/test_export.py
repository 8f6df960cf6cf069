"""Tests of the exporter: FX graphs and whole training steps as the input IR
of ssd-opt, which must accept them (ssd-verify-graph) and plan them at 75% of
their unplanned peak."""

import functools
import json
import operator
import pathlib
import re
import subprocess
import sys

import pytest
import torch
import torch.nn.functional as F
from torch.fx.experimental.proxy_tensor import make_fx

import models
from ssdopt.exporter import ExportError, export, export_step, fx_to_mlir, makes_constant, rematerialize_constants

HERE = pathlib.Path(__file__).resolve().parent
KERNEL = re.compile(r'^\s*%\S+ = "ssd.kernel"\(.*\{name = "([^"]+)", '
                    r"flops = ([^ ]+) : f64, bytes = (\d+) : i64(?:, view_of = (\d+) : i64)?\}",
                    re.M)


def run_ssd_opt(ssd_opt, text, *flags):
    result = subprocess.run([ssd_opt, *flags, "-"], input=text, text=True,
                            capture_output=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def plan(ssd_opt, text, budget, tmp_path):
    report = tmp_path / f"report-{budget}.json"
    run_ssd_opt(ssd_opt, text,
                f"--ssd-offload-pipeline=memory-budget={budget} report={report}")
    return json.loads(report.read_text())


def kernels(text):
    return KERNEL.findall(text)


# ---------------------------------------------------------------------------
# fx_to_mlir on small graphs, checked exactly
# ---------------------------------------------------------------------------


def tiny_graph():
    def f(x, w, mask, step):
        y = torch.mm(x, w)
        return (y * mask).sum(), w - y.t().mm(x).t(), step + 1

    args = (torch.randn(4, 8), torch.randn(8, 16),
            torch.ones(4, 16, dtype=torch.bool), torch.tensor(3))
    return make_fx(f, tracing_mode="fake")(*args)


def test_tiny_graph_args_results_and_costs(ssd_opt):
    gm = tiny_graph()
    exported = fx_to_mlir(gm, arg_roles=["input", "param", "input", "buffer"],
                          arg_names=["x", "layer0.weight", "mask", "step"],
                          result_names=[None, "layer0.weight", "step"])
    text = exported.text
    assert re.search(r'%\w+: tensor<4x8xf32> \{ssd.role = "input", ssd.name = "x"\}', text)
    assert re.search(r'%\w+: tensor<8x16xf32> \{ssd.role = "param", '
                     r'ssd.name = "layer0.weight"\}', text)
    assert re.search(r'%\w+: tensor<4x16xi1> \{ssd.role = "input", ssd.name = "mask"\}', text)
    assert re.search(r'%\w+: tensor<i64> \{ssd.role = "buffer", ssd.name = "step"\}', text)
    assert re.search(r'-> \(tensor<f32>,\s+tensor<8x16xf32> \{ssd.name = "layer0.weight"\},'
                     r'\s+tensor<i64> \{ssd.name = "step"\}\)', text)

    found = kernels(text)
    names = [name for name, *_ in found]
    assert names == [str(n.target) for n in exported.op_nodes]
    assert names[0] == "aten.mm.default"
    assert float(found[0][1]) == 2 * 4 * 16 * 8
    assert int(found[0][2]) == (4 * 8 + 8 * 16 + 4 * 16) * 4
    transpose = names.index("aten.t.default")
    assert int(found[transpose][2]) == 0  # a view moves no bytes
    assert found[transpose][3] == "0"  # and shares its operand's storage
    assert found[0][3] == ""  # mm makes a tensor of its own
    assert [n.name for n in exported.result_nodes] == [
        str(a) for a in gm.graph.output_node().args[0]]
    assert "ssd.backward_start" not in text
    run_ssd_opt(ssd_opt, text, "--ssd-verify-graph")


@pytest.mark.parametrize("dtype, element", [
    (torch.float16, "f16"), (torch.bfloat16, "bf16"), (torch.float64, "f64"),
    (torch.int32, "i32"), (torch.int8, "i8"), (torch.uint8, "ui8"),
    (torch.complex64, "complex<f32>"),
])
def test_dtypes(dtype, element):
    gm = make_fx(lambda x: x + x, tracing_mode="fake")(torch.zeros(2, 3, dtype=dtype))
    text = fx_to_mlir(gm, arg_roles=["input"], arg_names=["x"],
                      result_names=[None]).text
    assert f"tensor<2x3x{element}>" in text


def test_parts_of_split_and_unbind_are_views(ssd_opt):
    def f(x, w):
        h = torch.mm(x, w)
        q, k = torch.split(h, 8, dim=1)
        rows = torch.unbind(h, 0)
        y, mean, rstd = torch.ops.aten.native_layer_norm(h, [16], None, None, 1e-5)
        return (q * k).sum() + rows[1].sum() + y.sum()

    gm = make_fx(f, tracing_mode="fake")(torch.randn(4, 8), torch.randn(8, 16))
    exported = fx_to_mlir(gm, arg_roles=["input", "param"], arg_names=["x", "w"],
                          result_names=[None])
    by_name = {name: view for name, _, _, view in kernels(exported.text)}
    # Every part shares the storage of the mm's result (operand 0).
    assert by_name["aten.split.Tensor"] == "0"
    assert by_name["aten.unbind.int"] == "0"
    # Several results that are not views stay tensors of their own.
    assert by_name["aten.native_layer_norm.default"] == ""
    assert re.search(r'%\w+:2 = "ssd.kernel"\(%\w+\) \{name = "aten.split.Tensor"', exported.text)
    run_ssd_opt(ssd_opt, exported.text, "--ssd-verify-graph")
    run_ssd_opt(ssd_opt, exported.text, "--ssd-offload-pipeline=memory-budget=1KiB")


PART_OFFSETS = re.compile(r'name = "([^"]+)"[^}]*view_of = 0 : i64(?:, part_offsets = array<i64: ([0-9, ]+)>)?\}')


def test_parts_of_rows_carry_their_offsets(ssd_opt):
    def f(x, w):
        h = torch.mm(x, w)  # 8 rows of 64 bytes
        rows = h[2:6]
        return (rows.sum() + torch.narrow(h, 0, 1, 3).sum()
                + torch.split(h, 3, dim=0)[2].sum() + torch.unbind(h, 0)[3].sum()
                + h.select(0, 5).sum() + rows[1].sum()
                + torch.split(h, 8, dim=1)[1].sum() + rows.reshape(-1).sum() + h.t().sum())

    gm = make_fx(f, tracing_mode="fake")(torch.randn(8, 4), torch.randn(4, 16))
    text = fx_to_mlir(gm, arg_roles=["input", "param"], arg_names=["x", "w"],
                      result_names=[None], parts=True).text
    assert PART_OFFSETS.findall(text) == [
        ("aten.slice.Tensor", "128"),  # rows 2-5
        ("aten.slice.Tensor", "64"),  # narrow: rows 1-3
        ("aten.split.Tensor", "0, 192, 384"),
        ("aten.unbind.int", "0, 64, 128, 192, 256, 320, 384, 448"),
        ("aten.select.int", "320"),
        ("aten.select.int", "64"),  # row 1 of the slice: its offset in the slice
        ("aten.split.Tensor", ""),  # columns: one range per row
        ("aten.view.default", ""),  # a reshape is no slab of rows
        ("aten.t.default", ""),
    ]
    run_ssd_opt(ssd_opt, text, "--ssd-verify-graph")
    # Off by default: the backends reload whole tensors.
    plain = fx_to_mlir(gm, arg_roles=["input", "param"], arg_names=["x", "w"],
                       result_names=[None]).text
    assert "part_offsets" not in plain


def test_a_part_is_read_back_alone(ssd_opt, tmp_path):
    # h (64 KiB) is needed whole by its sum, then only its first row (256
    # bytes) after exp's 64 KiB result: under the budget h leaves around exp
    # and only that row comes back.
    def f(x, w, v):
        h = torch.mm(x, w)
        first = h[:1]
        total = h.sum()
        z = v.exp().sum()
        return first.sum() * z + total

    gm = make_fx(f, tracing_mode="fake")(torch.randn(256, 4), torch.randn(4, 64),
                                         torch.randn(256, 64))
    text = fx_to_mlir(gm, arg_roles=["input", "param", "input"], arg_names=["x", "w", "v"],
                      result_names=[None], parts=True).text
    assert "part_offsets = array<i64: 0>" in text
    budget = 160 << 10
    report = plan(ssd_opt, text, budget, tmp_path)
    partial = [gap for gap in report["plan"] if "part_offset" in gap]
    assert [(gap["bytes"], gap["part_offset"], gap["part_bytes"]) for gap in partial] == \
        [(256 * 64 * 4, 0, 256)]
    assert report["bytes_prefetched"] == 256
    assert report["peak_bytes_after"] <= budget
    planned = run_ssd_opt(ssd_opt, text, f"--ssd-offload-pipeline=memory-budget={budget}")
    assert "ssd.handle_part" in planned
    run_ssd_opt(ssd_opt, planned, f"--ssd-verify-plan=memory-budget={budget}")


class _Halves(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(16, 32)

    def forward(self, x):
        first, second = self.lin(x).chunk(2, dim=0)
        return (first.tanh() * second).sum()


def test_exported_step_carries_parts(ssd_opt, tmp_path):
    model = _Halves()
    text = export(model, (torch.randn(256, 16),),
                  optimizer=torch.optim.SGD(model.parameters(), lr=0.1))
    assert ("aten.split.Tensor", "0, 16384") in PART_OFFSETS.findall(text)
    run_ssd_opt(ssd_opt, text, "--ssd-verify-graph")
    peak = plan(ssd_opt, text, 1 << 40, tmp_path)["peak_bytes_before"]
    report = plan(ssd_opt, text, peak * 3 // 4, tmp_path)
    assert report["peak_bytes_after"] <= peak * 3 // 4


def test_multi_result_op_and_skipped_outputs():
    def f(x, w, b):
        y, mean, rstd = torch.ops.aten.native_layer_norm(x, [8], w, b, 1e-5)
        return y, None, 3, rstd

    gm = make_fx(f, tracing_mode="fake")(torch.randn(4, 8), torch.randn(8), torch.randn(8))
    exported = fx_to_mlir(gm, arg_roles=["input", "param", "param"],
                          arg_names=["x", "w", "b"], result_names=[None] * 4)
    assert len(exported.op_nodes) == 1
    assert re.search(r'%(\w+):3 = "ssd.kernel"\(%\w+, %\w+, %\w+\) '
                     r'\{name = "aten.native_layer_norm.default"', exported.text)
    assert re.search(r"return %(\w+)#0, %\1#2 : tensor<4x8xf32>, tensor<4x1xf32>",
                     exported.text)
    assert [n.target for n in exported.result_nodes] == [operator.getitem] * 2
    assert exported.op_result_items == [[0, 1, 2]]
    assert [exported.result_node(0, j).args[1] for j in range(3)] == [0, 1, 2]
    assert exported.result_node(0, 2) is exported.result_nodes[1]


def test_results_skip_none_items():
    """native_batch_norm_backward without the weight's gradient returns
    (grad_input, None, grad_bias): the op has two results, items 0 and 2."""
    def f(grad, x, w, mean, invstd):
        gx, _, gb = torch.ops.aten.native_batch_norm_backward(
            grad, x, w, None, None, mean, invstd, True, 1e-5, [True, False, True])
        return gx, gb

    c = torch.randn(3)
    gm = make_fx(f, tracing_mode="fake")(torch.randn(2, 3), torch.randn(2, 3), c, c, c)
    exported = fx_to_mlir(gm, arg_roles=["input"] * 5, arg_names=list("gxwmi"),
                          result_names=[None, None])
    assert re.search(r'%\w+:2 = "ssd.kernel".* -> \(tensor<2x3xf32>, tensor<3xf32>\)',
                     exported.text)
    assert exported.op_result_items == [[0, 2]]
    assert exported.result_node(0, 1) is exported.result_nodes[1]


def test_backward_start_on_a_node_without_op():
    """A getitem makes no op: the backward starts at the next op."""
    def f(x):
        first, second = torch.split(x, 2)
        return first * 2, second + 1

    gm = make_fx(f, tracing_mode="fake")(torch.randn(4, 3))
    getitem = next(n for n in gm.graph.nodes if n.target is operator.getitem)
    exported = fx_to_mlir(gm, arg_roles=["input"], arg_names=["x"],
                          result_names=[None, None], backward_start=getitem)
    assert [str(n.target) for n in exported.op_nodes] == [
        "aten.split.Tensor", "aten.mul.Tensor", "aten.add.Tensor"]
    assert "attributes {ssd.backward_start = 1 : i64}" in exported.text


def test_errors():
    gm = tiny_graph()
    roles = ["input", "param", "input", "buffer"]
    names = ["x", "w", "mask", "step"]
    with pytest.raises(ExportError, match="4 placeholders but 3 roles"):
        fx_to_mlir(gm, arg_roles=roles[:3], arg_names=names, result_names=[None] * 3)
    with pytest.raises(ExportError, match="role 'weights' is not one of"):
        fx_to_mlir(gm, arg_roles=["weights"] + roles[1:], arg_names=names,
                   result_names=[None] * 3)
    with pytest.raises(ExportError, match="'x' is already used by argument #0"):
        fx_to_mlir(gm, arg_roles=roles, arg_names=["x", "x", "m", "s"],
                   result_names=[None] * 3)
    with pytest.raises(ExportError, match="3 outputs but 1 result names"):
        fx_to_mlir(gm, arg_roles=roles, arg_names=names, result_names=[None])

    dynamic = make_fx(lambda x: x * 2, tracing_mode="symbolic")(torch.randn(4, 8))
    with pytest.raises(ExportError, match="symbolic shape.*static shapes"):
        fx_to_mlir(dynamic, arg_roles=["input"], arg_names=["x"], result_names=[None])


# ---------------------------------------------------------------------------
# fx_to_mlir on an AOTAutograd joint graph, as the torch.compile backend uses it
# ---------------------------------------------------------------------------


def test_joint_graph_op_nodes(ssd_opt):
    from functorch.compile import default_partition, nop
    from torch._functorch.aot_autograd import aot_module_simplified

    class TupleOutput(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.mlp = models.MLP((8, 16, 4))

        def forward(self, x):
            return (self.mlp(x),)

    model = TupleOutput()
    captured = {}

    def partition(joint, joint_inputs, **kwargs):
        captured["joint"] = joint
        return default_partition(joint, joint_inputs, **kwargs)

    compiled = aot_module_simplified(
        torch.fx.symbolic_trace(model), (torch.randn(2, 8),),
        fw_compiler=nop, bw_compiler=nop,
        partition_fn=partition)
    compiled(torch.randn(2, 8))
    joint = captured["joint"]

    # primals: the parameters, then the batch; tangents: the output's gradient
    placeholders = [n for n in joint.graph.nodes if n.op == "placeholder"]
    num_params = len(list(model.parameters()))
    roles = ["param"] * num_params + ["input"] * (len(placeholders) - num_params)
    outputs = list(joint.graph.output_node().args[0])
    tangent = next(n for n in placeholders if n.name.startswith("tangents"))
    start = next(iter(tangent.users))
    exported = fx_to_mlir(joint, arg_roles=roles, arg_names=[n.name for n in placeholders],
                          result_names=[None] * len(outputs), backward_start=start)

    computing = [n for n in joint.graph.nodes if n.op == "call_function"
                 and n.target is not operator.getitem]
    assert exported.op_nodes == computing
    assert [name for name, *_ in kernels(exported.text)] == [
        str(n.target) for n in computing]
    assert f"ssd.backward_start = {computing.index(start)} : i64" in exported.text
    assert exported.result_nodes == [o for o in outputs if o is not None]
    run_ssd_opt(ssd_opt, exported.text, "--ssd-verify-graph")


# ---------------------------------------------------------------------------
# Whole training steps
# ---------------------------------------------------------------------------


@functools.cache
def exported_step(factory):
    return export_step(*getattr(models, factory)())


def args_of(text):
    return dict((name, (role, ty)) for ty, role, name in re.findall(
        r'%\w+: (tensor<[^>]*>) \{ssd.role = "(\w+)", ssd.name = "([^"]+)"\}', text))


def results_of(text):
    start = text.index("-> (")
    signature = text[start:text.index(" {\n", start)]
    return re.findall(r'(tensor<[^>]*>)(?: \{ssd.name = "([^"]+)"\})?', signature)


@pytest.mark.parametrize("factory", ["mlp_adamw", "resnet_sgd", "gpt2_adamw"])
def test_step_verifies_and_plans_at_75_percent(factory, ssd_opt, tmp_path):
    text = exported_step(factory).text
    run_ssd_opt(ssd_opt, text, "--ssd-verify-graph")
    peak = plan(ssd_opt, text, 1 << 40, tmp_path)["peak_bytes_before"]
    budget = peak * 3 // 4
    report = plan(ssd_opt, text, budget, tmp_path)
    assert report["peak_bytes_after"] <= budget
    assert report["bytes_offloaded"] > 0
    assert re.search(r"attributes \{ssd.backward_start = \d+ : i64\}", text)


def test_mlp_adamw_step_signature():
    exported = exported_step("mlp_adamw")
    args = args_of(exported.text)
    assert args["layers.0.weight"] == ("param", "tensor<64x32xf32>")
    assert args["layers.0.weight.exp_avg"] == ("optimizer_state", "tensor<64x32xf32>")
    assert args["layers.0.weight.exp_avg_sq"] == ("optimizer_state", "tensor<64x32xf32>")
    assert args["layers.0.weight.step"] == ("optimizer_state", "tensor<f32>")
    assert args["x"] == ("input", "tensor<16x32xf32>")
    assert args["target"] == ("input", "tensor<16xi64>")
    results = results_of(exported.text)
    assert results[0] == ("tensor<f32>", "")  # the loss
    persistent = {n for n, (role, _) in args.items() if role != "input"}
    assert {name for _, name in results[1:]} == persistent
    start = int(re.search(r"ssd.backward_start = (\d+)", exported.text)[1])
    assert str(exported.op_nodes[start].target) == "aten.ones_like.default"
    assert str(exported.op_nodes[start - 1].target) == "aten.nll_loss_forward.default"
    assert "aten.mm.default" in {n for n, *_ in kernels(exported.text)}


def test_resnet_sgd_updates_batch_norm_buffers():
    text = exported_step("resnet_sgd").text
    args = args_of(text)
    assert args["bn.running_mean"] == ("buffer", "tensor<8xf32>")
    assert args["bn.num_batches_tracked"] == ("buffer", "tensor<i64>")
    assert args["blocks.1.conv1.weight.momentum_buffer"] == (
        "optimizer_state", "tensor<16x8x3x3xf32>")
    names = {name for _, name in results_of(text)}
    assert {"bn.running_var", "blocks.2.shortcut.1.running_mean",
            "blocks.1.conv1.weight.momentum_buffer", "fc.bias"} <= names
    convolutions = [float(f) for n, f, *_ in kernels(text) if n == "aten.convolution.default"]
    assert convolutions and all(f > 0 for f in convolutions)


def test_gpt2_step_names():
    args = args_of(exported_step("gpt2_adamw").text)
    assert args["transformer.h.1.attn.c_attn.weight"] == ("param", "tensor<64x192xf32>")
    assert args["transformer.wte.weight.exp_avg"][0] == "optimizer_state"
    assert "lm_head.weight" not in args  # tied to transformer.wte.weight
    assert args["input_ids"] == ("input", "tensor<2x32xi64>")


def test_model_without_loss_fn_or_optimizer(ssd_opt):
    """The output summed is the loss; the gradients are the step's results."""
    text = exported_step("mlp").text
    results = results_of(text)
    assert all(name == "" for _, name in results)
    assert len(results) == 1 + 6
    run_ssd_opt(ssd_opt, text, "--ssd-verify-graph")


def test_frozen_and_unused_parameters():
    """A frozen parameter is read-only state (an argument, not a result); a
    parameter the step does not use is not part of it, even in the optimizer."""
    class Model(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.trained = torch.nn.Linear(4, 4)
            self.frozen = torch.nn.Linear(4, 4).requires_grad_(False)
            self.unused = torch.nn.Linear(4, 4)

        def forward(self, x):
            return self.frozen(self.trained(x))

    model = Model()
    text = export_step(model, torch.randn(2, 4),
                       optimizer=torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)).text
    args = args_of(text)
    assert args["frozen.weight"] == ("param", "tensor<4x4xf32>")
    assert "unused.weight" not in args and "unused.weight.momentum_buffer" not in args
    assert "trained.weight.momentum_buffer" in args
    assert {name for _, name in results_of(text)} == {
        "", "trained.weight", "trained.bias",
        "trained.weight.momentum_buffer", "trained.bias.momentum_buffer"}


def test_loss_that_is_no_scalar():
    model = torch.nn.Linear(4, 4)
    with pytest.raises(ExportError, match=r"the loss must be a 0-d tensor, got torch.Size\(\[2, 4\]\)"):
        export_step(model, (torch.randn(2, 4), torch.randn(2, 4)),
                    loss_fn=lambda output, target: (output - target) ** 2)


def test_unsupported_optimizer():
    model, inputs = models.mlp()
    with pytest.raises(ExportError, match="the optimizer RMSprop is not supported"):
        export_step(model, inputs, optimizer=torch.optim.RMSprop(model.parameters()))


# ---------------------------------------------------------------------------
# python -m ssdopt export
# ---------------------------------------------------------------------------


def test_cli_writes_the_step(ssd_opt, tmp_path):
    out = tmp_path / "step.mlir"
    env = {"PYTHONPATH": f"{HERE.parents[1] / 'python'}:{HERE}", "PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-m", "ssdopt", "export", "models:mlp",
                             "--out", str(out)], capture_output=True, text=True, env=env)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert text.startswith("// Written by `python -m ssdopt export models:mlp`")
    run_ssd_opt(ssd_opt, text, "--ssd-verify-graph")


def test_cli_writes_bytecode(ssd_opt, tmp_path, monkeypatch):
    """An --out ending in .mlirbc is MLIR bytecode that ssd-opt reads as the
    step the text export is."""
    from ssdopt.__main__ import main

    out = tmp_path / "step.mlirbc"
    monkeypatch.setenv("SSD_OPT", ssd_opt)
    assert main(["export", "models:mlp", "--out", str(out)]) == 0
    assert out.read_bytes().startswith(b"ML\xefR")
    from_bytecode = subprocess.run([ssd_opt, str(out), "--ssd-verify-graph"],
                                   capture_output=True, text=True, check=True).stdout
    assert from_bytecode == run_ssd_opt(ssd_opt, export(*models.mlp()), "--ssd-verify-graph")


def test_cli_bytecode_error(tmp_path, monkeypatch):
    """An ssd-opt that fails to write the bytecode is a command error."""
    from ssdopt.__main__ import CommandError, _write_bytecode

    monkeypatch.setenv("SSD_OPT", "/bin/false")
    with pytest.raises(CommandError, match="ssd-opt could not write .*step.mlirbc as bytecode"):
        _write_bytecode("func.func @step() { return }", str(tmp_path / "step.mlirbc"))


@pytest.mark.parametrize("argv, message", [
    (["models"], "expected MODULE:FACTORY"),
    (["no_such_module:f"], "cannot import 'no_such_module': ModuleNotFoundError"),
    (["models:no_such_factory"], "module 'models' has no 'no_such_factory'"),
    (["models:MLP"], r"models:MLP\(\) must return \(model, example_inputs\)"),
    (["models:mlp_rmsprop"], "the optimizer RMSprop is not supported"),
])
def test_cli_errors(argv, message, tmp_path, capsys):
    from ssdopt.__main__ import main

    with pytest.raises(SystemExit) as exit:
        main(["export", *argv, "--out", str(tmp_path / "step.mlir")])
    assert exit.value.code == 2
    assert re.search(message, capsys.readouterr().err)
    assert not (tmp_path / "step.mlir").exists()


def test_cli_unwritable_out(tmp_path, capsys):
    from ssdopt.__main__ import main

    with pytest.raises(SystemExit):
        main(["export", "models:mlp", "--out", str(tmp_path / "missing" / "step.mlir")])
    assert "cannot write" in capsys.readouterr().err


def run_exported(exported, model, optimizer, inputs):
    """Runs the traced step on real tensors: the model's state, the
    optimizer's (zeros where it has none yet) and `inputs`."""
    state = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    args, batch = [], iter(inputs)
    for name, (role, _) in args_of(exported.text).items():
        if role == "input":
            args.append(next(batch))
        elif name in state:
            args.append(state[name].detach().clone())
        else:
            owner, _, key = name.rpartition(".")
            value = optimizer.state.get(state[owner], {}).get(key)
            if value is None:
                value = torch.tensor(0.0) if key == "step" else torch.zeros_like(state[owner])
            args.append(value.detach().clone())
    with torch.no_grad():
        return exported.op_nodes[0].graph.owning_module(*args)


def eager_step(model, optimizer, loss_fn, inputs):
    """One eager training step: the loss, and the new state by name."""
    loss = loss_fn(model(*inputs[:-1]), inputs[-1])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    state = {**dict(model.named_parameters()), **dict(model.named_buffers())}
    for param_name, param in model.named_parameters():
        for key, value in optimizer.state[param].items():
            state[f"{param_name}.{key}"] = value
    return loss.detach(), {name: value.detach() for name, value in state.items()}


def check_against_eager(exported, model, optimizer, loss_fn, inputs):
    import copy

    results = run_exported(exported, model, optimizer, inputs)
    loss, expected = eager_step(*copy.deepcopy((model, optimizer)), loss_fn, inputs)
    names = [name for _, name in results_of(exported.text)]
    assert names[0] == "" and len(results) == len(names)
    torch.testing.assert_close(results[0], loss)
    for name, value in zip(names[1:], results[1:]):
        torch.testing.assert_close(value, expected[name], msg=name)


@pytest.mark.parametrize("factory", ["mlp_adamw", "resnet_sgd"])
def test_step_computes_one_eager_training_step(factory):
    """The traced step, run on real tensors, matches loss.backward() and
    optimizer.step() in eager mode (from fresh optimizer state)."""
    model, inputs, loss_fn, optimizer = getattr(models, factory)()
    check_against_eager(exported_step(factory), model, optimizer, loss_fn, inputs)


@pytest.mark.parametrize("make_optimizer", [
    lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, dampening=0.1,
                              weight_decay=0.01, maximize=True),
    lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True),
    lambda p: torch.optim.Adam(p, lr=0.01, weight_decay=0.1, amsgrad=True),
], ids=["sgd-dampening-maximize", "sgd-nesterov", "adam-amsgrad"])
def test_optimizer_update_in_steady_state(make_optimizer):
    """After an eager warm-up step (the optimizer has state), the exported
    step matches the next eager step."""
    torch.manual_seed(0)
    model = models.MLP((8, 16, 4))
    inputs = (torch.randn(4, 8), torch.randint(0, 4, (4,)))
    optimizer = make_optimizer(model.parameters())
    eager_step(model, optimizer, F.cross_entropy, inputs)
    exported = export_step(model, inputs, F.cross_entropy, optimizer)
    check_against_eager(exported, model, optimizer, F.cross_entropy, inputs)


# ---------------------------------------------------------------------------
# Constants are made at each use, never moved
# ---------------------------------------------------------------------------


class _Shifted(torch.nn.Module):
    """A constant (torch.full) used by the first layer and by the last, and
    by the backward of the last."""

    def __init__(self):
        super().__init__()
        self.narrow = torch.nn.Linear(256, 16)
        self.layers = torch.nn.ModuleList(torch.nn.Linear(16, 16) for _ in range(4))
        self.wide = torch.nn.Linear(16, 256)

    def forward(self, x):
        shift = torch.full((32, 256), 0.5)
        h = torch.relu(self.narrow(x + shift))
        for layer in self.layers:
            h = torch.relu(layer(h))
        return self.wide(h) * shift


def test_a_constant_is_made_before_each_use_and_never_moves(ssd_opt, tmp_path):
    torch.manual_seed(0)
    model = _Shifted()
    inputs = (torch.randn(32, 256), torch.randn(32, 256))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    exported = export_step(model, inputs, F.mse_loss, optimizer)
    constants = [index for index, node in enumerate(exported.op_nodes) if makes_constant(node)]
    assert len(constants) >= 3  # the forward's two uses, the backward's
    for index in constants:
        node = exported.op_nodes[index]
        assert list(node.users) == [exported.op_nodes[index + 1]], node
    # At the lowest budget that plans, the constant, live through the whole
    # step if made once, would be moved; made at each use, it has no gap.
    peak = plan(ssd_opt, exported.text, 1 << 40, tmp_path)["peak_bytes_before"]
    low, high = 0, peak
    while high - low > peak // 100:
        middle = (low + high) // 2
        try:
            report = plan(ssd_opt, exported.text, middle, tmp_path)
            high, lowest = middle, report
        except AssertionError:  # no plan meets it
            low = middle
    assert lowest["plan"], lowest
    moved = {exported.op_nodes[gap["op"]] for gap in lowest["plan"] if "op" in gap}
    assert not any(makes_constant(node) for node in moved), moved
    check_against_eager(exported, model, optimizer, F.mse_loss, inputs)


def test_random_values_are_not_made_again():
    def f(x):
        zeros, noise = torch.zeros(4), torch.rand(4)
        return (x + zeros + noise) * zeros * noise

    gm = make_fx(f, tracing_mode="fake")(torch.randn(4))
    assert rematerialize_constants(gm.graph)
    targets = [node.target for node in gm.graph.nodes if node.op == "call_function"]
    assert targets.count(torch.ops.aten.zeros.default) == 2
    assert targets.count(torch.ops.aten.rand.default) == 1
