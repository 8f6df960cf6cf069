"""Checkpoints of a compiled step's persistent state, saved from where it lives.

    step.save_checkpoint("/ckpt/run")       # commits the step's state now
    step.load_checkpoint("/ckpt/run")       # the step `latest` names, resharded

    step = ssdopt.compile_step(model, optimizer, options={
        "memory_budget": "50%", "offload_dir": "/nvme/run1",
        "checkpoint": {"root": "/ckpt/run", "every": 100, "keep_last": 3}})

Both write the checkpoint library's sharded format (docs/checkpoint-format.md),
which ``ssd-ckpt``, ``ssdopt.checkpoint.load`` and the lowered MLIR step read:
one tensor per persistent tensor of the step, under the step's names
(parameters and buffers by module name, optimizer state as
``<param>.<key>``), labelled with the number of steps taken.

Where each tensor lives decides how it moves (`save`, `load`): a tensor in
memory is handed to the library as it is; a tensor on SSD (a handle of
``torch.ops.ssdopt.offload``) is copied file to file, from the handle's bytes
on disk (``torch.ops.ssdopt.disk_location``) into the checkpoint's data file
through one 8 MiB buffer (``ssdckpt_save_add_file``), and loaded back the
same way (``ssdckpt_reader_load_file``), so no tensor on SSD is ever staged
whole in memory. A load takes any saved layout and world size (the reader
reshards); names, dtypes and shapes must match, and everything is read and
checked before anything is overwritten (but for an I/O error writing the SSD
files, docs/step-checkpoint.md).

With ``options["checkpoint"]`` the planned step saves its state itself, the
way the lowered MLIR step does: the compiler's ``ssd-shard-checkpoint`` pass
decides where each persistent tensor's new value is final (right after the op
that computes it; at entry for state the step does not change), those
positions are mapped back onto the step's FX graph (`instrument`), and a
``save_shard`` node there hands the value to a thread that writes it while
the rest of the step runs. The step's end queues the commit, which that
thread makes while the next step computes, every `every` steps, keeping the
newest `keep_last` (docs/step-checkpoint.md). Every save here, like
``ssdopt.checkpoint.save``, is one call of ``ssdopt.checkpoint._write`` (the
library's multi-rank protocol: begin, add, commit; a tensor on SSD is a piece
with a file region): one checkpoint protocol.
"""

from __future__ import annotations

import itertools
import os
import queue
import re
import subprocess
import tempfile
import threading
import weakref
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

import torch
import torch.fx

from . import checkpoint as _ckpt
from . import planning

__all__ = ["StepCheckpointer", "save_shard", "compiler_save_positions", "save_state",
           "load_state", "load_into_model"]

CheckpointError = _ckpt.CheckpointError

_OPTIONS = {
    "root": "the checkpoint root directory (required)",
    "every": "save every this many steps (default 1)",
    "keep_last": "committed checkpoints to keep (default: all)",
    "timeout": "seconds one rank waits for the others (default 300)",
    "max_in_flight": "bytes of values handed to the writer and not yet written; a save_shard "
                     "at the cap waits (default 256 MiB)",
}

DEFAULT_MAX_IN_FLIGHT = 256 << 20


# ---------------------------------------------------------------------------
# Pieces of ssdopt.checkpoint's save (its `_write`: one checkpoint protocol)
# ---------------------------------------------------------------------------

def _code(name: str, dtype: torch.dtype) -> int:
    """The checkpoint's dtype code of `dtype` (ssdopt.checkpoint's rule and
    message, prefixed with the tensor's name)."""
    code = _ckpt.DTYPE_CODES.get(dtype)
    if code is None:
        try:
            _ckpt.dtype_info(dtype)  # raises: its message names the supported dtypes
        except CheckpointError as error:
            raise CheckpointError(f"{name}: {error}", error.errno) from None
    return code


def _disk_location(handle: torch.Tensor) -> tuple[str, int, int]:
    """(data file, offset, bytes) of a handle of torch.ops.ssdopt.offload,
    its write done."""
    from . import _ops  # noqa: F401  (loads the extension's operators)
    path, offset, nbytes = torch.ops.ssdopt.disk_location(handle)
    return path, offset, nbytes


