"""The options of the "ssd" backend, checked before any graph is compiled."""

from __future__ import annotations

import dataclasses
import functools
import os
import subprocess
from typing import Any, Mapping

INNER_COMPILERS = ("eager", "inductor")


@functools.lru_cache(maxsize=256)
def _ask_ssd_opt(binary: str, query: str) -> tuple[int, str, str]:
    """`ssd-opt QUERY`'s exit code, output and error text (cached: the
    answers are rules of that binary)."""
    result = subprocess.run([binary, query], capture_output=True, text=True)
    return result.returncode, result.stdout, result.stderr


def policies(ssd_opt: str | None = None) -> tuple[str, ...]:
    """The planning policies, as `ssd-opt --ssd-list-policies` names them."""
    from .planning import find_ssd_opt

    code, out, err = _ask_ssd_opt(find_ssd_opt(ssd_opt), "--ssd-list-policies")
    if code != 0:
        raise RuntimeError(f"ssd-opt --ssd-list-policies failed: {err.strip()}")
    return tuple(out.split())


def parse_memory_size(value: int | str, ssd_opt: str | None = None) -> int:
    """Bytes from `512MiB`, `2GiB`, `1.5GB`, `1e9` or a plain number of
    bytes: `ssd-opt` itself reads the string (`--ssd-memory-size`), so this
    is exactly the grammar of its `memory-budget=`."""
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError(f"memory size must be a number of bytes or a string like '2GiB', got {value!r}")
    if isinstance(value, int):
        size = value
    else:
        from .planning import find_ssd_opt

        code, out, err = _ask_ssd_opt(find_ssd_opt(ssd_opt), f"--ssd-memory-size={value}")
        if code != 0:
            reason = err.strip().removeprefix("ssd-opt: ")
            raise ValueError(f"cannot parse memory size {value!r}: {reason}")
        size = int(out)
    if size <= 0:
        raise ValueError(f"memory size must be positive, got {value!r}")
    return size


def parse_peak_share(value: Any) -> float | None:
    """0.8 from `"80%"`; None for anything that is not a percentage."""
    if not isinstance(value, str) or not value.strip().endswith("%"):
        return None
    try:
        share = float(value.strip()[:-1]) / 100
    except ValueError:
        raise ValueError(f"cannot parse memory budget {value!r}: expected a share like '80%'") from None
    if not 0 < share <= 1:
        raise ValueError(f"a memory budget share must be above 0% and at most 100%, got {value!r}")
    return share


@dataclasses.dataclass(frozen=True)
class Options:
    """What `torch.compile(backend="ssd", options={...})` accepts.

    memory_budget: the most bytes a compiled graph may hold live at once
        (its inputs included), as `ssd-opt`'s `memory-budget=`; or a share
        of each graph's unplanned peak, `"80%"` (then `memory_budget` is 0
        and `peak_share` 0.8).
    offload_dir: an existing, writable directory on the SSD for the
        offloaded tensors; the backend's data file there (its planned writes'
        space reserved) lives while its store is open: until
        `backend.close()` or interpreter exit.
    target: a target preset of `ssd-opt` or a target JSON file; by default the
        host-only preset for CPU graphs and the H100 one for CUDA graphs.
    policy: the planning policy (`ssd`, or one of the baselines).
    inner: the compiler of the rewritten forward and backward graphs.
    ssd_opt: the `ssd-opt` binary (else $SSD_OPT, PATH, then this
        checkout's build/bin).
    report_dir: where to write each graph's planning report (JSON) and the
        step it planned (the input IR of `ssd-opt`).
    strict: a graph the backend cannot plan (a data-dependent shape, an
        op the exporter cannot write) is an error, instead of being compiled
        by the inner compiler without offload.
    """

    memory_budget: int
    offload_dir: str
    peak_share: float | None = None
    target: str | None = None
    policy: str = "ssd"
    inner: str = "eager"
    ssd_opt: str | None = None
    report_dir: str | None = None
    strict: bool = False


def parse_options(options: Mapping[str, Any] | None) -> Options:
    """Validates `options`; every problem is a ValueError naming the option."""
    options = dict(options or {})
    known = {field.name for field in dataclasses.fields(Options)}
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(
            f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))} "
            f"for the 'ssd' backend; known options: {', '.join(sorted(known))}"
        )
    for required in ("memory_budget", "offload_dir"):
        if options.get(required) is None:
            raise ValueError(f"the 'ssd' backend needs the option {required!r}")
    ssd_opt = options.get("ssd_opt")
    budget, peak_share = 0, parse_peak_share(options["memory_budget"])
    if peak_share is None:
        budget = parse_memory_size(options["memory_budget"], ssd_opt)

    offload_dir = os.fspath(options["offload_dir"])
    if not os.path.isdir(offload_dir):
        raise ValueError(f"offload_dir {offload_dir!r} does not exist or is not a directory")
    if not os.access(offload_dir, os.W_OK | os.X_OK):
        raise ValueError(f"offload_dir {offload_dir!r} is not writable")

    policy = options.get("policy", "ssd")
    known_policies = policies(ssd_opt)
    if policy not in known_policies:
        raise ValueError(f"unknown policy {policy!r}; expected one of {', '.join(known_policies)}")
    inner = options.get("inner", "eager")
    if inner not in INNER_COMPILERS:
        raise ValueError(f"unknown inner compiler {inner!r}; expected one of {', '.join(INNER_COMPILERS)}")
    target = options.get("target")
    if target is not None and not isinstance(target, (str, os.PathLike)):
        raise ValueError(f"target must be a preset name or a JSON file, got {target!r}")
    report_dir = options.get("report_dir")
    if report_dir is not None and not os.path.isdir(report_dir):
        raise ValueError(f"report_dir {os.fspath(report_dir)!r} does not exist")
    strict = options.get("strict", False)
    if not isinstance(strict, bool):
        raise ValueError(f"strict must be True or False, got {strict!r}")
    return Options(
        memory_budget=budget,
        peak_share=peak_share,
        offload_dir=os.path.abspath(offload_dir),
        target=None if target is None else os.fspath(target),
        policy=policy,
        inner=inner,
        ssd_opt=ssd_opt,
        report_dir=None if report_dir is None else os.fspath(report_dir),
        strict=strict,
    )
