"""`python -m ssdopt calibrate`: the device's rates measured with torch, in
the target format, and what the planner makes of them (its C++ parser and
cost model: each op costs op_overhead_seconds on top of its roofline)."""

import json

import pytest
import torch
from torch.fx.experimental.proxy_tensor import make_fx

from ssdopt import calibrate, planning
from ssdopt.__main__ import main as command_line
from ssdopt.exporter import fx_to_mlir

FIELDS = {"compute_flops", "device_memory_bandwidth", "op_overhead_seconds"}


def _chain(ops: int) -> str:
    """A step of `ops` element-wise ops on 4 floats: nearly all overhead."""
    def f(x):
        for _ in range(ops):
            x = x + 1
        return x.sum()

    gm = make_fx(f, tracing_mode="fake")(torch.zeros(4))
    return fx_to_mlir(gm, arg_roles=["input"], arg_names=["x"], result_names=[None]).text


def _predict(tmp_path, text, fields, ssd_opt):
    path = tmp_path / "target.json"
    path.write_text(json.dumps({"base": "epyc9654-990pro", **fields}))
    report = planning.plan(text, memory_budget=1 << 40, target=str(path), policy="ssd",
                           ssd_opt=ssd_opt)
    return report["predicted_step_seconds"]


def test_rates_are_torch_measured_and_drive_the_prediction(tmp_path, ssd_opt):
    rates = calibrate.measure("cpu", batch_seconds=0.002)
    assert FIELDS <= set(rates)
    # A CPU does 1e8 to 1e13 FLOP/s, moves 1e8 to 1e13 B/s; an op starts in
    # 0.1 us to 1 ms.
    assert 1e8 < rates["compute_flops"] < 1e13
    assert 1e8 < rates["device_memory_bandwidth"] < 1e13
    assert 1e-7 < rates["op_overhead_seconds"] < 1e-3
    assert f"{torch.get_num_threads()} threads" in rates["description"]
    assert "through the step's executor" in rates["description"]

    # The planner's parser takes the fields as they are, and each of the
    # chain's ops costs the overhead: 40 more ops, 40 more overheads.
    fields = {key: rates[key] for key in FIELDS}
    short, long = _chain(10), _chain(50)
    gained = _predict(tmp_path, long, fields, ssd_opt) - _predict(tmp_path, short, fields, ssd_opt)
    assert gained == pytest.approx(40 * rates["op_overhead_seconds"], rel=0.05)
    zero = dict(fields, op_overhead_seconds=0.0)
    assert _predict(tmp_path, long, zero, ssd_opt) < 40 * rates["op_overhead_seconds"]


def test_command_writes_a_file_the_parser_checks(tmp_path, ssd_opt):
    out = tmp_path / "rates.json"
    # `python -m ssdopt calibrate`, in this process (torch is imported).
    assert command_line(["calibrate", "--device", "cpu", "-o", str(out), "--batch-seconds", "0.002"]) == 0
    rates = json.loads(out.read_text())
    assert FIELDS <= set(rates) and "description" in rates
    # One format, checked in C++: a typo is an error there, not accepted.
    bad = dict(rates, op_overhead=1e-6)
    with pytest.raises(planning.PlanningError, match="unknown field 'op_overhead'"):
        _predict(tmp_path, _chain(2), {k: v for k, v in bad.items() if k != "description"}, ssd_opt)
