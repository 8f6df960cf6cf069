"""Remote checkpoints against a SeaweedFS S3 server on loopback, side by side
with the store's own rate in the same run.

    .venv/bin/python bench/checkpoint/remote_s3.py --mib 256 --repeat 3

Starts `weed server -s3` (test/python/checkpoint/seaweed.py), then, per
repeat: ssdopt.checkpoint.save to s3:// (the data file written in the
rank's cache, uploaded, verified by its size and the server's MD5 (ETag),
manifest, latest) and load from it (range reads into sparse files,
verified), against s3fs put_file of one file of the same size (what the
upload costs at least), put_file + get_file (what an upload verified by
reading it back cost at least) and get_file alone.
Prints medians; the last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "test", "python", "checkpoint"))

import ssdopt.checkpoint as ckpt  # noqa: E402
from seaweed import Server  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--tensors", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    elements = args.mib * (1 << 20) // 4 // args.tensors
    state = {f"t{i}": torch.randn(elements) for i in range(args.tensors)}
    nbytes = sum(t.numel() * 4 for t in state.values())
    server = Server()
    server.start()
    rows: dict[str, list[float]] = {k: [] for k in
                                    ("save", "load", "put", "put_get", "get")}
    try:
        fs = server.filesystem()
        options = server.storage_options()
        with tempfile.TemporaryDirectory() as tmp:
            blob = os.path.join(tmp, "blob")
            with open(blob, "wb") as f:
                f.write(os.urandom(nbytes))
            for r in range(args.repeat):
                place = server.bucket()
                t = time.perf_counter()
                fs.put_file(blob, f"{place}/alone")
                rows["put"].append(time.perf_counter() - t)
                t = time.perf_counter()
                fs.put_file(blob, f"{place}/blob")
                fs.get_file(f"{place}/blob", os.path.join(tmp, "back"))
                rows["put_get"].append(time.perf_counter() - t)
                t = time.perf_counter()
                fs.get_file(f"{place}/blob", os.path.join(tmp, "back"))
                rows["get"].append(time.perf_counter() - t)
                root = f"s3://{place}/run"
                t = time.perf_counter()
                ckpt.save(state, root, storage_options=options)
                rows["save"].append(time.perf_counter() - t)
                target = {k: torch.empty_like(v) for k, v in state.items()}
                t = time.perf_counter()
                ckpt.load(target, root, storage_options=options)
                rows["load"].append(time.perf_counter() - t)
                assert all(torch.equal(target[k], v) for k, v in state.items())
    finally:
        server.close()
    med = {k: statistics.median(v) for k, v in rows.items()}
    mib = nbytes / (1 << 20)
    for k, v in med.items():
        print(f"{k:>8}: {v:.3f} s  {mib / v:.0f} MiB/s  (runs: "
              + ", ".join(f"{x:.3f}" for x in rows[k]) + ")")
    print(json.dumps({"mib": mib, "repeat": args.repeat,
                      "save_ratio_vs_put": med["put"] / med["save"],
                      "save_ratio_vs_put_get": med["put_get"] / med["save"],
                      "load_ratio_vs_get": med["get"] / med["load"],
                      **{f"{k}_s": v for k, v in med.items()}}))


if __name__ == "__main__":
    main()
