"""ssd-opt for PyTorch: train in a fixed memory budget by moving tensors to SSD.

- `torch.compile(model, backend="ssd", options={"memory_budget": "2GiB",
  "offload_dir": "/nvme/x"})`, or `backend=ssdopt.backend(...)`;
- `ssdopt.compile_step(model, optimizer, options={"memory_budget": "50%",
  "offload_dir": "/nvme/x"})`: the whole training step planned and run with
  parameters, gradients, optimizer state and activations movable;
- `ssdopt.export(model, example_inputs, loss_fn, optimizer)`: a training step
  as the input IR of `ssd-opt`;
- `ssdopt.stats()`: bytes moved, stall time, planned and measured peak memory.

Logs go to the `ssdopt` logger.
"""

from __future__ import annotations

import logging
from typing import Any

import torch  # noqa: F401  (loads libtorch before the extension ssdopt._C)

from .options import parse_memory_size
from .planning import PlanningError

logger = logging.getLogger("ssdopt")
logger.addHandler(logging.NullHandler())

__all__ = [
    "backend",
    "compile_step",
    "export",
    "fx_to_mlir",
    "ExportedGraph",
    "ExportError",
    "stats",
    "reset_stats",
    "parse_memory_size",
    "PlanningError",
]


def backend(**options: Any):
    """The "ssd" backend with its options checked now (see `ssdopt.options`)."""
    from .dynamo_backend import backend as make_backend

    return make_backend(**options)


def compile_step(model, optimizer, loss_fn=None, options=None):
    """The whole training step of `model` and `optimizer` as one planned
    program (`ssdopt.wholestep`; docs/python.md, "Whole-step offload")."""
    from .wholestep import compile_step as make_step

    return make_step(model, optimizer, loss_fn=loss_fn, options=options)


def export(model, example_inputs, loss_fn=None, optimizer=None) -> str:
    """A training step of `model` as the input IR of `ssd-opt`."""
    from .exporter import export as export_step

    return export_step(model, example_inputs, loss_fn=loss_fn, optimizer=optimizer)


def __getattr__(name: str) -> Any:
    # The exporter's names, imported on first use (it pulls in torch.export).
    if name in ("fx_to_mlir", "ExportedGraph", "ExportError"):
        from . import exporter

        return getattr(exporter, name)
    raise AttributeError(f"module 'ssdopt' has no attribute {name!r}")


def stats() -> dict[str, Any]:
    """What the backend did in this process: the runtime's counters (bytes
    written and read, stall seconds) and, per planned graph, its planned peak
    memory; `planned_peak_bytes` is the largest of those; `fallback_graphs`
    counts the graphs that could not be planned and run without offload
    (each one's `fallback` says why).

    `steps` lists the programs of `compile_step` (one per input shape and
    budget): budget, `planned_peak_bytes`, and `measured_peak_bytes`, the most tensor
    memory PyTorch saw alive during any of its steps (the profiler's memory
    events on CPU, torch.cuda.max_memory_allocated on GPU; the runtime's
    staging pool, `staging_pool_bytes`, is outside both);
    `measured_peak_bytes` at the top is the largest of those."""
    from . import dynamo_backend as backend_module
    from . import runtime
    from . import wholestep

    result = dict(runtime.stats())
    graphs = backend_module.planned_graphs()
    steps = wholestep.planned_programs()
    peaks = [graph["peak_bytes_after"] for graph in graphs if graph.get("peak_bytes_after") is not None]
    result["planned_peak_bytes"] = max(peaks) if peaks else None
    measured = [step["measured_peak_bytes"] for step in steps if step["measured_peak_bytes"] is not None]
    result["measured_peak_bytes"] = max(measured) if measured else None
    result["fallback_graphs"] = sum(1 for graph in graphs if graph.get("fallback"))
    result["graphs"] = graphs
    result["steps"] = steps
    return result


def reset_stats() -> None:
    """Zeroes the runtime's counters (plans stay recorded)."""
    from . import runtime

    runtime.reset_stats()
