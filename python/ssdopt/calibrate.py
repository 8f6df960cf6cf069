"""The device's rates for the planner's cost model, measured with torch.

The planner times each op of a step as (docs/targets.md, "Cost model")::

    op_overhead_seconds + max(flops / compute_flops, bytes / device_memory_bandwidth)

with the `flops` and `bytes` the exporter writes for each kernel (`_flops`:
flop_counter's formulas; bytes of the operands plus the results). The step
runs those kernels through torch (MKL/oneDNN on a CPU, cuBLAS on a GPU), so
this probe times torch's own ops and solves the same formula for its three
terms:

- `op_overhead_seconds`: a chain of 256 `aten.add`s of 1-element tensors
  run by the whole step's own executor (`wholestep._Program`, with an
  empty plan), per op: the dispatch, allocation, the executor's own work
  per node and (on a GPU) the launch that every op of a step pays;
- `compute_flops`: `aten.mm` of square float32 matrices of 256, 512 and
  1024, each size's rate ``2 n^3 / (seconds - overhead)``, their geometric
  mean (the steps' matmuls are of those sizes, and each size counts once);
- `device_memory_bandwidth`: `aten.add` of float32 vectors of 256 Ki, 1 Mi
  and 4 Mi elements, each ``3 * 4 n`` bytes (two operands, one result, as
  the exporter counts them) over ``seconds - overhead``, their geometric
  mean;
- on a GPU also `device_memory` (the card's) and the host link each way (a
  64 MiB copy between pinned host memory and the device).

Each time is the least of 5 batches of calls (a GPU synchronised around
each batch): on a machine shared with other work, the rate when nothing
else ran, which repeats from one calibration to the next where a median
follows the load. It runs at torch's current thread count
(`torch.get_num_threads()`): run the step with the same. It writes the fields in the target format,
which `ssd-run --calibrate --device-rates FILE` puts over the disk it
measures (the C++ target parser checks them)::

    python -m ssdopt calibrate --device cpu -o rates.json
    ssd-run --calibrate --scratch-dir /nvme/tmp --device-rates rates.json -o target.json
"""

from __future__ import annotations

import json
import math
import time
from typing import Any, Callable

import torch

_MATMUL_SIZES = (256, 512, 1024)
_ELEMENTWISE_SIZES = (256 << 10, 1 << 20, 4 << 20)
_BATCHES = 5
_CHAIN = 256


def _seconds_per_call(fn: Callable[[], Any], device: torch.device, budget: float) -> float:
    """The least over `_BATCHES` batches of one call's seconds; a batch makes
    enough calls to take about `budget` seconds."""
    def sync():
        if device.type == "cuda":
            torch.cuda.synchronize(device)

    fn()  # warm-up (allocator, kernels)
    sync()
    calls = 1
    while True:
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        elapsed = time.perf_counter() - started
        if elapsed >= budget / 4 or calls >= 1 << 16:
            break
        calls *= 4
    calls = max(1, int(calls * budget / max(elapsed, 1e-9)))
    samples = []
    for _ in range(_BATCHES):
        started = time.perf_counter()
        for _ in range(calls):
            fn()
        sync()
        samples.append((time.perf_counter() - started) / calls)
    return min(samples)


def _executor_chain(device: torch.device) -> Callable[[], Any]:
    """One run of `_CHAIN` element-wise ops on a 1-element tensor by the
    whole step's executor, as a call."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from .exporter import fx_to_mlir
    from .wholestep import _Program, _Run

    def chain(x):
        for _ in range(_CHAIN):
            x = x + 1
        return (x,)

    x = torch.ones(1, device=device)
    exported = fx_to_mlir(make_fx(chain)(x), arg_roles=["input"], arg_names=["x"],
                          result_names=[None])
    program = _Program(exported, {"plan": []}, store=-1)
    return lambda: program.run([x], _Run())


def _geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def measure(device: str | torch.device = "cpu", batch_seconds: float = 0.05) -> dict[str, Any]:
    """The device's rates as target fields (with a `description` of how
    each was measured); each time is the least of batches of about
    `batch_seconds`."""
    device = torch.device(device)

    def time_call(fn):
        return _seconds_per_call(fn, device, batch_seconds)

    aten = torch.ops.aten
    overhead = time_call(_executor_chain(device)) / _CHAIN

    flop_rates, notes = [], []
    for n in _MATMUL_SIZES:
        a = torch.randn(n, n, device=device)
        b = torch.randn(n, n, device=device)
        seconds = time_call(lambda: aten.mm.default(a, b))
        rate = 2.0 * n ** 3 / max(seconds - overhead, seconds * 0.01)
        flop_rates.append(rate)
        notes.append(f"mm {n}: {seconds:.3e} s ({rate:.3e} FLOP/s)")
    byte_rates = []
    for n in _ELEMENTWISE_SIZES:
        a = torch.randn(n, device=device)
        b = torch.randn(n, device=device)
        seconds = time_call(lambda: aten.add.Tensor(a, b))
        rate = 3 * 4 * n / max(seconds - overhead, seconds * 0.01)
        byte_rates.append(rate)
        notes.append(f"add {n}: {seconds:.3e} s ({rate:.3e} B/s)")
    rates: dict[str, Any] = {
        "compute_flops": _geometric_mean(flop_rates),
        "device_memory_bandwidth": _geometric_mean(byte_rates),
        "op_overhead_seconds": overhead,
    }
    where = f"{device.type}, {torch.get_num_threads()} threads"
    if device.type == "cuda":
        where = torch.cuda.get_device_name(device)
        rates["device_memory"] = torch.cuda.get_device_properties(device).total_memory
        size = 64 << 20
        host = torch.empty(size, dtype=torch.uint8, pin_memory=True)
        card = torch.empty(size, dtype=torch.uint8, device=device)
        to_device = time_call(lambda: card.copy_(host, non_blocking=True))
        to_host = time_call(lambda: host.copy_(card, non_blocking=True))
        rates["host_to_device_bandwidth"] = size / to_device
        rates["device_to_host_bandwidth"] = size / to_host
        notes.append(f"64 MiB pinned copies: {to_device:.3e} s to the device, {to_host:.3e} s back")
    rates["description"] = (
        f"measured by python -m ssdopt calibrate with torch {torch.__version__} on {where}: "
        f"{_CHAIN} 1-element adds through the step's executor {overhead:.3e} s per op; "
        + "; ".join(notes)
        + "; rates are each size's over (seconds - op overhead), geometric means")
    return rates


def main(device: str, output: str | None, batch_seconds: float = 0.05) -> None:
    rates = measure(device, batch_seconds)
    text = json.dumps(rates, indent=2) + "\n"
    if output in (None, "-"):
        print(text, end="")
    else:
        with open(output, "w", encoding="utf-8") as file:
            file.write(text)
