"""async_save: the caller gets a future at once, before its tensors are
staged; once future.staged() is done it may change them; a change before
fails the save and commits nothing; the staging budget bounds what is copied
but not yet written; errors arrive through the future; SIGKILL of a saving
process at random moments never leaves a partial checkpoint."""

import gc
import json
import os
import subprocess
import sys
import threading

import pytest
import torch

import ssdopt.checkpoint as ckpt

HERE = os.path.dirname(os.path.abspath(__file__))


def test_training_goes_on_while_the_save_commits(tmp_path, monkeypatch):
    tensors = {f"t{i}": torch.randn(128, 64) for i in range(16)}  # 32 KiB each
    original = {k: v.clone() for k, v in tensors.items()}
    peak = []
    release = ckpt._Budget.release

    def watched(self, nbytes):
        peak.append(self.used)
        release(self, nbytes)
    monkeypatch.setattr(ckpt._Budget, "release", watched)
    future = ckpt.save({"model": tensors, "epoch": 1}, tmp_path, async_save=True,
                       staging_bytes=100 << 10)
    future.staged().result(timeout=60)
    for v in tensors.values():  # the next training step
        v.add_(1)
    assert future.result(timeout=60) == 0
    assert max(peak) <= 100 << 10 and len(peak) == 16  # the tree is in the manifest
    target = {"model": {k: torch.zeros(128, 64) for k in tensors}, "epoch": 0}
    assert ckpt.load(target, tmp_path).step == 0
    for k, v in original.items():
        assert torch.equal(target["model"][k], v), k
    # The next save (sync) waits for the pending one and takes the next step.
    assert ckpt.save({"model": tensors, "epoch": 2}, tmp_path) == 1


def test_one_call_stages_every_piece_that_fits(tmp_path, monkeypatch):
    # Everything fits in the staging memory: the host tensors are copied by
    # one library call (on several threads: 9 MiB is more than one takes),
    # the non-contiguous one on its own; each is snapshotted when the call
    # returns, whatever the caller does to it next.
    state = {"big": torch.randn(9 << 18),  # 9 MiB, shared out between threads
             "bf": torch.randn(33, 7).to(torch.bfloat16), "empty": torch.ones(0, 3),
             "ints": torch.arange(1000, dtype=torch.int64), "byte": torch.ones(1, dtype=torch.uint8),
             "t": torch.randn(64, 48).t()}  # not contiguous: _stage copies it
    original = {k: v.clone() for k, v in state.items()}
    calls, copy_regions = [], ckpt._library().ssdckpt_copy_regions

    class Counted:
        def __call__(self, regions, count, threads):
            calls.append(count)
            return copy_regions(regions, count, threads)
    monkeypatch.setattr(ckpt._library(), "ssdckpt_copy_regions", Counted())
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=64 << 20)
    ckpt.wait_staged()
    for v in state.values():
        v.zero_()
    assert future.result(timeout=60) == 0
    assert calls == [5]
    target = {k: torch.full_like(v, 3) for k, v in original.items()}
    ckpt.load(target, tmp_path)
    for k, v in original.items():
        assert torch.equal(target[k], v), k


@pytest.fixture
def gate(monkeypatch):
    """An event that the staging thread waits for before it copies anything
    (a loaded machine that schedules it late); set it to let staging go."""
    event, arena = threading.Event(), ckpt._staging_arena

    def late(needed, limit):
        assert event.wait(30)
        return arena(needed, limit)
    monkeypatch.setattr(ckpt, "_staging_arena", late)
    yield event
    event.set()


def model_and_optimizer():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 64), torch.nn.ReLU(), torch.nn.Linear(64, 8))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)

    def train_step():
        optimizer.zero_grad()
        model(torch.randn(16, 64)).square().mean().backward()
        optimizer.step()
    train_step()  # the optimizer has state
    return model, optimizer, train_step


def state_of(model, optimizer) -> dict:
    return {"model": model.state_dict(), "optim": optimizer.state_dict()}


def tensors_of(state: dict, prefix="") -> dict:
    out = {}
    for key, value in state.items():
        if isinstance(value, dict):
            out.update(tensors_of(value, f"{prefix}{key}."))
        elif isinstance(value, torch.Tensor):
            out[f"{prefix}{key}"] = value
    return out