def _memory_piece(name: str, tensor: torch.Tensor) -> "_ckpt._Piece":
    """A tensor in memory as a piece of ssdopt.checkpoint's save (copied to
    the host first when it is not a contiguous CPU tensor)."""
    tensor = tensor.detach()
    if tensor.device.type != "cpu" or not tensor.is_contiguous():
        tensor = tensor.to("cpu").contiguous()
    shape = tuple(tensor.shape)
    return _ckpt._Piece(name, _code(name, tensor.dtype), shape, (0,) * len(shape), shape, tensor,
                        tensor.data_ptr() if tensor.numel() else 0)


def _file_piece(name: str, dtype: torch.dtype, shape, path: str, offset: int) -> "_ckpt._Piece":
    """A tensor whose row-major bytes are at `offset` of `path` (a handle on
    SSD), copied file to file by the save."""
    shape = tuple(shape)
    return _ckpt._Piece(name, _code(name, dtype), shape, (0,) * len(shape), shape, None,
                        path=path, file_offset=offset)


def _entry_value(entry) -> tuple[str, Any]:
    """("tensor", tensor) or ("handle", handle) of a persistent tensor."""
    if getattr(entry, "handle", None) is not None:
        return "handle", entry.handle
    if getattr(entry, "tensor", None) is not None:
        return "tensor", entry.tensor
    raise CheckpointError(f"{entry.name} holds neither a tensor nor a handle")


def _assign(entries: list, rank: int, world: int) -> set[str]:
    """The names this rank writes: every rank holds the whole state (data
    parallel), so each tensor is written once, by the rank with the fewest
    bytes so far (ssdopt.checkpoint's rule, from names and sizes)."""
    load = [0] * world
    mine = set()
    for entry in entries:
        nbytes = entry.dtype.itemsize
        for size in entry.shape:
            nbytes *= size
        if _ckpt._least_loaded(load, nbytes) == rank:
            mine.add(entry.name)
    return mine


def _rng_bytes() -> bytes:
    return _ckpt._rng_bytes(torch.get_rng_state())


# ---------------------------------------------------------------------------
# Saving and loading a step's state where it lives
# ---------------------------------------------------------------------------

def save_state(entries: Iterable, root, *, step: int, keep_last: int | None = None,
               timeout: float = _ckpt.DEFAULT_TIMEOUT_S) -> str:
    """Commits the persistent tensors `entries` (objects with `name`,
    `shape`, `dtype` and either `tensor` or `handle`, as
    `Step._persistent_state()` lists them) as step `step` under `root`;
    every rank of torch.distributed calls it. Tensors on SSD are copied file
    to file. Returns the committed directory."""
    entries = list(entries)
    root = _ckpt._local_path(root, "checkpoint root")
    if keep_last is not None and (not isinstance(keep_last, int) or keep_last < 1):
        raise CheckpointError(f"keep_last must be a positive int, got {keep_last!r}")
    rank, world = _ckpt._rank_and_world()
    mine = _assign(entries, rank, world)
    # Where the tensors on SSD are, before the directory is begun: a handle
    # that cannot be located (its write failed) fails the save up front.
    locations = {e.name: _disk_location(value) for e in entries if e.name in mine
                 for kind, value in [_entry_value(e)] if kind == "handle"}

    def batches():
        # Tensors in memory that are contiguous on the host and the tensors
        # on SSD go in one batch; the others are copied to the host one at
        # a time, each a batch of its own.
        batch = []
        for entry in entries:
            if entry.name not in mine:
                continue
            if entry.name in locations:
                path, offset, _ = locations[entry.name]
                batch.append(_file_piece(entry.name, entry.dtype, entry.shape, path, offset))
                continue
            tensor = _entry_value(entry)[1]
            if tensor.device.type == "cpu" and tensor.is_contiguous():
                batch.append(_memory_piece(entry.name, tensor))
            else:
                yield [_memory_piece(entry.name, tensor)]
        yield batch

    return _ckpt._write(root, step, rank, world, timeout, keep_last or 0, batches(), _rng_bytes(),
                        0, None)


