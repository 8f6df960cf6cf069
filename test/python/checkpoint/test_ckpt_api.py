"""ssdopt.checkpoint's rules: autoresume from `latest`, retention, ranks that
disagree, bad input refused before any byte is written or any tensor
overwritten, and the dtype mapping checked against the library."""

import ctypes
import gc
import json
import os

import pytest
import torch

import ssdopt.checkpoint as ckpt


def committed(root):
    return sorted(d for d in os.listdir(root)
                  if os.path.exists(os.path.join(root, d, "manifest.json")))


def test_dtypes_match_the_library():
    for dtype in ckpt.DTYPE_CODES:
        name, size = ckpt.dtype_info(dtype)
        assert size == torch.empty((), dtype=dtype).element_size(), dtype
        # The manifest's names are the safetensors ones.
        if dtype == torch.bool:
            expected = "BOOL"
        elif dtype == torch.bfloat16:
            expected = "BF16"
        else:
            kind = "F" if dtype.is_floating_point else ("I" if dtype.is_signed else "U")
            expected = f"{kind}{8 * size}"
        assert name == expected, dtype
    with pytest.raises(ckpt.CheckpointError, match="complex64 is not supported"):
        ckpt.dtype_info(torch.complex64)


def test_save_leaves_no_leaf_to_the_cyclic_collector(tmp_path):
    # A save's per-tensor objects go by reference counting when it returns:
    # a reference cycle that held them made the next collection free them,
    # ~30 ms of every save of 16,384 tensors.
    state = {"model": {f"w{i}": torch.full((4,), float(i)) for i in range(32)}, "step": 3}
    gc.collect()
    flags = gc.get_debug()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what a collection finds is kept in gc.garbage
    try:
        ckpt.save(state, str(tmp_path), step=0)
        gc.collect()
        kept = [o for o in gc.garbage if type(o).__module__ == ckpt.__name__]
    finally:
        gc.set_debug(flags)
        gc.garbage.clear()
    assert kept == []


def test_autoresume_from_latest(ranks, tmp_path):
    root = str(tmp_path)
    group = ranks(2)
    assert group.run("latest_case", root) == [None, None]
    assert group.run("save_small_case", root, 1.0) == [0, 0]
    assert group.run("save_small_case", root, 2.0) == [1, 1]
    assert group.run("latest_case", root) == [1, 1]
    # A resumed run (another world size) loads latest and saves the next step.
    assert ranks(3).run("load_small_case", root) == [(1, [2.0] * 5, 2.0)] * 3
    assert ranks(3).run("save_small_case", root, 3.0) == [2, 2, 2]
    assert ckpt.latest(root) == 2
    target = {"w": torch.zeros(5), "v": 0.0}
    assert ckpt.load(target, os.path.join(root, "step-000000000001")).step == 1
    assert target == {"w": target["w"], "v": 2.0} and target["w"].tolist() == [2.0] * 5


@pytest.mark.parametrize("keep", [1, 2, 3])
def test_keep_last(ranks, tmp_path, keep):
    root = str(tmp_path)
    group = ranks(2)
    for step in (0, 2, 4):
        group.run("save_small_case", root, float(step), step=step, keep_last=keep)
    # A crashed save of step 5: an uncommitted leftover.
    lib = ckpt._library()
    handle = ctypes.c_void_p()
    assert lib.ssdckpt_save_begin(root.encode(), 5, 0, 1, 1000, 0, ctypes.byref(handle)) == 0
    lib.ssdckpt_save_close(handle)
    assert os.path.isdir(os.path.join(root, "step-000000000005"))
    for step in (6, 8):
        group.run("save_small_case", root, float(step), step=step, keep_last=keep)
    names = [f"step-{s:012d}" for s in (0, 2, 4, 6, 8)[-keep:]]
    assert committed(root) == names
    assert sorted(d for d in os.listdir(root) if d.startswith("step-")) == names
    assert ckpt.latest(root) == 8
    target = {"w": torch.zeros(5), "v": 0.0}
    ckpt.load(target, root)
    assert target["v"] == 8.0


def test_step_mismatch_names_ranks_and_steps(ranks, tmp_path):
    root = str(tmp_path / "root")
    results = ranks(3).run_all("save_step_case", root, [5, 6, 6])
    for result in results:
        assert isinstance(result, Exception)
        assert "step mismatch across ranks" in result.message
        assert "rank 0 saves step 5; ranks 1, 2 save step 6" in result.message
    assert not os.path.exists(root)


