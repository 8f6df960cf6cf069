"""torch.distributed.checkpoint and torch.save interop, and the checked-in
fixtures (test/fixtures/checkpoint/python, written once by the script beside
them): each loads bit-identically, today and forever."""

import importlib.util
import os
import pathlib
import sys

import pytest
import torch
import torch.distributed.checkpoint as dcp

import ssdopt.checkpoint as ckpt

FIXTURES = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "checkpoint" / "python"
sys.dont_write_bytecode = True  # no __pycache__ among the fixtures
_spec = importlib.util.spec_from_file_location("make_fixtures", FIXTURES / "make_fixtures.py")
make_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_fixtures)
sys.dont_write_bytecode = False

pytestmark = pytest.mark.filterwarnings("ignore:torch.distributed is disabled")


def blank(state):
    """The same structure, every tensor zero, every value changed."""
    if isinstance(state, dict):
        return {k: blank(v) for k, v in state.items()}
    if isinstance(state, list):
        return [blank(v) for v in state]
    if isinstance(state, tuple):
        return tuple(blank(v) for v in state)
    if isinstance(state, torch.Tensor):
        return torch.zeros_like(state)
    return None


def assert_same(a, b, path="<root>"):
    assert type(a) is type(b), (path, type(a), type(b))
    if isinstance(a, dict):
        assert list(a) == list(b), (path, list(a), list(b))
        for k in a:
            assert_same(a[k], b[k], f"{path}/{k}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b)):
            assert_same(x, y, f"{path}/{i}")
    elif isinstance(a, torch.Tensor):
        assert a.dtype == b.dtype and a.shape == b.shape and torch.equal(a, b), path
    else:
        assert a == b, (path, a, b)


def test_fixture_of_this_format_loads():
    target = blank(make_fixtures.expected())
    resume = ckpt.load(target, FIXTURES / "ssd")
    assert resume.step == 5
    assert_same(target, make_fixtures.expected())
    assert_same(ckpt.to_state_dict(FIXTURES / "ssd"), make_fixtures.expected())


def test_format_v1_fixture_keeps_its_tree_tensor_and_v2_has_the_tree_in_its_manifest():
    with ckpt._Reader(str(FIXTURES / "ssd" / "step-000000000005")) as v1:
        assert v1.info()["version"] == 1 and ckpt.TREE_TENSOR in v1.tensors()
    with ckpt._Reader(str(FIXTURES / "ssd-v2" / "step-000000000006")) as v2:
        assert v2.info()["version"] == 2 and ckpt.TREE_TENSOR not in v2.tensors()
        assert v2.tree()["tree"]["dict"][0][0] == "model"
    manifest = (FIXTURES / "ssd-v2" / "step-000000000006" / "manifest.json").read_text()
    assert '"state_tree"' in manifest and '"float": "1e+300"' in manifest


def test_fixture_of_format_v2_loads():
    want = make_fixtures.expected_v2()
    target = blank(want)
    resume = ckpt.load(target, FIXTURES / "ssd-v2")
    assert (resume.step, resume.rng_state, resume.data_loader_position) == \
        (6, make_fixtures.V2_RNG, make_fixtures.V2_POSITION)
    assert_same(target, want)
    assert str(target["values"]["floats"][2]) == "-0.0"
    assert_same(ckpt.to_state_dict(FIXTURES / "ssd-v2"), want)


def test_dcp_fixture_loads_directly_and_converts(tmp_path):
    target = blank(make_fixtures.expected())
    assert ckpt.load(target, FIXTURES / "dcp").step is None
    assert_same(target, make_fixtures.expected())

    # Without a template: DCP's flattened structure, its keys strings.
    assert ckpt.from_dcp(FIXTURES / "dcp", tmp_path / "a", step=2) == 2
    whole = ckpt.to_state_dict(tmp_path / "a")
    assert list(whole["optim"]["state"]) == ["0"]
    want = make_fixtures.expected()
    want["optim"]["state"] = {"0": want["optim"]["state"][0]}
    assert_same(whole, want)
    # With one: exactly the state dict.
    template = blank(make_fixtures.expected())
    ckpt.from_dcp(FIXTURES / "dcp", tmp_path / "b", template=template)
    assert_same(ckpt.to_state_dict(tmp_path / "b"), make_fixtures.expected())


def test_round_trip_through_dcp(tmp_path):
    ckpt.to_dcp(FIXTURES / "ssd", tmp_path / "dcp")
    assert ckpt.is_dcp_dir(tmp_path / "dcp")
    target = blank(make_fixtures.expected())
    dcp.load(target, checkpoint_id=str(tmp_path / "dcp"), no_dist=True)
    assert_same(target, make_fixtures.expected())


def test_torch_save_fixture_converts(tmp_path):
    assert ckpt.from_torch_save(FIXTURES / "torch_save.pt", tmp_path, step=9) == 9
    target = blank(make_fixtures.expected())
    assert ckpt.load(target, tmp_path).step == 9
    assert_same(target, make_fixtures.expected())


def test_torch_save_with_code_is_refused(tmp_path):
    class Payload:
        def __reduce__(self):
            return (os.system, ("true",))
    torch.save({"x": Payload()}, tmp_path / "evil.pt")
    with pytest.raises(ckpt.CheckpointError, match="weights_only=True"):
        ckpt.from_torch_save(tmp_path / "evil.pt", tmp_path / "root")
    assert not (tmp_path / "root").exists()
    torch.save([torch.ones(1)], tmp_path / "list.pt")
    with pytest.raises(ckpt.CheckpointError, match="holds a list, not a state dict"):
        ckpt.from_torch_save(tmp_path / "list.pt", tmp_path / "root")
    with pytest.raises(ckpt.CheckpointError, match="no .metadata"):
        ckpt.from_dcp(tmp_path, tmp_path / "root")


def test_the_fixture_script_never_regenerates_them():
    assert make_fixtures.main() == 1


@pytest.fixture(scope="module")
def ssd_ckpt() -> str:
    """The `ssd-ckpt` binary of this checkout's build (SSD_CKPT overrides)."""
    path = os.environ.get("SSD_CKPT") or str(FIXTURES.parents[3] / "build" / "bin" / "ssd-ckpt")
    if not os.access(path, os.X_OK):
        pytest.fail(f"ssd-ckpt not found at {path}; run `make build` first")
    return path


def test_ssd_ckpt_reads_and_reshards_what_python_saved(ranks, tmp_path, ssd_ckpt):
    import subprocess
    run = subprocess.run([ssd_ckpt, "verify", str(FIXTURES / "ssd")], capture_output=True,
                         text=True)
    assert run.returncode == 0 and run.stdout.startswith("ok:"), run.stderr
    ranks(2).run("save_case", str(tmp_path / "by2"), 3)
    run = subprocess.run([ssd_ckpt, "reshard", str(tmp_path / "by2"), str(tmp_path / "by3"),
                          "--world-size", "3"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    # ssd-ckpt's rules: saved ranks' generators, none for the new rank, and
    # an even share of the global position (100 + 101) per rank.
    assert ranks(3).run("load_state_case", str(tmp_path / "by3"), 3) == [
        (b"\x01" * 3, 67, False), (b"\x02" * 4, 67, False), (None, 67, False)]


def test_checkpoints_of_compiled_steps_load_as_flat_dicts(ssd_ckpt, tmp_path):
    # test/fixtures/checkpoint/v1 was written by the C++ pattern writer
    # (3 ranks, no state-dict tree): a flat dict of its tensors, the bytes
    # ssd-ckpt exports for each.
    import json
    import subprocess
    v1 = FIXTURES.parent / "v1"
    exported = tmp_path / "v1.safetensors"
    subprocess.run([ssd_ckpt, "export-safetensors", str(v1), str(exported)], check=True)
    raw = exported.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    header = json.loads(raw[8:8 + size])
    whole = ckpt.to_state_dict(v1)
    for name, tensor in whole.items():
        begin, end = header[name]["data_offsets"]
        assert bytes(tensor.reshape(-1).view(torch.uint8).numpy()) == \
            raw[8 + size + begin:8 + size + end], name
    assert list(whole) == ["layer0.weight", "layer0.proj", "embed", "flags", "scale", "counts"]
    assert whole["layer0.proj"].dtype == torch.bfloat16 and whole["scale"].shape == ()
    target = {k: torch.zeros_like(v) for k, v in whole.items()}
    assert ckpt.load(target, v1).step == 3
    for k, v in whole.items():  # bit patterns (some are NaNs)
        assert torch.equal(target[k].reshape(-1).view(torch.uint8),
                           v.reshape(-1).view(torch.uint8)), k
    with pytest.raises(ckpt.CheckpointError, match="embed: in the checkpoint, not in the state"):
        ckpt.load({k: v for k, v in target.items() if k != "embed"}, v1)


def test_dcp_directory_loads_on_ranks(ranks, tmp_path):
    # Saved by 2 ranks here, written as DCP, loaded by 3 with DTensors on
    # another placement: every value as saved.
    ranks(2).run("save_case", str(tmp_path / "by2"), 5)
    ckpt.to_dcp(tmp_path / "by2", tmp_path / "dcp")
    assert ranks(3).run("load_dcp_case", str(tmp_path / "dcp"), 5) == [True] * 3
