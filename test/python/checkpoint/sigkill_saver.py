"""SIGKILL trials of a process saving checkpoints.

    python test/python/checkpoint/sigkill_saver.py DIR --trials 100

For each trial a child process (forked from this one, which imports torch
but never loads the checkpoint library, so that the child starts with no
threads) saves steps 0, 1, 2, ... of a state dict whose values are a function
of the step, synchronously or with async_save, and reports each committed
step on a pipe; it is killed with SIGKILL after a random delay, so in any
phase: staging, data writes, fsync, the manifest's rename, `latest`,
retention. Then, in this process, every trial must leave `latest` naming the
last step the child reported or the one after it, and every committed step
must load bit-identically. Prints one JSON line; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import struct
import sys
import time

import torch
import torch.distributed.tensor  # noqa: F401  (slow to import: once, before the forks)

import ssdopt.checkpoint as ckpt

SHAPES = [(64, 1024), (3, 5), (256, 257), (1,), (1000, 33)]


def state(step: int) -> dict:
    return {"t": [torch.arange(torch.Size(s).numel(), dtype=torch.float32).view(s) + step * 7
                  for s in SHAPES],
            "step": step, "ids": torch.full((97,), step, dtype=torch.int64)}


def _child(root: str, async_save: bool, keep: int | None, report: int) -> None:
    torch.set_num_threads(1)
    # Warm up (the library, its I/O engine) elsewhere, then say so.
    ckpt.save(state(0), root + ".warmup")
    os.write(report, struct.pack("<q", -1))
    step = 0
    while True:
        result = ckpt.save(state(step), root, async_save=async_save, keep_last=keep,
                           staging_bytes=256 << 10)
        if async_save:
            result.result()
        os.write(report, struct.pack("<q", step))
        step += 1


def run_trials(base: str, trials: int, seed: int, max_delay: float) -> list:
    rng = random.Random(seed)
    out = []
    for trial in range(trials):
        root = os.path.join(base, f"trial-{trial:03d}")
        async_save = trial % 2 == 1
        keep = (None, 2)[trial % 4 // 2]
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            try:
                _child(root, async_save, keep, write)
            finally:
                os._exit(3)
        os.close(write)
        if os.read(read, 8) != struct.pack("<q", -1):
            raise RuntimeError(f"trial {trial}: the saving child did not start")
        delay = rng.uniform(0, max_delay)
        time.sleep(delay)
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        reported = []
        while chunk := os.read(read, 8 * 1024):
            reported += [v for (v,) in struct.iter_unpack("<q", chunk)]
        os.close(read)
        out.append({"root": root, "delay": round(delay, 3), "async": async_save, "keep": keep,
                    "last_reported": reported[-1] if reported else None,
                    "killed": os.WIFSIGNALED(status)})
    return out


def verify(trial: dict) -> list:
    """The trial's problems (empty when it left what it must)."""
    problems = []
    root, last = trial["root"], trial["last_reported"]
    if not trial["killed"]:
        problems.append("the saving child exited before it was killed")
    step = ckpt.latest(root) if os.path.isdir(root) else None
    if last is not None and (step is None or not last <= step <= last + 1):
        problems.append(f"latest is {step}, the child had committed {last}")
    if last is None and step not in (None, 0):
        problems.append(f"latest is {step} before any reported commit")
    names = sorted(os.listdir(root)) if os.path.isdir(root) else []
    for name in names:
        directory = os.path.join(root, name)
        if not os.path.exists(os.path.join(directory, "manifest.json")):
            continue
        with ckpt._Reader(directory) as reader:
            reader.verify()
            saved = reader.info()["step"]
        target = {"t": [torch.zeros(s) for s in SHAPES], "step": -1,
                  "ids": torch.zeros(97, dtype=torch.int64)}
        ckpt.load(target, directory)
        want = state(saved)
        if target["step"] != saved or not torch.equal(target["ids"], want["ids"]) or not all(
                torch.equal(a, b) for a, b in zip(target["t"], want["t"])):
            problems.append(f"{directory} does not hold step {saved}'s values")
    if step is not None:
        target = {"t": [torch.zeros(s) for s in SHAPES], "step": -1,
                  "ids": torch.zeros(97, dtype=torch.int64)}
        if ckpt.load(target, root).step != step or target["step"] != step:
            problems.append(f"{root}'s latest does not load step {step}")
    return problems


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-delay", type=float, default=0.4)
    args = parser.parse_args(argv)
    start = time.monotonic()
    trials = run_trials(args.dir, args.trials, args.seed, args.max_delay)
    failures = {t["root"]: p for t in trials if (p := verify(t))}
    summary = {"trials": len(trials), "failures": failures,
               "killed_before_first_commit": sum(t["last_reported"] is None for t in trials),
               "commits_before_kill": sum((t["last_reported"] or -1) + 1 for t in trials),
               "seconds": round(time.monotonic() - start, 1)}
    print(json.dumps(summary))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
