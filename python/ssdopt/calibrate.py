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
  64 MiB copy between pinned host memory and the device);
- `op_time_table` (docs/targets.md, "Measured op times"): one op of each
  kind at several sizes, each run as a chain by the step's executor, the
  seconds per op against the work the exporter writes for that kernel
  (`flops` for matmuls and convolutions, `bytes` for the rest). One
  matmul rate does not fit every size (small matmuls run far below large
  ones), nor one byte rate every element-wise op (a `tanh` moves its bytes
  many times slower than an `add`, a reduction at another rate), so the planner
  times each op it names by the curve of its kind instead of the three
  terms above; `*` (the `add` curve) times every other op, views included
  (0 bytes: the first point, a 1-element op's start). The element-wise
  probes read operands no op touched for 64 MiB of other inputs (cold in
  the caches, as a step's optimizer state and saved activations are: a
  256 Ki-float `add` took 34 us hot and 93 us cold here).

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

import itertools
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


# The ops each probe's curve times: the exporter's kernel names without the
# overload (the C++ matcher takes `aten.mm` for `aten.mm.default`).
# Attention runs matmuls and is timed by the matmul curve at its FLOPs.
_MATMUL_OPS = ("aten.mm", "aten.addmm", "aten.bmm", "aten.baddbmm", "aten.matmul",
               "aten.linear", "aten._scaled_dot_product_flash_attention_for_cpu",
               "aten._scaled_dot_product_flash_attention_for_cpu_backward",
               "aten._scaled_dot_product_flash_attention",
               "aten._scaled_dot_product_flash_attention_backward",
               "aten._scaled_dot_product_efficient_attention",
               "aten._scaled_dot_product_efficient_attention_backward")
# `tanh` alone: on a CPU it moved its bytes 20 times slower than `add`,
# where `silu` and `sigmoid` (vectorised) ran at `add`'s rate, so the
# element-wise ops without a probe of their own are timed as `*`.
_TRANSCENDENTAL_OPS = ("aten.tanh",)
_REDUCTION_OPS = ("aten.sum", "aten.mean", "aten.amax", "aten.amin", "aten.max", "aten.min",
                  "aten.linalg_vector_norm", "aten.var_mean", "aten.native_layer_norm",
                  "aten.native_layer_norm_backward", "aten.native_batch_norm",
                  "aten.native_batch_norm_backward", "aten._native_batch_norm_legit",
                  "aten._native_batch_norm_legit_functional",
                  "aten._native_batch_norm_legit_no_training", "aten.nll_loss_forward",
                  "aten.nll_loss_backward", "aten.embedding_dense_backward",
                  "aten._softmax_backward_data")
_TABLE_MATMUL_SIZES = (16, 32, 64, 128, 256, 512, 1024)
_TABLE_ELEMENTS = (1, 1 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20)
# Convolutions of channels c (in and out) on batch 4 of s x s, 3x3, padding 1.
_TABLE_CONVOLUTIONS = ((8, 32), (16, 32), (32, 32), (64, 32), (128, 32))
# The element-wise probes' inputs: twice the 32 MiB L3 of the machine this
# was written on (an H100's L2 is 50 MiB), in at most 64 sets of inputs.
_COLD_BYTES = 64 << 20
_COLD_SETS = 64


def _probe(make: Callable[[int], Callable[..., Any]],
           inputs_of: Callable[[int], list[torch.Tensor]], target, by: str,
           time_call: Callable[[Callable[[], Any]], float], cold: bool = False
           ) -> tuple[float, float]:
    """(work, seconds) of one op of `target` (an OpOverload):
    `make(n)(*inputs_of(n))` makes n of them, which the step's executor runs
    as one chain (of about 1 ms, 2 to 32 ops: the run's own start is a small
    part of each op); the work is what the exporter writes for that kernel
    (`_flops`: flops or bytes). `cold`: the runs take turns over sets of
    inputs of `_COLD_BYTES` in all (at most `_COLD_SETS`), so that an
    operand an op reads is not in the caches, as the optimizer's state and
    the saved activations a step reads are not."""
    from torch.fx.experimental.proxy_tensor import make_fx

    from ._flops import kernel_bytes, kernel_flops
    from .exporter import fx_to_mlir
    from .wholestep import _Program, _Run

    one, first = make(1), inputs_of(1)
    one(*first)  # warm-up
    started = time.perf_counter()
    one(*first)
    chain = min(32, max(2, int(1e-3 / max(time.perf_counter() - started, 1e-9))))
    fn, inputs = make(chain), inputs_of(chain)
    gm = make_fx(fn)(*inputs)
    nodes = [n for n in gm.graph.nodes if n.op == "call_function" and n.target is target]
    if len(nodes) != chain:
        raise RuntimeError(f"calibration probe for {target}: traced {len(nodes)} ops, "
                           f"expected {chain}")
    node = nodes[0]
    if by == "flops":
        work = kernel_flops(node)
    else:
        value = node.meta["val"]
        results = [value] if isinstance(value, torch.Tensor) else [
            t for t in value if isinstance(t, torch.Tensor)]
        operands = [a.meta["val"] for a in node.all_input_nodes
                    if isinstance(a.meta.get("val"), torch.Tensor)]
        work = float(kernel_bytes(node, operands, results))
    outputs = len(list(gm.graph.nodes)[-1].args[0])
    exported = fx_to_mlir(gm, arg_roles=["input"] * len(inputs),
                          arg_names=[f"x{i}" for i in range(len(inputs))],
                          result_names=[None] * outputs)
    program = _Program(exported, {"plan": []}, store=-1)
    sets = [inputs]
    if cold:
        size = sum(t.numel() * t.element_size() for t in inputs)
        sets += [inputs_of(chain) for _ in range(min(_COLD_SETS, -(-_COLD_BYTES // size)) - 1)]
    turn = itertools.count()
    seconds = time_call(lambda: program.run(list(sets[next(turn) % len(sets)]), _Run())) / chain
    return work, seconds


def _curve(points: list[tuple[float, float]]) -> list[list[float]]:
    """Points in increasing work (a size whose work repeats a smaller one's
    is dropped: the C++ parser wants it increasing)."""
    curve: list[list[float]] = []
    for work, seconds in sorted(points):
        if not curve or work > curve[-1][0]:
            curve.append([work, seconds])
    return curve


def op_time_table(device: torch.device, time_call: Callable[[Callable[[], Any]], float]
                  ) -> list[dict[str, Any]]:
    """The `op_time_table` of the target format: one curve per kind of op,
    measured on `device` by the step's executor."""
    aten = torch.ops.aten
    table = []

    def entry(ops, by, points, probe):
        table.append({"ops": list(ops), "by": by, "points": _curve(points),
                      "description": f"{probe} through the step's executor"})

    points = []
    for n in _TABLE_MATMUL_SIZES:
        a = torch.randn(n, n, device=device)
        w = torch.randn(n, n, device=device) / math.sqrt(n)  # keeps the chain's scale

        def mm_chain(chain):
            def run(x, w):
                for _ in range(chain):
                    x = torch.mm(x, w)
                return (x,)
            return run

        points.append(_probe(mm_chain, lambda _, a=a, w=w: [a, w], aten.mm.default, "flops",
                             time_call))
    entry(_MATMUL_OPS, "flops", points, "aten.mm of square float32 matrices of "
          + ", ".join(map(str, _TABLE_MATMUL_SIZES)))

    forward, backward = [], []
    for channels, side in _TABLE_CONVOLUTIONS:
        x = torch.randn(4, channels, side, side, device=device)
        w = torch.randn(channels, channels, 3, 3, device=device) / math.sqrt(9 * channels)

        def conv_chain(chain):
            def run(x, w):
                for _ in range(chain):
                    x = aten.convolution.default(x, w, None, [1, 1], [1, 1], [1, 1], False,
                                                 [0, 0], 1)
                return (x,)
            return run

        def conv_backward_chain(chain, channels=channels):
            def run(g, x, w):
                for _ in range(chain):
                    g = aten.convolution_backward.default(
                        g, x, w, [channels], [1, 1], [1, 1], [1, 1], False, [0, 0], 1,
                        [True, True, True])[0]
                return (g,)
            return run

        forward.append(_probe(conv_chain, lambda _, x=x, w=w: [x, w], aten.convolution.default,
                              "flops", time_call))
        backward.append(_probe(conv_backward_chain, lambda _, x=x, w=w: [x.clone(), x, w],
                               aten.convolution_backward.default, "flops", time_call))
    sizes = ", ".join(f"{c}x{s}x{s}" for c, s in _TABLE_CONVOLUTIONS)
    entry(("aten.convolution",), "flops", forward, f"3x3 convolutions of batch 4 at {sizes}")
    entry(("aten.convolution_backward",), "flops", backward,
          f"the backward of 3x3 convolutions of batch 4 at {sizes}")

    transcendental, reduction, simple = [], [], []
    for n in _TABLE_ELEMENTS:
        rows = max(1, n // 256)

        def tensors(count, rows=rows, n=n):
            return [torch.randn(rows, n // rows, device=device) for _ in range(count)]

        def tanh_chain(chain):
            # Each op reads an operand of its own; the results stay to the end.
            return lambda *xs: tuple(torch.tanh(x) for x in xs)

        def sum_chain(chain):
            return lambda *xs: tuple(x.sum(dim=-1) for x in xs)

        def add_chain(chain):
            def run(x, *ys):
                for y in ys:
                    x = x + y
                return (x,)
            return run

        transcendental.append(_probe(tanh_chain, tensors, aten.tanh.default, "bytes", time_call,
                                     cold=True))
        reduction.append(_probe(sum_chain, tensors, aten.sum.dim_IntList, "bytes", time_call,
                                cold=True))
        simple.append(_probe(add_chain, lambda count, tensors=tensors: tensors(count + 1),
                             aten.add.Tensor, "bytes", time_call, cold=True))
    elements = ", ".join(map(str, _TABLE_ELEMENTS))
    entry(_TRANSCENDENTAL_OPS, "bytes", transcendental, f"aten.tanh of {elements} floats")
    entry(_REDUCTION_OPS, "bytes", reduction, f"aten.sum over rows of 256 of {elements} floats")
    entry(("*",), "bytes", simple, f"aten.add of {elements} floats")
    return table


def _geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def measure(device: str | torch.device = "cpu", batch_seconds: float = 0.05,
            table: bool = True) -> dict[str, Any]:
    """The device's rates as target fields (with a `description` of how
    each was measured); each time is the least of batches of about
    `batch_seconds`. `table`: measure the `op_time_table` too."""
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
    if table:
        rates["op_time_table"] = op_time_table(device, time_call)
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


def main(device: str, output: str | None, batch_seconds: float = 0.05, table: bool = True) -> None:
    rates = measure(device, batch_seconds, table)
    text = json.dumps(rates, indent=2) + "\n"
    if output in (None, "-"):
        print(text, end="")
    else:
        with open(output, "w", encoding="utf-8") as file:
            file.write(text)
