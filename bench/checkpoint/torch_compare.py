#!/usr/bin/env python3
"""ssdopt.checkpoint next to torch.save, DCP and fio, side by side in one run.

    .venv/bin/python bench/checkpoint/torch_compare.py --dir DIR [--bytes 1GiB] [--repeat 3]
        [--methods dcp,dcp8,torch.save]

For 1 and 4 gloo ranks and two shapes of a state dict of --bytes in all
("large": 16 tensors; "small": tensors of 64 KiB each), every tensor a DTensor
sharded by rows over the ranks, it times save and load with
ssdopt.checkpoint, torch.distributed.checkpoint (FileSystemWriter, default and
thread_count=8) and torch.save/torch.load (one file per rank, fsynced), and
fio's sequential O_DIRECT write and read of --bytes on the same directory
(bench/checkpoint/run's fio call, its buffers on huge pages where a hugetlbfs
mount has them free: see fio_buffers there). Every save ends with its files synced;
before every load the files' pages are dropped from the page cache
(posix_fadvise DONTNEED), so no load reads memory. Then the 4-rank
checkpoint is loaded on 3 ranks (elastic), and async_save's blocked time
(until it returns) and staged time (until future.staged(), when the state
may change) are measured against the synchronous save: twice in a row, the first save
allocating the staging memory the second reuses (a training run saves
again and again, so the second is the steady state), with the process's
peak resident memory above what it held before the save (VmHWM, reset
through /proc/self/clear_refs). The whole sequence runs --repeat times,
fio included, so each ratio is measured side by side in one repeat; the
table and the JSON give medians over repeats. Prints a Markdown table and,
last, one JSON line. --methods names the baselines to run (default all;
`--methods dcp8` keeps what the issue's ratios need, fio and DCP with 8
threads, and leaves out the slowest ones).
"""

from __future__ import annotations

import argparse
import functools
import importlib.machinery
import json
import os
import shutil
import statistics
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MiB = 1 << 20
SMALL = 64 << 10
METHODS = ("dcp", "dcp8", "torch.save")  # the baselines


def parse_bytes(text: str) -> int:
    from ssdopt.options import parse_memory_size
    return parse_memory_size(text)


@functools.cache
def _run_module():
    return importlib.machinery.SourceFileLoader(
        "bench_checkpoint_run", os.path.join(ROOT, "bench", "checkpoint", "run")).load_module()


def fio_rates(path: str, size: int) -> dict:
    """fio's write and read rates on `path`, and the kind of buffers both
    ran on (bench/checkpoint/run's fio_buffers: huge pages or malloc)."""
    run = _run_module()
    mem = run.fio_buffers()
    return {"write": run.fio(path, "write", size, mem), "read": run.fio(path, "read", size, mem),
            "buffers": mem.split(":")[0]}


