"""What the ranks of ranks.py run: building, saving and checking state dicts.

Every value is a function of a seed and a name only, never of the world
size, so that a checkpoint saved by N ranks can be checked on M: each rank
compares what it holds (a plain tensor whole, a DTensor's local box) with the
slice of the expected global tensor.
"""

from __future__ import annotations

import os

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, Shard
from torch.distributed.tensor._utils import compute_local_shape_and_global_offset

import ssdopt.checkpoint as ckpt

_meshes: dict = {}


def mesh(shape: tuple):
    if shape not in _meshes:
        _meshes[shape] = init_device_mesh("cpu", shape)
    return _meshes[shape]


def rank_world() -> tuple[int, int]:
    return (dist.get_rank(), dist.get_world_size()) if dist.is_initialized() else (0, 1)


def _gen(seed: int, name: str) -> torch.Generator:
    return torch.Generator().manual_seed(seed * 1_000_003 + sum(map(ord, name)) * 7919)


def plain_tensors(seed: int) -> dict:
    def g(name):
        return _gen(seed, name)
    return {
        "f32": torch.randn(13, 5, generator=g("f32")),
        "bf16": torch.randn(7, 9, generator=g("bf16")).bfloat16(),
        "f16": torch.randn(4, generator=g("f16")).half(),
        "f64": torch.randn(2, 3, generator=g("f64")).double(),
        "i64": torch.randint(-10**12, 10**12, (11,), generator=g("i64")),
        "i32": torch.randint(-2**31, 2**31 - 1, (3, 3), generator=g("i32"), dtype=torch.int32),
        "i16": torch.randint(-2**15, 2**15 - 1, (5,), generator=g("i16"), dtype=torch.int16),
        "i8": torch.randint(-128, 127, (6,), generator=g("i8"), dtype=torch.int8),
        "u8": torch.randint(0, 255, (3, 4, 5), generator=g("u8"), dtype=torch.uint8),
        "bool": torch.rand(6, 2, generator=g("bool")) > 0.5,
        "scalar": torch.tensor(3.25),
        "empty": torch.zeros(0, 4),
    }


# name -> (global shape, placements on a 1-D mesh at save, at load, and on
# a 2-D mesh at save)
SHARDED = {
    "rows": ((13, 6), [Shard(0)], [Shard(1)], [Shard(0), Shard(1)]),
    "cols": ((5, 11), [Shard(1)], [Shard(0)], [Replicate(), Shard(0)]),
    "rep": ((4, 4), [Replicate()], [Shard(0)], [Shard(1), Replicate()]),
    "nested": ((10, 9), [Shard(0)], [Replicate()], [Shard(0), Shard(0)]),
}


def sharded_globals(seed: int) -> dict:
    return {name: torch.randn(*shape, generator=_gen(seed, "dt-" + name))
            for name, (shape, *_) in SHARDED.items()}


def _dtensor(full: torch.Tensor, device_mesh, placements, fill=None) -> DTensor:
    sizes, offsets = compute_local_shape_and_global_offset(full.shape, device_mesh, placements)
    index = tuple(slice(o, o + s) for o, s in zip(offsets, sizes))
    local = full[index].clone() if fill is None else torch.full(sizes, fill, dtype=full.dtype)
    return DTensor.from_local(local, device_mesh, placements, run_check=False,
                              shape=full.shape, stride=full.stride())


