"""Whole-step offload: a training step (forward, backward, optimizer update)
planned by `ssd-opt` with parameters, gradients, optimizer state and
activations all movable, and run in PyTorch with ``torch.ops.ssdopt.*``.

Example::

    import ssdopt
    step = ssdopt.compile_step(model, optimizer, options={
        "memory_budget": "50%", "offload_dir": "/nvme/run1", "max_grad_norm": 1.0})
    with step:
        for batch in loader:
            loss = step(**batch)      # one planned program per input shape
            scheduler.step()          # the learning rate is an input of the step
        step.sync_to_model()          # parameters back into `model`

How it works, per input shape (the first call with that shape):

1. `exporter.export_step` traces the step once: the joint forward and
   backward (AOTAutograd) plus a functional SGD, Adam or AdamW update, with
   each param group's learning rate a 0-d input and, with `max_grad_norm`,
   clipping by the global norm. Parameters, buffers and optimizer state are
   arguments; their new values are results (those the step does not change
   are returned unchanged, so that the plan keeps them for the next step).
2. `planning.plan` asks `ssd-opt --ssd-offload-pipeline` for a plan with
   every role movable except the caller's inputs (moving those would free
   nothing: the caller holds them).
3. `_Program` runs the traced FX graph node by node and applies the plan's
   gaps (docs/planner.md, "Plans"): `ssdopt.offload` at the offload slot,
   `ssdopt.sync` then dropping the tensor at the release slot (the planner's
   release waits for the write), `ssdopt.prefetch` and `ssdopt.wait` before
   the use. Every value is dropped after its last use, so the memory in use
   follows the plan. State that the plan lets enter the step on SSD is kept
   between steps as handles owned by the step; results that leave on SSD are
   returned as handles.

Between steps, the step owns the model's state: each parameter's
`.data` is replaced by an empty tensor (`sync_to_model` puts the values
back) and the optimizer's state for the traced parameters is taken over.
`Step._persistent_state()` lists where each persistent tensor is.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import logging
import operator
import os
import time
from typing import Any, Callable, Iterator, Mapping

import torch
import torch.fx

from . import planning
from .options import parse_memory_size, parse_peak_share

logger = logging.getLogger("ssdopt")

# A budget above any step's peak: plans nothing, reports the peak.
_NO_LIMIT = 1 << 62

# Every role may move but the caller's inputs (docs/planner.md, "Roles").
_MOVABLE = "param,optimizer_state,buffer,activation,gradient,temporary,unknown"

# The staging pool of the runtime context a store opens per device
# (OffloadStore.cpp, contextFor): memory outside torch's allocator.
STAGING_POOL_BYTES = 4 << 20

# Persistent arguments up to this size stay alive to the end of the step.
_RETAINED_BYTES = 64 << 10

# One entry per planned program, for `ssdopt.stats()`.
_programs: list[dict[str, Any]] = []
_plans_made = 0  # for report_dir's file names

_LOCK_NAME = "ssdopt-step.lock"

_OPTIONS = {
    "memory_budget": "bytes, a size string ('8GiB') or a share of the step's unplanned peak ('50%')",
    "offload_dir": "an existing, writable directory on the SSD",
    "target": "a target preset of ssd-opt or a target JSON file",
    "policy": "the planning policy",
    "ssd_opt": "the ssd-opt binary",
    "report_dir": "where to write each plan's report and the step it planned",
    "max_grad_norm": "clip the gradients to this global 2-norm",
    "measure_peak": "measure the memory really in use in each step (default True)",
    "data_parallel": "average the gradients over the ranks of torch.distributed's default group",
    "checkpoint": "compiler-placed checkpoints every step or N: {'root': DIR, 'every': N, "
                  "'keep_last': K} (docs/step-checkpoint.md)",
    "profile_steps": "time each op in N steps of each input shape (those after its first) and plan "
                     "it again with the medians as the ops' cost_seconds (default 0: off)",
}


def planned_programs() -> list[dict[str, Any]]:
    return list(_programs)


@dataclasses.dataclass
class PersistentTensor:
    """Where one tensor that survives the step lives between steps.

    `role` is ``param``, ``optimizer_state`` or ``buffer`` (gradients live
    only inside a step). Exactly one of `tensor` (in memory, owned by the
    step) and `handle` (a handle of ``torch.ops.ssdopt.offload`` in the
    step's store, the copy on SSD) is set; `shape`, `stride`, `dtype` and
    `device` describe the tensor either way. For optimizer state, `param`
    and `key` name the parameter and the ``optimizer.state`` entry."""

    name: str
    role: str
    shape: tuple[int, ...]
    stride: tuple[int, ...]
    dtype: torch.dtype
    device: torch.device
    tensor: torch.Tensor | None = None
    handle: torch.Tensor | None = None
    param: str | None = None
    key: str | None = None

    @property
    def on_ssd(self) -> bool:
        return self.handle is not None

    @property
    def nbytes(self) -> int:
        numel = 1
        for size in self.shape:
            numel *= size
        return numel * self.dtype.itemsize


class StepError(ValueError):
    """What `compile_step` cannot compile (named in the message)."""


def _ops():
    from . import _ops as registered  # noqa: F401  (loads torch.ops.ssdopt)

    return torch.ops.ssdopt


def _read(handle: torch.Tensor, entry: PersistentTensor, keep: bool) -> torch.Tensor:
    """The tensor a handle holds, read now."""
    ops = _ops()
    ticket = ops.prefetch(handle)
    return ops.wait(ticket, list(entry.shape), list(entry.stride), entry.dtype, entry.device, keep)


def _planned_writes(program: "_Program") -> dict[int, list[int]]:
    """The bytes the offloads of `program` write, by the store's context
    (`planning.offload_writes`), for `runtime.reserve` before each step."""
    return planning.offload_writes(entry.node.meta["val"] for actions in program.before.values()
                                   for action, entry in actions if action == "offload")


def _write(tensor: torch.Tensor, store: int) -> torch.Tensor:
    """A handle of `tensor` whose write is done (raises naming file and
    offset where it failed)."""
    ops = _ops()
    handle = ops.offload(tensor, store)
    ops.sync(handle)
    return handle


# --------------------------------------------------------------------------
# One planned program
# --------------------------------------------------------------------------


@dataclasses.dataclass
class _Gap:
    node: torch.fx.Node
    gap: dict[str, Any]
    keep: bool = False  # the handle outlives the wait


class _Program:
    """The traced step of one input shape and its plan, as a list of FX
    nodes to run with the plan's transfers between them.

    `run` takes the persistent values (tensors, or handles for the arguments
    that the plan lets enter on SSD) and the inputs, and returns the results
    (tensors, or handles for those that leave on SSD) and the handles it
    made. It keeps no reference to a value after its last use."""

    def __init__(self, exported, report: dict[str, Any], store: int, free_dead: bool = True):
        from .exporter import _storage, _viewed_operand

        self.exported = exported
        self.report = report
        self.store = store
        self.free_dead = free_dead
        gm = exported.op_nodes[0].graph.owning_module
        self.module = gm
        graph = gm.graph
        self.nodes = list(graph.nodes)
        self.placeholders = [n for n in self.nodes if n.op == "placeholder"]
        self.output = self.nodes[-1]
        assert self.output.op == "output"
        self.outputs = list(self.output.args[0])
        # Each op's index in the exported graph (its ssd.kernel), for the
        # profile of a step's op times.
        self.op_index = {node: index for index, node in enumerate(exported.op_nodes)}
        position = {node: index for index, node in enumerate(self.nodes)}

        # The view root of each node (exporter's rule: a single result that
        # shares an operand's storage is a view of it).
        # The parts of a view with several results (split) are its getitems.
        root: dict[torch.fx.Node, torch.fx.Node] = {}
        for node in self.nodes:
            value = node.meta.get("val")
            if node.op != "call_function" or node.target is operator.getitem:
                continue
            results = [value] if isinstance(value, torch.Tensor) else [
                t for t in value if isinstance(t, torch.Tensor)] if isinstance(value, (tuple, list)) else []
            if not results or _storage(results[0]) is None:
                continue
            operands = [n for n in node.all_input_nodes if isinstance(n.meta.get("val"), torch.Tensor)]
            viewed = _viewed_operand(results, [n.meta["val"] for n in operands])
            if viewed is None:
                continue
            base = root.get(operands[viewed], operands[viewed])
            if isinstance(value, torch.Tensor):
                root[node] = base
            else:
                for user in node.users:
                    if user.target is operator.getitem:
                        root[user] = base
        self.views: dict[torch.fx.Node, list[torch.fx.Node]] = {}
        for view, base in root.items():
            self.views.setdefault(base, []).append(view)

        # Checks of metadata the trace already made: not run (they are no op
        # of the plan, so a tensor they read may be on SSD then).
        self.skipped = {node for node in self.nodes if node.op == "call_function"
                        and isinstance(node.target, torch._ops.OpOverload)
                        and node.target._schema.name.startswith("aten::_assert")}

        # Last use (a root lives as long as its views, as the planner counts).
        last: dict[torch.fx.Node, int] = {}
        for node in self.nodes:
            for user in node.users:
                if user in self.skipped:
                    continue
                last[node] = max(last.get(node, -1), position[user])
        for view, base in root.items():
            if view in last:
                last[base] = max(last.get(base, -1), last[view])
        # Small persistent arguments (batch norm's statistics, step counts)
        # are kept to the end, so that a step failing after their last use
        # can still give them back (a few KiB the plan does not count). The
        # larger ones are not: keeping each old value in memory until the
        # step's last transfer (its writes are synced at the end) measured
        # 73 MB against the 42.7 MB the budget allows for GPT-2 at 50%; a
        # step that fails after one was freed is not retryable (a full
        # disk cannot get there: `runtime.reserve` before the step).
        retained = {node for node, role in zip(self.placeholders, exported.arg_roles)
                    if role != "input" and isinstance(node.meta.get("val"), torch.Tensor)
                    and node.meta["val"].numel() * node.meta["val"].element_size() <= _RETAINED_BYTES}
        self.frees: list[list[torch.fx.Node]] = [[] for _ in self.nodes]
        for node, index in last.items():
            if self.nodes[index].op != "output" and node not in retained:
                self.frees[index].append(node)

        # The plan's actions, before the node at each slot / point.
        ops_count = len(exported.op_nodes)
        at_point = {p: node for p, node in enumerate(exported.op_nodes)}
        at_point[ops_count] = self.output
        offloads, releases, prefetches, waits = ({} for _ in range(4))
        self.enters_on_ssd: set[torch.fx.Node] = set()
        self.leaves_on_ssd: set[torch.fx.Node] = set()
        gaps_of: dict[torch.fx.Node, list[_Gap]] = {}
        unmapped = []
        for gap in report.get("plan", []):
            if "argument" in gap:
                node = self.placeholders[gap["argument"]]
            else:
                node = exported.result_node(gap["op"], gap.get("result", 0))
            if node is None:
                unmapped.append(gap.get("tensor"))
                continue
            gaps_of.setdefault(node, []).append(_Gap(node, gap))
        for node, gaps in gaps_of.items():
            gaps.sort(key=lambda g: g.gap.get("release_slot", -1))
            for index, entry in enumerate(gaps):
                gap = entry.gap
                later_reuse = any(not g.gap["writes"] for g in gaps[index + 1:])
                if gap["enters_on_ssd"]:
                    self.enters_on_ssd.add(node)
                # An argument that entered on SSD keeps its copy: it is the
                # state of the step before, kept until the step commits.
                entry.keep = later_reuse or node in self.enters_on_ssd
                if gap["writes"]:
                    offloads.setdefault(gap["offload_slot"], []).append(entry)
                if not gap["enters_on_ssd"]:
                    releases.setdefault(gap["release_slot"], []).append(entry)
                if gap["leaves_on_ssd"]:
                    self.leaves_on_ssd.add(node)
                else:
                    prefetches.setdefault(gap["prefetch_slot"], []).append(entry)
                    waits.setdefault(gap["wait_point"], []).append(entry)
        if unmapped:
            raise RuntimeError(f"the plan moves tensors the traced step does not hold: {unmapped[:5]}")
        self.before: dict[torch.fx.Node, list[tuple[str, _Gap]]] = {}
        for point in range(ops_count + 1):
            actions = [("offload", e) for e in offloads.get(point, [])]
            actions += [("release", e) for e in releases.get(point, [])]
            actions += [("prefetch", e) for e in prefetches.get(point, [])]
            actions += [("wait", e) for e in waits.get(point, [])]
            if actions:
                self.before[at_point[point]] = actions

    def run(self, args: list[Any], run: "_Run") -> list[Any]:
        """Runs the step on `args` (one per placeholder: a tensor, or a
        handle where the argument enters on SSD), emptying the list; `run`
        holds the live values and the handles made, for the caller to look
        at after a failure. Returns one value per output."""
        ops = _ops()
        env, handles, made = run.env, run.handles, run.made
        layouts, tickets = run.layouts, run.tickets
        rebuilt: dict[torch.fx.Node, list[tuple]] = {}
        load = lambda n: env[n]
        # A profiled step times each op (below); the others time nothing.
        timed, op_index = run.op_seconds, self.op_index
        cuda = run.op_seconds is not None and any(
            n.meta["val"].device.type == "cuda" for n in self.placeholders
            if isinstance(n.meta.get("val"), torch.Tensor))
        for placeholder, value in zip(self.placeholders, args):
            if placeholder in self.enters_on_ssd:
                handles[placeholder] = value
                meta = placeholder.meta["val"]
                layouts[placeholder] = (list(meta.shape), list(meta.stride()), meta.dtype, meta.device)
            else:
                env[placeholder] = value
        del args[:]  # the caller's list no longer holds the values
        del value
        given = set(self.placeholders)
        # A profiled op's time runs from the previous op's end to its own:
        # its call and the program's work before it (the plan's transfers
        # issued, values freed, operands looked up), less the stalls (the
        # plan predicts those apart).
        mark, stalled = time.perf_counter(), 0.0
        for index, node in enumerate(self.nodes):
            for action, entry in self.before.get(node, ()):
                target = entry.node
                if action == "offload":
                    value = env[target]
                    handles[target] = handle = ops.offload(value, self.store)
                    made[handle.item()] = handle
                    layouts[target] = (list(value.shape), list(value.stride()), value.dtype, value.device)
                elif action == "release":
                    if entry.gap["writes"]:
                        started = time.perf_counter()
                        ops.sync(handles[target])
                        run.sync_seconds += time.perf_counter() - started
                    value = env.pop(target, None)
                    if target in given:
                        run.drop(value)
                    views = []
                    for view in self.views.get(target, ()):
                        if view in env and value is not None:
                            v = env.pop(view)
                            views.append((view, list(v.shape), list(v.stride()),
                                          v.storage_offset() - value.storage_offset()))
                    rebuilt[target] = views
                    del value
                elif action == "prefetch":
                    tickets[target] = ops.prefetch(handles[target])
                else:  # wait
                    shape, stride, dtype, device = layouts[target]
                    started = time.perf_counter()
                    value = ops.wait(tickets.pop(target), shape, stride, dtype, device, entry.keep)
                    run.wait_seconds += time.perf_counter() - started
                    if not entry.keep:
                        made.pop(handles.pop(target).item(), None)
                    env[target] = value
                    for view, vshape, vstride, offset in rebuilt.pop(target, ()):
                        env[view] = torch.as_strided(value, vshape, vstride, value.storage_offset() + offset)
                    del value
            if node in self.skipped:
                continue
            if node.op == "call_function":
                args_, kwargs = torch.fx.node.map_arg((node.args, node.kwargs), load)
                env[node] = node.target(*args_, **kwargs)
                if timed is not None and node in op_index:
                    if cuda:
                        torch.cuda.synchronize()
                    now, waited = time.perf_counter(), run.wait_seconds + run.sync_seconds
                    timed[op_index[node]] = max(0.0, now - mark - (waited - stalled))
                    mark, stalled = now, waited
            elif node.op == "get_attr":
                env[node] = getattr(self.module, node.target)
            elif node.op == "output":
                results = []
                for out in self.outputs:
                    if out in self.leaves_on_ssd:
                        results.append(handles[out])
                    else:
                        results.append(env[out])
                env.clear()
                return results
            if self.free_dead:
                for dead in self.frees[index]:
                    value = env.pop(dead, None)
                    if dead in given:
                        run.drop(value)
                    del value
            run.check()
        raise AssertionError("the traced step has no output node")


@dataclasses.dataclass
class _Run:
    """The live values of one run of a program (node -> tensor), the SSD
    copies it holds (node -> handle) and the handles it made (id -> handle)."""

    env: dict = dataclasses.field(default_factory=dict)
    handles: dict = dataclasses.field(default_factory=dict)
    made: dict = dataclasses.field(default_factory=dict)
    # Reads in flight (node -> ticket) and what each node's handle holds.
    tickets: dict = dataclasses.field(default_factory=dict)
    layouts: dict = dataclasses.field(default_factory=dict)
    # Seconds the step's thread waited for reads (ssdopt.wait) and for
    # writes before a release (ssdopt.sync): the stalls the plan predicts.
    wait_seconds: float = 0.0
    sync_seconds: float = 0.0
    # In a profiled step: each op's seconds (see _Program.run), by op index
    # (ops that are no call, get_attr constants, stay 0).
    op_seconds: list | None = None
    # For the measurement: the storages the step was given (allocated
    # before it, so the profiler cannot see them freed) that it dropped,
    # watched until they die, and when each died (wall-clock ns, bytes).
    watch: bool = False
    dropped: list = dataclasses.field(default_factory=list)
    base_frees: list = dataclasses.field(default_factory=list)

    def drop(self, value: Any) -> None:
        if self.watch and isinstance(value, torch.Tensor):
            from torch.multiprocessing.reductions import StorageWeakRef

            self.dropped.append((StorageWeakRef(value.untyped_storage()), value.untyped_storage().nbytes()))

    def check(self) -> None:
        if self.dropped:
            now = time.time_ns()
            alive = []
            for ref, nbytes in self.dropped:
                if ref.expired():
                    self.base_frees.append((now, -nbytes))
                else:
                    alive.append((ref, nbytes))
            self.dropped = alive


# --------------------------------------------------------------------------
# Memory measurement
# --------------------------------------------------------------------------


class _PeakMeter:
    """The most tensor bytes alive during a call, from PyTorch itself: the
    CUDA caching allocator's peak on GPU, the profiler's memory events
    (every allocation and free of torch's CPU allocator) on CPU. `base` is
    what was alive before and belongs to the step (its state and inputs)."""

    def __init__(self, device: torch.device):
        self.device = device

    def measure(self, fn: Callable[[], Any], base: int, run: _Run) -> tuple[Any, int]:
        if self.device.type == "cuda":
            torch.cuda.synchronize(self.device)
            start = torch.cuda.memory_allocated(self.device)
            torch.cuda.reset_peak_memory_stats(self.device)
            result = fn()
            torch.cuda.synchronize(self.device)
            return result, base + torch.cuda.max_memory_allocated(self.device) - start
        from torch.profiler import ProfilerActivity, profile

        run.watch = True
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True, record_shapes=False) as prof:
            result = fn()
        # The profiler reports the frees of blocks allocated while it ran;
        # the step's given state and inputs died unseen: `run` saw when.
        events = [(e.start_ns(), e.nbytes()) for e in prof.profiler.kineto_results.events()
                  if e.name() == "[memory]" and e.device_type() == torch.autograd.DeviceType.CPU]
        events += run.base_frees
        events.sort()
        live = peak = 0
        for _, nbytes in events:
            live += nbytes
            peak = max(peak, live)
        return result, base + peak


# --------------------------------------------------------------------------
# The step
# --------------------------------------------------------------------------


class _DirectoryLock:
    """One live step per offload_dir: an flock on `ssdopt-step.lock` (the
    kernel drops it when its process dies, even by SIGKILL) with the owner's
    pid in it. The files a dead step left are its store's, which the next
    store opened on the directory removes (`runtime.open_store`)."""

    def __init__(self, directory: str):
        self.path = os.path.join(directory, _LOCK_NAME)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            owner = os.pread(fd, 64, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise RuntimeError(
                f"offload_dir {directory!r} is used by a live step (pid {owner}, lock "
                f"{self.path}); close that step or use another directory") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is None:
            return
        os.ftruncate(self.fd, 0)
        os.close(self.fd)  # drops the flock
        self.fd = None
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


class Step:
    """A compiled training step; see `compile_step`."""

    def __init__(self, model: torch.nn.Module, optimizer: torch.optim.Optimizer,
                 loss_fn: Callable | None, options: Mapping[str, Any] | None):
        from .exporter import ExportError, _Optimizer

        options = dict(options or {})
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise StepError(f"unknown option{'s' if len(unknown) > 1 else ''} "
                            f"{', '.join(map(repr, unknown))} for compile_step; known: "
                            + "; ".join(f"{k} ({v})" for k, v in _OPTIONS.items()))
        for required in ("memory_budget", "offload_dir"):
            if options.get(required) is None:
                raise StepError(f"compile_step needs the option {required!r}")
        self.ssd_opt = options.get("ssd_opt")
        planning.find_ssd_opt(self.ssd_opt)
        self._set_budget(options["memory_budget"])
        offload_dir = os.path.abspath(os.fspath(options["offload_dir"]))
        if not os.path.isdir(offload_dir) or not os.access(offload_dir, os.W_OK | os.X_OK):
            raise StepError(f"offload_dir {offload_dir!r} does not exist or is not a writable directory")
        self.target = options.get("target")
        self.policy = options.get("policy", "ssd")
        self.report_dir = options.get("report_dir")
        max_norm = options.get("max_grad_norm")
        if max_norm is not None and (isinstance(max_norm, bool) or not isinstance(max_norm, (int, float))
                                     or not max_norm > 0):
            raise StepError(f"max_grad_norm must be a positive number, got {max_norm!r}")
        self.max_grad_norm = None if max_norm is None else float(max_norm)
        self.measure_peak = bool(options.get("measure_peak", True))
        profile_steps = options.get("profile_steps", 0)
        if isinstance(profile_steps, bool) or not isinstance(profile_steps, int) or profile_steps < 0:
            raise StepError(f"profile_steps must be a non-negative integer, got {profile_steps!r}")
        self.profile_steps = profile_steps
        self.data_parallel = bool(options.get("data_parallel", False))
        if self.data_parallel:
            import torch.distributed as dist

            if not dist.is_available() or not dist.is_initialized():
                raise StepError("data_parallel needs torch.distributed initialized "
                                "(torch.distributed.init_process_group) before compile_step")
        self._free_dead = True  # tests turn it off to show the measurement sees it
        self._reserve = True  # tests turn it off to show a full disk mid-step
        from .step_checkpoint import StepCheckpointer

        try:
            self._checkpointer = StepCheckpointer(options.get("checkpoint"))
        except ValueError as error:
            raise StepError(str(error)) from None

        # Bad input, before anything is traced or moved.
        try:
            _Optimizer.kind_of(optimizer)
            _Optimizer.check_options(optimizer)
        except ExportError as error:
            raise StepError(str(error)) from None
        names_of: dict[int, list[str]] = {}
        for name, param in model.named_parameters(remove_duplicate=False):
            names_of.setdefault(id(param), []).append(name)
        shared = [names for names in names_of.values() if len(names) > 1]
        if shared:
            raise StepError(
                "parameters shared between modules are not supported (each would be a "
                "separate state of the step): " + "; ".join(" = ".join(n) for n in shared)
                + " (untie them, e.g. tie_word_embeddings=False)")
        params = dict(model.named_parameters())
        known = {id(p) for p in params.values()}
        for group in optimizer.param_groups:
            for param in group["params"]:
                if id(param) not in known:
                    raise StepError("the optimizer updates a tensor that is not a parameter of the model")
        devices = {p.device for p in params.values()} | {b.device for b in model.buffers()}
        if len(devices) > 1:
            raise StepError(f"the model's state is on several devices ({sorted(map(str, devices))})")
        self.device = next(iter(devices), torch.device("cpu"))

        _reject_fsdp(model)
        self.model, self.optimizer, self.loss_fn = model, optimizer, loss_fn
        self._lock = _DirectoryLock(offload_dir)
        self.offload_dir = offload_dir
        from . import runtime

        self.store = runtime.open_store(offload_dir)
        self._programs: dict[Any, _Program] = {}
        self._traces: dict[Any, Any] = {}
        # Per input shape: its trace's unplanned peak (ssd-opt at no limit),
        # which no re-plan (a new budget, measured op times) changes.
        self._unplanned_peaks: dict[Any, int] = {}
        # Per input shape: the profiled steps' op times, and once there are
        # profile_steps of them their medians, which every later plan of the
        # shape at this budget gives ssd-opt as the ops' cost_seconds.
        self._op_samples: dict[Any, list[list[float]]] = {}
        # The shapes whose first step (not profiled: it pays one-time costs,
        # the kernels' lazy set-up and the allocator's first touch) ran.
        self._warmed: set[Any] = set()
        self._op_seconds: dict[Any, list[float]] = {}
        self._state: dict[str, PersistentTensor] | None = None
        self._closed = False

    # -- budget ------------------------------------------------------------

    def _set_budget(self, value: Any) -> None:
        self.peak_share = parse_peak_share(value)
        self.budget_bytes = None if self.peak_share is not None else parse_memory_size(value, self.ssd_opt)

    @property
    def memory_budget(self) -> Any:
        return f"{self.peak_share * 100:g}%" if self.peak_share is not None else self.budget_bytes

    @memory_budget.setter
    def memory_budget(self, value: Any) -> None:
        """A new budget: each shape is planned again on its next call (the
        trace is kept; with profile_steps, profiled again under that plan:
        its transfers share the machine with the ops)."""
        self._set_budget(value)
        self._programs.clear()
        self._op_samples.clear()
        self._op_seconds.clear()

    # -- state -------------------------------------------------------------

    def _persistent_state(self) -> list[PersistentTensor]:
        """Every tensor that survives the step, where it lives now (memory
        or a handle on SSD), in the step's argument order. Empty before the
        first step traces the model."""
        return list(self._state.values()) if self._state is not None else []

    def _take_state(self, exported) -> None:
        """On the first trace: the model's parameters and buffers and the
        optimizer's state become the step's (the model keeps empty tensors)."""
        params = dict(self.model.named_parameters())
        buffers = dict(self.model.named_buffers())
        by_name = {name: param for name, param in params.items()}
        state: dict[str, PersistentTensor] = {}
        for name, role in zip(exported.arg_names, exported.arg_roles):
            if role == "input":
                continue
            param_name = key = None
            if role == "param":
                value = params[name].detach()
            elif role == "buffer":
                if name not in buffers:
                    raise StepError(f"the step reads the tensor attribute {name!r}, which is neither a "
                                    "parameter nor a buffer of the model; register it as a buffer")
                value = buffers[name]
            else:
                param_name, key = name.rsplit(".", 1)
                param = by_name[param_name]
                value = self.optimizer.state.get(param, {}).get(key)
                if value is None:
                    value = (torch.tensor(0.0, dtype=torch.float32) if key == "step"
                             else torch.zeros_like(param, memory_format=torch.preserve_format))
                value = value.detach()
            state[name] = PersistentTensor(name, role, tuple(value.shape), tuple(value.stride()),
                                           value.dtype, value.device, tensor=value,
                                           param=param_name, key=key)
        self._state = state
        for name, param in params.items():
            if name in state:
                param.data = torch.empty(0, dtype=param.dtype, device=param.device)
        for param in params.values():
            self.optimizer.state.pop(param, None)
        for name, buffer in buffers.items():
            if name in state:
                owner, _, attr = name.rpartition(".")
                self.model.get_submodule(owner)._buffers[attr] = torch.empty(0, dtype=buffer.dtype,
                                                                             device=buffer.device)

    def _place(self, program: _Program) -> None:
        """Moves the state to where `program` expects it: on SSD for the
        arguments that enter on SSD, in memory for the others."""
        names = {node: name for node, name in zip(program.placeholders, program.exported.arg_names)}
        wanted = {names[node] for node in program.enters_on_ssd}
        for entry in self._state.values():
            if entry.name in wanted and entry.handle is None:
                entry.handle = _write(entry.tensor, self.store)
                entry.tensor = None
            elif entry.name not in wanted and entry.handle is not None:
                entry.tensor = _read(entry.handle, entry, keep=False)
                entry.handle = None

    def state_dict(self) -> "_StateView":
        """The step's state by name (parameters and buffers under their
        module names, optimizer state as ``<param>.<key>``), as a mapping that
        reads each tensor on SSD when it is looked up: iterate it to stream
        the state out, one tensor in memory at a time."""
        self._check_open()
        return _StateView(self)

    def load_state_dict(self, state: Mapping[str, torch.Tensor]) -> None:
        """Replaces the step's state with `state` (every name of
        `state_dict()`), one tensor at a time: a tensor that lives on SSD is
        written to SSD before the next is read from `state`."""
        self._check_open()
        if self._state is None:
            raise RuntimeError("the step has no state before its first call traces the model")
        missing = sorted(set(self._state) - set(state.keys()))
        unexpected = sorted(set(state.keys()) - set(self._state))
        if missing or unexpected:
            raise KeyError(f"load_state_dict: missing {missing[:5]}, unexpected {unexpected[:5]}")
        for name, entry in self._state.items():
            value = state[name]
            if tuple(value.shape) != entry.shape or value.dtype != entry.dtype:
                raise ValueError(f"load_state_dict: {name} is {value.dtype}{list(value.shape)}, "
                                 f"the step's is {entry.dtype}{list(entry.shape)}")
            value = value.detach().to(entry.device).clone()
            if entry.handle is not None:
                new = _write(value, self.store)
                _ops().discard(entry.handle)
                entry.handle = new
            else:
                entry.tensor = value
            entry.stride = tuple(value.stride())
            del value

    def sync_to_model(self) -> None:
        """Writes the step's parameters and buffers back into the model (for
        evaluation or export); the step keeps working on its own state."""
        self._check_open()
        if self._state is None:
            return
        params = dict(self.model.named_parameters())
        buffers = dict(self.model.named_buffers())
        for entry in self._state.values():
            if entry.role == "optimizer_state":
                continue
            value = entry.tensor if entry.tensor is not None else _read(entry.handle, entry, keep=True)
            if entry.role == "param":
                params[entry.name].data = value
            else:
                owner, _, attr = entry.name.rpartition(".")
                self.model.get_submodule(owner)._buffers[attr] = value

    # -- running -----------------------------------------------------------

    def _key(self, args: tuple, batch: dict) -> tuple:
        def describe(value):
            if not isinstance(value, torch.Tensor):
                raise StepError(f"every input of the step must be a tensor, got {type(value).__name__}")
            return (tuple(value.shape), value.dtype, value.device)

        return (tuple(describe(a) for a in args), tuple((k, describe(v)) for k, v in batch.items()))

    def _trace(self, key, args: tuple, batch: dict):
        from .exporter import ExportError, export_step

        exported = self._traces.get(key)
        if exported is None:
            started = time.perf_counter()
            try:
                with self._shaped_model():
                    exported = export_step(self.model, tuple(args) + tuple(batch.values()), self.loss_fn,
                                           self.optimizer, batch_keys=tuple(batch), lr_inputs=True,
                                           max_grad_norm=self.max_grad_norm, return_all_state=True,
                                           reduce_gradients=_average_over_ranks if self.data_parallel else None)
            except ExportError as error:
                raise StepError(f"compile_step cannot trace the step: {error}") from error
            logger.info("traced the step for %s in %.1f s", key, time.perf_counter() - started)
            self._traces[key] = exported
        return exported

    @contextlib.contextmanager
    def _shaped_model(self):
        """The model with tensors of its state's shapes (uninitialized) while
        a new input shape is traced: the step holds the values."""
        if self._state is None:
            yield
            return
        params = dict(self.model.named_parameters())
        for entry in self._state.values():
            if entry.role == "param":
                params[entry.name].data = torch.empty_strided(entry.shape, entry.stride, dtype=entry.dtype,
                                                              device=entry.device)
            elif entry.role == "buffer":
                owner, _, attr = entry.name.rpartition(".")
                self.model.get_submodule(owner)._buffers[attr] = torch.empty_strided(
                    entry.shape, entry.stride, dtype=entry.dtype, device=entry.device)
        try:
            yield
        finally:
            for entry in self._state.values():
                if entry.role == "param":
                    params[entry.name].data = torch.empty(0, dtype=entry.dtype, device=entry.device)
                elif entry.role == "buffer":
                    owner, _, attr = entry.name.rpartition(".")
                    self.model.get_submodule(owner)._buffers[attr] = torch.empty(
                        0, dtype=entry.dtype, device=entry.device)

    def _program(self, key, args: tuple, batch: dict) -> _Program:
        program = self._programs.get(key)
        if program is not None:
            return program
        exported = self._trace(key, args, batch)
        settings = dict(target=self.target or ("h100-pcie5-pm1743" if self.device.type == "cuda"
                                               else "epyc9654-990pro"),
                        policy=self.policy, ssd_opt=self.ssd_opt, movable=_MOVABLE)
        peak = self._unplanned_peaks.get(key)
        if peak is None:
            peak = planning.plan(exported.text, memory_budget=_NO_LIMIT, **settings)["peak_bytes_before"]
            self._unplanned_peaks[key] = peak
        budget = (int(peak * self.peak_share) if self.peak_share is not None
                  else self.budget_bytes)
        measured = self._op_seconds.get(key)
        text = exported.text if measured is None else planning.with_cost_seconds(exported.text, measured)
        report_path = None
        if self.report_dir:
            # Numbered by plans made (a re-plan replaces its program's record).
            global _plans_made
            index, _plans_made = _plans_made, _plans_made + 1
            report_path = os.path.join(self.report_dir, f"step{index}.json")
            with open(os.path.join(self.report_dir, f"step{index}.mlir"), "w") as file:
                file.write(text)
        report = planning.plan(text, memory_budget=budget, report_path=report_path, **settings)
        # The compiler's checkpoint saves go into the graph before the
        # program lists its nodes and their last uses.
        self._checkpointer.instrument(exported, ssd_opt=self.ssd_opt)
        program = _Program(exported, report, self.store, free_dead=self._free_dead)
        program.writes = _planned_writes(program)
        if self._state is None:  # planned: now the state becomes the step's
            self._take_state(exported)
        program.record = {
            "shape": key,
            "memory_budget_bytes": budget,
            "peak_bytes_before": peak,
            "planned_peak_bytes": report["peak_bytes_after"],
            "predicted_step_seconds": report.get("predicted_step_seconds"),
            "predicted_compute_seconds": report.get("compute_seconds"),
            "predicted_stall_seconds": report.get("stall_seconds"),
            "bytes_offloaded": report.get("bytes_offloaded"),
            "bytes_prefetched": report.get("bytes_prefetched"),
            "persistent_entering_on_ssd": report.get("persistent_entering_on_ssd"),
            "staging_pool_bytes": STAGING_POOL_BYTES,
            "measured_peak_bytes": None,
            "steps": 0,
            "profiled_op_seconds": sum(measured) if measured is not None else None,
        }
        _programs.append(program.record)
        logger.info("planned the step for %s: peak %d -> %d bytes (budget %d), %d tensors of state "
                    "enter on SSD", key, peak, report["peak_bytes_after"],
                    budget, report.get("persistent_entering_on_ssd", 0))
        self._programs[key] = program
        return program

    def prepare(self, *args: torch.Tensor, **batch: torch.Tensor) -> dict[str, Any]:
        """Traces and plans the step for this batch's shapes without running
        it (what the first call with them does first), and places the state
        where the plan wants it. Returns the plan's summary (as in
        `ssdopt.stats()["steps"]`). A budget no plan can meet raises
        `ssdopt.PlanningError` here, before any step has run."""
        self._check_open()
        key = self._key(args, batch)
        program = self._program(key, args, batch)
        self._place(program)
        return program.record

    def __call__(self, *args: torch.Tensor, **batch: torch.Tensor) -> torch.Tensor:
        """One training step on the batch (the model's inputs: positional
        and keyword; `loss_fn(output, batch)` sees the keyword ones).
        Returns the loss. On an error the step's state is unchanged and the
        call may be retried."""
        self._check_open()
        key = self._key(args, batch)
        program = self._program(key, args, batch)
        self._place(program)
        # The disk space of every write the step will make, allocated before
        # it touches any state: a full disk fails here, not half way through.
        if self._reserve:
            from . import runtime

            runtime.reserve(self.store, program.writes)
        self._checkpointer.begin_step(self._persistent_state())
        lrs = [torch.tensor(float(group["lr"]), dtype=torch.float32) for group in self.optimizer.param_groups]
        names = program.exported.arg_names
        inputs = list(args) + list(batch.values()) + lrs
        values, lent = [], {}
        for index, (name, role) in enumerate(zip(names, program.exported.arg_roles)):
            if role == "input":
                values.append(inputs.pop(0))
                continue
            entry = self._state[name]
            if entry.handle is not None:
                values.append(entry.handle)
            else:
                values.append(entry.tensor)
                lent[name] = index
                entry.tensor = None  # the program holds it, and frees it after its last use
        # What is alive for the step before it starts: its in-memory state
        # and its inputs (handles are a few bytes each).
        base = sum(values[index].untyped_storage().nbytes() for index in lent.values())
        base += sum(t.untyped_storage().nbytes() for t in list(args) + list(batch.values()) + lrs)
        run = _Run()
        profiling = self.profile_steps > 0 and key in self._warmed and key not in self._op_seconds
        if profiling:
            run.op_seconds = [0.0] * len(program.exported.op_nodes)
        placeholders = program.placeholders
        started = time.perf_counter()
        try:
            # The profiler of the peak's measurement would slow the ops that
            # a profiled step times: measured in the steps after it.
            if self.measure_peak and not profiling:
                outputs, peak = _PeakMeter(self.device).measure(lambda: program.run(values, run), base, run)
            else:
                outputs, peak = program.run(values, run), None
        except BaseException:
            self._checkpointer.abort_step()
            self._roll_back({name: placeholders[index] for name, index in lent.items()}, run)
            raise
        elapsed = time.perf_counter() - started
        self._checkpointer.wait_writes()
        loss = self._commit(program, outputs, run.made)
        record = program.record
        record["steps"] += 1
        record["last_step_seconds"] = elapsed
        record["last_wait_seconds"] = run.wait_seconds
        record["last_sync_seconds"] = run.sync_seconds
        if peak is not None:
            record["measured_peak_bytes"] = max(record["measured_peak_bytes"] or 0, peak)
            record["last_measured_peak_bytes"] = peak
        # A checkpoint that fails raises here: the step was taken.
        self._checkpointer.end_step()
        self._warmed.add(key)
        if profiling:
            self._profiled(key, program, run.op_seconds, args, batch)
        return loss

    def _profiled(self, key, program: _Program, op_seconds: list[float], args: tuple, batch: dict) -> None:
        """After a profiled step: its op times recorded; after the last,
        the shape planned again with their medians as cost_seconds, the new
        plan replacing the first (its record in `ssdopt.stats()` too). A
        re-plan ssd-opt refuses keeps the first plan."""
        import statistics

        samples = self._op_samples.setdefault(key, [])
        samples.append(op_seconds)
        if len(samples) < self.profile_steps:
            return
        measured = [statistics.median(times) for times in zip(*samples)]
        self._op_seconds[key] = measured
        del self._op_samples[key]
        old = program.record
        del self._programs[key]
        try:
            new = self._program(key, args, batch).record
        except planning.PlanningError as error:
            logger.warning("ssd-opt could not plan the step for %s again with its measured op times; "
                           "keeping the first plan: %s", key, error)
            self._programs[key] = program
            return
        del _programs[-1]  # `new`, appended by _program
        _programs[next(i for i, r in enumerate(_programs) if r is old)] = new
        new["steps"] = old["steps"]
        logger.info("re-planned the step for %s with the op times of %d profiled step(s): predicted "
                    "compute %.4f -> %.4f s, step %.4f -> %.4f s", key, len(samples),
                    old["predicted_compute_seconds"] or 0, new["predicted_compute_seconds"] or 0,
                    old["predicted_step_seconds"] or 0, new["predicted_step_seconds"] or 0)

    def _commit(self, program: _Program, outputs: list[Any], made: dict[int, torch.Tensor]) -> torch.Tensor:
        ops = _ops()
        kept = set()
        loss = None
        for node, name, value in zip(program.outputs, program.exported.result_names, outputs):
            if name is None:
                if loss is None:
                    loss = value
                continue
            entry = self._state[name]
            if node in program.leaves_on_ssd:
                if entry.handle is not None and entry.handle.item() != value.item():
                    ops.discard(entry.handle)
                entry.handle, entry.tensor = value, None
                kept.add(value.item())
            else:
                if entry.handle is not None:
                    ops.discard(entry.handle)
                entry.handle, entry.tensor = None, value
            entry.stride = tuple(entry.tensor.stride()) if entry.tensor is not None else entry.stride
        for id_, handle in made.items():
            if id_ not in kept:
                ops.discard(handle)
        return loss

    def _roll_back(self, lent: dict[str, torch.fx.Node], run: _Run) -> None:
        """After a failed step: the state it was lent comes back (tensors are
        immutable: the values the program still holds, or read back from the
        copy it wrote), then the handles it made go."""
        ops = _ops()
        for node, ticket in run.tickets.items():
            if ticket.item() not in run.made:  # a read of the state: finish it, keep the copy
                shape, stride, dtype, device = run.layouts[node]
                ops.wait(ticket, shape, stride, dtype, device, True)
        run.tickets.clear()
        lost = []
        for name, node in lent.items():
            entry = self._state[name]
            entry.tensor = run.env.get(node)
            if entry.tensor is None and node in run.handles:
                try:
                    entry.tensor = _read(run.handles[node], entry, keep=True)
                except RuntimeError:
                    pass
            if entry.tensor is None:
                lost.append(name)
        run.env.clear()
        for handle in run.made.values():
            try:
                ops.discard(handle)
            except RuntimeError:
                pass  # its write failed: retired already
        if lost:
            logger.error("the failed step had freed the in-memory state %s", lost[:5])
            raise RuntimeError(
                "ssdopt: the step failed after it had freed the in-memory state "
                f"{', '.join(lost[:5])}{'...' if len(lost) > 5 else ''}; the step cannot be retried")

    # -- closing -----------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the step is closed")

    def close(self) -> None:
        """Drops the step's handles and removes its files (and the lock) from
        offload_dir. The model keeps whatever sync_to_model gave it."""
        if self._closed:
            return
        from . import runtime

        self._closed = True
        try:
            # The last checkpoint's commit, and its copies of the store's files.
            self._checkpointer.close()
        finally:
            runtime.close_store(self.store)
            self._lock.release()
        self._state = None
        self._programs.clear()

    def __enter__(self) -> "Step":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # A finalizer may not raise; a failure here (the last compiler-placed
        # checkpoint's commit, removing the step's files) is logged instead.
        try:
            self.close()
        except Exception:
            logger.exception("ssdopt: closing a step that was never closed failed")

    def save_checkpoint(self, path: str) -> str:
        """Commits the step's state as it is now under the checkpoint root
        `path`, labelled with the steps taken: tensors in memory as they are,
        tensors on SSD copied file to file (docs/step-checkpoint.md). Returns
        the committed directory."""
        self._check_open()
        if self._state is None:
            raise RuntimeError("the step has no state before its first call traces the model")
        return self._checkpointer.save(self._persistent_state(), path)

    def load_checkpoint(self, path: str) -> int:
        """Replaces the step's state with the checkpoint at `path` (a root:
        the step its `latest` names, or one step's directory), saved under
        any layout or world size, each tensor where this step keeps it
        (tensors on SSD are written file to file). Before the first call it
        loads into the model and the optimizer, which the step then takes.
        Returns the loaded step."""
        self._check_open()
        if self._state is None:
            from .step_checkpoint import load_into_model

            self._checkpointer.steps_taken = load_into_model(self.model, self.optimizer, path)
            return self._checkpointer.steps_taken
        return self._checkpointer.load(self._persistent_state(), path)


class _StateView(Mapping):
    """`Step.state_dict()`: tensors in memory as they are, tensors on SSD
    read on lookup."""

    def __init__(self, step: Step):
        self._entries = {entry.name: entry for entry in step._persistent_state()}

    def __getitem__(self, name: str) -> torch.Tensor:
        entry = self._entries[name]
        if entry.tensor is not None:
            return entry.tensor
        return _read(entry.handle, entry, keep=True)

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)


def _average_over_ranks(grads: dict[int, torch.Tensor]) -> dict[int, torch.Tensor]:
    """Each gradient divided by the world size and summed over the ranks
    (DistributedDataParallel's order), as functional collectives: traced
    into the step as `_c10d_functional.all_reduce` and `wait_tensor`."""
    import torch.distributed as dist
    from torch.distributed import _functional_collectives as collectives

    world = dist.get_world_size()
    group = dist.group.WORLD
    return {index: collectives.wait_tensor(collectives.all_reduce(grad / world, "sum", group))
            for index, grad in grads.items()}


def _reject_fsdp(model: torch.nn.Module) -> None:
    """FSDP2 (`fully_shard`) and DDP wrappers: a StepError naming what is
    missing (docs/python.md, "Whole-step offload")."""
    from torch.distributed.tensor import DTensor

    if type(model).__name__ in ("DistributedDataParallel", "FullyShardedDataParallel"):
        raise StepError(f"compile_step takes the bare module, not {type(model).__name__}: pass "
                        "model.module and options={'data_parallel': True}")
    sharded = [name for name, p in model.named_parameters() if isinstance(p, DTensor)]
    if sharded:
        raise StepError(
            f"FSDP2 (fully_shard) is not supported: its parameters are DTensors ({sharded[0]}, ...) "
            "gathered by module hooks that FSDP2 wraps in torch._dynamo.disable ('skipping FSDP "
            "hooks'), which the exporter's capture (torch.export, strict) cannot trace in this torch "
            f"({torch.__version__}: 'Unsupported: Call to torch._dynamo.disable()'), so the "
            "all-gather and the gradients' reduce-scatter cannot become functional collectives of "
            "the step; use the unsharded module with options={'data_parallel': True}")


def compile_step(model: torch.nn.Module, optimizer: torch.optim.Optimizer,
                 loss_fn: Callable | None = None, options: Mapping[str, Any] | None = None) -> Step:
    """A training step of `model` under `optimizer` (SGD, Adam or AdamW),
    planned by ssd-opt at `options["memory_budget"]` with every role movable
    and run with torch.ops.ssdopt; see this module's docstring and
    docs/python.md ("Whole-step offload")."""
    return Step(model, optimizer, loss_fn, options)