@pytest.mark.parametrize("staging_bytes", [64 << 20, 256])
def test_a_change_before_staged_fails_the_save(tmp_path, gate, staging_bytes):
    # 64 MiB: staged by one call (_stage_all); 256 bytes: through the ring.
    model, optimizer, train_step = model_and_optimizer()
    assert ckpt.save(state_of(model, optimizer), tmp_path) == 0
    future = ckpt.save(state_of(model, optimizer), tmp_path, async_save=True,
                       staging_bytes=staging_bytes)
    assert not future.staged().done()  # returned before any copy
    train_step()  # optimizer.step() before staged(): not allowed
    gate.set()
    with pytest.raises(ckpt.CheckpointError, match="changed in place") as caught:
        future.staged().result(timeout=60)
    message = str(caught.value)
    assert "model.0.weight" in message and "optim.state.0.exp_avg" in message
    with pytest.raises(ckpt.CheckpointError, match="nothing was committed.*model.0.weight"):
        future.result(timeout=60)
    assert ckpt.latest(tmp_path) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step-000000000000"]


def test_one_tensor_changed_is_the_one_named(tmp_path, gate):
    state = {"a": torch.ones(1000), "b": torch.ones(1000), "c": torch.ones(1000)}
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=4096)
    state["b"].add_(1)
    gate.set()
    with pytest.raises(ckpt.CheckpointError, match=r"step 0: b changed in place"):
        future.result(timeout=60)
    assert ckpt.latest(tmp_path) is None


def test_waiting_staged_then_training_commits_the_values_at_the_call(tmp_path, gate):
    model, optimizer, train_step = model_and_optimizer()
    state = state_of(model, optimizer)
    at_call = {k: v.clone() for k, v in tensors_of(state).items()}
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=8 << 10)
    assert not future.staged().done()
    gate.set()
    future.staged().result(timeout=60)
    for _ in range(3):
        train_step()
    assert future.result(timeout=60) == 0
    model2, optimizer2, _ = model_and_optimizer()
    train_step()  # different values in the target
    target = state_of(model2, optimizer2)
    ckpt.load(target, tmp_path)
    loaded = tensors_of(target)
    assert loaded.keys() == at_call.keys()
    for name, value in at_call.items():
        assert loaded[name].dtype == value.dtype and torch.equal(
            loaded[name].reshape(-1).view(torch.uint8), value.reshape(-1).view(torch.uint8)), name


def test_inference_tensors_are_staged_before_the_call_returns(tmp_path, gate):
    # An inference tensor keeps no version counter, so a change could not be
    # seen: the call waits for the staging.
    with torch.inference_mode():
        t = torch.arange(10.0)
    threading.Timer(0.2, gate.set).start()
    future = ckpt.save({"t": t, "u": torch.ones(3)}, tmp_path, async_save=True)
    assert future.staged().done()
    assert future.result(timeout=60) == 0


