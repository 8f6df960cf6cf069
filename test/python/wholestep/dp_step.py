"""Run under torchrun by test_data_parallel.py: the MLP at 100%, 50% and 45%
of its peak with data_parallel (each rank its batch, its own offload_dir),
5 steps per budget from the same state; rank r saves its losses and final
state per budget to argv[1]/rank<r>.pt."""

import os
import sys
import warnings

import torch
import torch.distributed as dist

import cases
import ssdopt

dist.init_process_group("gloo")
rank = dist.get_rank()
out, ssd_opt = sys.argv[1], sys.argv[2]
directory = os.path.join(out, f"offload{rank}")
os.mkdir(directory)
model, batches, loss_fn = cases.mlp()
# Other samples, not the same ones reordered: a mean loss over a batch's
# rows may not change bitwise when they are permuted.
batches = batches[rank:] + batches[:rank]
optimizer = cases.adamw(model)
results = {}
with ssdopt.compile_step(model, optimizer, loss_fn, {
        "memory_budget": "100%", "offload_dir": directory, "ssd_opt": ssd_opt,
        "data_parallel": True, "max_grad_norm": 1.0, "measure_peak": False}) as step:
    step.prepare(**batches[0])
    initial = {key: value.clone() for key, value in step.state_dict().items()}
    for share in ("100%", "50%", "45%"):
        step.memory_budget = share
        record = step.prepare(**batches[0])
        step.load_state_dict(initial)
        losses = [step(**batch) for batch in batches]
        results[share] = {"losses": losses, "entering_on_ssd": record["persistent_entering_on_ssd"],
                          "state": {key: value.clone() for key, value in step.state_dict().items()}}
torch.save(results, os.path.join(out, f"rank{rank}.pt"))
dist.destroy_process_group()