def _check_names(saved: dict, expected: dict, directory: str) -> None:
    """Raises listing every name, dtype or shape that differs."""
    problems = []
    for name, (dtype, shape) in expected.items():
        if name not in saved:
            problems.append(f"{name}: in the step, not in the checkpoint")
            continue
        code, saved_shape = saved[name]
        if code != _code(name, dtype):
            problems.append(f"{name}: dtype mismatch: the checkpoint has "
                            f"{_ckpt._DTYPES.get(code, code)}, the step {dtype}")
        if tuple(saved_shape) != tuple(shape):
            problems.append(f"{name}: shape mismatch: the checkpoint has {list(saved_shape)}, "
                            f"the step {list(shape)}")
    for name in saved:
        if name not in expected and name != _ckpt.TREE_TENSOR:
            problems.append(f"{name}: in the checkpoint, not in the step")
    if problems:
        raise CheckpointError(f"the step's state does not match checkpoint {directory}; nothing "
                              "was loaded:\n  " + "\n  ".join(problems))


def _load_file(reader, name: str, code: int, shape: tuple[int, ...], path: str,
               offset: int) -> None:
    _ckpt._check(_ckpt._library().ssdckpt_reader_load_file(
        reader.handle, name.encode(), code, len(shape), _ckpt._dims(shape),
        _ckpt._dims((0,) * len(shape)), _ckpt._dims(shape), path.encode(), offset),
        f"loading {name} into {path}")


def _restore_rng(resume) -> None:
    if resume.rng_state is not None:
        torch.set_rng_state(torch.frombuffer(bytearray(resume.rng_state), dtype=torch.uint8))


def _read_all(reader, boxes: dict) -> dict[str, torch.Tensor]:
    """name -> a new CPU tensor read from `reader`, for each name -> (code,
    shape, dtype) of `boxes`, in one batched call (every block checksum
    checked); nothing else is touched."""
    values = {name: torch.empty(shape, dtype=dtype) for name, (_, shape, dtype) in boxes.items()}
    reader.load_boxes((name, code, shape, (0,) * len(shape), shape, values[name])
                      for name, (code, shape, _) in boxes.items())
    return values


def load_state(entries: Iterable, path) -> int:
    """Fills the persistent tensors `entries` from `path` (a checkpoint root,
    the step its `latest` names, or one step's directory), wherever each
    lives now: a tensor in memory is replaced by a new one read from the
    checkpoint (`entry.tensor`), a tensor on SSD is overwritten in place on
    disk, file to file. Any saved layout or world size loads. Returns the
    checkpoint's step; the generator state is restored when it was saved.

    Nothing is replaced before everything is read and checked: names, dtypes
    and shapes first; then the tensors in memory are read into new tensors;
    when some live on SSD, every checksum of the checkpoint is verified
    (``ssdckpt_reader_verify``) before the first byte on SSD is overwritten;
    the tensors in memory are assigned last. Only an I/O error writing the
    SSD files (the disk full, a file gone) can leave the tensors on SSD
    before it overwritten; the tensors in memory are then unchanged."""
    entries = list(entries)
    directory = _ckpt._resolve(path)
    rank, world = _ckpt._rank_and_world()
    with _ckpt._Reader(directory) as reader:
        saved = reader.tensors()
        _check_names(saved, {e.name: (e.dtype, tuple(e.shape)) for e in entries}, directory)
        locations = {e.name: _disk_location(value) for e in entries
                     for kind, value in [_entry_value(e)] if kind == "handle"}
        values = _read_all(reader, {e.name: (*saved[e.name], e.dtype) for e in entries
                                    if e.name not in locations})
        if locations:
            reader.verify()
        for entry in entries:
            if entry.name in locations:
                code, shape = saved[entry.name]
                path_, offset, _ = locations[entry.name]
                _load_file(reader, entry.name, code, shape, path_, offset)
        resume = reader.resume(rank, world)
    for entry in entries:
        if entry.name in values:
            device = entry.tensor.device
            entry.tensor = values[entry.name].to(device) if device.type != "cpu" \
                else values[entry.name]
            if hasattr(entry, "stride"):
                entry.stride = tuple(entry.tensor.stride())
    _restore_rng(resume)
    return resume.step


