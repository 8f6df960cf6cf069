"""Sharded, elastic checkpoints of PyTorch state dicts (docs/checkpoint-python.md).

    ssdopt.checkpoint.save(state_dict, "/ckpt/run")        # commits latest + 1
    step = ssdopt.checkpoint.latest("/ckpt/run")           # None when empty
    resume = ssdopt.checkpoint.load(state_dict, "/ckpt/run")

Every byte goes through the checkpoint library's C API (ssdckpt.h, the shared
library libssdrt-checkpoint that ships next to ``ssdopt._C``), through ctypes,
which releases the GIL during each call: the format, the checksums and the
multi-rank commit are the ones compiled steps and ``ssd-ckpt`` use, so a
checkpoint written here is read by them and the other way round. Ranks
in separate processes meet in the checkpoint's directory
(``ssdckpt_save_begin/_add/_commit``); ``torch.distributed``, when
initialised, supplies the rank and world size and checks, before any byte is
written, that every rank saves the same step and the same state-dict
structure.
"""

from __future__ import annotations

import array
import atexit
import collections
import concurrent.futures
import contextlib
import ctypes
import errno as errno_module
import functools
import gc
import hashlib
import importlib.util
import itertools
import json
import math
import os
import queue
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any

import torch

from ._dtypes import CHECKPOINT_CODES

__all__ = ["CheckpointError", "Resume", "SaveFuture", "save", "load", "latest", "wait",
           "wait_staged", "release_staging",
           "to_state_dict", "from_dcp", "to_dcp", "from_torch_save"]

# The state dict's structure and its non-tensor values are the manifest's
# `state_tree` (format version 2, docs/checkpoint-format.md), written by
# rank 0. Format version 1 kept them in this tensor (U8, JSON text), which
# is still read, and its name stays reserved.
TREE_TENSOR = "__ssdopt_tree__"
TREE_FORMAT = "ssdopt.state_dict"
TREE_VERSION = 1
DEFAULT_TIMEOUT_S = 300.0
DEFAULT_STAGING_BYTES = 1 << 30

# torch dtype -> SSDRT_DTYPE_* code of the types checkpoints hold (the one
# table, DTypes.def, through _dtypes.py); names and sizes are the library's
# (ssdckpt_dtype_info).
DTYPE_CODES = CHECKPOINT_CODES
_DTYPES = {code: dtype for dtype, code in DTYPE_CODES.items()}


class CheckpointError(RuntimeError):
    """A checkpoint could not be saved or loaded; ``errno`` says why."""

    def __init__(self, message: str, errnum: int = errno_module.EINVAL):
        super().__init__(message)
        self.errno = errnum


# ---------------------------------------------------------------------------
# The library
# ---------------------------------------------------------------------------

_lib = None
_lib_lock = threading.Lock()
_u64p = ctypes.POINTER(ctypes.c_uint64)


class _Request(ctypes.Structure):
    """ssdckpt_request, and ssdckpt_chunk (the same fields, `data` const)."""
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int), ("ndim", ctypes.c_int),
                ("shape", _u64p), ("offsets", _u64p), ("sizes", _u64p),
                ("dest", ctypes.c_void_p)]


# One _Request as six int64 words (LP64, little-endian): name, dtype | ndim
# << 32, shape, offsets, sizes, dest; _request_array fills them by column.
assert ctypes.sizeof(_Request) == 48 and _Request.dtype.offset == 8 and \
    _Request.ndim.offset == 12 and sys.byteorder == "little"


def _is_utf8(text: str) -> bool:
    """Whether `text` has a UTF-8 form: a str may hold lone surrogates."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def _request_array(boxes) -> tuple[ctypes.Array, int, tuple]:
    """The ssdckpt_request (or ssdckpt_chunk) array of (name, code, shape,
    offsets, sizes, address) boxes, filled a column at a time (a tensor of
    int64 words) instead of one ctypes object or struct field per box, so
    that many small tensors cost little: returns the array, its length, and
    the buffers it points into (keep them alive while the array is used)."""
    boxes = list(boxes)
    count = len(boxes)
    if not count:
        return (_Request * 1)(), 0, ()
    names = [name.encode() + b"\0" for name, *_ in boxes]
    name_buffer = ctypes.create_string_buffer(b"".join(names))
    dims = array.array("Q", [d for _, _, shape, offsets, sizes, _ in boxes
                             for part in (shape, offsets, sizes) for d in part])
    dims_base = dims.buffer_info()[0] if dims else 0

    def column(values) -> torch.Tensor:  # torch.tensor(list) costs ~1 us a value
        return torch.frombuffer(array.array("q", values), dtype=torch.int64)
    name_lengths = column(map(len, names))
    ndims = column([len(box[2]) for box in boxes])
    table = torch.empty((count, 6), dtype=torch.int64)
    table[:, 0] = ctypes.addressof(name_buffer) + name_lengths.cumsum(0) - name_lengths
    table[:, 1] = column([box[1] for box in boxes]) | ndims << 32
    shapes = dims_base + 24 * (ndims.cumsum(0) - ndims)
    table[:, 2] = shapes
    table[:, 3] = shapes + 8 * ndims
    table[:, 4] = shapes + 16 * ndims
    table[:, 5] = column([box[5] for box in boxes])
    requests = (_Request * count).from_address(table.data_ptr())
    return requests, count, (name_buffer, dims, table)


def library_path() -> str:
    """libssdrt-checkpoint.so beside ``ssdopt._C`` (the wheel and the editable
    install both put it there); SSDOPT_CHECKPOINT_LIBRARY overrides it with a
    library built elsewhere (a build directory of the runtime)."""
    override = os.environ.get("SSDOPT_CHECKPOINT_LIBRARY")
    if override:
        return override
    spec = importlib.util.find_spec("ssdopt._C")
    if spec is None or not spec.origin:
        raise CheckpointError("ssdopt._C is not installed, so libssdrt-checkpoint.so "
                              "cannot be found (pip install ./python)", errno_module.ENOENT)
    return os.path.join(os.path.dirname(spec.origin), "libssdrt-checkpoint.so")


def _library():
    global _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        lib = ctypes.CDLL(library_path())
        c = ctypes
        vp, cp, i, u32, u64, sz = c.c_void_p, c.c_char_p, c.c_int, c.c_uint32, c.c_uint64, c.c_size_t
        signatures = {
            "ssdckpt_last_error": (cp, []),
            "ssdckpt_free": (None, [vp]),
            "ssdckpt_save_begin": (i, [cp, u64, u32, u32, u64, c.c_uint, c.POINTER(vp)]),
            "ssdckpt_save_dir": (cp, [vp]),
            "ssdckpt_save_add": (i, [vp, cp, i, i, _u64p, _u64p, _u64p, vp]),
            "ssdckpt_save_add_many": (i, [vp, c.POINTER(_Request), sz]),
            "ssdckpt_save_add_file": (i, [vp, cp, i, i, _u64p, _u64p, _u64p, cp, u64]),
            "ssdckpt_save_set_state": (i, [vp, vp, sz, u64]),
            "ssdckpt_save_set_state_tree": (i, [vp, cp]),
            "ssdckpt_check_state_tree": (i, [cp]),
            "ssdckpt_save_commit": (i, [vp]),
            "ssdckpt_save_begin_record": (i, [cp, u64, u32, c.POINTER(vp)]),
            "ssdckpt_save_finish": (i, [vp, c.POINTER(vp)]),
            "ssdckpt_save_close": (None, [vp]),
            "ssdckpt_latest": (i, [cp, c.c_char_p, sz]),
            "ssdckpt_gc": (i, [cp, c.c_uint]),
            "ssdckpt_reader_open": (i, [cp, c.POINTER(vp)]),
            "ssdckpt_reader_load": (i, [vp, cp, i, i, _u64p, _u64p, _u64p, vp]),
            "ssdckpt_reader_load_many": (i, [vp, c.POINTER(_Request), sz]),
            "ssdckpt_reader_load_file": (i, [vp, cp, i, i, _u64p, _u64p, _u64p, cp, u64]),
            "ssdckpt_reader_verify": (i, [vp]),
            "ssdckpt_reader_state_tree": (i, [vp, c.POINTER(vp)]),
            "ssdckpt_reader_resume_state": (i, [vp, u32, u32, _u64p, vp, sz, c.POINTER(sz),
                                                c.POINTER(i), _u64p, c.POINTER(i)]),
            "ssdckpt_reader_close": (None, [vp]),
            "ssdckpt_dtype_info": (i, [i, c.POINTER(cp), c.POINTER(sz)]),
            "ssdckpt_copy_regions": (i, [vp, sz, c.c_uint]),
            "ssdckpt_reader_info": (i, [vp, _u64p, c.POINTER(u32), c.POINTER(u32), c.POINTER(sz)]),
            "ssdckpt_reader_tensor": (i, [vp, sz, c.POINTER(cp), c.POINTER(i), c.POINTER(i),
                                          _u64p, sz]),
            "ssdckpt_reader_tensors": (i, [vp, sz, c.POINTER(cp), c.POINTER(i), c.POINTER(i),
                                           _u64p, sz, c.POINTER(sz)]),
            "ssdckpt_list": (i, [cp, c.POINTER(vp)]),
        }
        bind(lib, signatures)
        _lib = lib
        return lib


def bind(lib, signatures: dict) -> None:
    """Gives each function of `signatures` ({name: (restype, argtypes)}) its
    ctypes signature; a function the library lacks means it is older than
    this package."""
    for name, (restype, argtypes) in signatures.items():
        try:
            function = getattr(lib, name)
        except AttributeError:
            raise CheckpointError(f"{library_path()} has no {name}: it is older than this "
                                  "ssdopt (rebuild the package: scripts/setup)",
                                  errno_module.ENOSYS) from None
        function.restype, function.argtypes = restype, argtypes


# Pauses of the cyclic collector in progress (a save's call, an asynchronous
# save's staging thread) and whether it was on when the first began.
_gc_pauses = 0
_gc_was_enabled = False
_gc_lock = threading.Lock()


def _pause_gc() -> None:
    """Pauses Python's cyclic garbage collector until as many _resume_gc():
    a state dict of thousands of tensors makes tens of thousands of small
    objects, and each collection they trigger walks every object of the
    process (measured: a sixth of the time of saving 4096 tensors). The
    pauses are counted because the collector is one per process: an
    asynchronous save's staging thread, still making its pieces after the
    call returned, holds one of its own."""
    global _gc_pauses, _gc_was_enabled
    with _gc_lock:
        if _gc_pauses == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pauses += 1


def _resume_gc() -> None:
    global _gc_pauses
    with _gc_lock:
        _gc_pauses -= 1
        if _gc_pauses == 0 and _gc_was_enabled:
            gc.enable()


def _gc_paused(function):
    """Runs `function` with the cyclic garbage collector paused (_pause_gc)."""
    @functools.wraps(function)
    def paused(*args, **kwargs):
        _pause_gc()
        try:
            return function(*args, **kwargs)
        finally:
            _resume_gc()
    return paused


def _check(rc: int, what: str) -> None:
    """Raises CheckpointError with the library's message for this thread."""
    if rc < 0:
        message = _library().ssdckpt_last_error().decode("utf-8", "replace")
        raise CheckpointError(f"{what}: {message}" if what else message, -rc)


