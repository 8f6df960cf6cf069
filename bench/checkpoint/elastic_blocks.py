#!/usr/bin/env python3
"""The checksum block's effect on the elastic load, side by side in one run.

    .venv/bin/python bench/checkpoint/elastic_blocks.py --dir DIR [--bytes 1GiB] [--repeat 3]

torch_compare's small shape (DTensors of 64 KiB, --bytes in all) is saved by
4 gloo ranks twice, with the library's 1 MiB checksum blocks (the code
before, one block a 16 KiB chunk) and with the block the save picks now
(ssdopt.checkpoint._checksum_block: 4 KiB), then each is loaded on 3 ranks
(4 -> 3), the two alternating, the pages dropped before each load. Each
round first measures fio's sequential write and read of --bytes on the same
directory; each time is a ratio to them. Prints one JSON line per round
(the ratios, the manifests' sizes, the load average), then the medians.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import shutil
import statistics
import tempfile

import torch.distributed as dist
import torch.multiprocessing as mp

tc = importlib.machinery.SourceFileLoader(
    "torch_compare", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "torch_compare.py")).load_module()
BLOCKS = {"1MiB": lambda leaves, world: 1 << 20, "picked": None}


def worker(rank: int, world: int, directory: str, total: int, out: str) -> None:
    from torch.distributed.device_mesh import init_device_mesh

    import ssdopt.checkpoint as ckpt
    dist.init_process_group("gloo", init_method=f"file://{directory}/store-{world}",
                            rank=rank, world_size=world)
    mesh = init_device_mesh("cpu", (world,))
    picked, times = ckpt._checksum_block, {}
    for name, block in BLOCKS.items():
        ckpt._checksum_block = block or picked
        root = os.path.join(directory, name)
        if world == 4:
            sd = tc.state("small", total, mesh)
            times[f"{name}/save_4"] = tc.timed(lambda: ckpt.save(sd, root, step=0))
        else:
            target = tc.state("small", total, mesh, fill=0.0)
            if rank == 0:
                tc.drop_cache(root)
            times[f"{name}/elastic_load_4_to_3"] = tc.timed(lambda: ckpt.load(target, root))
    if rank == 0:
        with open(out, "w") as f:
            json.dump(times, f)
    dist.barrier()
    dist.destroy_process_group()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", required=True, help="a directory on the disk to measure")
    parser.add_argument("--bytes", type=tc.parse_bytes, default=1 << 30)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    rounds = []
    for _ in range(args.repeat):
        directory = tempfile.mkdtemp(prefix="elastic-blocks-", dir=args.dir)
        try:
            fio_file = os.path.join(directory, "fio.bin")
            rates = {"save": tc.fio(fio_file, "write", args.bytes),
                     "load": tc.fio(fio_file, "read", args.bytes)}
            os.unlink(fio_file)
            seconds = {}
            for world in (4, 3):
                out = os.path.join(directory, f"times-{world}.json")
                mp.spawn(worker, args=(world, directory, args.bytes, out), nprocs=world,
                         join=True)
                with open(out) as f:
                    seconds.update(json.load(f))
            row = {key: round(args.bytes / value / rates["save" if "save" in key else "load"], 3)
                   for key, value in seconds.items()}
            row["manifest_bytes"] = {name: os.path.getsize(os.path.join(
                directory, name, "step-000000000000", "manifest.json")) for name in BLOCKS}
        finally:
            shutil.rmtree(directory, ignore_errors=True)
        row["load_average"] = round(os.getloadavg()[0], 1)
        print(json.dumps(row), flush=True)
        rounds.append(row)
    for key in seconds:
        print(f"{key}: median ratio to fio {statistics.median(r[key] for r in rounds):.3f} "
              f"over {len(rounds)} rounds")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