def load_into_model(model: torch.nn.Module, optimizer: torch.optim.Optimizer, path) -> int:
    """`load_state` for a step that has not run yet (it takes the model's and
    the optimizer's state at its first call): every parameter and buffer of
    `model` and every optimizer state entry it already holds must be in the
    checkpoint (with the model's dtype and shape); the checkpoint's other
    optimizer state entries ``<param>.<key>`` of a parameter are added. A
    name missing on either side is an error listing them all, and nothing is
    assigned before every tensor is read. Returns the step."""
    directory = _ckpt._resolve(path)
    rank, world = _ckpt._rank_and_world()
    params = dict(model.named_parameters())
    buffers = dict(model.named_buffers())
    param_names = {id(p): n for n, p in params.items()}
    expected = {name: (value.dtype, tuple(value.shape))
                for name, value in itertools.chain(params.items(), buffers.items())}
    slots = {}
    for param, state in optimizer.state.items():
        owner = param_names.get(id(param))
        for key, value in state.items() if owner is not None else ():
            if isinstance(value, torch.Tensor):
                expected[f"{owner}.{key}"] = (value.dtype, tuple(value.shape))
                slots[f"{owner}.{key}"] = (param, key)
    with _ckpt._Reader(directory) as reader:
        saved = {n: v for n, v in reader.tensors().items() if n != _ckpt.TREE_TENSOR}
        for name, (code, shape) in saved.items():
            owner, _, key = name.rpartition(".")
            if name not in expected and owner in params:
                expected[name] = (_ckpt._DTYPES[code], tuple(shape))
                slots[name] = (params[owner], key)
        _check_names(saved, expected, directory)
        values = _read_all(reader, {name: (code, shape, expected[name][0])
                                    for name, (code, shape) in saved.items()})
        resume = reader.resume(rank, world)
    with torch.no_grad():
        for name, value in values.items():
            if name in slots:
                param, key = slots[name]
                optimizer.state.setdefault(param, {})[key] = value.to(param.device)
            elif name in params:
                params[name].data = value.to(params[name].device)
            else:
                owner, _, attr = name.rpartition(".")
                module = model.get_submodule(owner)
                module._buffers[attr] = value.to(buffers[name].device)
    _restore_rng(resume)
    return resume.step


# ---------------------------------------------------------------------------
# Compiler-placed shards (options["checkpoint"])
# ---------------------------------------------------------------------------

_KERNEL = re.compile(r"^\s*(%[\w.$-]+)(?::\d+)? = ssd\.kernel\b")
_SAVE = re.compile(r'ssd\.save_shard (%[\w.$-]+)(?:#(\d+))? to %[\w.$-]+ key "((?:[^"\\]|\\.)*)"')
_ARGUMENT = re.compile(r"^%arg(\d+)$")
_ESCAPE = re.compile(rb"\\(\\|[0-9A-Fa-f]{2})")


def _mlir_string(body: str) -> str:
    r"""The text of an MLIR string literal's body as the printer escapes it
    (llvm::printEscapedString): ``\\`` is a backslash, ``\XX`` the byte of
    hex XX (``\22`` a quote); the bytes are UTF-8."""
    def byte(match: re.Match) -> bytes:
        escape = match.group(1)
        return b"\\" if escape == b"\\" else bytes([int(escape, 16)])
    return _ESCAPE.sub(byte, body.encode("utf-8")).decode("utf-8")