def dtype_info(dtype: torch.dtype) -> tuple[str, int]:
    """The checkpoint's name ("F32") and element size of a torch dtype."""
    code = DTYPE_CODES.get(dtype)
    if code is None:
        raise CheckpointError(f"dtype {dtype} is not supported in checkpoints (supported: "
                              + ", ".join(str(d) for d in DTYPE_CODES) + ")")
    name, size = ctypes.c_char_p(), ctypes.c_size_t()
    _check(_library().ssdckpt_dtype_info(code, ctypes.byref(name), ctypes.byref(size)), "")
    return name.value.decode(), size.value


def _dims(values) -> ctypes.Array:
    return (ctypes.c_uint64 * max(len(values), 1))(*values)


def _taken_text(text: ctypes.c_void_p) -> str:
    """The text a library call returned in `text` (a char * it allocated),
    which is freed (ssdckpt_free)."""
    try:
        return ctypes.string_at(text).decode()
    finally:
        _library().ssdckpt_free(text)


# ---------------------------------------------------------------------------
# Ranks
# ---------------------------------------------------------------------------

def _dist():
    import torch.distributed as dist
    return dist if dist.is_available() and dist.is_initialized() else None


def _rank_and_world() -> tuple[int, int]:
    dist = _dist()
    return (dist.get_rank(), dist.get_world_size()) if dist else (0, 1)


def _gather(value) -> list:
    """Every rank's `value` (one element per rank), in rank order."""
    dist = _dist()
    if dist is None or dist.get_world_size() == 1:  # gloo's 1-4 ms for nothing
        return [value]
    out = [None] * dist.get_world_size()
    dist.all_gather_object(out, value)
    return out


def _describe_ranks(values: list, singular: str, plural: str) -> str:
    """'rank 0 saves step 4; ranks 1, 2 save step 5'."""
    groups: dict[str, list[int]] = {}
    for rank, value in enumerate(values):
        groups.setdefault(str(value), []).append(rank)
    return "; ".join(
        (f"rank {ranks[0]} {singular} {value}" if len(ranks) == 1
         else f"ranks {', '.join(map(str, ranks))} {plural} {value}")
        for value, ranks in groups.items())


def _agree(errors: list, what: str) -> None:
    """Raises on every rank when any rank failed its checks."""
    failed = [(rank, e) for rank, e in enumerate(errors) if e]
    if failed:
        raise CheckpointError(f"{what}: " + "; ".join(
            (f"rank {rank}: {e}" if len(errors) > 1 else e) for rank, e in failed))


# ---------------------------------------------------------------------------
# State dicts: structure (JSON) and tensor leaves
# ---------------------------------------------------------------------------

def _dtensor_type():
    try:
        from torch.distributed.tensor import DTensor
    except ImportError:  # torch without distributed
        return None
    return DTensor


@dataclass(slots=True)  # thousands are made per save: slots make each cheaper
class _Leaf:
    """A tensor of the state dict and the box of it this rank holds."""
    name: str
    tensor: torch.Tensor        # the state dict's tensor (a DTensor or plain)
    local: torch.Tensor         # what this rank holds of it
    shape: tuple[int, ...]      # global shape
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    replicas: int               # ranks holding the same box
    replica_index: int          # this rank among them (-1: holds none)
    dtensor: bool
    code: int | None            # its SSDRT_DTYPE_* (None: not supported)


# (mesh, placements, global shape) -> (offsets, sizes, replicas, replica
# index) of this process's box: a state dict of thousands of DTensors has
# few distinct layouts, and torch's computation of one costs ~40 us.
_layouts: dict = {}


def _layout(mesh, placements, shape: tuple) -> tuple:
    key = (mesh, placements, shape)
    found = _layouts.get(key)
    if found is not None:
        return found
    from torch.distributed.tensor._utils import compute_local_shape_and_global_offset
    for placement in placements:
        if not (placement.is_shard() or placement.is_replicate()):
            raise CheckpointError(f"placement {placement} is not supported "
                                  "(redistribute Partial to Shard or Replicate first)")
    coordinate = mesh.get_coordinate()
    if coordinate is None:
        found = ((0,) * len(shape), (0,) * len(shape), 1, -1)
    else:
        sizes, offsets = compute_local_shape_and_global_offset(shape, mesh, placements)
        replicas, index = 1, 0
        for dim, placement in enumerate(placements):
            if placement.is_replicate():
                index = index * mesh.size(dim) + coordinate[dim]
                replicas *= mesh.size(dim)
        found = (tuple(offsets), tuple(sizes), replicas, index)
    if len(_layouts) >= 1 << 16:
        _layouts.clear()
    _layouts[key] = found
    return found


# id(spec) -> (spec, its mesh, placements and tensor_meta, _layout of them)
# of the DTensors saved before: a training run saves the same tensors again
# and again, and the key of _layouts costs ~1 us to hash (a DeviceMesh's
# and a Placement's __hash__ are Python). The spec's members are compared
# by identity (all immutable), so a spec given others misses.
_spec_layouts: dict = {}


def _spec_layout(spec) -> tuple:
    """(global shape, placements, _layout) of a DTensor's spec."""
    meta, placements, mesh = spec.tensor_meta, spec.placements, spec.mesh
    known = _spec_layouts.get(id(spec))
    if known is not None and known[0] is spec and known[1] is mesh and \
            known[2] is placements and known[3] is meta:
        return meta.shape, placements, known[4]
    found = _layout(mesh, placements, meta.shape)
    if len(_spec_layouts) >= 1 << 16:
        _spec_layouts.clear()
    _spec_layouts[id(spec)] = (spec, mesh, placements, meta, found)
    return meta.shape, placements, found


def _box(tensor, dtensor_type) -> tuple:
    """(local tensor, global shape, offsets, sizes, replicas, replica index);
    shapes are torch.Size (a tuple). A DTensor's mesh, placements and shape
    are read from its spec: its properties cost ~1 us each (every attribute
    of a tensor subclass goes through __torch_function__), and a state dict
    has thousands of tensors."""
    if dtensor_type is not None and isinstance(tensor, dtensor_type):
        shape, placements, (offsets, sizes, replicas, index) = _spec_layout(tensor._spec)
        local = tensor._local_tensor
        if index >= 0 and local.shape != sizes:
            raise CheckpointError(f"the DTensor's local tensor has shape {list(local.shape)}, "
                                  f"its placements {list(placements)} give this rank "
                                  f"{list(sizes)} of {list(shape)}")
        return local, shape, offsets, sizes, replicas, index
    shape = tensor.shape
    return tensor, shape, (0,) * len(shape), shape, 0, 0


def _where(path: list) -> str:
    """A state dict path for messages: "optimizer/state/0/exp_avg"."""
    return "/".join(map(str, path)) or "<root>"


