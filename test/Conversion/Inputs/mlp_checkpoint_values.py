"""Prints the MLP state in a checkpoint the way the MLP harness prints it.

Reads a safetensors file written by `ssd-ckpt export-safetensors` from a
checkpoint of examples/mlp_adamw.mlir's step and prints the harness's lines
(test/Examples/Inputs/mlp_harness.mlir) for the saved state, so that a test
can diff them against what the step that wrote the checkpoint printed. The
"sums" lines need the state before the step, which
test/Examples/Inputs/mlp_reference.py rebuilds.

    python3 mlp_checkpoint_values.py SRC_ROOT state.safetensors [--shard R/W]

With --shard, each tensor of one or more dimensions is cut to the rows that
rank R of W saved (the checkpoint's global tensor stacks every rank's rows).
"""

import argparse
import json
import os
import struct
import sys

import numpy as np


def read_safetensors(path):
    with open(path, "rb") as f:
        (header_bytes,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(header_bytes))
        data = f.read()
    tensors = {}
    for name, entry in header.items():
        if name == "__metadata__":
            continue
        if entry["dtype"] != "F32":
            raise ValueError(f"{name}: expected F32, got {entry['dtype']}")
        begin, end = entry["data_offsets"]
        tensors[name] = np.frombuffer(data[begin:end], dtype="<f4").reshape(
            entry["shape"])
    return tensors


def fmt(values):
    return "( " + ", ".join("%g" % float(v) for v in values) + " )"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("src_root")
    parser.add_argument("safetensors")
    parser.add_argument("--shard", default="0/1")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.src_root, "test", "Examples", "Inputs"))
    import mlp_reference

    rank, world = (int(part) for part in args.shard.split("/"))
    state = {}
    for name, tensor in read_safetensors(args.safetensors).items():
        if tensor.ndim:
            rows = tensor.shape[0] // world
            tensor = tensor[rank * rows:(rank + 1) * rows]
        state[name] = tensor
    _, _, params, _ = mlp_reference.inputs()

    print("step %g" % float(state["optimizer.step"]))
    for label, values in [
        ("fc2.bias", state["fc2.bias"]),
        ("fc2.bias.exp_avg", state["fc2.bias.exp_avg"]),
        ("fc2.bias.exp_avg_sq", state["fc2.bias.exp_avg_sq"]),
        ("fc2.weight[3, 0:8]", state["fc2.weight"][3, :8]),
        ("fc2.weight.exp_avg[3, 0:8]", state["fc2.weight.exp_avg"][3, :8]),
        ("fc1.bias[0:8]", state["fc1.bias"][:8]),
        ("fc1.bias.exp_avg[0:8]", state["fc1.bias.exp_avg"][:8]),
        ("fc1.weight[5, 0:8]", state["fc1.weight"][5, :8]),
        ("fc1.weight.exp_avg[5, 0:8]", state["fc1.weight.exp_avg"][5, :8]),
        ("fc1.weight.exp_avg_sq[5, 0:8]", state["fc1.weight.exp_avg_sq"][5, :8]),
    ]:
        print(label, fmt(values))
    for name in ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"):
        new = state[name].astype(np.float64)
        sums = [
            np.abs(new - params[name]).sum(),
            np.abs(state[name + ".exp_avg"].astype(np.float64)).sum(),
            state[name + ".exp_avg_sq"].astype(np.float64).sum(),
        ]
        print("sums " + name, fmt(sums))


if __name__ == "__main__":
    main()
