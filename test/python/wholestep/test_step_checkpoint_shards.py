"""Checkpoint shards placed by the compiler (ssdopt.step_checkpoint).

A traced training step whose FX graph gets `save_shard` nodes where
``ssd-opt --ssd-shard-checkpoint`` puts its saves (the FX node that computes
each persistent tensor's new value), run for three steps with a checkpoint
each, then loaded back: the exact state of the last committed step.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import threading
import time

import pytest
import torch

import ssdopt.checkpoint as ckpt
from ssdopt import step_checkpoint
from ssdopt.exporter import export_step

from test_step_checkpoint import Entry, ssd_ckpt


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(16, 32)
        self.fc2 = torch.nn.Linear(32, 4)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def traced_step():
    torch.manual_seed(1)
    model = Net()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
    x, y = torch.randn(8, 16), torch.randn(8, 4)
    exported = export_step(model, (x, y), torch.nn.functional.mse_loss, optimizer)
    state = {}
    params = dict(model.named_parameters())
    for name, role in zip(exported.arg_names, exported.arg_roles):
        if role == "param":
            state[name] = params[name].detach().clone()
        elif role == "optimizer_state":
            owner, _, key = name.rpartition(".")
            state[name] = torch.tensor(0.0) if key == "step" else torch.zeros_like(params[owner])
    return exported, state, (x, y)


def run_step(exported, state: dict, inputs) -> dict:
    gm = exported.op_nodes[0].graph.owning_module
    names = [n for n, role in zip(exported.arg_names, exported.arg_roles) if role != "input"]
    outputs = gm(*[state[n] for n in names], *inputs)
    return {name: value for name, value in zip(exported.result_names, outputs) if name}


def test_compiler_positions_are_the_fx_graph_s_last_definitions(ssd_opt):
    exported, state, _ = traced_step()
    positions = step_checkpoint.compiler_save_positions(exported.text, ssd_opt=ssd_opt)
    gm = exported.op_nodes[0].graph.owning_module
    returned = dict(zip(exported.result_names, gm.graph.output_node().args[0]))
    assert set(positions) == set(state)
    for name, where in positions.items():
        assert where[0] == "op", (name, where)
        assert exported.result_node(where[1], where[2]) is returned[name], name


def test_shards_every_step_then_a_load_restores_the_last_committed_step(tmp_path, ssd_opt):
    exported, state, inputs = traced_step()
    saver = step_checkpoint.StepCheckpointer({"root": str(tmp_path / "ckpt"), "every": 1,
                                              "keep_last": 2})
    saver._entry_saves = {"fc9.weight"}  # a program instrumented before
    inserted = saver.instrument(exported, ssd_opt=ssd_opt)
    assert inserted == len(state)
    assert saver._expected == set(state) and saver._entry_saves == set()  # this program's
    gm = exported.op_nodes[0].graph.owning_module
    saves = [n for n in gm.graph.nodes if n.target is step_checkpoint.save_shard]
    # Each save follows the node that computes the value it saves.
    for node in saves:
        assert node.prev is node.args[2] or node.prev.target is step_checkpoint.save_shard
    history = []
    for _ in range(3):
        entries = [Entry(n, tuple(t.shape), t.dtype, tensor=t) for n, t in state.items()]
        assert saver.begin_step(entries)
        state = run_step(exported, state, inputs)
        saver.end_step()
        history.append({n: t.clone() for n, t in state.items()})
    saver.flush()  # the last commit runs while the next step would
    assert saver.steps_taken == 3
    listing = ckpt.listing(tmp_path / "ckpt")
    assert [(c["step"], c["committed"]) for c in listing] == [(2, True), (3, True)]
    # Step 2's checkpoint holds the state after step 2.
    second = ckpt.to_state_dict(tmp_path / "ckpt" / "step-000000000002")
    assert all(torch.equal(second[n], history[1][n]) for n in state)
    # A load restores exactly the last committed step.
    fresh = [Entry(n, tuple(t.shape), t.dtype, tensor=torch.zeros_like(t)) for n, t in state.items()]
    restorer = step_checkpoint.StepCheckpointer()
    assert restorer.load(fresh, tmp_path / "ckpt") == 3
    for entry in fresh:
        assert torch.equal(entry.tensor, history[2][entry.name]), entry.name
    verify = subprocess.run([ssd_ckpt(), "verify", str(tmp_path / "ckpt")], capture_output=True,
                            text=True)
    assert verify.returncode == 0, verify.stderr


def test_steps_between_checkpoints_save_nothing_and_failures_commit_nothing(tmp_path, ssd_opt):
    exported, state, inputs = traced_step()
    saver = step_checkpoint.StepCheckpointer({"root": str(tmp_path / "ckpt"), "every": 2})
    saver.instrument(exported, ssd_opt=ssd_opt)
    entries = lambda: [Entry(n, tuple(t.shape), t.dtype, tensor=t) for n, t in state.items()]
    assert not saver.begin_step(entries())       # step 1: not one of every 2
    state = run_step(exported, state, inputs)
    assert saver.end_step() is None
    assert saver.begin_step(entries())           # step 2 saves, but fails midway
    saver.abort_step()
    assert saver.steps_taken == 1
    assert not (tmp_path / "ckpt" / "step-000000000002").exists()
    with pytest.raises(ValueError, match="'every' must be a positive int"):
        step_checkpoint.StepCheckpointer({"root": str(tmp_path), "every": 0})
    with pytest.raises(ValueError, match="unknown checkpoint option 'evry'"):
        step_checkpoint.StepCheckpointer({"root": str(tmp_path), "evry": 2})


def test_a_failed_commit_is_raised_by_the_next_end_step_and_by_flush(tmp_path, ssd_opt,
                                                                     monkeypatch):
    exported, state, inputs = traced_step()
    saver = step_checkpoint.StepCheckpointer({"root": str(tmp_path / "ckpt"), "every": 1})
    saver.instrument(exported, ssd_opt=ssd_opt)
    entries = lambda: [Entry(n, tuple(t.shape), t.dtype, tensor=t) for n, t in state.items()]

    class SlowError(ckpt.CheckpointError):
        """Slow to describe: a writer that marked the commit settled before
        recording the error would let end_step see no error."""
        def __str__(self):
            time.sleep(0.3)
            return super().__str__()

    commits = itertools.count(1)

    def failing_commit(handle):
        raise SlowError(f"injected: committing step {next(commits)}")

    def run_one():  # begins the step's checkpoint and runs its program
        nonlocal state
        assert saver.begin_step(entries())
        state = run_step(exported, state, inputs)

    monkeypatch.setattr(ckpt._library(), "ssdckpt_save_commit", failing_commit)
    run_one()
    assert saver.end_step() == 1                 # step 1's commit is queued, and fails
    run_one()
    with pytest.raises(ckpt.CheckpointError, match=r"step 1 was taken, .*injected: committing "
                                                   r"step 1"):
        saver.end_step()
    with pytest.raises(ckpt.CheckpointError, match=r"step 2 was taken, .*injected: committing "
                                                   r"step 2"):
        saver.flush()
    assert ckpt.latest(tmp_path / "ckpt") is None
    # A step whose program saved no value of its state commits nothing either.
    monkeypatch.undo()
    monkeypatch.setattr(saver, "_enqueue", lambda key, value: None)
    run_one()
    saver.end_step()
    with pytest.raises(ckpt.CheckpointError, match=r"step 3 was taken, .*the step's program "
                                                   r"saved no value of \['fc1\.bias"):
        saver.flush()
    assert ckpt.latest(tmp_path / "ckpt") is None
    saver.close()


def test_values_in_flight_are_capped_and_save_shard_waits_at_the_cap(tmp_path, monkeypatch):
    cap = 4096 * 4
    saver = step_checkpoint.StepCheckpointer({"root": str(tmp_path / "ckpt"),
                                              "max_in_flight": cap})
    release, written = threading.Event(), []
    original = step_checkpoint._memory_piece

    def slow_disk(name, tensor):
        release.wait(30)
        written.append(name)
        return original(name, tensor)

    monkeypatch.setattr(step_checkpoint, "_memory_piece", slow_disk)
    values = {f"v{i}": torch.full((4096,), float(i)) for i in range(3)}
    saver._expected = set(values)
    assert saver.begin_step([Entry(n, (4096,), torch.float32, tensor=t)
                             for n, t in values.items()])
    handed = []

    def step():
        for name, value in values.items():
            step_checkpoint.save_shard(saver.id, name, value)
            handed.append(name)

    thread = threading.Thread(target=step)
    thread.start()
    time.sleep(0.5)
    # The first value fills the cap: the second save_shard waits for it.
    assert handed == ["v0"] and saver._in_flight == cap
    release.set()
    thread.join(30)
    assert handed == list(values)
    saver.end_step()
    saver.flush()
    assert saver._in_flight == 0 and written == list(values)
    loaded = ckpt.to_state_dict(tmp_path / "ckpt")
    assert all(torch.equal(loaded[n], values[n]) for n in values)
    saver.close()
    with pytest.raises(ValueError, match="'max_in_flight' must be a positive int"):
        step_checkpoint.StepCheckpointer({"root": str(tmp_path), "max_in_flight": 0})


@pytest.mark.parametrize("cap, sizes, expected", [
    # 10 small values and one of 8 MiB under a cap of 32 MiB: the batch is
    # a quarter of the cap, so the big value fills it: all 11 in one call.
    (32 << 20, [1024] * 10 + [2 << 20], [11]),
    # The same cap, 12 values of 4 MiB: a call per two.
    (32 << 20, [1 << 20] * 12, [2] * 6),
    # The default cap (256 MiB), 48 values of 1 MiB (the bench MLP's 48 MiB
    # a step): one call at the step's end, not one per 8 MiB.
    (None, [256 << 10] * 48, [48]),
])
def test_save_shard_hands_values_to_the_writer_in_batches(tmp_path, monkeypatch, cap, sizes,
                                                         expected):
    """save_shard's values reach the library in batches of a quarter of
    max_in_flight, the rest in one call at the step's end: each batch is one
    wake-up of the writer thread and its hand-overs of the GIL, which cost
    the step's thread, not one call per value."""
    lib = ckpt._library()
    calls = []
    original = lib.ssdckpt_save_add_many

    def counting(handle, chunks, count):
        calls.append(count)
        return original(handle, chunks, count)

    monkeypatch.setattr(lib, "ssdckpt_save_add_many", counting)
    options = {"root": str(tmp_path / "ckpt")}
    if cap is not None:
        options["max_in_flight"] = cap
    saver = step_checkpoint.StepCheckpointer(options)
    values = {f"v{i}": torch.full((n,), float(i)) for i, n in enumerate(sizes)}
    saver._expected = set(values)
    assert saver.begin_step([Entry(n, tuple(t.shape), torch.float32, tensor=t)
                             for n, t in values.items()])
    for name, value in values.items():
        step_checkpoint.save_shard(saver.id, name, value)
    saver.wait_writes()
    saver.end_step()
    saver.flush()
    saver.close()
    assert calls == expected
    loaded = ckpt.to_state_dict(tmp_path / "ckpt")
    assert all(torch.equal(loaded[n], values[n]) for n in values)


