"""The torch.compile backend "ssd" on one device, against the same compile
without offload (run by bench/gpu/run; also on CPU for its dry run).

Trains transformers' GPT-2 (from its config, random init: no download;
124M parameters by default) under bf16 autocast with AdamW, a few steps per
run, each run a fresh copy of the same model and data:

1. `unlimited`: the backend with no memory limit (nothing moves). Its planned
   graph (the backend's report_dir) gives the unplanned peak.
2. The lowest budget ssd-opt can plan for that graph, found by bisection
   with the planner alone (ssdopt.planning.plan, the backend's own call),
   starting from the bytes that the planner says the hardest op needs.
3. `p90` (90% of the unplanned peak) and `lowest`: the backend at those
   budgets. Each is checked bitwise against `unlimited` (losses and the
   parameters after the last step), and reports the budget,
   torch.cuda.max_memory_allocated(), the step time (median of the steps
   after the first, which compiles) and the bytes the runtime moved.

The script watches --deadline (seconds since the epoch) and skips the runs
that would start after it, saying so. Writes one JSON document to --json.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import traceback

import torch


def build_model(args) -> torch.nn.Module:
    from transformers import GPT2Config, GPT2LMHeadModel

    config = GPT2Config(
        n_layer=args.layers, n_head=args.heads, n_embd=args.width,
        vocab_size=args.vocab, n_positions=args.seq,
        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0,
    )

    class LM(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = GPT2LMHeadModel(config)

        def forward(self, tokens):
            return self.model(tokens, use_cache=False).logits

    return LM()


def train(model, tokens, backend, args):
    """`args.steps` steps of a fresh copy of `model` compiled by `backend`."""
    device = torch.device(args.device)
    model = copy.deepcopy(model).to(device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    torch._dynamo.reset()
    compiled = torch.compile(model, backend=backend)
    cuda = device.type == "cuda"
    losses, times = [], []
    if cuda:
        torch.cuda.synchronize()
        torch.cuda.empty_cache()
        torch.cuda.reset_peak_memory_stats()
    for _ in range(args.steps):
        start = time.perf_counter()
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device.type, dtype=torch.bfloat16):
            logits = compiled(tokens)
        loss = torch.nn.functional.cross_entropy(logits.flatten(0, 1).float(), tokens.flatten())
        loss.backward()
        optimizer.step()
        if cuda:
            torch.cuda.synchronize()
        times.append(time.perf_counter() - start)
        losses.append(loss.detach().cpu())
    peak = torch.cuda.max_memory_allocated() if cuda else None
    params = [p.detach().cpu() for p in model.parameters()]
    del model, optimizer, compiled
    if cuda:
        torch.cuda.empty_cache()
    timed = times[1:] or times
    return {
        "losses": losses,
        "params": params,
        "max_memory_allocated": peak,
        "step_seconds": statistics.median(timed),
        "first_step_seconds": times[0],
    }


def lowest_budget(mlir: str, peak: int, target: str, deadline: float) -> tuple[int | None, int]:
    """The smallest budget (to 1% of the peak) that ssd-opt plans `mlir` under."""
    from ssdopt import planning

    def feasible(budget: int) -> tuple[bool, int | None]:
        try:
            planning.plan(mlir, memory_budget=budget, target=target, policy="ssd")
            return True, None
        except planning.PlanningError as error:
            if getattr(error, "infeasible", True) is False:
                raise  # not a budget problem
            return False, getattr(error, "required_bytes", None)

    tries = 1
    ok, required = feasible(1)
    low = max(required or 1, 1) - 1  # infeasible
    high = peak  # feasible: nothing needs to move
    while high - low > max(peak // 100, 1) and time.time() < deadline:
        middle = (low + high) // 2
        ok, _ = feasible(middle)
        tries += 1
        if ok:
            high = middle
        else:
            low = middle
    return high, tries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--layers", type=int, default=12)
    parser.add_argument("--width", type=int, default=768)
    parser.add_argument("--heads", type=int, default=12)
    parser.add_argument("--vocab", type=int, default=50257)
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seq", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--offload-dir", default=None)
    parser.add_argument("--deadline", type=float, default=float("inf"))
    parser.add_argument("--json", required=True)
    args = parser.parse_args()

    result: dict = {"ok": False, "runs": {}}

    def write():
        with open(args.json, "w") as file:
            json.dump(result, file, indent=1)

    try:
        import transformers

        import ssdopt
        from ssdopt import dynamo_backend, planning

        device = torch.device(args.device)
        if device.type == "cuda" and not torch.cuda.is_available():
            result["skipped"] = "torch sees no CUDA device"
            write()
            return 77
        offload_dir = args.offload_dir or tempfile.mkdtemp(prefix="ssdopt-gpu-")
        result.update(
            device=torch.cuda.get_device_name() if device.type == "cuda" else "cpu",
            torch=torch.__version__, transformers=transformers.__version__,
            ssd_opt=planning.find_ssd_opt(),
            model=f"gpt2 {args.layers} layers x {args.width}, {args.heads} heads, vocab {args.vocab}",
            tokens=f"{args.batch}x{args.seq}", autocast="bfloat16", steps=args.steps,
            offload_dir=offload_dir,
            whole_step_api="not present in ssdopt (nothing to run)",
        )
        torch.manual_seed(0)
        model = build_model(args)
        result["parameters"] = sum(p.numel() for p in model.parameters())
        tokens = torch.randint(0, args.vocab, (args.batch, args.seq), device=device)
        report_dir = tempfile.mkdtemp(prefix="ssdopt-gpu-report-")

        start = time.time()
        first = len(dynamo_backend.planned_graphs())
        base = train(model, tokens, ssdopt.backend(memory_budget=1 << 50, offload_dir=offload_dir,
                                                   report_dir=report_dir), args)
        graphs = dynamo_backend.planned_graphs()[first:]
        largest = max(graphs, key=lambda g: g.get("peak_bytes_before") or 0)
        peak = largest["peak_bytes_before"]
        result["runs"]["unlimited"] = {
            "seconds": time.time() - start, "graphs": len(graphs), "planned_peak_bytes": peak,
            "max_memory_allocated": base["max_memory_allocated"],
            "step_seconds": base["step_seconds"], "first_step_seconds": base["first_step_seconds"],
            "losses": [float(x) for x in base["losses"]],
        }
        write()

        with open(os.path.join(report_dir, f"graph{largest['graph']}.mlir")) as file:
            mlir = file.read()
        shutil.rmtree(report_dir, ignore_errors=True)
        start = time.time()
        low, tries = lowest_budget(mlir, peak, largest["target"], args.deadline - 60)
        result["lowest_budget_search"] = {"bytes": low, "plans": tries, "seconds": time.time() - start}
        write()

        all_ok = True
        for name, budget in (("p90", int(peak * 0.9)), ("lowest", low)):
            if time.time() > args.deadline:
                result["runs"][name] = {"skipped": "out of time", "budget_bytes": budget}
                all_ok = False
                continue
            if budget >= peak:
                # The largest op alone needs the whole peak: nothing can move.
                result["runs"][name] = {"skipped": "no budget below the unplanned peak plans",
                                        "budget_bytes": budget}
                all_ok = False
                continue
            start = time.time()
            ssdopt.reset_stats()
            first = len(dynamo_backend.planned_graphs())
            backend = ssdopt.backend(memory_budget=budget, offload_dir=offload_dir)
            try:
                run = train(model, tokens, backend, args)
            except Exception as error:  # this budget failed; the next one still runs
                backend.close()
                result["runs"][name] = {"budget_bytes": budget, "seconds": time.time() - start,
                                        "error": f"{type(error).__name__}: {str(error)[:2000]}"}
                all_ok = False
                write()
                continue
            stats = ssdopt.stats()
            # The store keeps its reserved data file between steps; closing
            # it deletes the file.
            backend.close()
            graphs = dynamo_backend.planned_graphs()[first:]
            bitwise = all(torch.equal(a, b) for a, b in zip(run["losses"], base["losses"])) and all(
                torch.equal(a, b) for a, b in zip(run["params"], base["params"]))
            moved = stats["bytes_written"] > 0 and stats["bytes_read"] == stats["bytes_written"]
            entry = {
                "seconds": time.time() - start,
                "budget_bytes": budget,
                "planned_peak_bytes": max((g.get("peak_bytes_after") or 0) for g in graphs),
                "max_memory_allocated": run["max_memory_allocated"],
                "max_memory_allocated_vs_unlimited": (
                    run["max_memory_allocated"] / base["max_memory_allocated"]
                    if run["max_memory_allocated"] else None),
                "step_seconds": run["step_seconds"],
                "step_time_vs_unlimited": run["step_seconds"] / base["step_seconds"],
                "offloaded_tensors": sum(g["offloaded_tensors"] for g in graphs),
                "bytes_written": stats["bytes_written"],
                "bytes_read": stats["bytes_read"],
                "stall_seconds": stats["stall_seconds"],
                "bitwise_equal_to_unlimited": bitwise,
                "offload_dir_empty_after": not os.listdir(offload_dir),
            }
            result["runs"][name] = entry
            all_ok &= bitwise and moved and entry["offload_dir_empty_after"]
            write()
        result["ok"] = all_ok
    except Exception as error:  # the kit records it and carries on
        result["error"] = f"{type(error).__name__}: {error}"
        result["traceback"] = traceback.format_exc()[-4000:]
    write()
    print(json.dumps({k: v for k, v in result.items() if k != "traceback"}, indent=1))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