def sharded_state(seed: int, layout: str, fill=None) -> dict:
    """DTensors of SHARDED; layout 'save1d', 'load1d' or 'save2d'."""
    _, world = rank_world()
    out = {}
    for name, full in sharded_globals(seed).items():
        _, save1d, load1d, save2d = SHARDED[name]
        if layout == "save2d":
            out[name] = _dtensor(full, mesh((2, world // 2)), save2d, fill)
        else:
            out[name] = _dtensor(full, mesh((world,)), save1d if layout == "save1d" else load1d,
                                 fill)
    return out


def model_and_optimizer(seed: int, lr: float, steps: int):
    torch.manual_seed(seed)
    model = torch.nn.Sequential(torch.nn.Linear(6, 5), torch.nn.ReLU(), torch.nn.Linear(5, 2))
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.1)
    for i in range(steps):
        x = torch.randn(4, 6, generator=_gen(seed, f"x{i}"))
        model(x).square().sum().backward()
        optimizer.step()
        optimizer.zero_grad()
    return model, optimizer


def values() -> dict:
    return {"epoch": 3, "name": "run-\u03b1", "ratio": 0.1, "none": None,
            "nested": {"list": [1, 2.5, None, True, "s"], 7: "an int key",
                       "tuple": (1, "x", (2.0,))},
            # Exact through the manifest's integer-only JSON.
            "exact": [1 / 3, 1e-300, 2 ** 70, -(2 ** 65), -(2 ** 63)]}


def state(seed: int, layout: str) -> dict:
    model, optimizer = model_and_optimizer(seed, lr=1e-2, steps=2)
    return {"model": model.state_dict(), "optim": optimizer.state_dict(),
            "plain": plain_tensors(seed), "sharded": sharded_state(seed, layout),
            "meta": values()}


def blank_state(seed: int) -> tuple[dict, torch.optim.Optimizer]:
    """A state dict of the same structure, every value different."""
    model, optimizer = model_and_optimizer(seed + 1, lr=0.5, steps=1)
    plain = {k: torch.zeros_like(v) if v.dtype != torch.bool else ~v
             for k, v in plain_tensors(seed + 1).items()}
    return ({"model": model.state_dict(), "optim": optimizer.state_dict(), "plain": plain,
             "sharded": sharded_state(seed, "load1d", fill=-7.0),
             "meta": {"epoch": 0, "name": "", "ratio": 0.0, "none": 1,
                      "nested": {"list": [0, 0, 0, 0, 0], 7: "", "tuple": (0, "", (0.0,))},
                      "exact": [0, 0, 0, 0, 0]}},
            optimizer)


def save_case(root: str, seed: int, layout: str = "save1d", **kwargs):
    rank, _ = rank_world()
    return ckpt.save(state(seed, layout), root, rng_state=bytes([rank + 1]) * (rank + 3),
                     data_loader_position=100 + rank, timeout=60, **kwargs)


def _equal(a: torch.Tensor, b: torch.Tensor, where: str) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b), \
        f"{where}: {a} != {b}"


def load_case(root: str, seed: int, saved_world: int) -> dict:
    rank, world = rank_world()
    resume = load_and_check(root, seed)
    same = world == saved_world
    expected_rng = bytes([rank + 1]) * (rank + 3) if rank < saved_world else None
    assert resume.rng_state == expected_rng, (resume.rng_state, expected_rng)
    position = 100 + rank if same else sum(100 + r for r in range(saved_world))
    assert (resume.data_loader_position, resume.position_is_global) == (position, not same)
    return {"step": resume.step, "directory": resume.directory}


def load_state_case(root: str, seed: int) -> tuple:
    """Checks the state dict; returns this rank's (rng, position, is_global)."""
    resume = load_and_check(root, seed)
    return resume.rng_state, resume.data_loader_position, resume.position_is_global


def load_and_check(root: str, seed: int, dcp: bool = False) -> ckpt.Resume:
    """Loads `root` into a blank state dict and checks every value of it.
    DCP (`dcp`) sets a non-tensor value under an int dict key as a str key
    beside it (its flattened paths are strings): checked as such."""
    target, optimizer = blank_state(seed)
    resume = ckpt.load(target, root)
    model, reference = model_and_optimizer(seed, lr=1e-2, steps=2)
    for k, v in model.state_dict().items():
        _equal(target["model"][k], v, f"model/{k}")
    optimizer.load_state_dict(target["optim"])
    ref, got = reference.state_dict(), optimizer.state_dict()
    assert got["param_groups"] == ref["param_groups"], (got["param_groups"], ref["param_groups"])
    assert isinstance(target["optim"]["param_groups"][0]["betas"], tuple)
    for p, slots in ref["state"].items():
        for k, v in slots.items():
            _equal(got["state"][p][k], v, f"optim/state/{p}/{k}")
    for k, v in plain_tensors(seed).items():
        _equal(target["plain"][k], v, f"plain/{k}")
    for name, full in sharded_globals(seed).items():
        t = target["sharded"][name]
        sizes, offsets = compute_local_shape_and_global_offset(full.shape, t.device_mesh,
                                                               t.placements)
        index = tuple(slice(o, o + s) for o, s in zip(offsets, sizes))
        _equal(t.to_local(), full[index], f"sharded/{name}")
    want = values()
    if dcp:
        want["nested"]["7"], want["nested"][7] = want["nested"][7], ""
    assert target["meta"] == want, target["meta"]
    return resume


def latest_case(root: str):
    return ckpt.latest(root)


def latest_per_rank_case(roots: list):
    rank, _ = rank_world()
    return ckpt.latest(roots[rank])


def save_step_case(root: str, steps: list, **kwargs):
    """Rank r saves a small state dict as step steps[r]."""
    rank, _ = rank_world()
    return ckpt.save({"w": torch.arange(4.0) + steps[rank]}, root, step=steps[rank], timeout=20,
                     **kwargs)


def save_small_case(root: str, value: float, result: bool = False, **kwargs):
    out = ckpt.save({"w": torch.full((5,), value), "v": value}, root, timeout=20, **kwargs)
    return out.result(timeout=60) if result else out


def load_small_case(root: str) -> tuple:
    target = {"w": torch.zeros(5), "v": 0.0}
    resume = ckpt.load(target, root)
    return resume.step, target["w"].tolist(), target["v"]


def rank_differs_case(root: str):
    """Rank 1 adds a key: every rank must refuse before writing."""
    rank, _ = rank_world()
    sd = {"w": torch.zeros(3)}
    if rank == 1:
        sd["extra"] = torch.zeros(2)
    return ckpt.save(sd, root, timeout=20)


def rank_shape_or_dtype_differs_case(root: str, what: str):
    """Rank 1's tensor has another shape or dtype, the names the same."""
    rank, _ = rank_world()
    other = rank == 1
    w = (torch.zeros(4 if other else 3) if what == "shape"
         else torch.zeros(3, dtype=torch.float64 if other else torch.float32))
    return ckpt.save({"w": w, "b": torch.ones(2)}, root, timeout=20)


def bad_value_on_one_rank_case(root: str):
    rank, _ = rank_world()
    return ckpt.save({"w": torch.zeros(3), "x": object() if rank == 1 else 1}, root, timeout=20)


def files_of(directory: str) -> list:
    return sorted(os.listdir(directory))


def bad_local_shape_case(root: str):
    """A DTensor whose local tensor is not what its placements give."""
    rank, world = rank_world()
    local = torch.zeros(2 if rank == 0 else 1, 3)
    bad = DTensor.from_local(local, mesh((world,)), [Shard(0)], run_check=False,
                             shape=(3, 3), stride=(3, 1))
    try:
        ckpt.save({"d": bad}, root, timeout=20)
    except ckpt.CheckpointError as error:
        save_error = str(error)
    try:
        ckpt.load({"d": bad}, root)
    except ckpt.CheckpointError as error:
        return save_error, str(error)


def load_dcp_case(dcp_dir: str, seed: int) -> bool:
    """A DCP directory loaded directly, resharded by DCP onto this mesh."""
    return load_and_check(dcp_dir, seed, dcp=True).step is None


def with_env_case(env: dict, case: str, *args, **kwargs):
    """`case` with `env` set first (the S3 server's endpoint and keys for the
    remote tests: the ranks were forked before the server started)."""
    os.environ.update(env)
    return globals()[case](*args, **kwargs)


def with_own_cache_case(env: dict, base: str, case: str, *args, **kwargs):
    """`case` with `env` set and a cache of this rank's own, base/node<rank>
    (as on a node of its own); returns its result and every entry found
    under that cache afterwards (relative paths)."""
    rank, _ = rank_world()
    os.environ.update(env)
    cache = os.path.join(base, f"node{rank}")
    os.environ["SSDOPT_CHECKPOINT_CACHE"] = cache
    try:
        result = globals()[case](*args, **kwargs)
    finally:
        del os.environ["SSDOPT_CHECKPOINT_CACHE"]
    found = sorted(os.path.relpath(os.path.join(d, n), cache)
                   for d, dirs, files in os.walk(cache) for n in dirs + files)
    return result, found


def failing_rank_case(root: str, failing: int, async_save: bool):
    """Saves with rank `failing`'s upload failing (injected); returns what
    this rank raised and after how many seconds, or "saved"."""
    import time

    from ssdopt import _remote
    rank, _ = rank_world()
    original = _remote.Remote._upload_data

    def fail(self, *args):
        raise ckpt.CheckpointError(f"injected upload failure on rank {rank}")
    if rank == failing:
        _remote.Remote._upload_data = fail
    start = time.monotonic()
    try:
        result = ckpt.save({"w": torch.ones(4)}, root, timeout=60, async_save=async_save)
        if async_save:
            result.result(timeout=120)
        return "saved"
    except ckpt.CheckpointError as error:
        return str(error), time.monotonic() - start
    finally:
        _remote.Remote._upload_data = original


def big_shard_case(root: str, load: bool, elements: int = 4 << 20) -> int:
    """Saves (or loads and checks) one float32 DTensor of `elements`
    elements, Shard(0) over all ranks; returns the bytes this rank fetched
    from remote data files meanwhile."""
    from ssdopt import _remote
    _, world = rank_world()
    full = torch.arange(elements, dtype=torch.float32)
    before = _remote.fetched_bytes()
    if load:
        target = {"big": _dtensor(full, mesh((world,)), [Shard(0)], fill=-1.0)}
        ckpt.load(target, root)
        sizes, offsets = compute_local_shape_and_global_offset(full.shape, mesh((world,)),
                                                               [Shard(0)])
        _equal(target["big"].to_local(), full[offsets[0]:offsets[0] + sizes[0]], "big")
    else:
        ckpt.save({"big": _dtensor(full, mesh((world,)), [Shard(0)])}, root, timeout=60)
    return _remote.fetched_bytes() - before


def save_async_steps_case(root: str, count: int) -> list:
    """`count` asynchronous saves one after the other, step None each time;
    returns their steps."""
    futures = [ckpt.save({"w": torch.full((5,), float(i)), "v": float(i)}, root,
                         async_save=True, timeout=20) for i in range(count)]
    return [f.result(timeout=60) for f in futures]