def _flatten(state: dict) -> tuple[dict, list[_Leaf]]:
    """The JSON tree of `state` and its tensor leaves in a fixed order.

    Raises CheckpointError naming every value that cannot be kept (a type
    JSON cannot hold, a non-finite float, a key that is neither str nor int,
    an unsupported dtype, two paths with one tensor name, a name holding a NUL)."""
    if not isinstance(state, dict):
        raise CheckpointError(f"a state dict must be a dict, got {type(state).__name__}")
    dtensor_type = _dtensor_type()
    leaves: list[_Leaf] = []
    names: dict[str, tuple] = {}  # tensor name -> (parent path, key): its path
    problems: list[str] = []

    def tensor(value, name: str, parent: list, key) -> dict | None:
        # The tensor at parent + [key]; that path is built only for messages:
        # a state dict has thousands of tensors, and everything done per
        # tensor here counts.
        if name in names or name == TREE_TENSOR:
            other = _where(names[name][0] + [names[name][1]]) if name in names else "reserved"
            problems.append(f"{_where(parent + [key])}: tensor name {name!r} is also {other}")
            return None
        if "\0" in name:  # the library's names are C strings
            problems.append(f"{_where(parent + [key])}: tensor name {name!r} holds a NUL")
            return None
        if not name.isascii() and not _is_utf8(name):
            problems.append(f"{_where(parent + [key])}: tensor name {name!r} is not UTF-8")
            return None
        names[name] = (parent, key)
        try:
            local, shape, offsets, sizes, replicas, index = _box(value, dtensor_type)
        except CheckpointError as error:
            problems.append(f"{_where(parent + [key])}: {error}")
            return None
        code = DTYPE_CODES.get(local.dtype)  # a DTensor's own dtype costs more
        if code is None:
            problems.append(f"{_where(parent + [key])}: dtype {local.dtype} is not supported "
                            "in checkpoints")
        leaves.append(_Leaf(name, value, local, shape, offsets, sizes, replicas, index,
                            local is not value, code))
        return {"tensor": name}

    def visit(value, path: list) -> Any:
        if isinstance(value, torch.Tensor):
            return tensor(value, ".".join(map(str, path)), path[:-1], path[-1])
        where = _where(path)
        if isinstance(value, dict):
            items = []
            prefix = ".".join(map(str, path)) + "." if path else ""  # of the tensor names
            for key, child in value.items():
                if type(key) is str:  # the usual key, checked first
                    name = prefix + key
                elif isinstance(key, (str, int)) and not isinstance(key, bool):
                    name = prefix + str(key)
                else:
                    problems.append(f"{where}: key {key!r} ({type(key).__name__}) is neither "
                                    "str nor int")
                    continue
                items.append([key, tensor(child, name, path, key)
                              if isinstance(child, torch.Tensor) else visit(child, path + [key])])
            return {"dict": items}
        if isinstance(value, (list, tuple)):
            kind = "list" if isinstance(value, list) else "tuple"
            return {kind: [visit(child, path + [i]) for i, child in enumerate(value)]}
        if isinstance(value, int) and not isinstance(value, bool) and \
                abs(value) >= 1 << 64:
            return {"int": str(value)}
        if value is None or isinstance(value, (bool, int, str)):
            return {"value": value}
        if isinstance(value, float):
            if not math.isfinite(value):
                problems.append(f"{where}: {value} cannot be stored as JSON")
            # The manifest's JSON holds integers only: the shortest text
            # that reads back as the same float.
            return {"float": repr(value)}
        problems.append(f"{where}: a {type(value).__module__}.{type(value).__qualname__} "
                        "cannot be stored as JSON (only tensors, dicts, lists, tuples, str, "
                        "int, float, bool and None are kept; nothing is pickled)")
        return None

    try:
        tree = visit(state, [])
    finally:
        # visit refers to itself (it recurses): without this the cycle kept
        # `leaves` and every _Leaf alive until the next collection, which
        # then took ~30 ms of every save (16,384 tensors) to free them.
        visit = None
    if problems:
        raise CheckpointError("the state dict cannot be checkpointed:\n  " + "\n  ".join(problems))
    return tree, leaves


def _is_value(node: dict) -> bool:
    """Whether a tree node is a non-tensor leaf: {"value": JSON scalar},
    {"float": repr} or {"int": decimal text beyond 64 bits}."""
    return "value" in node or "float" in node or "int" in node


def _value(node: dict):
    if "float" in node:
        return float(node["float"])
    if "int" in node:
        return int(node["int"])
    return node["value"]


def _tree_text(tree: dict) -> bytes:
    """The manifest's `state_tree` of the state dict's JSON tree, as text the
    library accepts (ssdckpt_check_state_tree: JSON, nested no deeper than a
    manifest holds); CheckpointError otherwise."""
    header = {"format": TREE_FORMAT, "version": TREE_VERSION, "tree": tree}
    # _flatten made every container of `tree` afresh, so it holds no cycle
    # to look for (the search is a third of the encoding's time).
    text = json.dumps(header, allow_nan=False, separators=(",", ":"),
                      check_circular=False).encode()
    if _library().ssdckpt_check_state_tree(text) < 0:
        message = _library().ssdckpt_last_error().decode("utf-8", "replace")
        raise CheckpointError("the state dict's structure and non-tensor values cannot be "
                              f"kept in the manifest: {message} (in the JSON tree each "
                              "nested dict takes 3 levels, each list or tuple 2)")
    return text


def _signature(tree: dict, leaves: list[_Leaf]) -> str:
    """What every rank must agree on: structure, tensor names, shapes, dtypes."""
    def strip(node):
        if "tensor" in node:  # the most common node first, kept as it is
            return node
        if "dict" in node:  # a tensor item ([key, {"tensor": name}]) kept as it is
            return {"dict": [item if "tensor" in item[1] else [item[0], strip(item[1])]
                             for item in node["dict"]]}
        for kind in ("list", "tuple"):
            if kind in node:
                return {kind: [strip(v) for v in node[kind]]}
        return "value"
    # The tree names the tensors (in the leaves' order); their shapes and
    # dtypes are ints, whose tuple hash is the same in every process (no
    # hash randomisation) and costs a sixteenth of their JSON text.
    text = json.dumps([strip(tree), hash(tuple([(l.shape, l.code) for l in leaves]))])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


# ---------------------------------------------------------------------------
# Paths
# ---------------------------------------------------------------------------

def _without_local_scheme(path: str) -> str:
    """`path` with fsspec's local protocols taken off (file:///abs/dir,
    local://dir): the directory they name, used as any local root."""
    scheme = path.split("://", 1)[0] if "://" in path else ""
    if scheme not in ("file", "local"):
        return path
    from fsspec.implementations.local import LocalFileSystem
    return LocalFileSystem._strip_protocol(path)


def _local_path(path, what: str) -> str:
    path = _without_local_scheme(os.fspath(path))
    if "://" in path:
        scheme = path.split("://", 1)[0]
        raise CheckpointError(f"{what} {path!r}: {scheme}:// is not supported (a local "
                              "directory, or an fsspec URL such as s3://bucket/run)",
                              errno_module.EPROTONOSUPPORT)
    if os.path.exists(path) and not os.path.isdir(path):
        raise CheckpointError(f"{what} {path!r} is not a directory", errno_module.ENOTDIR)
    return path


def _latest_dir(root: str) -> str | None:
    buffer = ctypes.create_string_buffer(4096)
    rc = _library().ssdckpt_latest(root.encode(), buffer, len(buffer))
    if rc == -errno_module.ENOENT:
        return None
    _check(rc, "")
    return buffer.value.decode()


class _Reader:
    """An open committed checkpoint (ssdckpt_reader)."""

    def __init__(self, directory: str):
        self.directory = directory
        self.handle = ctypes.c_void_p()
        _check(_library().ssdckpt_reader_open(directory.encode(), ctypes.byref(self.handle)), "")

    def close(self) -> None:
        if self.handle:
            _library().ssdckpt_reader_close(self.handle)
            self.handle = ctypes.c_void_p()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def info(self) -> dict:
        step, world, version = ctypes.c_uint64(), ctypes.c_uint32(), ctypes.c_uint32()
        count = ctypes.c_size_t()
        _check(_library().ssdckpt_reader_info(self.handle, ctypes.byref(step), ctypes.byref(world),
                                              ctypes.byref(version), ctypes.byref(count)), "")
        return {"step": step.value, "world_size": world.value, "version": version.value,
                "tensors": count.value}

    def tensors(self) -> dict[str, tuple[int, tuple[int, ...]]]:
        """name -> (dtype code, global shape), in manifest order (a copy)."""
        if getattr(self, "_tensors", None) is None:
            # One call for all of them (a checkpoint may hold thousands).
            function = _library().ssdckpt_reader_tensors
            count = self.info()["tensors"]
            names = (ctypes.c_char_p * max(count, 1))()
            codes, ndims = (ctypes.c_int * max(count, 1))(), (ctypes.c_int * max(count, 1))()
            needed = ctypes.c_size_t()
            dims = (ctypes.c_uint64 * (4 * count))()
            rc = function(self.handle, count, names, codes, ndims, dims, len(dims),
                          ctypes.byref(needed))
            if rc == -errno_module.ERANGE:
                dims = (ctypes.c_uint64 * needed.value)()
                rc = function(self.handle, count, names, codes, ndims, dims, len(dims), None)
            _check(rc, "")
            flat, out, at = dims[:needed.value], {}, 0
            for name, code, ndim in zip(names[:count], codes[:count], ndims[:count]):
                out[name.decode()] = (code, tuple(flat[at:at + ndim]))
                at += ndim
            self._tensors = out
        return dict(self._tensors)

    def load_box(self, name: str, code: int, shape, offsets, sizes, dest: torch.Tensor) -> None:
        """Fills `dest` (CPU, contiguous, sizes) with the box of tensor `name`."""
        if dest.numel() == 0:
            return
        _check(_library().ssdckpt_reader_load(
            self.handle, name.encode(), code, len(shape), _dims(shape), _dims(offsets),
            _dims(sizes), ctypes.c_void_p(dest.data_ptr())), f"loading {name}")

    def load_boxes(self, boxes) -> None:
        """Fills every (name, code, shape, offsets, sizes, dest) in one call,
        so the library plans them together and keeps its queue full."""
        requests, count, keep = _request_array(
            (name, code, shape, offsets, sizes, dest.data_ptr())
            for name, code, shape, offsets, sizes, dest in boxes if dest.numel())
        if count:
            _check(_library().ssdckpt_reader_load_many(self.handle, requests, count),
                   f"loading {count} tensors")
        del keep

    def verify(self) -> None:
        _check(_library().ssdckpt_reader_verify(self.handle), "")

    def resume(self, rank: int, world: int) -> "Resume":
        lib = _library()
        step, position = ctypes.c_uint64(), ctypes.c_uint64()
        size, restored, is_global = ctypes.c_size_t(), ctypes.c_int(), ctypes.c_int()
        lib.ssdckpt_reader_resume_state(self.handle, rank, world, None, None, 0,
                                        ctypes.byref(size), None, None, None)
        buffer = ctypes.create_string_buffer(max(size.value, 1))
        _check(lib.ssdckpt_reader_resume_state(
            self.handle, rank, world, ctypes.byref(step), buffer, len(buffer), ctypes.byref(size),
            ctypes.byref(restored), ctypes.byref(position), ctypes.byref(is_global)), "")
        rng = buffer.raw[:size.value] if restored.value else None
        return Resume(step.value, self.directory, rng, position.value, bool(is_global.value))

    def tree(self) -> dict:
        lib = _library()
        text = ctypes.c_void_p()
        rc = lib.ssdckpt_reader_state_tree(self.handle, ctypes.byref(text))
        if rc == 0:
            return self._checked_tree(json.loads(_taken_text(text)), "its manifest's state_tree")
        if rc != -errno_module.ENOENT:
            _check(rc, "")
        # Format version 1 (or a writer that recorded no tree).
        tensors = self.tensors()
        if TREE_TENSOR not in tensors:
            # Written by a compiled step or ssd-ckpt: a flat dict of tensors.
            return {"format": TREE_FORMAT, "version": TREE_VERSION,
                    "tree": {"dict": [[name, {"tensor": name}] for name in tensors]}}
        code, shape = tensors[TREE_TENSOR]
        text = torch.empty(shape, dtype=torch.uint8)
        self.load_box(TREE_TENSOR, code, shape, (0,), shape, text)
        tree = json.loads(bytes(text.numpy()).decode("utf-8"))
        return self._checked_tree(tree, TREE_TENSOR)

    def _checked_tree(self, tree, where: str) -> dict:
        if not isinstance(tree, dict) or tree.get("format") != TREE_FORMAT or \
                not isinstance(tree.get("version"), int):
            raise CheckpointError(f"{self.directory}: {where} is not an ssdopt state dict")
        if tree["version"] > TREE_VERSION:
            raise CheckpointError(f"{self.directory}: state-dict version {tree['version']} is "
                                  f"newer than this ssdopt supports ({TREE_VERSION})",
                                  errno_module.EPROTONOSUPPORT)
        return tree