def test_save_keys_decode_mlir_escapes():
    # llvm::printEscapedString: a quote is \22, a backslash \\, other bytes
    # outside printable ASCII \XX (UTF-8 bytes), which unicode_escape misreads.
    line = r'ssd.save_shard %3 to %ck key "blocks.\22a\22.w\\x\C3\A9"'
    key = step_checkpoint._SAVE.search(line).group(3)
    assert step_checkpoint._mlir_string(key) == 'blocks."a".w\\xé'
    assert step_checkpoint._mlir_string("fc1.weight.exp_avg") == "fc1.weight.exp_avg"


def test_save_shard_under_the_cap_takes_no_lock_and_the_writer_runs_nicer(tmp_path):
    """Under max_in_flight, save_shard on the step's thread only counts and
    queues: it goes on while the writer's condition is held elsewhere. The
    writer thread runs 10 nicer than the step, so that its copies take the
    CPU the step's threads leave."""
    saver = step_checkpoint.StepCheckpointer({"root": str(tmp_path / "ckpt")})
    values = {f"v{i}": torch.full((1024,), float(i)) for i in range(3)}
    saver._expected = set(values)
    assert saver.begin_step([Entry(n, (1024,), torch.float32, tensor=t)
                             for n, t in values.items()])
    step_nice = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    writer = saver._worker.native_id
    deadline = time.monotonic() + 10
    while os.getpriority(os.PRIO_PROCESS, writer) == step_nice and time.monotonic() < deadline:
        time.sleep(0.01)
    assert os.getpriority(os.PRIO_PROCESS, writer) == min(19, step_nice + 10)
    with saver._drained:
        step = threading.Thread(target=lambda: [step_checkpoint.save_shard(saver.id, n, v)
                                                for n, v in values.items()])
        step.start()
        step.join(10)
        assert not step.is_alive(), "save_shard under the cap waited for the writer's lock"
    saver.end_step()
    saver.flush()
    loaded = ckpt.to_state_dict(tmp_path / "ckpt")
    assert all(torch.equal(loaded[n], values[n]) for n in values)
    saver.close()