def compiler_save_positions(mlir: str, *, ssd_opt: str | None = None) -> dict[str, tuple]:
    """Where `ssd-opt --ssd-shard-checkpoint` saves each persistent tensor of
    the exported step `mlir`: name -> ("op", op index, result index), the
    exporter's op (``ExportedGraph.op_nodes``) whose result is the final
    value, saved right after it; or ("argument", index) for state the step
    does not change, saved at entry. The pass decides; this reads its output
    (ops in program order, as the exporter numbered them)."""
    binary = planning.find_ssd_opt(ssd_opt)
    with tempfile.TemporaryDirectory(prefix="ssdopt-ckpt-") as scratch:
        source = os.path.join(scratch, "step.mlir")
        with open(source, "w") as file:
            file.write(mlir)
        result = subprocess.run([binary, source, "--ssd-shard-checkpoint=world-size=1 rank=0 every=1"],
                                capture_output=True, text=True)
    if result.returncode != 0:
        raise planning.PlanningError("ssd-opt --ssd-shard-checkpoint failed: "
                                     + result.stderr.strip().replace(source, "<graph>"))
    op_of: dict[str, int] = {}
    positions: dict[str, tuple] = {}
    ops = 0
    for line in result.stdout.splitlines():
        kernel = _KERNEL.match(line)
        if kernel:
            op_of[kernel.group(1)] = ops
            ops += 1
            continue
        save = _SAVE.search(line)
        if not save:
            continue
        value, item, key = save.group(1), int(save.group(2) or 0), save.group(3)
        key = _mlir_string(key)
        argument = _ARGUMENT.match(value)
        if argument:
            positions[key] = ("argument", int(argument.group(1)))
        elif value in op_of:
            positions[key] = ("op", op_of[value], item)
        else:
            raise planning.PlanningError(f"ssd-shard-checkpoint saves {key!r} from {value}, "
                                         "which no op of the exported step defines")
    return positions


_registry: "weakref.WeakValueDictionary[int, StepCheckpointer]" = weakref.WeakValueDictionary()
_ids = itertools.count(1)


def save_shard(checkpointer: int, key: str, value: torch.Tensor) -> None:
    """The node `instrument` puts into the step's graph: hands the final
    value of persistent tensor `key` to checkpointer `checkpointer`'s writer
    when this step saves a checkpoint; nothing otherwise."""
    target = _registry.get(checkpointer)
    if target is not None:
        target._enqueue(key, value)


torch.fx.node.has_side_effect(save_shard)


@dataclass
class _Job:
    key: str
    tensor: torch.Tensor | None = None
    dtype: torch.dtype | None = None
    shape: tuple[int, ...] = ()
    path: str | None = None
    offset: int = 0
    held: int = 0   # bytes counted against max_in_flight

    def piece(self) -> "_ckpt._Piece":
        if self.path is not None:
            return _file_piece(self.key, self.dtype, self.shape, self.path, self.offset)
        return _memory_piece(self.key, self.tensor)


class _Aborted(Exception):
    """The step failed: its checkpoint is not committed."""


# save_shard hands the writer its values in batches of at least this share
# of max_in_flight (the rest at the step's end): each batch is a wake-up of
# the writer thread, hand-overs of the GIL and a call of the library, and
# each costs the step's thread (on a loaded machine a wait for the other
# thread to be scheduled; quietly, at 100% of the bench MLP's peak, about
# 3-4 ms a step more CPU with 8 MiB batches than with one batch a step:
# docs/benchmarks.md). The held values stay under max_in_flight either way.
_HANDOFF_SHARE = 4


# How much nicer than the step the writer thread runs (a share of about a
# tenth of a core it competes for, all of an idle one).
_WRITER_NICENESS = 10


