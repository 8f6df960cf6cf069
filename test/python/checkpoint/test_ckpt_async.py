"""async_save: the caller gets a future once its tensors are staged and may
change them at once; the staging budget bounds what is copied but not yet
written; errors arrive through the future; SIGKILL of a saving process at
random moments never leaves a partial checkpoint."""

import json
import os
import subprocess
import sys

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
    for v in state.values():
        v.zero_()
    assert future.result(timeout=60) == 0
    assert calls == [5]
    target = {k: torch.full_like(v, 3) for k, v in original.items()}
    ckpt.load(target, tmp_path)
    for k, v in original.items():
        assert torch.equal(target[k], v), k


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

