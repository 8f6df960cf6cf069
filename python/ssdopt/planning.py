"""Asks `ssd-opt` for a plan of an exported step.

The backend runs the same pass pipeline as the command line (and as the lit
tests): `ssd-offload-pipeline` plans, inserts the prefetches, verifies the
plan on the IR, and writes the report whose "plan" key lists the gaps.
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import tempfile
from typing import Any, Iterable


class PlanningError(RuntimeError):
    """`ssd-opt` could not plan the graph (its diagnostic is the message).

    When the reason is a budget below what one op needs resident,
    `infeasible` is true and `op` (the op's line of the graph, its ATen name
    and value), `required_bytes` (what it needs resident: its operands and
    results and the live tensors that may not move), `unmovable_bytes` (the
    latter part) and `budget_bytes` say so; otherwise they are None."""

    # The planner's diagnostic at the op a budget cannot hold (PlanOffload.cpp).
    _INFEASIBLE = re.compile(
        r"error: needs (?P<required>\d+) bytes resident \(its operands and results"
        r"(?:, and (?P<unmovable>\d+) bytes of live tensors whose roles may not move)?\), "
        r"over the memory budget of (?P<budget>\d+) bytes\n(?P<line>[^\n]*)"
    )

    def __init__(self, message: str):
        super().__init__(message)
        match = self._INFEASIBLE.search(message)
        self.infeasible = match is not None
        self.required_bytes = int(match["required"]) if match else None
        self.unmovable_bytes = int(match["unmovable"] or 0) if match else None
        self.budget_bytes = int(match["budget"]) if match else None
        self.op = None
        if match:
            value = re.search(r"(%[\w.$]+)(?::\d+)? = ", match["line"])
            name = re.search(r'name = "([^"]+)"', match["line"])
            self.op = " ".join(part[1] for part in (name, value) if part) or match["line"].strip()


def find_ssd_opt(explicit: str | None = None) -> str:
    """The `ssd-opt` binary: `explicit`, else $SSD_OPT, else the one a wheel
    carries (`ssdopt/bin/ssd-opt`, statically linked), else PATH, else the
    build/bin of the checkout this package was loaded from."""
    candidates = []
    if explicit:
        candidates.append(explicit)
    elif os.environ.get("SSD_OPT"):
        candidates.append(os.environ["SSD_OPT"])
    else:
        bundled = pathlib.Path(__file__).resolve().parent / "bin" / "ssd-opt"
        if bundled.is_file():
            candidates.append(str(bundled))
        on_path = shutil.which("ssd-opt")
        if on_path:
            candidates.append(on_path)
        checkout = pathlib.Path(__file__).resolve().parents[2]
        candidates.append(str(checkout / "build" / "bin" / "ssd-opt"))
    for candidate in candidates:
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    raise PlanningError(
        f"ssd-opt not found (looked at {', '.join(candidates)}); build it with "
        "`make build`, put it on PATH, or pass options={'ssd_opt': PATH}"
    )


def with_cost_seconds(mlir: str, seconds: list[float]) -> str:
    """`mlir`, an exported step (one ``ssd.kernel`` per line, in op order),
    with `seconds[i]` as op i's measured ``cost_seconds`` (which the cost
    model prefers over its flops and bytes, docs/graph-format.md)."""
    from .exporter import _float

    lines = mlir.split("\n")
    index = 0
    for number, line in enumerate(lines):
        if ' = "ssd.kernel"(' not in line:
            continue
        if index >= len(seconds) or "{name = " not in line or "cost_seconds" in line:
            raise ValueError(f"line {number + 1} of the step: op {index} is not an ssd.kernel "
                             "without cost_seconds of the exported step")
        lines[number] = line.replace("{name = ", f"{{cost_seconds = {_float(seconds[index])} : f64, name = ", 1)
        index += 1
    if index != len(seconds):
        raise ValueError(f"the step has {index} ssd.kernel ops, but {len(seconds)} op times were given")
    return "\n".join(lines)


def offload_writes(values: Iterable[Any]) -> dict[int, list[int]]:
    """The bytes each offload of `values` (the tensors offloaded, fake or
    real) writes, by the store's context it goes to (a CUDA index, -1 for
    the host), for `runtime.reserve`: the span of elements the runtime
    writes (the elements of a dense or packed tensor, the storage span of an
    overlapping view) times the element size. An empty value writes
    nothing."""
    writes: dict[int, list[int]] = {}
    for value in values:
        if value.numel() == 0:
            continue
        span = 1 + sum((int(size) - 1) * int(stride) for size, stride in zip(value.shape, value.stride()))
        device = -1
        if value.device.type == "cuda":
            import torch

            device = value.device.index if value.device.index is not None else torch.cuda.current_device()
        writes.setdefault(device, []).append(min(int(value.numel()), span) * value.element_size())
    return writes


def plan(
    mlir: str,
    *,
    memory_budget: int,
    target: str,
    policy: str,
    movable: str = "activation",
    ssd_opt: str | None = None,
    report_path: str | None = None,
) -> dict[str, Any]:
    """Plans `mlir` (one training step in the input contract) and returns the
    report as a dict."""
    binary = find_ssd_opt(ssd_opt)
    with tempfile.TemporaryDirectory(prefix="ssdopt-plan-") as scratch:
        source = os.path.join(scratch, "step.mlir")
        report = report_path or os.path.join(scratch, "report.json")
        with open(source, "w") as file:
            file.write(mlir)
        pipeline = f"memory-budget={memory_budget} target={target} policy={policy} report={report}"
        if movable:
            pipeline += f" movable={movable}"
        command = [binary, source, f"--ssd-offload-pipeline={pipeline}", "-o", os.devnull]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            message = result.stderr.strip().replace(source, "<graph>")
            raise PlanningError(f"ssd-opt could not plan the graph: {message}")
        with open(report) as file:
            return json.load(file)