def _resolve(path) -> str:
    """The committed checkpoint directory `path` stands for: the one its
    `latest` names when it is a root, else `path` itself."""
    path = _local_path(path, "checkpoint path")
    if not os.path.isdir(path):
        raise CheckpointError(f"checkpoint path {path!r} does not exist", errno_module.ENOENT)
    directory = _latest_dir(path)
    if directory is not None:
        return directory
    try:
        _Reader(path).close()
        return path
    except CheckpointError as error:
        if error.errno != errno_module.ENOENT:
            raise
        if os.path.lexists(os.path.join(path, "latest")):
            # A root whose pointer names no committed checkpoint: its message.
            _check(_library().ssdckpt_latest(path.encode(), ctypes.create_string_buffer(4096),
                                             4096), f"checkpoint root {path!r}")
        raise CheckpointError(f"{path!r} holds no committed checkpoint: it has no `latest` "
                              f"and {error}", errno_module.ENOENT) from None


def _open(path, storage_options: dict | None = None) -> _Reader:
    """A reader of the committed checkpoint `path` stands for (see
    _resolve): a local directory, or a remote URL read through range reads
    (_remote.py); its `directory` names it for messages."""
    from . import _remote
    if _remote.is_remote(path):
        remote = _remote.Remote(path, storage_options)
        return remote.open_reader(remote.resolve())
    return _Reader(_resolve(path))


# ---------------------------------------------------------------------------
# latest
# ---------------------------------------------------------------------------

def _latest_local(root: str) -> tuple[int | None, str | None]:
    if not os.path.isdir(root):
        return None, None
    directory = _latest_dir(root)
    if directory is None:
        return None, None
    with _Reader(directory) as reader:
        return reader.info()["step"], None


def latest(root, *, storage_options: dict | None = None) -> int | None:
    """The newest committed step under `root` (the one `latest` names), or
    None. Under torch.distributed every rank must see the same answer; a
    mismatch raises on every rank, naming the ranks and the steps they saw.
    `root` may be an fsspec URL (`storage_options` go to its file system)."""
    from . import _remote
    try:
        if _remote.is_remote(root):
            step, error = _remote.Remote(root, storage_options).latest_step(), None
        else:
            root = _local_path(root, "checkpoint root")
            step, error = _latest_local(root)
    except CheckpointError as e:
        step, error = None, str(e)
    answers = _gather((step, error))
    _agree([e for _, e in answers], f"reading the latest checkpoint of {root}")
    steps = [s for s, _ in answers]
    if len(set(steps)) > 1:
        seen = [f"step {s}" if s is not None else "no checkpoint" for s in steps]
        raise CheckpointError(f"the ranks disagree on the latest checkpoint of {root}: "
                              + _describe_ranks(seen, "sees", "see"))
    return steps[0]


# ---------------------------------------------------------------------------
# save
# ---------------------------------------------------------------------------

@dataclass(slots=True)
class _Piece:
    """A box this rank writes: `data` holds it (any device and layout until
    it is staged), `address` is where its bytes are once they are in host
    memory, contiguous, and may be handed to the library."""
    name: str
    code: int
    shape: tuple[int, ...]
    offsets: tuple[int, ...]
    sizes: tuple[int, ...]
    data: torch.Tensor | None
    address: int = 0
    # A box whose row-major bytes are at `file_offset` of the file `path`
    # (a tensor on SSD, data None), copied file to file; never staged.
    path: str | None = None
    file_offset: int = 0

    @property
    def nbytes(self) -> int:
        return self.data.numel() * self.data.element_size()


def _pieces(leaves: list[_Leaf]) -> list[_Piece]:
    return [_Piece(leaf.name, leaf.code, leaf.shape, leaf.offsets, leaf.sizes, leaf.local)
            for leaf in leaves]


def _least_loaded(load: list[int], nbytes: int) -> int:
    """The rank with the fewest bytes so far (the lowest of a tie), which
    writes the next tensor every rank holds; counts its `nbytes`."""
    owner = min(range(len(load)), key=lambda r: (load[r], r))
    load[owner] += nbytes
    return owner


def _assign(leaves: list[_Leaf], rank: int, world: int) -> list[_Leaf]:
    """The leaves this rank writes. A box held by several ranks is written by
    one of them: plain tensors (every rank holds them whole) go to the rank
    with the fewest bytes so far, replicated DTensor boxes round-robin over
    their replicas, so that writes and later reads spread over the ranks."""
    if world == 1:  # alone: every box this rank holds
        return [leaf for leaf in leaves if leaf.replica_index >= 0]
    mine, load = [], [0] * world
    for ordinal, leaf in enumerate(leaves):
        if leaf.replica_index < 0:
            continue
        if leaf.replicas == 0:
            if _least_loaded(load, leaf.local.numel() * leaf.local.element_size()) == rank:
                mine.append(leaf)
        elif leaf.replica_index == ordinal % leaf.replicas:
            mine.append(leaf)
    return mine


def _rng_bytes(rng_state) -> bytes:
    if rng_state is None:
        return b""
    if isinstance(rng_state, torch.Tensor):
        return bytes(rng_state.detach().cpu().contiguous().view(torch.uint8).numpy())
    return bytes(rng_state)


_pending: concurrent.futures.Future | None = None
_pending_lock = threading.Lock()


def wait() -> None:
    """Waits for this process's asynchronous save, if one is in flight (its
    error, if any, is raised by its future, not here)."""
    with _pending_lock:
        future = _pending
    if future is not None:
        concurrent.futures.wait([future])


def _wait_at_exit() -> None:
    """The save's threads are daemons, so the interpreter would stop them
    mid-save: a script's last async save would be lost without a word.
    Exiting waits for it (its error, if any, is lost with the future unless
    the caller asked for it), saying so: with several ranks the wait lasts
    until the step commits or a wait for another rank times out (`timeout`
    of the save, 300 s by default, each)."""
    with _pending_lock:
        future = _pending
    if future is None or future.done():
        return
    print(f"ssdopt.checkpoint: the exit waits for the asynchronous save of step "
          f"{future.step} to commit (a rank that does not come is waited for at most "
          f"timeout={future.timeout_s:g} s)", file=sys.stderr, flush=True)
    concurrent.futures.wait([future])


atexit.register(_wait_at_exit)


def wait_staged() -> None:
    """Waits until this process's asynchronous save in flight, if any, has
    copied its tensors (SaveFuture.staged()): then the state may change."""
    with _pending_lock:
        future = _pending
    if future is not None:
        concurrent.futures.wait([future.staged()])