def test_latest_mismatch_names_ranks_and_steps(ranks, tmp_path):
    roots = [str(tmp_path / "a"), str(tmp_path / "b")]
    ckpt.save({"w": torch.zeros(2)}, roots[0], step=4)
    results = ranks(2).run_all("latest_per_rank_case", roots)
    for result in results:
        assert isinstance(result, Exception)
        assert "rank 0 sees step 4; rank 1 sees no checkpoint" in result.message


@pytest.mark.parametrize("what", ["shape", "dtype"])
def test_ranks_whose_tensors_differ_in_shape_or_dtype_save_nothing(ranks, tmp_path, what):
    root = str(tmp_path)
    for result in ranks(2).run_all("rank_shape_or_dtype_differs_case", root, what):
        assert "the ranks' state dicts differ" in result.message
    assert not os.path.exists(os.path.join(root, "latest"))


def test_ranks_that_differ_save_nothing(ranks, tmp_path):
    root = str(tmp_path / "root")
    for result in ranks(2).run_all("rank_differs_case", root):
        assert "the ranks' state dicts differ" in result.message
    for result in ranks(2).run_all("bad_value_on_one_rank_case", root):
        assert "nothing was saved: rank 1:" in result.message
        assert "x: a builtins.object cannot be stored as JSON" in result.message
    assert not os.path.exists(root)


@pytest.mark.parametrize("value, message", [
    (object(), "x: a builtins.object cannot be stored as JSON"),
    (float("nan"), "x: nan cannot be stored as JSON"),
    ({1.5: 2}, "x: key 1.5 (float) is neither str nor int"),
    (torch.zeros(2, dtype=torch.complex64), "x: dtype torch.complex64 is not supported"),
    ({"a\0b": torch.ones(1)}, "x/a\0b: tensor name 'x.a\\x00b' holds a NUL"),
    ({"a\udc80": torch.ones(1)}, "tensor name 'x.a\\udc80' is not UTF-8"),
])
def test_values_json_cannot_hold_are_refused_before_writing(tmp_path, value, message):
    root = tmp_path / "root"
    with pytest.raises(ckpt.CheckpointError, match="cannot be checkpointed") as error:
        ckpt.save({"w": torch.zeros(3), "x": value}, root)
    assert message in str(error.value)
    assert not root.exists()


def test_values_are_the_manifests_state_tree(tmp_path):
    """Non-tensor values live in the manifest (format version 2), covered by
    its checksum: no tree tensor; floats, integers beyond 64 bits, tuples in
    lists and unicode come back exactly; an edited value is caught."""
    values = {"lr": 1e-3, "third": 1 / 3, "tiny": 5e-324, "huge": -1.5e308, "neg0": -0.0,
              "big": [2 ** 64, -(2 ** 64) + 1, 2 ** 64 - 1], "t": [(1, ("x", None))],
              "s": "\u00e9\u4e2d\U0001f600\n\"", "flag": False}
    ckpt.save({"w": torch.ones(3), "v": values}, tmp_path)
    manifest = tmp_path / "step-000000000000" / "manifest.json"
    document = json.loads(manifest.read_text())
    assert document["version"] == 2
    assert [t["name"] for t in document["tensors"]] == ["w"]
    assert document["state_tree"]["format"] == "ssdopt.state_dict"
    target = {"w": torch.zeros(3), "v": {k: None for k in values}}
    target["v"].update(big=[0, 0, 0], t=[(0, (0, 0))])
    ckpt.load(target, tmp_path)
    assert target["v"] == values and str(target["v"]["neg0"]) == "-0.0"
    assert type(target["v"]["t"][0]) is tuple and target["v"]["t"][0][1] == ("x", None)
    assert all(type(a) is type(b) for a, b in zip(target["v"]["big"], values["big"]))
    manifest.write_text(manifest.read_text().replace('"0.001"', '"0.002"'))
    with pytest.raises(ckpt.CheckpointError, match="manifest_xxh3: checksum mismatch"):
        ckpt.load(target, tmp_path)


def test_values_nested_deeper_than_a_manifest_holds_are_refused(tmp_path):
    deep = 0
    for _ in range(25):
        deep = {"d": deep}
    with pytest.raises(ckpt.CheckpointError, match="cannot be kept in the manifest: the "
                       "state tree: invalid JSON at byte .*nesting deeper than 63") as error:
        ckpt.save({"w": torch.zeros(1), "deep": deep}, tmp_path / "root")
    assert "nothing was saved" in str(error.value)
    assert not (tmp_path / "root").exists()
    shallow = 0
    for _ in range(15):
        shallow = {"d": shallow}
    assert ckpt.save({"w": torch.zeros(1), "deep": shallow}, tmp_path / "ok") == 0