class StepCheckpointer:
    """The checkpoints of one compiled step: `save`/`load` (its
    save_checkpoint and load_checkpoint) and, with options, the shards its
    planned program saves (`instrument`, then per step `begin_step`, the
    program's `save_shard` nodes, `wait_writes` and `end_step`, or
    `abort_step` when the step failed; `flush` or `close` at the end).

    One writer thread per checkpointer begins, fills and commits the
    checkpoints in order; a step's commit runs while the next step computes,
    so its failure is raised by the next `end_step` (or `flush`).

    `steps_taken` labels the checkpoints: it counts the steps that ended,
    and a load sets it to the loaded step."""

    def __init__(self, options: Mapping[str, Any] | None = None):
        self.steps_taken = 0
        self.root = self.every = self.keep_last = None
        self.timeout = _ckpt.DEFAULT_TIMEOUT_S
        self.max_in_flight = DEFAULT_MAX_IN_FLIGHT
        # Bytes of the values save_shard took (counted by the step's thread
        # only) and of those the writer let go of (by the writer only): a
        # save_shard under the cap takes no lock.
        self._taken = 0
        self._released = 0
        self._drained = threading.Condition()
        if options is not None:
            self._parse(options)
        self.id = next(_ids)
        _registry[self.id] = self
        self._jobs: queue.Queue = queue.Queue()
        self._worker: threading.Thread | None = None
        self._current: _Checkpoint | None = None   # the one the running step saves
        self._committing: _Checkpoint | None = None  # the one before, maybe in flight
        self._expected: set[str] = set()
        self._entry_saves: set[str] = set()

    def _parse(self, options: Mapping[str, Any]) -> None:
        if not isinstance(options, Mapping):
            raise ValueError(f"options['checkpoint'] must be a dict, got {type(options).__name__}")
        unknown = sorted(set(options) - set(_OPTIONS))
        if unknown:
            raise ValueError(f"unknown checkpoint option{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(map(repr, unknown))}; known: "
                             + "; ".join(f"{k} ({v})" for k, v in _OPTIONS.items()))
        if options.get("root") is None:
            raise ValueError("options['checkpoint'] needs 'root', the checkpoint root directory")
        self.root = _ckpt._local_path(options["root"], "checkpoint root")
        self.every = options.get("every", 1)
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 1:
            raise ValueError(f"checkpoint 'every' must be a positive int, got {self.every!r}")
        self.keep_last = options.get("keep_last")
        if self.keep_last is not None and (isinstance(self.keep_last, bool) or
                                           not isinstance(self.keep_last, int) or self.keep_last < 1):
            raise ValueError(f"checkpoint 'keep_last' must be a positive int, got {self.keep_last!r}")
        self.timeout = float(options.get("timeout", _ckpt.DEFAULT_TIMEOUT_S))
        self.max_in_flight = options.get("max_in_flight", DEFAULT_MAX_IN_FLIGHT)
        if (isinstance(self.max_in_flight, bool) or not isinstance(self.max_in_flight, int)
                or self.max_in_flight < 1):
            raise ValueError("checkpoint 'max_in_flight' must be a positive int (bytes), got "
                             f"{self.max_in_flight!r}")

    @property
    def _in_flight(self) -> int:
        """Bytes of the values save_shard handed over that the writer holds."""
        return self._taken - self._released

    @property
    def enabled(self) -> bool:
        return self.root is not None

    # -- save_checkpoint / load_checkpoint ---------------------------------

    def save(self, entries: Iterable, root) -> str:
        """Commits `entries` now as step `steps_taken` under `root` (after
        the compiler-placed checkpoint in flight, if any)."""
        self.flush()
        return save_state(entries, root, step=self.steps_taken, timeout=self.timeout)

    def load(self, entries: Iterable, path) -> int:
        self.flush()
        self.steps_taken = load_state(entries, path)
        return self.steps_taken

    # -- compiler-placed shards --------------------------------------------

    def instrument(self, exported, *, ssd_opt: str | None = None) -> int:
        """Puts a `save_shard` node into `exported`'s FX graph (the one
        ``exported.op_nodes[0].graph`` is) at each position the compiler's
        `ssd-shard-checkpoint` pass chose; state saved at entry is recorded
        for `begin_step`. Before the step's program is built from the graph
        (it lists the nodes and their last uses). Idempotent. Returns the
        number of nodes inserted."""
        if not self.enabled:
            return 0
        gm = exported.op_nodes[0].graph.owning_module
        graph = gm.graph
        if any(n.op == "call_function" and n.target is save_shard for n in graph.nodes):
            return 0
        names = [n for n, role in zip(exported.arg_names, exported.arg_roles) if role != "input"]
        positions = compiler_save_positions(exported.text, ssd_opt=ssd_opt)
        missing = sorted(set(names) - set(positions))
        if missing:
            raise RuntimeError(f"ssd-shard-checkpoint saves no value of {missing[:5]}")
        results = dict(zip(exported.result_names, graph.output_node().args[0]))
        after: dict[torch.fx.Node, torch.fx.Node] = {}
        inserted = 0
        entry_saves = set()
        for name in names:  # argument order, as the pass saves them
            where = positions[name]
            if where[0] == "argument":
                entry_saves.add(name)
                continue
            node = exported.result_node(where[1], where[2])
            # The compiler's decision is the FX graph's last definition of
            # the state's new value: the node the step returns for it.
            if node is None or results.get(name) is not node:
                raise RuntimeError(f"ssd-shard-checkpoint saves {name!r} after op {where[1]}, "
                                   f"which is not the FX node the step returns for it")
            with graph.inserting_after(after.get(node, node)):
                after[node] = graph.call_function(save_shard, (self.id, name, node))
            inserted += 1
        # What begin_step saves at entry and what the program must save are
        # this program's, like the nodes just inserted.
        self._expected, self._entry_saves = set(names), entry_saves
        graph.lint()
        gm.recompile()
        return inserted

    def begin_step(self, entries: Iterable) -> bool:
        """Before the program runs: when the step about to be taken is one
        of every `every`, queues the begin of its checkpoint and the state
        the step does not change (from memory, or file to file from SSD,
        located now, while the step does not use the handles yet). Returns
        whether this step saves."""
        if not self.enabled or self._current is not None:
            return False
        step = self.steps_taken + 1
        if step % self.every:
            return False
        entries = list(entries)
        rank, world = _ckpt._rank_and_world()
        current = _Checkpoint(step, rank, world, _assign(entries, rank, world), self._expected)
        jobs = []
        for entry in entries:
            if entry.name not in self._entry_saves or entry.name not in current.mine:
                continue
            kind, value = _entry_value(entry)
            if kind == "handle":
                path, offset, _ = _disk_location(value)
                jobs.append(_Job(entry.name, dtype=entry.dtype, shape=tuple(entry.shape),
                                 path=path, offset=offset))
            else:
                jobs.append(_Job(entry.name, tensor=value))
        current.files_left = sum(job.path is not None for job in jobs)
        if not current.files_left:
            current.files_done.set()
        if self._worker is None:
            self._worker = threading.Thread(target=self._write, name="ssdopt-checkpoint",
                                            daemon=True)
            self._worker.start()
        self._current = current
        self._jobs.put(("begin", current, None))
        if jobs:
            self._jobs.put(("add", current, jobs))
        return True

    def _enqueue(self, key: str, value: torch.Tensor) -> None:
        current = self._current
        if current is None or key not in current.mine:
            return
        # The value stays alive until it is written: at most max_in_flight
        # bytes of them (one larger value goes alone), so a slow disk slows
        # the step rather than holding memory the plan does not count.
        nbytes = value.numel() * value.element_size()
        if self._in_flight and self._in_flight + nbytes > self.max_in_flight:
            self._hand_over(current)  # the writer frees only what it was given
            with self._drained:
                self._drained.wait_for(lambda: self._in_flight == 0 or
                                       self._in_flight + nbytes <= self.max_in_flight)
        self._taken += nbytes
        current.batch.append(_Job(key, tensor=value, held=nbytes))
        current.batch_bytes += nbytes
        if current.batch_bytes >= self.max_in_flight // _HANDOFF_SHARE:
            self._hand_over(current)

    def _hand_over(self, current: "_Checkpoint") -> None:
        """Queues the values save_shard collected for the writer."""
        if current.batch:
            self._jobs.put(("add", current, current.batch))
            current.batch, current.batch_bytes = [], 0

    def _write(self) -> None:
        """The writer thread, one per checkpointer: writes the checkpoints in
        the order the step queued them, each through ssdopt.checkpoint's
        save (`_write`: begin, the batches, commit), which releases the GIL
        while the library works, so the step goes on. It runs at a lower
        priority (nice +10): its copy and checksum take whatever CPU the
        step's own threads leave (the store's I/O threads that the step waits
        for share the step's other core), not theirs."""
        me = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, me,
                       min(19, os.getpriority(os.PRIO_PROCESS, me) + _WRITER_NICENESS))
        while True:
            kind, target, _ = self._jobs.get()
            if kind == "stop":
                return
            if kind == "barrier":
                target.set()
                continue
            self._save(target)  # a "begin": the checkpoint's jobs follow it

    def _save(self, current: "_Checkpoint") -> None:
        """One checkpoint, from its begin to its commit or abort; a failure is
        recorded in its errors before it is marked settled (the next end_step
        or flush raises it)."""
        over = False

        def batches():
            nonlocal over
            while True:
                kind, _, jobs = self._jobs.get()
                if kind == "add":
                    try:
                        yield [job.piece() for job in jobs]
                        current.saved.update(job.key for job in jobs)
                    finally:
                        self._written(current, jobs)
                    continue
                over = True
                if kind == "abort":
                    raise _Aborted
                lost = sorted(current.mine & current.expected - current.saved)
                if lost:
                    raise CheckpointError(f"the step's program saved no value of {lost[:5]}")
                return

        pieces = batches()
        try:
            current.directory = _ckpt._write(self.root, current.step, current.rank, current.world,
                                             self.timeout, self.keep_last or 0, pieces,
                                             lambda: current.rng, 0, None)
        except _Aborted:
            pass
        except BaseException as error:  # noqa: BLE001 - reported by end_step or flush
            current.errors.append(str(error))
        finally:
            pieces.close()
            while not over:  # after a failure, the rest of its jobs: not written
                kind, _, jobs = self._jobs.get()
                if kind == "add":
                    self._written(current, jobs)
                else:
                    over = True
            current.committed.set()

    def _written(self, current: "_Checkpoint", jobs: list) -> None:
        """The writer is done with `jobs` (written or not)."""
        held = 0
        for job in jobs:
            if job.path is not None:
                current.file_written()
            held += job.held
            job.tensor = None
        if held:
            with self._drained:
                self._released += held
                self._drained.notify_all()

    def wait_writes(self) -> None:
        """After the program ran: waits until this step's copies from files
        (state on SSD it does not change) are done, before the step may let
        go of their handles. Shards from memory go on being written."""
        if self._current is not None:
            self._current.files_done.wait()

    def end_step(self) -> str | None:
        """After the step ran and its state was committed: counts the step
        and queues the commit of its checkpoint, which the writer thread
        makes (with the other ranks) while the next step runs. Waits first
        for the commit of the checkpoint before it, and raises if that one
        failed (naming what: a write, or a tensor the program did not save;
        that checkpoint is not committed, and this step was taken). Returns
        the step whose checkpoint commits, or None when none was due."""
        self.steps_taken += 1
        current, self._current = self._current, None
        if current is not None:
            self._hand_over(current)
        failed = self._settle()
        if current is not None:
            # The generator state at the step's end, not when the commit runs.
            current.rng = _rng_bytes()
            self._jobs.put(("commit", current, None))
            self._committing = current
        if failed:
            raise failed
        return current.step if current is not None else None

    def _settle(self) -> CheckpointError | None:
        """Waits for the commit in flight; its failure, if it failed."""
        committing, self._committing = self._committing, None
        if committing is None:
            return None
        committing.committed.wait()
        if committing.errors:
            return CheckpointError(f"step {committing.step} was taken, but its checkpoint under "
                                   f"{self.root} is not committed: "
                                   + "; ".join(committing.errors))
        return None

    def flush(self) -> None:
        """Waits for every queued save and commit; raises if the last commit
        failed."""
        if self._current is not None:
            self.abort_step()
        failed = self._settle()
        if failed:
            raise failed

    def abort_step(self) -> None:
        """After a failed step: the checkpoint it began is left uncommitted
        (removed when this is the only rank); the step is not counted."""
        current, self._current = self._current, None
        if current is not None:
            self._hand_over(current)  # released by the writer, unwritten
            self._jobs.put(("abort", current, None))
            barrier = threading.Event()
            self._jobs.put(("barrier", barrier, None))
            barrier.wait()

    def close(self) -> None:
        """flush, then stops the writer thread."""
        try:
            self.flush()
        finally:
            if self._worker is not None:
                self._jobs.put(("stop", None, None))
                self._worker.join()
                self._worker = None


class _Checkpoint:
    """One compiler-placed checkpoint, from its begin to its commit."""

    def __init__(self, step: int, rank: int, world: int, mine: set[str], expected: set[str]):
        self.step, self.rank, self.world = step, rank, world
        self.mine, self.expected = mine, set(expected)
        self.directory: str | None = None
        self.saved: set[str] = set()
        self.errors: list[str] = []
        self.files_left = 0
        self.rng = b""
        # Values save_shard collected and not yet handed to the writer.
        self.batch: list[_Job] = []
        self.batch_bytes = 0
        self.files_done = threading.Event()
        self.committed = threading.Event()

    def file_written(self) -> None:
        self.files_left -= 1
        if self.files_left <= 0:
            self.files_done.set()