def drop_cache(directory: str) -> None:
    for base, _, files in os.walk(directory):
        for name in files:
            fd = os.open(os.path.join(base, name), os.O_RDONLY)
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def state(shape: str, total: int, mesh, fill: float | None = None) -> dict:
    from torch.distributed.tensor import DTensor, Shard
    from torch.distributed.tensor._utils import compute_local_shape_and_global_offset
    rank = mesh.get_local_rank()
    count, nbytes = (16, total // 16) if shape == "large" else (total // SMALL, SMALL)
    cols = 1024 if shape == "large" else 256
    rows = nbytes // 4 // cols
    out = {}
    for i in range(count):
        (mine, _), _ = compute_local_shape_and_global_offset((rows, cols), mesh, [Shard(0)])
        local = (torch.full((mine, cols), fill) if fill is not None
                 else torch.full((mine, cols), float(i)) + rank)
        out[f"t{i:05d}"] = DTensor.from_local(local, mesh, [Shard(0)], run_check=False,
                                              shape=(rows, cols), stride=(cols, 1))
    return out


def resident() -> tuple[int, int]:
    """This process's (VmRSS, VmHWM) in bytes."""
    values = {}
    with open("/proc/self/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                values[key] = int(rest.split()[0]) * 1024
    return values["VmRSS"], values["VmHWM"]


def reset_peak() -> None:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # VmHWM := VmRSS


def timed(fn) -> float:
    dist.barrier()
    start = time.perf_counter()
    fn()
    dist.barrier()
    return time.perf_counter() - start


def worker(rank: int, world: int, args, out_file: str, store: str, only_load: str | None):
    import torch.distributed.checkpoint as dcp
    from torch.distributed.device_mesh import init_device_mesh

    import ssdopt.checkpoint as ckpt

    dist.init_process_group("gloo", init_method=f"file://{store}", rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (world,))
    results = {}
    for shape in ("large", "small"):
        base = os.path.join(args.dir, f"{shape}-w{world}")
        if only_load:  # the elastic load of the 4-rank checkpoint
            src = os.path.join(args.dir, f"{shape}-w4")
            target = state(shape, args.bytes, mesh, fill=0.0)
            if rank == 0:
                drop_cache(src + "-ours")
            results[f"{shape}/ours/elastic_load"] = timed(
                lambda: ckpt.load(target, src + "-ours"))
            if "dcp8" not in args.methods:
                continue
            if rank == 0:
                drop_cache(src + "-dcp8")
            results[f"{shape}/dcp8/elastic_load"] = timed(
                lambda: dcp.load(target, storage_reader=dcp.FileSystemReader(src + "-dcp8")))
            continue
        sd = state(shape, args.bytes, mesh)
        target = state(shape, args.bytes, mesh, fill=0.0)

        def each(name, save, load, directory):
            if rank == 0:
                shutil.rmtree(directory, ignore_errors=True)
            dist.barrier()
            results[f"{shape}/{name}/save"] = timed(save)
            if rank == 0:
                drop_cache(directory)
            results[f"{shape}/{name}/load"] = timed(load)

        d = base + "-ours"
        each("ours", lambda: ckpt.save(sd, d, step=0),
             lambda: ckpt.load(target, d), d)
        # async: the caller's blocked time, then the rest of the save; the
        # first allocates the staging memory (and its pages), the second
        # reuses it. Peak memory: above what the process held before.
        for step, which in ((1, "first"), (2, "warm")):
            dist.barrier()
            reset_peak()
            before, _ = resident()
            start = time.perf_counter()
            future = ckpt.save(sd, d, step=step, async_save=True, staging_bytes=args.staging)
            blocked = time.perf_counter() - start
            future.staged().result()  # from here the state may change
            staged = time.perf_counter() - start
            future.result()
            total = time.perf_counter() - start
            results[f"{shape}/ours/async_peak_extra_{which}"] = resident()[1] - before
            dist.barrier()
            results[f"{shape}/ours/async_blocked_{which}"] = blocked
            results[f"{shape}/ours/async_staged_{which}"] = staged
            results[f"{shape}/ours/async_total_{which}"] = total
        ckpt.release_staging()
        for name, threads in (("dcp", 1), ("dcp8", 8)):
            if name not in args.methods:
                continue
            d = f"{base}-{name}"
            each(name, lambda: dcp.save(sd, storage_writer=dcp.FileSystemWriter(
                     d, thread_count=threads)),
                 lambda: dcp.load(target, storage_reader=dcp.FileSystemReader(d)), d)
        d = base + "-torch"

        def torch_save():
            os.makedirs(d, exist_ok=True)
            path = os.path.join(d, f"rank-{rank}.pt")
            with open(path, "wb") as f:
                torch.save({k: v.to_local() for k, v in sd.items()}, f)
                f.flush()
                os.fsync(f.fileno())

        def torch_load():
            torch.load(os.path.join(d, f"rank-{rank}.pt"), weights_only=True)
        if "torch.save" in args.methods:
            each("torch.save", torch_save, torch_load, d)
    if rank == 0:
        with open(out_file, "w") as f:
            json.dump(results, f)
    dist.barrier()
    dist.destroy_process_group()


def run_world(world: int, args, only_load: str | None = None) -> dict:
    # The ranks' file store and rank 0's results, in --dir, removed after.
    scratch = tempfile.mkdtemp(prefix="torch-compare-", dir=args.dir)
    try:
        out, store = os.path.join(scratch, "results.json"), os.path.join(scratch, "store")
        mp.spawn(worker, args=(world, args, out, store, only_load), nprocs=world, join=True)
        with open(out) as f:
            return json.load(f)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def median(values):
    return statistics.median(values)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="a directory on the disk to measure")
    parser.add_argument("--bytes", type=parse_bytes, default=1 << 30)
    parser.add_argument("--staging", type=parse_bytes, default=None,
                        help="async_save's staging_bytes (default: --bytes, all of it)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--methods", default=",".join(METHODS),
                        help="the baselines to run besides ours and fio, comma-separated "
                        f"(default: all of {','.join(METHODS)}); dcp, one thread, and "
                        "torch.save take most of a run's time")
    args = parser.parse_args()
    args.methods = {m for m in args.methods.split(",") if m}
    if not args.methods <= set(METHODS):
        parser.error(f"--methods: unknown {sorted(args.methods - set(METHODS))}")
    if args.staging is None:
        args.staging = args.bytes
    os.makedirs(args.dir, exist_ok=True)
    load_start = os.getloadavg()
    runs = []
    for repeat in range(args.repeat):
        fio_file = os.path.join(args.dir, "fio.bin")
        rates = fio_rates(fio_file, args.bytes)
        os.unlink(fio_file)
        results = {1: run_world(1, args), 4: run_world(4, args)}
        elastic = run_world(3, args, only_load="4")
        shutil.rmtree(args.dir, ignore_errors=True)
        os.makedirs(args.dir, exist_ok=True)
        runs.append((rates, results, elastic))
        print(f"# repeat {repeat + 1}/{args.repeat} done, load average "
              f"{os.getloadavg()[0]:.1f}", file=sys.stderr, flush=True)
        # Each repeat's raw seconds and fio rates, so that a run cut short
        # still leaves what it measured.
        print("# raw " + json.dumps({"fio": rates, "worlds": results, "elastic": elastic}),
              file=sys.stderr, flush=True)
    load_end = os.getloadavg()
    shutil.rmtree(args.dir, ignore_errors=True)

    def rate(seconds):
        return args.bytes / seconds

    def med(fn):
        """The median over repeats of fn(rates, results, elastic)."""
        return median([fn(*run) for run in runs])

    fio_w, fio_r = med(lambda r, *_: r["write"]), med(lambda r, *_: r["read"])
    fio_buffers = ",".join(sorted({rates["buffers"] for rates, *_ in runs}))
    if "malloc" in fio_buffers:
        print("# fio's buffers are small pages (no hugetlbfs mount with free 2 MiB pages): "
              "on a virtio disk its rate, the ratios' reference, may be understated "
              "(bench/checkpoint/run's fio_buffers)")
    print(f"# {args.bytes / MiB:.0f} MiB per state dict, medians of {args.repeat} repeats; "
          f"fio write {fio_w / MiB:.0f} MiB/s, read {fio_r / MiB:.0f} MiB/s (O_DIRECT, "
          f"buffers: {fio_buffers}, {args.dir}); load average {load_start[0]:.1f} at the start, "
          f"{load_end[0]:.1f} at the end")
    print("| ranks | shape | method | save MiB/s | load MiB/s | save/fio | load/fio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for world in (1, 4):
        for shape in ("large", "small"):
            for method in ("ours", *[m for m in METHODS if m in args.methods]):
                s_key, l_key = f"{shape}/{method}/save", f"{shape}/{method}/load"
                s = med(lambda r, res, e: rate(res[world][s_key]))
                l = med(lambda r, res, e: rate(res[world][l_key]))
                sr = med(lambda r, res, e: rate(res[world][s_key]) / r["write"])
                lr = med(lambda r, res, e: rate(res[world][l_key]) / r["read"])
                print(f"| {world} | {shape} | {method} | {s / MiB:.0f} | {l / MiB:.0f} | "
                      f"{sr:.2f} | {lr:.2f} |")
    for shape in ("large", "small"):
        for method in ("ours", "dcp8") if "dcp8" in args.methods else ("ours",):
            key = f"{shape}/{method}/elastic_load"
            l = med(lambda r, res, e: rate(e[key]))
            lr = med(lambda r, res, e: rate(e[key]) / r["read"])
            print(f"| 4 -> 3 | {shape} | {method} | | {l / MiB:.0f} | | {lr:.2f} |")

    def ratio(world, shape, op):
        return lambda r, res, e: rate(res[world][f"{shape}/ours/{op}"]) / r[
            "write" if op == "save" else "read"]

    def per_repeat(fn):
        return [round(fn(*run), 3) for run in runs]

    def fraction(what, which):
        """The larger over shapes of the async save's `what` (blocked: until
        it returns; staged: until its tensors are copied, the state free to
        change) over the synchronous save's time, one rank."""
        return lambda r, res, e: max(res[1][f"{s}/ours/async_{what}_{which}"]
                                     / res[1][f"{s}/ours/save"] for s in ("large", "small"))

    summary = {
        "bytes": args.bytes, "repeats": args.repeat,
        "fio_write_mib_s": fio_w / MiB, "fio_read_mib_s": fio_r / MiB, "fio_buffers": fio_buffers,
        "save_ratio_vs_fio_large": med(ratio(1, "large", "save")),
        "save_ratio_vs_fio_small": med(ratio(1, "small", "save")),
        "load_ratio_vs_fio_large": med(ratio(1, "large", "load")),
        "load_ratio_vs_fio_small": med(ratio(1, "small", "load")),
        "save_ratio_vs_fio_large_4ranks": med(ratio(4, "large", "save")),
        "save_ratio_vs_fio_small_4ranks": med(ratio(4, "small", "save")),
        "load_ratio_vs_fio_large_4ranks": med(ratio(4, "large", "load")),
        "load_ratio_vs_fio_small_4ranks": med(ratio(4, "small", "load")),
        "elastic_load_ratio_vs_fio_large": med(lambda r, res, e: rate(
            e["large/ours/elastic_load"]) / r["read"]),
        "elastic_load_ratio_vs_fio_small": med(lambda r, res, e: rate(
            e["small/ours/elastic_load"]) / r["read"]),
        **({f"{op}_speedup_vs_dcp_{shape}": med(
            lambda r, res, e, op=op, shape=shape: res[1][f"{shape}/dcp8/{op}"]
            / res[1][f"{shape}/ours/{op}"])
            for shape in ("small", "large") for op in ("save", "load")}
           if "dcp8" in args.methods else {}),
        # The steady state (the staging memory allocated by an earlier save).
        "async_blocked_fraction": med(fraction("blocked", "warm")),
        "async_blocked_fraction_first": med(fraction("blocked", "first")),
        "async_staged_fraction": med(fraction("staged", "warm")),
        "async_staged_fraction_first": med(fraction("staged", "first")),
        "async_peak_extra_host_bytes": max(
            res[1][f"{s}/ours/async_peak_extra_{w}"] for _, res, _ in runs
            for s in ("large", "small") for w in ("first", "warm")),
        "async_staging_bytes_bound": args.staging,
        "save_ratio_vs_fio_small_per_repeat": per_repeat(ratio(1, "small", "save")),
        "load_ratio_vs_fio_small_per_repeat": per_repeat(ratio(1, "small", "load")),
        "save_ratio_vs_fio_large_per_repeat": per_repeat(ratio(1, "large", "save")),
        "load_ratio_vs_fio_large_per_repeat": per_repeat(ratio(1, "large", "load")),
        "async_blocked_fraction_per_repeat": per_repeat(fraction("blocked", "warm")),
        "async_staged_fraction_per_repeat": per_repeat(fraction("staged", "warm")),
        "load_average_start": round(load_start[0], 2), "load_average_end": round(load_end[0], 2),
    }
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                      for k, v in summary.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