class _Budget:
    """The staging memory of an asynchronous save: bytes copied but not yet
    handed to the library, at most `limit` (a piece larger than that goes
    alone), and where they lie in `arena`, a ring that the staging thread
    fills and the writing thread frees, oldest piece first."""

    ALIGN = 64  # each piece starts at a multiple (element and cache-line aligned)

    def __init__(self, limit: int, arena: torch.Tensor | None = None):
        self.limit, self.used = limit, 0
        self.cond = threading.Condition()
        self.failed = False
        self.arena = arena
        self.capacity = arena.numel() if arena is not None else 0
        self.head = 0  # where the next piece goes in the ring
        self.live: collections.deque = collections.deque()  # (start, length) of held pieces

    def _admits(self, nbytes: int) -> bool:
        return self.failed or self.used == 0 or self.used + nbytes <= self.limit

    def _place(self, length: int) -> int | None:
        """Where `length` bytes fit in the ring now, or None."""
        if not self.live:
            self.head = 0
            return 0 if length <= self.capacity else None
        tail = self.live[0][0]
        if self.head >= tail:  # free: [head, capacity) and [0, tail)
            if self.head + length <= self.capacity:
                return self.head
            return 0 if length <= tail else None
        return self.head if self.head + length <= tail else None

    def fits(self, nbytes: int) -> bool:
        """Whether acquire(nbytes) would return at once."""
        length = -(-nbytes // self.ALIGN) * self.ALIGN
        with self.cond:
            if self.failed:
                return True
            if length > self.capacity:  # acquire waits until nothing is staged
                return self.used == 0
            return self._admits(nbytes) and self._place(length) is not None

    def acquire(self, nbytes: int) -> int | None:
        """Waits until `nbytes` are admitted; returns their offset in the
        arena, or None when they do not fit in it at all (then they need
        memory of their own, while nothing else is staged)."""
        length = -(-nbytes // self.ALIGN) * self.ALIGN
        with self.cond:
            if length > self.capacity:
                self.cond.wait_for(lambda: self.failed or self.used == 0)
                self.live.append((-1, 0))
                self.used += nbytes
                return None
            self.cond.wait_for(lambda: self.failed or (
                self._admits(nbytes) and self._place(length) is not None))
            start = self._place(length) if not self.failed else None
            if start is None:  # failed: nothing will be written
                self.live.append((-1, 0))
                self.used += nbytes
                return None
            self.live.append((start, length))
            self.head = start + length
            self.used += nbytes
            return start

    def take_all(self, sizes: list[int]) -> list[int] | None:
        """When pieces of `sizes` fit in the arena and the limit all at
        once, takes one region for all of them and returns each one's
        offset in it (laid end to end); None otherwise. A state dict of
        thousands of small tensors then costs one step here, not one
        acquire (and one release) each."""
        if self.arena is None or sum(sizes) > self.limit:
            return None
        ends = list(itertools.accumulate(-(-n // self.ALIGN) * self.ALIGN for n in sizes))
        if ends and ends[-1] > self.capacity:
            return None
        with self.cond:
            if self.live or self.failed:
                return None
            self.live.append((0, ends[-1] if ends else 0))
            self.used = sum(sizes)
            self.head = ends[-1] if ends else 0
        return [0] + ends[:-1]

    def release(self, nbytes: int) -> None:
        """Frees the oldest piece (of `nbytes`): the library has copied it."""
        with self.cond:
            if self.live:
                self.live.popleft()
            self.used -= nbytes
            self.cond.notify_all()

    def fail(self) -> None:
        with self.cond:
            self.failed = True
            self.cond.notify_all()


# The arena of asynchronous saves: allocated once per process (pinned when
# CUDA is available) and reused by every later save, because touching fresh
# pages costs more here than the copy into them (about 1 s per GiB against
# 0.2 s). It is as large as the largest staging a save needed, at most its
# staging_bytes; release_staging() frees it.
_arena: torch.Tensor | None = None
_ARENA_GRANULE = 2 << 20


def _staging_arena(needed: int, limit: int) -> torch.Tensor | None:
    """An arena of at least min(needed, limit) bytes and at most `limit`."""
    global _arena
    nbytes = min(-(-needed // _ARENA_GRANULE) * _ARENA_GRANULE, limit)
    if min(needed, limit) == 0:
        return None
    if _arena is not None and _arena.numel() > limit:
        _arena = None  # a smaller staging_bytes than before: never more than it
    if _arena is None or _arena.numel() < nbytes:
        _arena = None  # the old one goes first: never two at once
        _arena = torch.empty(nbytes, dtype=torch.uint8, pin_memory=torch.cuda.is_available())
    return _arena


def release_staging() -> None:
    """Frees the staging memory that asynchronous saves keep for the next
    one (after waiting for the save in flight)."""
    global _arena
    wait()
    _arena = None


def _stage(piece: _Piece, arena: torch.Tensor | None, start: int | None) -> bool:
    """Copies `piece` into the arena at `start` (or, with None, into memory
    of its own), pointing `address` at the copy. Returns whether the copy
    runs on a CUDA stream (the caller synchronises before handing it over)."""
    source = piece.data
    if start is not None and arena is not None and source.is_cpu and source.is_contiguous():
        # ctypes releases the GIL for the copy.
        address = arena.data_ptr() + start
        ctypes.memmove(address, source.data_ptr(), piece.nbytes)
        piece.address = address
        return False
    source = source.detach()
    if start is None or arena is None:
        staged = torch.empty(source.shape, dtype=source.dtype,
                             pin_memory=source.device.type == "cuda")
        staged.copy_(source, non_blocking=source.device.type == "cuda")
        piece.data, piece.address = staged, staged.data_ptr()
        return source.device.type == "cuda"
    address = arena.data_ptr() + start
    target = arena[start:start + piece.nbytes].view(source.dtype).view(source.shape)
    target.copy_(source, non_blocking=source.device.type == "cuda")
    piece.address = address
    return source.device.type == "cuda"


def _stage_all(pieces: list, sizes: list[int], arena: torch.Tensor, starts: list[int]) -> bool:
    """_stage of every piece (of `sizes` bytes) at its start in the arena,
    the pieces in host memory (contiguous) copied by one library call on
    every core (ssdckpt_copy_regions, the GIL released), not one copy each:
    thousands of small tensors are then copied at the rate of large ones.
    Returns whether a copy runs on a CUDA stream."""
    base, on_stream = arena.data_ptr(), False
    regions = array.array("Q")
    for piece, nbytes, start in zip(pieces, sizes, starts):
        source = piece.data
        if source.is_cpu and source.is_contiguous():
            piece.address = base + start
            regions.extend((piece.address, source.data_ptr(), nbytes))
        else:
            on_stream |= _stage(piece, arena, start)
    if regions:
        _check(_library().ssdckpt_copy_regions(regions.buffer_info()[0], len(regions) // 3, 0),
               "staging the asynchronous save")
    return on_stream


_EMPTY = ctypes.c_char(0)
# An asynchronous save hands staged pieces to its writing thread in batches
# of at most this many bytes or pieces.
_BATCH_BYTES = 64 << 20
_BATCH_PIECES = 4096


def _write(root: str, step: int, rank: int, world: int, timeout_s: float, keep: int,
           batches, rng: bytes, position: int, budget: _Budget | None,
           state_tree: bytes | None = None, record_only: bool = False):
    """The library's multi-rank save: begin, add each batch of pieces in one
    call (ssdckpt_save_add_many, the GIL released while it copies, hashes
    and writes; a piece with a `path` is copied file to file,
    ssdckpt_save_add_file; `rng` may be a function, called once every batch
    is added), set the rank's state (and, on rank 0, the manifest's
    `state_tree`, JSON text), commit. With `budget`, each piece is released
    once the library has it. Returns the committed directory. With
    `record_only`, the rank writes in `root` of its own and commits nothing
    (ssdckpt_save_begin_record, ssdckpt_save_finish): returns its directory
    and its record (JSON text), for a commit elsewhere (_remote.py)."""
    lib = _library()
    handle = ctypes.c_void_p()
    committed = False
    try:
        if record_only:
            _check(lib.ssdckpt_save_begin_record(root.encode(), step, rank,
                                                 ctypes.byref(handle)),
                   f"rank {rank} beginning step {step} under {root}")
        else:
            _check(lib.ssdckpt_save_begin(root.encode(), step, rank, world,
                                          int(timeout_s * 1000), keep, ctypes.byref(handle)),
                   f"rank {rank} beginning step {step} under {root}")
        directory = lib.ssdckpt_save_dir(handle).decode()
        for batch in batches:
            try:
                # A zero-element box (an empty shard) is a valid chunk.
                empty = ctypes.addressof(_EMPTY)
                memory = [p for p in batch if p.path is None]
                chunks, count, keep_alive = _request_array(
                    (p.name, p.code, p.shape, p.offsets, p.sizes, p.address or empty)
                    for p in memory)
                if count:
                    _check(lib.ssdckpt_save_add_many(handle, chunks, count),
                           f"rank {rank} writing {memory[0].name}" if count == 1 else
                           f"rank {rank} writing {count} tensors")
                del keep_alive
                for p in batch:
                    if p.path is not None:  # file to file, through one 8 MiB buffer
                        _check(lib.ssdckpt_save_add_file(
                            handle, p.name.encode(), p.code, len(p.shape), _dims(p.shape),
                            _dims(p.offsets), _dims(p.sizes), p.path.encode(), p.file_offset),
                            f"rank {rank} copying {p.name} from {p.path}")
            finally:
                if budget is not None:
                    for piece in batch:
                        budget.release(piece.nbytes)
        if callable(rng):  # known once every piece is added
            rng = rng()
        if rng or position:
            buffer = ctypes.create_string_buffer(rng, max(len(rng), 1))
            _check(lib.ssdckpt_save_set_state(handle, buffer, len(rng), position), "")
        if state_tree is not None:
            _check(lib.ssdckpt_save_set_state_tree(handle, state_tree), "")
        if record_only:
            text = ctypes.c_void_p()
            _check(lib.ssdckpt_save_finish(handle, ctypes.byref(text)),
                   f"rank {rank} finishing step {step}")
            record = _taken_text(text)
            committed = True
            return directory, record
        _check(lib.ssdckpt_save_commit(handle), f"rank {rank} committing step {step}")
        committed = True
        return directory
    finally:
        if handle:
            lib.ssdckpt_save_close(handle)
            if not committed and (world == 1 or record_only):
                # Alone, nobody else writes into it: free the space now (with
                # several ranks, the next save of the step or retention does).
                lib.ssdckpt_abort(directory.encode())


class SaveFuture(concurrent.futures.Future):
    """The future of an asynchronous save: its result is the committed step.
    staged() is the future of its staging, done once every tensor is copied
    out of the state dict: until then the state may be read (a forward and
    backward pass) but not changed in place; a tensor changed before its
    copy fails the save (CheckpointError naming it), nothing committed."""

    def __init__(self, staged: concurrent.futures.Future, step: int, timeout_s: float):
        super().__init__()
        self._staged = staged
        self.step, self.timeout_s = step, timeout_s  # for the exit's message

    def staged(self) -> concurrent.futures.Future:
        return self._staged


def _versions(tensors: list) -> list[int | None]:
    """Each tensor's version counter (every in-place change adds one), or
    None for an inference tensor, which keeps none. One comprehension for
    the usual case: a try per tensor costs a millisecond in 16,384."""
    try:
        return [t._version for t in tensors]
    except RuntimeError:  # an inference tensor among them
        pass
    versions = []
    for t in tensors:
        try:
            versions.append(t._version)
        except RuntimeError:
            versions.append(None)
    return versions


def _changed(pieces: list, sources: list, versions: list) -> list[str]:
    """The names of the pieces whose source was changed in place since its
    version was taken."""
    return [p.name for p, source, version in zip(pieces, sources, versions)
            if version is not None and source._version != version]


def _check_unchanged(pieces, sources, versions, rank: int, step: int) -> None:
    changed = _changed(pieces, sources, versions)
    if changed:
        named = ", ".join(changed[:8]) + (f" and {len(changed) - 8} more" if len(changed) > 8
                                          else "")
        raise CheckpointError(f"rank {rank}: step {step}: {named} changed in place before "
                              "the asynchronous save copied them (wait for future.staged() "
                              "before changing the state)")


def _save_async(root: str, step: int, rank: int, world: int, timeout_s: float, keep: int,
                leaves: list[_Leaf], rng: bytes, position: int, staging_bytes: int,
                state_tree: bytes | None = None,
                record_only: bool = False) -> SaveFuture:
    """Returns a future of the step at once while one thread stages the
    `leaves`' tensors into the arena (the copies release the GIL) and
    another writes and commits them. Each tensor's version is taken here and checked after its
    copy and once more when staging ends: a change in place before then
    fails the save. A tensor without a version counter (an inference
    tensor) cannot be checked: then this call waits for the staging."""
    global _pending
    sources = [leaf.local for leaf in leaves]
    versions = _versions(sources)
    pieces: list[_Piece] = []
    staged: concurrent.futures.Future = concurrent.futures.Future()
    future = SaveFuture(staged, step, timeout_s)
    handoff: queue.Queue = queue.Queue()
    done = object()
    drained = threading.Event()  # the writer has taken `done`
    failure: list = []  # what stopped the staging, if anything did
    budget: _Budget | None = None
    starts: list[int] | None = None
    streams = _callers_streams(sources)

    def from_queue():
        while (batch := handoff.get()) is not done:
            yield batch
        drained.set()
        if failure:  # never commit what was staged before it
            raise CheckpointError(f"rank {rank}: staging step {step} failed, nothing was "
                                  f"committed: {type(failure[0]).__name__}: {failure[0]}")

    def worker():
        try:
            # Staged all at once (take_all), nothing waits for the budget.
            written = _write(root, step, rank, world, timeout_s, keep, from_queue(), rng,
                             position, None if starts else budget, state_tree, record_only)
            future.set_result(written if record_only else step)
        except BaseException as e:  # noqa: BLE001 - delivered through the future
            if budget is not None:
                budget.fail()
            # Let the stager finish (it stops at the failure).
            while not drained.is_set() and handoff.get() is not done:
                pass
            future.set_exception(e)

    writer = threading.Thread(target=worker, name=f"ssdopt-checkpoint-step-{step}", daemon=True)

    def stage():
        # The writer starts once staging is done or the budget is full, so
        # that the copies do not share the GIL with it.
        nonlocal budget, starts, pieces
        started = False
        batch, batch_bytes, on_stream = [], 0, False

        def hand_over():
            nonlocal batch, batch_bytes, on_stream
            if on_stream:
                _synchronize(streams)
            if batch:
                handoff.put(batch)
            batch, batch_bytes, on_stream = [], 0, False

        # Thread.start() returns once this thread has run, and without this
        # it would keep the GIL for a switch interval (5 ms) before the
        # caller's save() could return.
        time.sleep(0)
        try:
            with contextlib.ExitStack() as on_callers_streams:
                for stream in streams:
                    on_callers_streams.enter_context(torch.cuda.stream(stream))
                pieces = _pieces(leaves)
                sizes = [p.nbytes for p in pieces]
                budget = _Budget(staging_bytes, _staging_arena(sum(sizes), staging_bytes))
                starts = budget.take_all(sizes) if pieces else None
                if starts:
                    if _stage_all(pieces, sizes, budget.arena, starts):
                        _synchronize(streams)
                    _check_unchanged(pieces, sources, versions, rank, step)
                    for at in range(0, len(pieces), _BATCH_PIECES):
                        batch = pieces[at:at + _BATCH_PIECES]
                        hand_over()
                else:
                    for i, piece in enumerate(pieces):
                        nbytes = piece.nbytes
                        if not budget.fits(nbytes):
                            hand_over()  # the writer frees the budget only from what it has
                            if not started:
                                writer.start()
                                started = True
                        start = budget.acquire(nbytes)
                        if budget.failed:
                            break
                        on_stream |= _stage(piece, budget.arena, start)
                        if versions[i] is not None and sources[i]._version != versions[i]:
                            _check_unchanged(pieces, sources, versions, rank, step)
                        batch.append(piece)
                        batch_bytes += nbytes
                        if batch_bytes >= _BATCH_BYTES or len(batch) >= _BATCH_PIECES:
                            hand_over()
                    hand_over()
                # A change that returned during the last copies shows by now
                # (one still running has not counted yet: docs/checkpoint-python.md).
                _check_unchanged(pieces, sources, versions, rank, step)
        except BaseException as error:  # noqa: BLE001 - delivered through both futures
            failure.append(error)
            staged.set_exception(error)
        else:
            staged.set_result(None)
        finally:
            handoff.put(done)
            try:
                if not started:
                    writer.start()
            except BaseException as error:  # noqa: BLE001 - delivered through the future
                failure.append(error)
            if writer.ident is None:  # it never ran: nothing else completes the future
                future.set_exception(CheckpointError(
                    f"rank {rank}: step {step} was not saved: its writing thread did not "
                    f"start: {type(failure[-1]).__name__}: {failure[-1]}"))
            _resume_gc()

    # The stager's pieces are thousands of objects too: it keeps the
    # collector paused (this call's pause ends when it returns).
    _pause_gc()
    try:
        threading.Thread(target=stage, name=f"ssdopt-checkpoint-stage-{step}",
                         daemon=True).start()
    except BaseException:
        _resume_gc()
        raise
    with _pending_lock:  # once it can complete: wait() and the exit wait for it
        _pending = future
    if None in versions:
        concurrent.futures.wait([staged])
    return future


def _callers_streams(sources: list) -> list:
    """The caller's current CUDA stream of each device that holds one of
    `sources` (none without CUDA). The stager copies each device's tensors
    on its stream, after the work the caller queued there: a new thread
    would use each device's default stream, not ordered after a side
    stream's last writes."""
    if not torch.cuda.is_initialized():
        return []
    devices = sorted({t.device.index for t in sources if t.is_cuda})
    return [torch.cuda.current_stream(d) for d in devices]


def _synchronize(streams: list) -> None:
    """Waits for the copies queued on `streams` (every device's)."""
    for stream in streams:
        stream.synchronize()


def _chained(source: concurrent.futures.Future, saved: SaveFuture) -> SaveFuture:
    """A SaveFuture of `saved`'s staging that completes as `source` does."""
    out = SaveFuture(saved.staged(), saved.step, saved.timeout_s)

    def copy(done: concurrent.futures.Future) -> None:
        error = done.exception()
        if error is None:
            out.set_result(done.result())
        else:
            out.set_exception(error)
    source.add_done_callback(copy)
    return out


@_gc_paused
def save(state_dict: dict, root, *, step: int | None = None, async_save: bool = False,
         keep_last: int | None = None, rng_state=None, data_loader_position: int = 0,
         timeout: float = DEFAULT_TIMEOUT_S, staging_bytes: int = DEFAULT_STAGING_BYTES,
         storage_options: dict | None = None):
    """Commits `state_dict` as step `step` (default: one past `latest`, or 0)
    under the checkpoint root `root`; every rank of torch.distributed calls it.

    Tensors may be plain (every rank holds the same value; each is written
    once, by one rank) or DTensors with Shard/Replicate placements (each box
    written once). Dicts, lists and tuples nest; str, int, float, bool and
    None are kept as JSON. `rng_state` (bytes or a uint8 tensor such as
    torch.get_rng_state()) and `data_loader_position` are this rank's own
    state (load's Resume gives them back under the format's N -> M rules).
    `keep_last=K` keeps the newest K committed steps after the commit.

    Everything is checked before any byte is written: a problem on any rank
    raises CheckpointError on every rank. Synchronous saves return the
    step; with `async_save=True` it returns a SaveFuture (a
    concurrent.futures.Future of the step) once the state is checked and
    its pieces listed, while one thread copies the tensors into staging
    memory (at most `staging_bytes` not yet written at once; it waits while
    that budget is full; the memory is kept for the next async save until
    release_staging()) and another writes and commits. Until
    `future.staged()` (or wait_staged()) is done the state may be read but
    must not be changed in place: a tensor changed before its copy fails
    the save with CheckpointError naming it, and nothing is committed.

    `root` may be an fsspec URL (`s3://bucket/run`; `storage_options` go to
    its file system): the step is committed in a local cache first, then
    uploaded, verified, and only then named by the remote `latest`
    (_remote.py, docs/checkpoint-python.md).
    """
    global _pending
    from . import _remote
    rank, world = _rank_and_world()
    error = None
    tree = leaves = remote = tree_text = None
    requested_step = step
    try:
        if _remote.is_remote(root):
            remote = _remote.Remote(root, storage_options)
            root = remote.rank_cache(rank)
        else:
            root = _local_path(root, "checkpoint root")
        if keep_last is not None and (not isinstance(keep_last, int) or keep_last < 1):
            raise CheckpointError(f"keep_last must be a positive int, got {keep_last!r}")
        if step is not None and (not isinstance(step, int) or step < 0):
            raise CheckpointError(f"step must be a non-negative int, got {step!r}")
        if not isinstance(data_loader_position, int) or data_loader_position < 0:
            raise CheckpointError("data_loader_position must be a non-negative int")
        tree, leaves = _flatten(state_dict)
        # Rank 0 writes the manifest's state_tree; the ranks agree on the
        # structure (the signature), so its check of the text holds for all.
        tree_text = _tree_text(tree) if rank == 0 else None
        # Alone, there is no other rank to agree with.
        signature = _signature(tree, leaves) if world > 1 else None
        rng = _rng_bytes(rng_state)
        wait()  # an earlier asynchronous save commits first
        if remote is not None:
            last = remote.latest_step()
            if step is None:
                step = 0 if last is None else last + 1
            remote.prepare(step, rank)
        elif step is None:
            last, _ = _latest_local(root)
            step = 0 if last is None else last + 1
    except (CheckpointError, OSError) as e:
        error, signature = str(e), None
    answers = _gather((error, step, signature))
    _agree([a[0] for a in answers], "nothing was saved")
    steps = [a[1] for a in answers]
    if remote is not None and requested_step is None:
        # Rank 0 publishes; after an asynchronous save the other ranks may
        # have read the remote `latest` before its upload moved it.
        step = steps[0]
        steps = [step] * len(steps)
    if len(set(steps)) > 1:
        raise CheckpointError("step mismatch across ranks, nothing was saved: "
                              + _describe_ranks(steps, "saves step", "save step"))
    signatures = [a[2] for a in answers]
    if len(set(signatures)) > 1:
        raise CheckpointError("the ranks' state dicts differ in structure, names, shapes or "
                              "dtypes, nothing was saved: "
                              + _describe_ranks(signatures, "has", "have"))

    mine = _assign(leaves, rank, world)
    # A remote root keeps its retention for the remote copies.
    keep = 0 if remote is not None else keep_last or 0
    if not async_save:
        pieces = _pieces(mine)
        for piece in pieces:  # the library reads host memory, contiguous
            local = piece.data
            if not (local.is_cpu and local.is_contiguous()):
                local = local.detach().cpu().contiguous()
                piece.data = local
            piece.address = local.data_ptr()
        written = _write(root, step, rank, world, timeout, keep, [pieces], rng,
                         data_loader_position, None, tree_text, remote is not None)
        if remote is not None:
            remote.publish_from_ranks(step, written, keep_last or 0, timeout)
        return step

    future = _save_async(root, step, rank, world, timeout, keep, mine, rng,
                         data_loader_position, staging_bytes, tree_text, remote is not None)
    if remote is not None:
        # Every rank's future completes once the step is committed remotely.
        future = _chained(remote.publish_after(future, step, keep_last or 0, timeout), future)
        with _pending_lock:
            _pending = future
    return future


# ---------------------------------------------------------------------------
# load
# ---------------------------------------------------------------------------

@dataclass
class Resume:
    """What `load` restored besides the state dict, for this rank (a DCP
    directory has no step or rank state: step None, rng_state None,
    position 0)."""
    step: int | None
    directory: str
    # This rank's generator state, or None when it must seed itself (a rank
    # that did not exist at save, or none was saved).
    rng_state: bytes | None
    # Own position when the world size is unchanged; otherwise the global
    # position (the sum over saved ranks) and position_is_global is set.
    data_loader_position: int
    position_is_global: bool


def _compare(saved, target, path, problems, pairs) -> None:
    """Collects structural differences and the (saved leaf, target, path)
    triples (paths are joined into text only for messages)."""
    if "dict" in saved:
        if not isinstance(target, dict):
            problems.append(f"{_where(path)}: the checkpoint has a dict, the state dict a "
                            f"{type(target).__name__}")
            return
        keys = [k for k, _ in saved["dict"]]
        known = set(keys)
        missing = [k for k in keys if k not in target]
        unexpected = [k for k in target if k not in known]
        for k in missing:
            problems.append(f"{'/'.join(map(str, path + [k]))}: in the checkpoint, not in the "
                            "state dict")
        for k in unexpected:
            problems.append(f"{'/'.join(map(str, path + [k]))}: in the state dict, not in the "
                            "checkpoint")
        for k, child in saved["dict"]:
            if k in target:
                value = target[k]
                if len(child) == 1 and "tensor" in child and isinstance(value, torch.Tensor):
                    # A tensor leaf (most of a state dict's entries), without a call.
                    pairs.append((child["tensor"], value, path + [k]))
                else:
                    _compare(child, value, path + [k], problems, pairs)
        return
    for kind, types in (("list", list), ("tuple", (list, tuple))):
        if kind in saved:
            if not isinstance(target, types):
                problems.append(f"{_where(path)}: the checkpoint has a {kind}, the state dict a "
                                f"{type(target).__name__}")
                return
            if len(saved[kind]) != len(target):
                problems.append(f"{_where(path)}: the checkpoint has {len(saved[kind])} items, the "
                                f"state dict {len(target)}")
                return
            for i, child in enumerate(saved[kind]):
                _compare(child, target[i], path + [i], problems, pairs)
            return
    if "tensor" in saved:
        if not isinstance(target, torch.Tensor):
            problems.append(f"{_where(path)}: the checkpoint has a tensor, the state dict a "
                            f"{type(target).__name__}")
            return
        pairs.append((saved["tensor"], target, path))


def _assign_values(saved, target):
    """`target` with the checkpoint's non-tensor values; containers in place
    (tuples are rebuilt, the parent takes the new one)."""
    if "dict" in saved:
        for k, child in saved["dict"]:
            if "tensor" not in child:  # a tensor is filled already
                target[k] = _assign_values(child, target[k])
        return target
    if "list" in saved:
        for i, child in enumerate(saved["list"]):
            target[i] = _assign_values(child, target[i])
        return target
    if "tuple" in saved:
        return type(target)(_assign_values(c, t) for c, t in zip(saved["tuple"], target)) \
            if isinstance(target, tuple) else [_assign_values(c, t)
                                               for c, t in zip(saved["tuple"], target)]
    if _is_value(saved):
        return _value(saved)
    return target  # a tensor, filled already


@_gc_paused
def load(state_dict: dict, path, *, storage_options: dict | None = None) -> Resume:
    """Fills `state_dict` in place from `path`: a checkpoint root (the step
    its `latest` names) or one step's directory, resharding as needed: every
    tensor of the state dict (plain: the whole tensor; DTensor: the box this
    rank holds under its placements) is read from whichever saved ranks hold
    it, checksums verified. Non-tensor values are replaced by the saved ones.
    Keys, kinds, dtypes and shapes are all checked before any tensor is
    overwritten; a mismatch raises CheckpointError listing every one.
    Returns this rank's Resume (step, generator state, data-loader position).
    `path` may be an fsspec URL: only the byte ranges this rank needs are
    read (range reads), verified as they are loaded."""
    rank, world = _rank_and_world()
    if is_dcp_dir(path):
        return _load_dcp(state_dict, _without_local_scheme(os.fspath(path)))
    dtensor_type = _dtensor_type()
    with _open(path, storage_options) as reader:
        directory = reader.directory
        tree = reader.tree()
        saved = reader.tensors()
        problems: list[str] = []
        pairs: list = []
        _compare(tree["tree"], state_dict, [], problems, pairs)
        plans = []
        for name, target, path in pairs:
            found = saved.get(name)
            if found is None:
                problems.append(f"{_where(path)}: tensor {name} is missing from the "
                                "checkpoint's data")
                continue
            code, shape = found
            try:
                local, target_shape, offsets, sizes, _, index = _box(target, dtensor_type)
                box_error = None
            except CheckpointError as error:
                local, target_shape, box_error = target, target.shape, error
            want = DTYPE_CODES.get(local.dtype)  # a DTensor's own dtype costs more
            if want != code:
                problems.append(f"{_where(path)}: dtype mismatch: the checkpoint has "
                                f"{_DTYPES.get(code, code)}, the state dict {local.dtype}")
            if target_shape != shape:
                problems.append(f"{_where(path)}: shape mismatch: the checkpoint has "
                                f"{list(shape)}, the state dict {list(target_shape)}")
            elif want == code:
                if box_error is not None:
                    problems.append(f"{_where(path)}: {box_error}")
                elif index >= 0:
                    plans.append((name, code, shape, offsets, sizes, local))
        if problems:
            raise CheckpointError(f"the state dict does not match checkpoint {directory}; "
                                  "nothing was loaded:\n  " + "\n  ".join(problems))
        with torch.no_grad():
            boxes, copies = [], []
            for name, code, shape, offsets, sizes, local in plans:
                direct = local.is_cpu and local.is_contiguous()
                dest = local if direct else torch.empty(sizes, dtype=local.dtype)
                boxes.append((name, code, shape, offsets, sizes, dest))
                if not direct:
                    copies.append((local, dest))
            reader.load_boxes(boxes)
            for local, dest in copies:
                local.copy_(dest)
        _assign_values(tree["tree"], state_dict)
        return reader.resume(rank, world)


# ---------------------------------------------------------------------------
# Whole state dicts, torch.distributed.checkpoint and torch.save interop
# ---------------------------------------------------------------------------

def _build(node, tensors: dict):
    if "dict" in node:
        return {k: _build(child, tensors) for k, child in node["dict"]}
    if "list" in node:
        return [_build(child, tensors) for child in node["list"]]
    if "tuple" in node:
        return tuple(_build(child, tensors) for child in node["tuple"])
    if "tensor" in node:
        return tensors[node["tensor"]]
    return _value(node)


def to_state_dict(path) -> dict:
    """The whole state dict a checkpoint holds, every tensor a plain CPU
    tensor read whole in this process (memory: the whole checkpoint)."""
    with _open(path) as reader:
        tree = reader.tree()["tree"]
        tensors = {name: torch.empty(shape, dtype=_DTYPES[code])
                   for name, (code, shape) in reader.tensors().items() if name != TREE_TENSOR}
        saved = reader.tensors()
        reader.load_boxes([(name, saved[name][0], t.shape, (0,) * t.dim(), t.shape, t)
                           for name, t in tensors.items()])
    return _build(tree, tensors)


def is_dcp_dir(path) -> bool:
    """Whether `path` is a torch.distributed.checkpoint FileSystemWriter
    directory (it has `.metadata`)."""
    path = _without_local_scheme(os.fspath(path))
    return "://" not in path and os.path.isfile(os.path.join(path, ".metadata"))


def _safe_planner():
    """DCP's load planner, but non-tensor values are read with
    torch.load(weights_only=True): no pickled code runs."""
    import io

    from torch.distributed.checkpoint import DefaultLoadPlanner
    from torch.distributed.checkpoint._nested_dict import set_element

    class SafeLoadPlanner(DefaultLoadPlanner):
        def load_bytes(self, read_item, value: io.BytesIO) -> None:
            loaded = torch.load(value, weights_only=True)
            if self.flatten_state_dict:
                set_element(self.original_state_dict, self.mappings[read_item.dest_index.fqn],
                            loaded)
            else:
                self.state_dict[read_item.dest_index.fqn] = loaded

    return SafeLoadPlanner


def _load_dcp(state_dict: dict, path: str) -> Resume:
    import torch.distributed.checkpoint as dcp
    dcp.load(state_dict, storage_reader=dcp.FileSystemReader(path), planner=_safe_planner()(),
             no_dist=_dist() is None)
    return Resume(None, path, None, 0, False)


def from_dcp(dcp_dir, root, *, step: int | None = None, template: dict | None = None) -> int:
    """Converts a DCP FileSystemWriter directory into step `step` of this
    format under `root`; returns the step. With `template` (a state dict of
    the shape DCP saved, e.g. a fresh model's and optimizer's) DCP fills it
    and it is saved as it is; without, the structure is DCP's flattened one
    (`planner_data`): dict keys are strings, as DCP stores them."""
    import torch.distributed.checkpoint as dcp
    dcp_dir = os.fspath(dcp_dir)
    if not is_dcp_dir(dcp_dir):
        raise CheckpointError(f"{dcp_dir!r} is not a torch.distributed.checkpoint directory "
                              "(no .metadata)", errno_module.ENOENT)
    if template is None:
        from torch.distributed.checkpoint.metadata import TensorStorageMetadata
        metadata = dcp.FileSystemReader(dcp_dir).read_metadata()
        flat = {fqn: torch.empty(m.size, dtype=m.properties.dtype)
                if isinstance(m, TensorStorageMetadata) else None
                for fqn, m in metadata.state_dict_metadata.items()}
        planner = _safe_planner()(flatten_state_dict=False)
        dcp.load(flat, storage_reader=dcp.FileSystemReader(dcp_dir), planner=planner,
                 no_dist=True)
        # The planner's own (copied) mapping holds the values it read.
        flat = {fqn: planner.state_dict[fqn] for fqn in flat}
        paths = metadata.planner_data or {fqn: (fqn,) for fqn in flat}
        nested: dict = {}
        for fqn, value in flat.items():
            node = nested
            path = paths[fqn]
            for key in path[:-1]:
                node = node.setdefault(key, {})
            node[path[-1]] = value

        def lists(node):
            if not isinstance(node, dict):
                return node
            node = {k: lists(v) for k, v in node.items()}
            keys = list(node)
            if keys and all(type(k) is int for k in keys) and sorted(keys) == list(
                    range(len(keys))):
                return [node[i] for i in range(len(keys))]
            return node
        template = lists(nested)
    else:
        _load_dcp(template, dcp_dir)
    return save(template, root, step=step)


def to_dcp(path, dcp_dir) -> None:
    """Writes the checkpoint at `path` (a root or a step directory) as a DCP
    FileSystemWriter directory, in this process (memory: the whole state)."""
    import torch.distributed.checkpoint as dcp
    state = to_state_dict(path)
    dcp.save(state, storage_writer=dcp.FileSystemWriter(os.fspath(dcp_dir)), no_dist=True)


def from_torch_save(file, root, *, step: int | None = None) -> int:
    """Converts a torch.save file of a state dict, read with
    torch.load(weights_only=True), into step `step` under `root`."""
    try:
        state = torch.load(os.fspath(file), map_location="cpu", weights_only=True)
    except Exception as error:  # noqa: BLE001 - reported with the file's name
        raise CheckpointError(f"cannot read {file} with torch.load(weights_only=True): "
                              f"{type(error).__name__}: {error}") from error
    if not isinstance(state, dict):
        raise CheckpointError(f"{file} holds a {type(state).__name__}, not a state dict")
    return save(state, root, step=step)


# ---------------------------------------------------------------------------
# python -m ssdopt checkpoint ls|inspect|verify PATH
# ---------------------------------------------------------------------------

def _human(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return str(n)


def listing(root) -> list[dict]:
    """The checkpoint directories under `root` (ssdckpt_list): name, step,
    committed, latest, bytes. `root` may be an fsspec URL."""
    from . import _remote
    if _remote.is_remote(root):
        return _remote.Remote(root).listing()
    root = _local_path(root, "checkpoint root")
    text = ctypes.c_void_p()
    _check(_library().ssdckpt_list(root.encode(), ctypes.byref(text)), "")
    return json.loads(_taken_text(text))


def describe(path) -> dict:
    """What `inspect` prints: the manifest's header, every tensor, and the
    state dict's non-tensor values when ssdopt wrote it."""
    with _open(path) as reader:
        directory = reader.directory
        info = reader.info()
        tensors = []
        for name, (code, shape) in reader.tensors().items():
            dtype_name, size = dtype_info(_DTYPES[code])
            tensors.append({"name": name, "dtype": dtype_name, "shape": list(shape),
                            "bytes": math.prod(shape) * size})
        tree = reader.tree()["tree"]
    values = {}

    def walk(node, path):
        for kind in ("list", "tuple"):
            if kind in node:
                for i, child in enumerate(node[kind]):
                    walk(child, path + [i])
        if "dict" in node:
            for key, child in node["dict"]:
                walk(child, path + [key])
        elif _is_value(node):
            values["/".join(map(str, path))] = _value(node)
    walk(tree, [])
    return {"directory": directory, **info, "tensors": tensors, "values": values}


def command(action: str, path: str, out=None) -> int:
    """`python -m ssdopt checkpoint ACTION PATH`; returns the exit status."""
    out = out or sys.stdout  # read at call time (tests redirect it)
    if action == "ls":
        print(f"{'STEP':<14} {'NAME':<20} {'STATE':<12} {'SIZE':>12}", file=out)
        for c in listing(path):
            print(f"{c['step']:<14} {c['name']:<20} "
                  f"{'committed' if c['committed'] else 'uncommitted':<12} "
                  f"{_human(c['bytes']):>12}{'  <- latest' if c['latest'] else ''}", file=out)
        return 0
    if action == "inspect":
        d = describe(path)
        print(f"checkpoint {d['directory']}", file=out)
        print(f"format version {d['version']}, step {d['step']}, world size "
              f"{d['world_size']}, {len(d['tensors'])} tensors", file=out)
        for t in d["tensors"]:
            print(f"  {t['name']:<40} {t['dtype']:<5} {str(t['shape']):<20} "
                  f"{_human(t['bytes']):>12}", file=out)
        if d["values"]:
            print("values:", file=out)
            for key, value in d["values"].items():
                print(f"  {key} = {json.dumps(value)}", file=out)
        return 0
    if action == "verify":
        with _open(path) as reader:
            directory = reader.directory
            reader.verify()
            count = reader.info()["tensors"]
        print(f"{directory}: every checksum of {count} tensors matches", file=out)
        return 0
    raise CheckpointError(f"unknown action {action!r} (ls, inspect, verify)")
