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
    rates = calibrate.measure("cpu", batch_seconds=0.002, table=False)
    assert FIELDS <= set(rates) and "op_time_table" not in rates
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


@pytest.fixture
def small_table(monkeypatch):
    """Two sizes of each probe, on one thread: what is tested is the table's
    path, not its resolution (with two threads on a loaded machine, each
    parallel op can wait out a scheduler slice: 9x the time)."""
    monkeypatch.setattr(calibrate, "_TABLE_MATMUL_SIZES", (16, 128))
    monkeypatch.setattr(calibrate, "_TABLE_CONVOLUTIONS", ((4, 8), (16, 8)))
    monkeypatch.setattr(calibrate, "_TABLE_ELEMENTS", (1, 64 << 10))
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def test_op_time_table_is_measured_by_kind_and_times_the_ops(tmp_path, ssd_opt, small_table):
    rates = calibrate.measure("cpu", batch_seconds=0.002)
    table = rates["op_time_table"]
    kinds = {entry["ops"][0]: entry for entry in table}
    assert {"aten.mm", "aten.convolution", "aten.convolution_backward", "aten.tanh", "aten.sum",
            "*"} == set(kinds)
    for entry in table:
        works = [work for work, _ in entry["points"]]
        assert works == sorted(works) and len(set(works)) == len(works) == 2, entry
        assert all(seconds > 0 for _, seconds in entry["points"]), entry
    # The work is the exporter's: 2*n^3 FLOPs of a 16-wide mm, the bytes of
    # a 1-element add (two operands, one result).
    assert kinds["aten.mm"]["points"][0][0] == 2 * 16 ** 3
    assert kinds["*"]["points"][0][0] == 3 * 4
    # A 128-wide matmul takes longer than a 16-wide one, whatever the load.
    assert kinds["aten.mm"]["points"][1][1] > kinds["aten.mm"]["points"][0][1]

    # The C++ parser takes the table, and the chain's adds are timed by the
    # `*` curve: twice its times, twice what 40 more adds cost (the
    # overhead and roofline no longer count).
    fields = {key: rates[key] for key in FIELDS | {"op_time_table"}}
    short, long = _chain(10), _chain(50)
    gained = _predict(tmp_path, long, fields, ssd_opt) - _predict(tmp_path, short, fields, ssd_opt)
    slower = dict(fields, op_time_table=[
        dict(entry, points=[[w, 2 * t] for w, t in entry["points"]]) if entry["ops"] == ["*"]
        else entry for entry in table], op_overhead_seconds=1.0)
    gained_slower = (_predict(tmp_path, long, slower, ssd_opt)
                     - _predict(tmp_path, short, slower, ssd_opt))
    assert gained > 0
    assert gained_slower == pytest.approx(2 * gained, rel=1e-6)


def test_command_writes_a_file_the_parser_checks(tmp_path, ssd_opt):
    out = tmp_path / "rates.json"
    # `python -m ssdopt calibrate`, in this process (torch is imported);
    # the table is the test above's.
    assert command_line(["calibrate", "--device", "cpu", "-o", str(out), "--batch-seconds", "0.002",
                         "--no-table"]) == 0
    rates = json.loads(out.read_text())
    assert FIELDS <= set(rates) and "description" in rates and "op_time_table" not in rates
    # One format, checked in C++: a typo is an error there, not accepted.
    bad = dict(rates, op_overhead=1e-6)
    with pytest.raises(planning.PlanningError, match="unknown field 'op_overhead'"):
        _predict(tmp_path, _chain(2), {k: v for k, v in bad.items() if k != "description"}, ssd_opt)
