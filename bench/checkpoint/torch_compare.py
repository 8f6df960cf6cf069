#!/usr/bin/env python3
"""ssdopt.checkpoint next to torch.save, DCP and fio, side by side in one run.

    .venv/bin/python bench/checkpoint/torch_compare.py --dir DIR [--bytes 1GiB]

For 1 and 4 gloo ranks and two shapes of a state dict of --bytes in all
("large": 16 tensors; "small": tensors of 64 KiB each), every tensor a DTensor
sharded by rows over the ranks, it times save and load with
ssdopt.checkpoint, torch.distributed.checkpoint (FileSystemWriter, default and
thread_count=8) and torch.save/torch.load (one file per rank, fsynced), and
fio's sequential O_DIRECT write and read of --bytes on the same directory
(bench/checkpoint/run's fio call). Every save ends with its files synced;
before every load the files' pages are dropped from the page cache
(posix_fadvise DONTNEED), so no load reads memory. Then the 4-rank
checkpoint is loaded on 3 ranks (elastic), and async_save's blocked time is
measured against the synchronous save. Prints a Markdown table and, last, one
JSON line.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import shutil
import sys
import tempfile
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MiB = 1 << 20
SMALL = 64 << 10


def parse_bytes(text: str) -> int:
    from ssdopt.options import parse_memory_size
    return parse_memory_size(text)


def fio(path: str, rw: str, size: int) -> float:
    run = importlib.machinery.SourceFileLoader(
        "bench_checkpoint_run", os.path.join(ROOT, "bench", "checkpoint", "run")).load_module()
    return run.fio(path, rw, size)


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
        # async: the caller's blocked time, then the rest of the save.
        dist.barrier()
        start = time.perf_counter()
        future = ckpt.save(sd, d, step=1, async_save=True, staging_bytes=args.staging)
        blocked = time.perf_counter() - start
        future.result()
        dist.barrier()
        results[f"{shape}/ours/async_blocked"] = blocked
        results[f"{shape}/ours/async_total"] = time.perf_counter() - start
        for name, threads in (("dcp", 1), ("dcp8", 8)):
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
        each("torch.save", torch_save, torch_load, d)
    if rank == 0:
        with open(out_file, "w") as f:
            json.dump(results, f)
    dist.barrier()
    dist.destroy_process_group()


def run_world(world: int, args, only_load: str | None = None) -> dict:
    out = tempfile.mktemp(prefix="torch-compare-", suffix=".json")
    store = tempfile.mktemp(prefix="torch-compare-store-")
    mp.spawn(worker, args=(world, args, out, store, only_load), nprocs=world, join=True)
    with open(out) as f:
        results = json.load(f)
    os.unlink(out)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="a directory on the disk to measure")
    parser.add_argument("--bytes", type=parse_bytes, default=1 << 30)
    parser.add_argument("--staging", type=parse_bytes, default=2 << 30,
                        help="async_save's staging_bytes")
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    fio_file = os.path.join(args.dir, "fio.bin")
    rates = {"write": fio(fio_file, "write", args.bytes), "read": fio(fio_file, "read", args.bytes)}
    os.unlink(fio_file)
    results = {1: run_world(1, args), 4: run_world(4, args)}
    elastic = run_world(3, args, only_load="4")
    shutil.rmtree(args.dir, ignore_errors=True)

    def rate(seconds):
        return args.bytes / seconds

    print(f"# {args.bytes / MiB:.0f} MiB per state dict; fio write {rates['write'] / MiB:.0f} "
          f"MiB/s, read {rates['read'] / MiB:.0f} MiB/s (O_DIRECT, {args.dir})")
    print("| ranks | shape | method | save MiB/s | load MiB/s | save/fio | load/fio |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for world, res in results.items():
        for shape in ("large", "small"):
            for method in ("ours", "dcp", "dcp8", "torch.save"):
                s, l = res[f"{shape}/{method}/save"], res[f"{shape}/{method}/load"]
                print(f"| {world} | {shape} | {method} | {rate(s) / MiB:.0f} | "
                      f"{rate(l) / MiB:.0f} | {rate(s) / rates['write']:.2f} | "
                      f"{rate(l) / rates['read']:.2f} |")
    for shape in ("large", "small"):
        for method in ("ours", "dcp8"):
            l = elastic[f"{shape}/{method}/elastic_load"]
            print(f"| 4 -> 3 | {shape} | {method} | | {rate(l) / MiB:.0f} | | "
                  f"{rate(l) / rates['read']:.2f} |")
    one = results[1]
    summary = {
        "bytes": args.bytes,
        "fio_write_mib_s": rates["write"] / MiB, "fio_read_mib_s": rates["read"] / MiB,
        "save_ratio_vs_fio_large": rate(one["large/ours/save"]) / rates["write"],
        "save_ratio_vs_fio_small": rate(one["small/ours/save"]) / rates["write"],
        "load_ratio_vs_fio_large": rate(one["large/ours/load"]) / rates["read"],
        "load_ratio_vs_fio_small": rate(one["small/ours/load"]) / rates["read"],
        "save_speedup_vs_dcp_small": one["small/dcp8/save"] / one["small/ours/save"],
        "load_speedup_vs_dcp_small": one["small/dcp8/load"] / one["small/ours/load"],
        "save_speedup_vs_dcp_large": one["large/dcp8/save"] / one["large/ours/save"],
        "elastic_load_ratio_vs_fio_large": rate(elastic["large/ours/elastic_load"])
        / rates["read"],
        "async_blocked_fraction": max(one[f"{s}/ours/async_blocked"] / one[f"{s}/ours/save"]
                                      for s in ("large", "small")),
        "async_staging_bytes_bound": args.staging,
    }
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v
                      for k, v in summary.items()}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
