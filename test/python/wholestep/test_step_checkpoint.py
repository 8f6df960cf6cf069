"""Checkpoints of a step's state where it lives (ssdopt.step_checkpoint).

The layer under ``Step.save_checkpoint`` / ``load_checkpoint``: state on SSD
(handles of torch.ops.ssdopt.offload) and in memory saved in the checkpoint
format, read back by ``ssd-ckpt``, ``ssdopt.checkpoint`` and `load_state`
onto another placement, with the memory the save used measured; faults;
two data-parallel ranks saving together, each tensor written once.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import shutil
import subprocess

import pytest
import torch

import ssdopt.checkpoint as ckpt
from ssdopt import runtime, step_checkpoint

ROOT = pathlib.Path(__file__).resolve().parents[3]


@dataclasses.dataclass
class Entry:
    """What Step._persistent_state() lists, reduced to what is used here."""
    name: str
    shape: tuple
    dtype: torch.dtype
    tensor: torch.Tensor | None = None
    handle: torch.Tensor | None = None


@pytest.fixture
def store(tmp_path):
    directory = tmp_path / "offload"
    directory.mkdir()
    store = runtime.open_store(str(directory))
    yield store
    runtime.close_store(store)


def offloaded(tensor: torch.Tensor, store: int) -> torch.Tensor:
    handle = torch.ops.ssdopt.offload(tensor, store)
    torch.ops.ssdopt.sync(handle)
    return handle


def read_back(handle: torch.Tensor, like: torch.Tensor) -> torch.Tensor:
    ticket = torch.ops.ssdopt.prefetch(handle)
    return torch.ops.ssdopt.wait(ticket, list(like.shape), list(like.stride()), like.dtype,
                                 like.device, True)


def ssd_ckpt() -> str:
    path = os.environ.get("SSD_CKPT") or str(ROOT / "build" / "bin" / "ssd-ckpt")
    if not os.access(path, os.X_OK):
        pytest.fail(f"ssd-ckpt not found at {path}; run `make build` first")
    return path


def peak_rss_bytes() -> int:
    with open("/proc/self/status") as status:
        return int(re.search(r"VmHWM:\s+(\d+) kB", status.read()).group(1)) * 1024


def reset_peak_rss() -> int:
    """Resets the peak to what is resident now and returns it."""
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    return peak_rss_bytes()


BIG = 96 << 20  # the tensor on SSD: far more than the save may hold


def test_state_on_ssd_is_saved_file_to_file_within_bounded_memory(tmp_path, store):
    torch.manual_seed(0)
    big = torch.randn(BIG // 4 // 1024, 1024)
    small = {"layer.bias": torch.randn(1000), "layer.bias.step": torch.tensor(7.0),
             "embed.weight": torch.randn(33, 17).to(torch.bfloat16)}
    entries = [Entry("layer.weight", tuple(big.shape), big.dtype, handle=offloaded(big, store))]
    entries += [Entry(n, tuple(t.shape), t.dtype, tensor=t) for n, t in small.items()]
    expected = {"layer.weight": big, **small}

    before = reset_peak_rss()
    directory = step_checkpoint.save_state(entries, tmp_path / "ckpt", step=4)
    grown = peak_rss_bytes() - before
    # The copy holds one 8 MiB buffer and the writer's 32 MiB of staging,
    # never the 96 MiB tensor.
    assert grown < 56 << 20, f"the save grew the resident memory by {grown >> 20} MiB"
    assert directory.endswith("step-000000000004")

    # ssd-ckpt and ssdopt.checkpoint read it.
    verify = subprocess.run([ssd_ckpt(), "verify", directory], capture_output=True, text=True)
    assert verify.returncode == 0, verify.stderr
    loaded = {n: torch.empty_like(t) for n, t in expected.items()}
    resume = ckpt.load(loaded, tmp_path / "ckpt")
    assert resume.step == 4
    for name, value in expected.items():
        assert torch.equal(loaded[name], value), name
    del loaded

    # Onto another placement (another budget): the big tensor in memory,
    # two small ones on SSD, overwritten in place there.
    target = [Entry("layer.weight", tuple(big.shape), big.dtype, tensor=torch.zeros_like(big))]
    for name, value in small.items():
        zeros = torch.zeros_like(value)
        on_ssd = name != "layer.bias.step"
        target.append(Entry(name, tuple(value.shape), value.dtype,
                            tensor=None if on_ssd else zeros,
                            handle=offloaded(zeros, store) if on_ssd else None))
    assert step_checkpoint.load_state(target, tmp_path / "ckpt") == 4
    for entry in target:
        value = entry.tensor if entry.handle is None else read_back(entry.handle,
                                                                    expected[entry.name])
        assert torch.equal(value, expected[entry.name]), entry.name


def test_load_checks_everything_before_writing(tmp_path, store):
    weight = torch.randn(64, 32)
    step_checkpoint.save_state([Entry("w", (64, 32), torch.float32, tensor=weight),
                                Entry("b", (32,), torch.float32, tensor=torch.ones(32))],
                               tmp_path / "ckpt", step=1)
    kept = torch.zeros(64, 32)
    handle = offloaded(torch.full((32,), 5.0), store)
    target = [Entry("w", (64, 32), torch.float32, tensor=kept),
              Entry("b", (32,), torch.float64, handle=handle),
              Entry("extra", (3,), torch.float32, tensor=torch.zeros(3))]
    with pytest.raises(ckpt.CheckpointError) as raised:
        step_checkpoint.load_state(target, tmp_path / "ckpt")
    message = str(raised.value)
    assert "b: dtype mismatch" in message and "extra: in the step, not in the checkpoint" in message
    assert target[0].tensor is kept and torch.equal(kept, torch.zeros(64, 32))
    assert torch.equal(read_back(handle, torch.empty(32)), torch.full((32,), 5.0))


def test_a_failed_copy_names_the_file_and_commits_nothing(tmp_path, store):
    handle = offloaded(torch.ones(4096), store)
    path, offset, nbytes = torch.ops.ssdopt.disk_location(handle)
    assert nbytes == 4096 * 4 and os.path.isfile(path)
    os.truncate(path, offset + 100)  # the bytes on SSD are gone
    entries = [Entry("w", (4096,), torch.float32, handle=handle)]
    with pytest.raises(ckpt.CheckpointError) as raised:
        step_checkpoint.save_state(entries, tmp_path / "ckpt", step=1)
    assert path in str(raised.value) and "the file ends early" in str(raised.value)
    assert ckpt.latest(tmp_path / "ckpt") is None


def _save_as_rank(rank: int, world: int, init_file: str, root: str, directory: str) -> None:
    """A data-parallel rank: the same state (same seed), its own store."""
    import torch.distributed as dist

    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank,
                            world_size=world)
    try:
        torch.manual_seed(5)
        tensors = {f"t{i}": torch.randn(300 + 7 * i, 9) for i in range(6)}
        store = runtime.open_store(directory)
        entries = [Entry(name, tuple(t.shape), t.dtype,
                         tensor=None if i % 2 else t, handle=offloaded(t, store) if i % 2 else None)
                   for i, (name, t) in enumerate(tensors.items())]
        step_checkpoint.save_state(entries, root, step=5)
        runtime.close_store(store)
    finally:
        dist.destroy_process_group()


def test_data_parallel_ranks_write_each_tensor_once(tmp_path):
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    procs = []
    for rank in range(2):
        (tmp_path / f"offload{rank}").mkdir()
        procs.append(context.Process(target=_save_as_rank,
                                     args=(rank, 2, str(tmp_path / "init"), str(tmp_path / "ckpt"),
                                           str(tmp_path / f"offload{rank}"))))
        procs[-1].start()
    for proc in procs:
        proc.join(timeout=240)
        assert proc.exitcode == 0
    torch.manual_seed(5)
    expected = {f"t{i}": torch.randn(300 + 7 * i, 9) for i in range(6)}
    directory = ckpt._resolve(tmp_path / "ckpt")
    with open(os.path.join(directory, "manifest.json")) as file:
        manifest = json.load(file)
    assert manifest["world_size"] == 2
    # Each tensor once, the ranks sharing the bytes.
    writers = {t["name"]: {c["file"] for c in t["chunks"]} for t in manifest["tensors"]}
    assert all(len(files) == 1 for files in writers.values())
    assert len(set().union(*writers.values())) == 2
    fresh = [Entry(n, tuple(t.shape), t.dtype, tensor=torch.zeros_like(t)) for n, t in expected.items()]
    assert step_checkpoint.load_state(fresh, tmp_path / "ckpt") == 5
    assert all(torch.equal(e.tensor, expected[e.name]) for e in fresh)


def test_load_into_model_refuses_a_checkpoint_missing_model_state(tmp_path):
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 2))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    step_checkpoint.save_state([Entry(n, tuple(p.shape), p.dtype, tensor=p.detach().clone())
                                for n, p in model.named_parameters() if n.startswith("0.")],
                               tmp_path / "ckpt", step=3)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    with pytest.raises(ckpt.CheckpointError) as raised:
        step_checkpoint.load_into_model(model, optimizer, tmp_path / "ckpt")
    message = str(raised.value)
    assert "1.weight: in the step, not in the checkpoint" in message
    assert "1.bias: in the step, not in the checkpoint" in message
    assert all(torch.equal(p, before[n]) for n, p in model.named_parameters())


def _corrupt_chunk(directory: pathlib.Path, name: str) -> None:
    manifest = json.loads((directory / "manifest.json").read_text())
    chunk = next(t for t in manifest["tensors"] if t["name"] == name)["chunks"][0]
    data = directory / chunk["file"]
    raw = bytearray(data.read_bytes())
    raw[chunk["file_offset"] + 5] ^= 0xFF
    data.write_bytes(bytes(raw))


def test_a_corrupted_chunk_leaves_the_state_unchanged(tmp_path, store):
    saved = {"a": torch.randn(256), "b": torch.randn(256), "c": torch.randn(256)}
    step_checkpoint.save_state([Entry(n, (256,), torch.float32, tensor=t)
                                for n, t in saved.items()], tmp_path / "ckpt", step=1)
    directory = tmp_path / "ckpt" / "step-000000000001"
    # The last tensor in memory, then the last on SSD: each read after others.
    for bad in ("c", "b"):
        kept_a, kept_c = torch.zeros(256), torch.zeros(256)
        handle = offloaded(torch.full((256,), 7.0), store)
        target = [Entry("a", (256,), torch.float32, tensor=kept_a),
                  Entry("b", (256,), torch.float32, handle=handle),
                  Entry("c", (256,), torch.float32, tensor=kept_c)]
        shutil.rmtree(tmp_path / "bad", ignore_errors=True)
        shutil.copytree(directory, tmp_path / "bad")
        _corrupt_chunk(tmp_path / "bad", bad)
        with pytest.raises(ckpt.CheckpointError, match="rank-00000.data"):
            step_checkpoint.load_state(target, tmp_path / "bad")
        assert target[0].tensor is kept_a and target[2].tensor is kept_c, bad
        assert torch.equal(kept_a, torch.zeros(256)) and torch.equal(kept_c, torch.zeros(256))
        assert torch.equal(read_back(handle, torch.empty(256)), torch.full((256,), 7.0)), bad
    # The model loads nothing either.
    model = torch.nn.Linear(16, 16)
    weight = model.weight.detach().clone()
    step_checkpoint.save_state([Entry(n, tuple(p.shape), p.dtype, tensor=p.detach() + 1)
                                for n, p in model.named_parameters()], tmp_path / "m", step=1)
    _corrupt_chunk(tmp_path / "m" / "step-000000000001", "bias")
    with pytest.raises(ckpt.CheckpointError):
        step_checkpoint.load_into_model(model, torch.optim.SGD(model.parameters(), lr=1),
                                        tmp_path / "m")
    assert torch.equal(model.weight.detach(), weight)
