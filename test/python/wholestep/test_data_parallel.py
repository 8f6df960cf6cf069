"""compile_step with data_parallel on 2 gloo ranks under torchrun: the
gradient all-reduce is traced into the step (functional collectives), each
rank plans and offloads its own state to its own directory."""

from __future__ import annotations

import os
import pathlib
import socket
import subprocess
import sys

import pytest
import torch

import ssdopt
from ssdopt.wholestep import StepError

import cases

HERE = pathlib.Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_ranks_bitwise_equal_to_the_same_ranks_without_offload(ssd_opt, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), str(HERE.parent)] + sys.path),
               OMP_NUM_THREADS="1")
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node=2",
               f"--master_port={free_port()}", str(HERE / "dp_step.py"), str(tmp_path), ssd_opt]
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-4000:]
    ranks = [torch.load(tmp_path / f"rank{rank}.pt") for rank in range(2)]
    for rank, results in enumerate(ranks):
        full = results["100%"]
        for share in ("50%", "45%"):
            assert results[share]["entering_on_ssd"] > 0
            assert all(torch.equal(a, b) for a, b in zip(full["losses"], results[share]["losses"])), (rank, share)
            for key, value in full["state"].items():
                assert torch.equal(value, results[share]["state"][key]), (rank, share, key)
    # Each rank saw its own batches, and the all-reduce kept the replicas equal.
    assert not torch.equal(ranks[0]["100%"]["losses"][0], ranks[1]["100%"]["losses"][0])
    for key, value in ranks[0]["100%"]["state"].items():
        assert torch.equal(value, ranks[1]["100%"]["state"][key]), key
    assert sorted(os.listdir(tmp_path)) == ["offload0", "offload1", "rank0.pt", "rank1.pt"]


def test_data_parallel_needs_a_process_group(ssd_opt, tmp_path):
    model, _, loss_fn = cases.mlp()
    with pytest.raises(StepError, match="needs torch.distributed initialized"):
        ssdopt.compile_step(model, cases.adamw(model), loss_fn,
                            {"memory_budget": "50%", "offload_dir": str(tmp_path), "ssd_opt": ssd_opt,
                             "data_parallel": True})


def test_fsdp2_is_a_clear_error(ssd_opt, tmp_path, monkeypatch):
    """fully_shard on one gloo rank: StepError naming what the trace lacks."""
    import torch.distributed as dist
    from torch.distributed.fsdp import fully_shard

    monkeypatch.setenv("MASTER_ADDR", "127.0.0.1")
    monkeypatch.setenv("MASTER_PORT", str(free_port()))
    dist.init_process_group("gloo", rank=0, world_size=1)
    try:
        model, _, loss_fn = cases.mlp()
        fully_shard(model)
        with pytest.raises(StepError, match=r"FSDP2 \(fully_shard\) is not supported.*torch._dynamo.disable"):
            ssdopt.compile_step(model, cases.adamw(model), loss_fn,
                                {"memory_budget": "50%", "offload_dir": str(tmp_path), "ssd_opt": ssd_opt})
    finally:
        dist.destroy_process_group()
    assert os.listdir(tmp_path) == []
