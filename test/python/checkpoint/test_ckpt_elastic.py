"""Saves by N in {1, 2, 4, 7} ranks loaded by M in {1, 2, 3}: plain tensors of
every dtype, DTensors (Shard and Replicate on 1-D meshes; on a 2 x 2 mesh for
N = 4) resharded to other placements, a real AdamW state dict, non-tensor
values and each rank's resume state, all identical."""

import json
import os

import pytest

SAVES = (1, 2, 4, 7)
LOADS = (1, 2, 3)
SEED = 11


@pytest.fixture(scope="module")
def saved(ranks, tmp_path_factory):
    """root per N, each saved once by N ranks."""
    roots = {}
    for n in SAVES:
        root = str(tmp_path_factory.mktemp(f"saved-by-{n}"))
        layout = "save2d" if n == 4 else "save1d"
        assert ranks(n).run("save_case", root, SEED, layout) == [0] * n
        roots[n] = root
    return roots


@pytest.mark.parametrize("n", SAVES)
def test_saved_once_and_spread(saved, n):
    directory = os.path.join(saved[n], "step-000000000000")
    with open(os.path.join(directory, "manifest.json")) as f:
        manifest = json.load(f)
    assert manifest["world_size"] == n
    files = {c["file"] for t in manifest["tensors"] if t["name"].startswith("plain.")
             for c in t["chunks"]}
    # Plain tensors are written once each (the commit refuses overlaps) and
    # spread over the ranks.
    assert len(files) == min(n, 12)
    rep = next(t for t in manifest["tensors"] if t["name"] == "sharded.rep")
    assert len(rep["chunks"]) == (2 if n == 4 else 1)  # Shard(1) x Replicate on 2 x 2


@pytest.mark.parametrize("m", LOADS)
@pytest.mark.parametrize("n", SAVES)
def test_load_n_on_m(ranks, saved, n, m):
    results = ranks(m).run("load_case", saved[n], SEED, n)
    assert {r["step"] for r in results} == {0}
    assert {r["directory"] for r in results} == {os.path.join(saved[n], "step-000000000000")}


def test_a_box_of_part_of_a_chunk_reads_little_more_than_it_needs(tmp_path):
    # The checksum block is about a quarter of a typical chunk (here the
    # 64 KiB tensors saved whole: 16 KiB), so a rank of a 3-way row split
    # reads the blocks its rows overlap, not every chunk they touch whole
    # (1 MiB blocks: the whole 64 KiB; 4 -> 3 ranks read 1.5x the bytes).
    import torch

    import ssdopt.checkpoint as ckpt
    from ssdopt import _remote
    state = {f"t{i}": torch.arange(64 * 256, dtype=torch.float32).view(64, 256) + i
             for i in range(8)}
    ckpt.save(state, tmp_path)
    directory = tmp_path / "step-000000000000"
    assert json.loads((directory / "manifest.json").read_text())["checksum_block_bytes"] == 16384
    rows = (22, 44)  # torch's Shard(0) of 64 rows, the middle of 3 ranks: 22 KiB
    boxes = [(name, ckpt.DTYPE_CODES[torch.float32], (64, 256), (rows[0], 0),
              (rows[1] - rows[0], 256), 1) for name in state]
    requests, count, keep = ckpt._request_array(boxes)
    lib = _remote._lib()
    plan = _remote._json_out(lambda out: ckpt._check(
        lib.ssdckpt_reader_plan(ckpt._open(str(directory)).handle, requests, count, out), ""))
    assert sum(r["length"] for r in plan["reads"]) == 8 * (32 << 10)  # blocks 1 and 2
    target = {name: torch.zeros(64, 256) for name in state}
    with ckpt._open(str(directory)) as reader:
        reader.load_boxes([(name, ckpt.DTYPE_CODES[torch.float32], (64, 256), (rows[0], 0),
                            (rows[1] - rows[0], 256), target[name][rows[0]:rows[1]])
                           for name in state])
    for name, value in state.items():
        assert torch.equal(target[name][rows[0]:rows[1]], value[rows[0]:rows[1]])


def test_the_checksum_block_follows_the_typical_chunk_and_bounds_the_manifest():
    import torch

    import ssdopt.checkpoint as ckpt
    _, small = ckpt._flatten({f"b{i}": torch.zeros(1024) for i in range(100)})  # 4 KiB
    _, large = ckpt._flatten({f"w{i}": torch.empty(16 << 20, device="meta")
                              for i in range(4)})  # 64 MiB
    _, mixed = ckpt._flatten({"embedding": torch.empty(256 << 20, device="meta"),  # 1 GiB
                              **{f"b{i}": torch.zeros(4096) for i in range(1000)}})  # 16 KiB
    assert ckpt._checksum_block(small, 1) == 4096
    assert ckpt._checksum_block(large, 1) == 1 << 20
    # Half the chunks are 16 KiB (4 KiB blocks), but a block of a quarter
    # of that would give the embedding 262,144 checksums: at least an
    # eighth of the mean chunk keeps the manifest to a few per chunk.
    assert ckpt._checksum_block(mixed, 1) == 128 << 10
    assert ckpt._checksum_block([], 1) == 1 << 20
