"""Many tensors in one call: the batched save (ssdckpt_save_add_many) and
load through packed request arrays, the async staging arena (a ring bounded
by staging_bytes, reused by the next save), and the GC pause around both."""

import gc

import pytest
import torch

import ssdopt.checkpoint as ckpt


def mixed_state(n: int) -> dict:
    """n tensors of every kind a batch must carry: dtypes, 0-d, empty,
    non-contiguous views, odd byte counts (chunks padded to 4096)."""
    dtypes = [torch.float32, torch.bfloat16, torch.int64, torch.uint8, torch.bool,
              torch.float64]
    state = {}
    for i in range(n):
        dtype = dtypes[i % len(dtypes)]
        shape = [(), (0, 3), (5,), (3, 7), (2, 3, 5)][i % 5]
        t = (torch.arange(max(1, torch.Size(shape).numel()) * 2) + i).to(dtype)
        t = t[:torch.Size(shape).numel()].reshape(shape) if shape != () else t[0]
        if i % 7 == 0 and t.dim() == 2:
            t = t.t()  # a non-contiguous view: staged contiguous
        state[f"t{i:04d}"] = t
    return state


def zeros_like(state: dict) -> dict:
    return {k: torch.zeros_like(v) for k, v in state.items()}


def test_many_mixed_tensors_round_trip(tmp_path):
    state = mixed_state(1500)
    assert ckpt.save({"m": state, "step": 3}, tmp_path) == 0
    target = {"m": zeros_like(state), "step": 0}
    ckpt.load(target, tmp_path)
    assert target["step"] == 3
    for k, v in state.items():
        assert torch.equal(target["m"][k], v), k
    # Every tensor in the checkpoint, each one chunk, whole.
    info = ckpt.describe(tmp_path)
    assert len(info["tensors"]) == 1500  # the tree is in the manifest


def test_request_array_packs_the_c_layout():
    shapes = [(2, 3), (), (4,)]
    boxes = [(f"n{i}", 7, s, (0,) * len(s), s, 1000 + i) for i, s in enumerate(shapes)]
    array, count, keep = ckpt._request_array(boxes)
    assert count == 3
    for i, (name, code, shape, offsets, sizes, address) in enumerate(boxes):
        r = array[i]
        assert r.name == name.encode() and r.dtype == code and r.ndim == len(shape)
        assert [r.shape[d] for d in range(len(shape))] == list(shape)
        assert [r.sizes[d] for d in range(len(shape))] == list(sizes)
        assert r.dest == address
    del keep


def test_budget_ring_wraps_and_never_overlaps():
    arena = torch.empty(1000, dtype=torch.uint8)
    budget = ckpt._Budget(1000, arena)
    held = []

    def take(n):
        start = budget.acquire(n)
        length = -(-n // budget.ALIGN) * budget.ALIGN
        for s, l in held:
            assert start + length <= s or s + l <= start, (start, held)
        assert start + length <= 1000
        held.append((start, length))
        return start

    assert take(300) == 0
    assert take(300) == 320
    assert not budget.fits(400)  # 640 + 448 > 1000, and 0 is held
    budget.release(300)  # the oldest piece, at 0
    held.pop(0)
    assert take(300) == 640  # still room at the end
    budget.release(300)
    held.pop(0)
    assert take(300) == 0  # no room at the end: wraps to the freed start
    assert budget.used == 600
    for _ in range(2):
        budget.release(300)
        held.pop(0)
    assert budget.used == 0 and budget.acquire(2000) is None  # larger than the arena: alone


def test_async_staging_is_bounded_reused_and_released(tmp_path):
    ckpt.release_staging()
    small = {f"s{i}": torch.randn(64) for i in range(300)}  # 256 B each
    big = {"big": torch.randn(64 << 10)}  # 256 KiB: larger than the budget, goes alone
    state = {"small": small, "big": big}
    original = {k: v.clone() for k, v in {**small, **big}.items()}
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=16 << 10)
    future.staged().result(timeout=60)
    for v in list(small.values()) + list(big.values()):  # training goes on
        v.mul_(-1)
    assert future.result(timeout=60) == 0
    arena = ckpt._arena
    assert arena is not None and arena.numel() <= 16 << 10
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=16 << 10)
    assert future.result(timeout=60) == 1 and ckpt._arena is arena  # reused
    target = {"small": zeros_like(small), "big": zeros_like(big)}
    ckpt.load(target, f"{tmp_path}/step-000000000000")
    for k, v in original.items():
        got = target["big"][k] if k == "big" else target["small"][k]
        assert torch.equal(got, v), k
    ckpt.release_staging()
    assert ckpt._arena is None


def test_gc_is_paused_only_during_the_call(tmp_path):
    assert gc.isenabled()
    ckpt.save({"w": torch.ones(3)}, tmp_path)
    assert gc.isenabled()
    with pytest.raises(ckpt.CheckpointError):
        ckpt.load({"w": torch.ones(4)}, tmp_path)  # shape mismatch
    assert gc.isenabled()
    gc.disable()
    try:
        ckpt.save({"w": torch.ones(3)}, tmp_path)
        assert not gc.isenabled()  # left as the caller had it
    finally:
        gc.enable()


@pytest.mark.parametrize("staging_bytes", [1 << 20, 32])
def test_failed_staging_commits_nothing(tmp_path, monkeypatch, staging_bytes):
    # 1 MiB: every piece fits, all are staged by one call (_stage_all); 32
    # bytes: they go through the ring one by one (_stage).
    assert ckpt.save({"w": torch.ones(4)}, tmp_path) == 0
    stage = ckpt._stage
    calls = []

    def failing(piece, arena, start):
        calls.append(piece.name)
        if len(calls) == 3:
            raise RuntimeError("copy failed")
        return stage(piece, arena, start)

    def failing_all(pieces, sizes, arena, starts):
        calls.append(len(pieces))
        raise RuntimeError("copy failed")
    monkeypatch.setattr(ckpt, "_stage", failing)
    monkeypatch.setattr(ckpt, "_stage_all", failing_all)
    state = {"w": torch.ones(4), **{f"x{i}": torch.ones(4) for i in range(5)}}
    future = ckpt.save(state, tmp_path, async_save=True, staging_bytes=staging_bytes)
    with pytest.raises(RuntimeError, match="copy failed"):
        future.staged().result(timeout=60)
    with pytest.raises(ckpt.CheckpointError, match="staging step 1 failed, nothing was "
                       "committed: RuntimeError: copy failed"):
        future.result(timeout=60)
    assert calls == ([6] if staging_bytes > 96 else ["w", "x0", "x1"])
    assert ckpt.latest(tmp_path) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latest", "step-000000000000"]