def test_paths_neither_directory_nor_supported_url(tmp_path):
    file = tmp_path / "file"
    file.write_text("x")
    for path, message in [(file, "is not a directory"),
                          ("nosuch://bucket/run", "nosuch:// is not supported"),
                          ("hdfs://x/y", "hdfs:// is not supported")]:
        with pytest.raises(ckpt.CheckpointError, match=message):
            ckpt.save({"w": torch.zeros(1)}, path)
        with pytest.raises(ckpt.CheckpointError, match=message):
            ckpt.load({"w": torch.zeros(1)}, path)
    with pytest.raises(ckpt.CheckpointError, match="does not exist"):
        ckpt.load({"w": torch.zeros(1)}, tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(ckpt.CheckpointError, match="holds no committed checkpoint"):
        ckpt.load({"w": torch.zeros(1)}, tmp_path / "empty")
    assert ckpt.latest(tmp_path / "empty") is None
    assert file.read_text() == "x"


def test_mismatched_state_dict_is_listed_and_untouched(tmp_path):
    ckpt.save({"a": torch.ones(2, 3), "b": torch.ones(4), "c": {"d": torch.ones(1), "e": 1},
               "f": torch.ones(2)}, tmp_path)
    target = {"a": torch.zeros(3, 2), "b": torch.zeros(4, dtype=torch.float64),
              "c": {"d": torch.zeros(1), "x": 2}, "g": torch.zeros(1), "f": torch.zeros(2)}
    with pytest.raises(ckpt.CheckpointError) as error:
        ckpt.load(target, tmp_path)
    text = str(error.value)
    assert "nothing was loaded" in text
    for line in ["a: shape mismatch: the checkpoint has [2, 3], the state dict [3, 2]",
                 "b: dtype mismatch: the checkpoint has torch.float32, the state dict "
                 "torch.float64",
                 "c/e: in the checkpoint, not in the state dict",
                 "c/x: in the state dict, not in the checkpoint",
                 "g: in the state dict, not in the checkpoint"]:
        assert line in text
    for key in ("a", "b", "f"):
        assert not target[key].any(), key
    assert target["c"] == {"d": target["c"]["d"], "x": 2} and not target["c"]["d"].any()


def test_newer_format_version_is_refused(tmp_path):
    ckpt.save({"w": torch.ones(2)}, tmp_path)
    manifest = tmp_path / "step-000000000000" / "manifest.json"
    document = json.loads(manifest.read_text())
    assert document["version"] == 2 and "state_tree" in document
    document["version"] = 3
    manifest.write_text(json.dumps(document))
    target = {"w": torch.zeros(2)}
    with pytest.raises(ckpt.CheckpointError, match="format version 3 is newer") as error:
        ckpt.load(target, tmp_path)
    assert error.value.errno == 93  # EPROTONOSUPPORT
    assert not target["w"].any()


def test_corrupted_chunk_names_file_and_offset(tmp_path):
    ckpt.save({"w": torch.arange(1000.0)}, tmp_path)
    directory = tmp_path / "step-000000000000"
    manifest = json.loads((directory / "manifest.json").read_text())
    chunk = next(t for t in manifest["tensors"] if t["name"] == "w")["chunks"][0]
    data = directory / chunk["file"]
    raw = bytearray(data.read_bytes())
    raw[chunk["file_offset"] + 123] ^= 0xFF
    data.write_bytes(bytes(raw))
    with pytest.raises(ckpt.CheckpointError, match="rank-00000.data") as error:
        ckpt.load({"w": torch.zeros(1000)}, tmp_path)
    assert error.value.errno == 74  # EBADMSG
    assert "offset" in str(error.value)


def test_dtensor_whose_local_shape_disagrees_is_refused(ranks, tmp_path):
    ckpt.save({"d": torch.zeros(3, 3)}, tmp_path / "ok")
    # torch.chunk's split of 3 rows over 3 ranks is 1, 1, 1; rank 0 holds 2.
    saved, loaded = ranks(3).run("bad_local_shape_case", str(tmp_path / "ok"))[0]
    assert "nothing was saved: rank 0: the state dict cannot be checkpointed" in saved
    assert "d: the DTensor's local tensor has shape [2, 3]" in saved
    assert "give this rank [1, 3] of [3, 3]" in saved
    assert "d: the DTensor's local tensor has shape [2, 3]" in loaded
    assert "nothing was loaded" in loaded
