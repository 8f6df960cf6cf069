#!/usr/bin/env python3
"""Where each rank's time goes in ssdopt.checkpoint's save and load of the
small shape (torch_compare's 16,384 DTensors of 64 KiB per GiB).

    .venv/bin/python bench/checkpoint/stage_profile.py --dir DIR [--world 4] [--rounds 3]
        [--bytes 1GiB] [--module PATH]

Spawns --world gloo ranks; each saves and loads --rounds times (the files'
pages dropped before each load) and times every stage: the module's Python
steps (_flatten, _tree_text, _signature, _gather, _pieces, _request_array,
_open, _compare) and the library's calls, each as (thread CPU, wall)
seconds, plus the rank's process CPU (every thread) and the operation's wall
time. Prints medians over rounds per rank, and one line per operation with
rank 0's wall and the CPU of all ranks together: on a machine shared with
other work, CPU is the measure that the load does not inflate. --module runs
another copy of checkpoint.py (e.g. `git show REV:python/ssdopt/checkpoint.py`
saved to a file, with SSDOPT_CHECKPOINT_LIBRARY naming that revision's
library) for side-by-side runs. The wrappers add about a microsecond per call
(_compare: once per tensor).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import resource
import shutil
import statistics
import sys
import tempfile
import time

import torch.distributed as dist
import torch.multiprocessing as mp

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_compare  # noqa: E402  (the state dicts and the page-cache drop)

PYTHON_STAGES = ("_flatten", "_tree_text", "_signature", "_gather", "_pieces",
                 "_request_array", "_open", "_compare")
LIBRARY_STAGES = ("ssdckpt_save_begin", "ssdckpt_save_add_many", "ssdckpt_save_commit",
                  "ssdckpt_save_close", "ssdckpt_check_state_tree", "ssdckpt_reader_open",
                  "ssdckpt_reader_tensors", "ssdckpt_reader_load_many", "ssdckpt_reader_close")


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def checkpoint_module(path: str | None):
    import ssdopt.checkpoint
    if path is None:
        return ssdopt.checkpoint
    spec = importlib.util.spec_from_file_location("ssdopt._profiled_checkpoint", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def timed_stages(owner, names, totals: dict) -> None:
    """Replaces each of owner's `names` by a wrapper adding its (thread CPU,
    wall) seconds to totals[name]; a stage that recurses (_compare) is
    counted at its outermost call."""
    for name in names:
        function = getattr(owner, name, None)
        if function is None:
            continue
        depth = [0]

        def wrapper(*args, _function=function, _name=name, _depth=depth, **kwargs):
            if _depth[0]:
                return _function(*args, **kwargs)
            cpu, wall = time.thread_time(), time.perf_counter()
            _depth[0] += 1
            try:
                return _function(*args, **kwargs)
            finally:
                _depth[0] -= 1
                total = totals.setdefault(_name, [0.0, 0.0])
                total[0] += time.thread_time() - cpu
                total[1] += time.perf_counter() - wall
        setattr(owner, name, wrapper)


def worker(rank: int, world: int, args, scratch: str) -> None:
    dist.init_process_group("gloo", init_method=f"file://{scratch}/store", rank=rank,
                            world_size=world)
    from torch.distributed.device_mesh import init_device_mesh
    ckpt = checkpoint_module(args.module)
    totals: dict = {}
    timed_stages(ckpt, PYTHON_STAGES, totals)
    timed_stages(ckpt._library(), LIBRARY_STAGES, totals)
    mesh = init_device_mesh("cpu", (world,))
    state = torch_compare.state("small", args.bytes, mesh)
    target = torch_compare.state("small", args.bytes, mesh, fill=0.0)
    root = os.path.join(args.dir, "profiled")
    rounds = []

    def measure(operation) -> dict:
        totals.clear()
        dist.barrier()
        cpu, thread, wall = process_cpu(), time.thread_time(), time.perf_counter()
        operation()
        dist.barrier()
        return {"wall": time.perf_counter() - wall, "cpu": process_cpu() - cpu,
                "thread": time.thread_time() - thread, "stages": dict(totals)}
    for _ in range(args.rounds):
        if rank == 0:
            shutil.rmtree(root, ignore_errors=True)
        save = measure(lambda: ckpt.save(state, root, step=0))
        if rank == 0:
            torch_compare.drop_cache(root)
        load = measure(lambda: ckpt.load(target, root))
        rounds.append({"save": save, "load": load})
    with open(os.path.join(scratch, f"rank-{rank}.json"), "w") as f:
        json.dump(rounds, f)
    dist.barrier()
    dist.destroy_process_group()


def report(world: int, scratch: str) -> None:
    ranks = []
    for rank in range(world):
        with open(os.path.join(scratch, f"rank-{rank}.json")) as f:
            ranks.append(json.load(f))
    median = statistics.median
    for op in ("save", "load"):
        print(f"## {op}: per rank, medians over rounds; stages as thread CPU / wall seconds")
        for rank, rounds in enumerate(ranks):
            names = sorted({name for r in rounds for name in r[op]["stages"]})
            stages = " ".join(
                f"{name.removeprefix('ssdckpt_')}="
                f"{median(r[op]['stages'].get(name, [0, 0])[0] for r in rounds):.3f}/"
                f"{median(r[op]['stages'].get(name, [0, 0])[1] for r in rounds):.3f}"
                for name in names)
            print(f"rank {rank}: wall {median(r[op]['wall'] for r in rounds):.3f} "
                  f"process CPU {median(r[op]['cpu'] for r in rounds):.3f} "
                  f"thread CPU {median(r[op]['thread'] for r in rounds):.3f} | {stages}")
        walls = [r[op]["wall"] for r in ranks[0]]
        cpus = [sum(rank[i][op]["cpu"] for rank in ranks) for i in range(len(walls))]
        print(f"{op}, {world} ranks: wall {median(walls):.3f} s (rounds "
              f"{', '.join(f'{w:.3f}' for w in walls)}), CPU of all ranks {median(cpus):.3f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="a directory on the disk to measure")
    parser.add_argument("--world", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--bytes", type=torch_compare.parse_bytes, default=1 << 30)
    parser.add_argument("--module", help="another checkpoint.py to run instead of ssdopt's")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="stage-profile-", dir=args.dir)
    try:
        mp.spawn(worker, args=(args.world, args, scratch), nprocs=args.world, join=True)
        report(args.world, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        shutil.rmtree(os.path.join(args.dir, "profiled"), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
