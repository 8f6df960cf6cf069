"""The same training loop on CUDA with and without the "ssd" backend.

Trains a GPT-2-shaped model (random init, no downloads) for a few steps
twice: compiled with the backend at a budget it cannot meet without
offloading saved activations, and compiled the same way with no limit (no
offload). Prints one JSON line: peak device memory of each
(`torch.cuda.max_memory_allocated`), their step times, the ratios, the bytes
the runtime moved, and whether the losses are bitwise identical.

    python bench/gpu/backend_check.py [--layers 12] [--batch 8] [--seq 1024]
        [--steps 5] [--offload-dir DIR] [--fraction 0.6]
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import time

import torch


def build_model(layers: int, width: int, heads: int, seq: int) -> torch.nn.Module:
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(
        n_layer=layers, n_head=heads, n_embd=width, vocab_size=50257, n_positions=seq,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )

    class LM(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = GPT2LMHeadModel(config)

        def forward(self, tokens):
            return self.model(tokens, use_cache=False).logits

    return LM()


def run(model, tokens, backend, steps):
    model = copy.deepcopy(model).cuda()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    compiled = torch.compile(model, backend=backend)
    losses, times = [], []
    torch.cuda.synchronize()
    torch.cuda.reset_peak_memory_stats()
    for _ in range(steps):
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        logits = compiled(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1).float(), tokens.flatten())
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        losses.append(loss.detach().cpu())
    peak = torch.cuda.max_memory_allocated()
    del model, optimizer, compiled
    torch.cuda.empty_cache()
    # The first step compiles: time the others.
    return losses, peak, sorted(times[1:])[len(times[1:]) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--width", type=int, default=768)
    parser.add_argument("--heads", type=int, default=12)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--offload-dir", default=None)
    parser.add_argument("--fraction", type=float, default=0.6, help="budget as a fraction of the unplanned peak of the graph")
    args = parser.parse_args()

    if not torch.cuda.is_available():
        print("# no CUDA device: skipped")
        return 77
    import ssdopt
    from ssdopt import dynamo_backend

    offload_dir = args.offload_dir or tempfile.mkdtemp(prefix="ssdopt-gpu-")
    torch.manual_seed(0)
    model = build_model(args.layers, args.width, args.heads, args.seq)
    tokens = torch.randint(0, 50257, (args.batch, args.seq), device="cuda")

    unlimited = ssdopt.backend(memory_budget=1 << 50, offload_dir=offload_dir)
    torch._dynamo.reset()
    first = len(dynamo_backend.planned_graphs())
    base_losses, base_peak, base_step = run(model, tokens, unlimited, args.steps)
    graphs = dynamo_backend.planned_graphs()[first:]
    graph_peak = max(graph["peak_bytes_before"] for graph in graphs)
    budget = int(graph_peak * args.fraction)

    torch._dynamo.reset()
    ssdopt.reset_stats()
    limited = ssdopt.backend(memory_budget=budget, offload_dir=offload_dir)
    losses, peak, step = run(model, tokens, limited, args.steps)
    stats = ssdopt.stats()
    result = {
        "device": torch.cuda.get_device_name(),
        "model": f"gpt2 {args.layers}x{args.width}, batch {args.batch}x{args.seq}",
        "budget_bytes": budget,
        "planned_peak_bytes": stats["planned_peak_bytes"],
        "peak_bytes_without": base_peak,
        "peak_bytes_with": peak,
        "peak_ratio": peak / base_peak,
        "step_seconds_without": base_step,
        "step_seconds_with": step,
        "step_time_ratio": step / base_step,
        "bytes_written": stats["bytes_written"],
        "bytes_read": stats["bytes_read"],
        "stall_seconds": stats["stall_seconds"],
        "losses_bitwise_identical": all(torch.equal(a, b) for a, b in zip(losses, base_losses)),
    }
    print(json.dumps(result))
    return 0 if result["losses_bitwise_identical"] and stats["bytes_written"] > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
