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