def test_errors_arrive_through_the_future(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    future = ckpt.save({"w": torch.ones(3)}, str(blocker / "root"), async_save=True)
    with pytest.raises(ckpt.CheckpointError, match="rank 0 beginning step 0"):
        future.result(timeout=60)


def test_async_save_on_ranks(ranks, tmp_path):
    root = str(tmp_path)
    assert ranks(3).run("save_small_case", root, 5.0, async_save=True, result=True) == [0] * 3
    assert ranks(2).run("load_small_case", root) == [(0, [5.0] * 5, 5.0)] * 2


def test_sigkill_during_saves_leaves_previous_or_new_step(tmp_path):
    # 10 of the 100 trials that `sigkill_saver.py DIR --trials 100` runs.
    run = subprocess.run([sys.executable, os.path.join(HERE, "sigkill_saver.py"),
                          str(tmp_path), "--trials", "10"],
                         capture_output=True, text=True, timeout=300)
    summary = json.loads(run.stdout.splitlines()[-1])
    assert run.returncode == 0 and summary["failures"] == {}, run.stdout + run.stderr
    assert summary["trials"] == 10 and summary["commits_before_kill"] > 0


def test_exit_waits_for_the_async_save_in_flight(tmp_path):
    # A script whose last line is an asynchronous save: the interpreter's exit
    # waits for its commit (it stopped the save's daemon threads: no step),
    # and says so (with ranks the wait may last `timeout`). The writer starts
    # 0.5 s late so that the save is still in flight at the exit.
    script = ("import sys, time, torch, ssdopt.checkpoint as ckpt\n"
              "write = ckpt._write\n"
              "ckpt._write = lambda *a, **k: (time.sleep(0.5), write(*a, **k))[1]\n"
              "ckpt.save({'w': torch.ones(8 << 20)}, sys.argv[1], async_save=True,\n"
              "          timeout=42)\n")
    run = subprocess.run([sys.executable, "-c", script, str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert ("the exit waits for the asynchronous save of step 0 to commit (a rank that "
            "does not come is waited for at most timeout=42 s)") in run.stderr
    target = {"w": torch.zeros(8 << 20)}
    assert ckpt.load(target, tmp_path).step == 0
    assert torch.equal(target["w"], torch.ones(8 << 20))


def test_a_save_whose_thread_cannot_start_leaves_nothing_to_wait_for(tmp_path, monkeypatch):
    def refuse(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", refuse)
    with pytest.raises(RuntimeError, match="can't start"):
        ckpt.save({"a": torch.ones(3)}, tmp_path, async_save=True)
    monkeypatch.undo()
    waiter = threading.Thread(target=ckpt.wait, daemon=True)  # and the exit's wait
    waiter.start()
    waiter.join(10)
    assert not waiter.is_alive()


@pytest.mark.parametrize("staging_bytes", [1 << 30, 8 << 10],
                         ids=["all-at-once", "budget-full-midway"])
def test_a_writer_that_cannot_start_fails_the_future(tmp_path, monkeypatch, staging_bytes):
    # The writing thread starts when staging ends or, on a small budget,
    # once it is full; either way a thread that does not start fails the
    # save's future (it never completed, and every later wait hung).
    start = threading.Thread.start

    def refuse_the_writer(self):
        if self.name.startswith("ssdopt-checkpoint-step-"):
            raise RuntimeError("can't start new thread")
        start(self)
    monkeypatch.setattr(threading.Thread, "start", refuse_the_writer)
    state = {f"t{i}": torch.ones(1024) for i in range(4)}  # 4 KiB each
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=staging_bytes)
    with pytest.raises(ckpt.CheckpointError, match="rank 0: step 0 was not saved: its writing "
                       "thread did not start: RuntimeError: can't start new thread"):
        future.result(timeout=30)
    monkeypatch.undo()
    ckpt.wait()
    assert ckpt.latest(tmp_path) is None
    assert ckpt.save(state, tmp_path) == 0  # and the next save goes on


def test_the_collector_stays_paused_until_staging_ends(tmp_path):
    # Staging makes an object per tensor after the call returned: the
    # cyclic collections they triggered (on any thread) each walked every
    # object of the process, holding the GIL, while the save staged.
    holder, during = {}, []

    def record(phase, info):
        if phase == "start" and "future" in holder and not holder["future"].staged().done():
            during.append(threading.current_thread().name)
    state = {f"t{i:05d}": torch.ones(4) for i in range(16384)}
    gc.callbacks.append(record)
    try:
        holder["future"] = ckpt.save(state, tmp_path, async_save=True)
        holder["future"].result(timeout=60)
    finally:
        gc.callbacks.remove(record)
    assert gc.isenabled() and during == []


@pytest.mark.skipif(torch.cuda.device_count() < 2, reason="needs two CUDA devices")
def test_every_devices_stream_is_synchronised_before_the_write(tmp_path):
    # Tensors on two devices, each written on a side stream of its device
    # just before the call: the stager copies each on its device's stream
    # and waits for both (it waited for the current device's only).
    state = {}
    for device in (0, 1):
        with torch.cuda.device(device):
            side = torch.cuda.Stream()
            with torch.cuda.stream(side):
                state[f"w{device}"] = torch.zeros(1 << 20, device=f"cuda:{device}")
                torch.cuda._sleep(200_000_000)  # the write lands ~0.1 s later
                state[f"w{device}"].fill_(float(device + 1))
                if device == 1:
                    future = ckpt.save(state, tmp_path, async_save=True)
    future.result(timeout=60)
    target = {name: torch.zeros(1 << 20) for name in state}
    ckpt.load(target, tmp_path)
    assert torch.equal(target["w0"], torch.full((1 << 20,), 1.0))
    assert torch.equal(target["w1"], torch.full((1 << 20,), 2.0))


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_device_tensors_are_copied_after_the_callers_stream(tmp_path):
    # The state is written on a side stream just before the call: the
    # staging thread must copy it on that stream, after the write (on its
    # own default stream it would read the values before it, unsynchronised).
    side = torch.cuda.Stream()
    with torch.cuda.stream(side):
        weight = torch.zeros(1 << 20, device="cuda")
        torch.cuda._sleep(200_000_000)  # the write lands ~0.1 s later
        weight.fill_(7.0)
        future = ckpt.save({"w": weight}, tmp_path, async_save=True)
    future.result(timeout=60)
    target = {"w": torch.zeros(1 << 20)}
    ckpt.load(target, tmp_path)
    assert torch.equal(target["w"], torch.full((1 << 20,), 7.0))
