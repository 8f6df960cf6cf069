"""Remote checkpoint roots (s3://) against a real S3 server on loopback
(SeaweedFS, the session's `s3` fixture): save, load, elastic N -> M load by
gloo ranks with range reads, ranks with caches of their own (several nodes),
keep_last, the command line, a saving process killed by SIGKILL in the middle
of its upload, a server that goes away while a save uploads, an object that
is not what was uploaded, and a corrupted object found at load; a store
without content checksums (memory://) and file:// roots.

Run as a script, this file is the saving process of the SIGKILL test.
"""

from __future__ import annotations

import gc
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
import time

import pytest
import torch

import ssdopt.checkpoint as ckpt

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 23
BIG = 16 << 20  # float32 elements: 64 MiB, so that an upload takes a while


def small(step: int) -> dict:
    return {"w": torch.arange(1000, dtype=torch.float32) + step, "b": torch.full((7, 3), step),
            "meta": {"step": step, "name": f"s{step}", "list": [step, 1.5, None]}}


def blank() -> dict:
    return {"w": torch.zeros(1000), "b": torch.zeros(7, 3, dtype=torch.int64),
            "meta": {"step": -1, "name": "", "list": [0, 0.0, 0]}}


def big(step: int) -> dict:
    return {"x": torch.full((BIG,), float(step)), "w": torch.arange(1000.0) + step}


def check_small(target: dict, step: int) -> None:
    want = small(step)
    assert torch.equal(target["w"], want["w"]) and torch.equal(target["b"], want["b"])
    assert target["meta"] == want["meta"]


def objects(s3, root: str) -> dict:
    """relative name -> size under `root` (s3://bucket/prefix)."""
    fs = s3.filesystem()
    base = root[len("s3://"):]
    return {k[len(base) + 1:]: v["size"] for k, v in fs.find(base, detail=True).items()}


def test_save_load_latest_keep_and_cli(s3, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    root, options = f"s3://{s3.bucket()}/run", s3.storage_options()
    assert ckpt.latest(root, storage_options=options) is None
    for step in range(4):
        assert ckpt.save(small(step), root, storage_options=options, keep_last=2) == step
        assert ckpt.latest(root, storage_options=options) == step
    # keep_last=2 kept steps 2 and 3 (their manifests and data, no record);
    # the local cache keeps nothing.
    names = objects(s3, root)
    assert sorted(n.split("/")[0] for n in names if "/" in n) == \
        ["step-000000000002"] * 2 + ["step-000000000003"] * 2
    assert os.listdir(tmp_path / "cache") and _cached_steps(tmp_path / "cache") == []
    target = blank()
    resume = ckpt.load(target, root, storage_options=options)
    check_small(target, 3)
    assert (resume.step, resume.directory) == (3, f"{root}/step-000000000003")
    target = blank()
    assert ckpt.load(target, f"{root}/step-000000000002", storage_options=options).step == 2
    check_small(target, 2)
    # The whole state dict (the endpoint from the environment, as botocore
    # reads it); and a state dict that does not match.
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    whole = ckpt.to_state_dict(root)
    check_small(whole, 3)
    wrong = blank()
    wrong["w"] = torch.zeros(999)
    with pytest.raises(ckpt.CheckpointError, match="w: shape mismatch"):
        ckpt.load(wrong, root, storage_options=options)
    assert torch.equal(wrong["w"], torch.zeros(999))

    # The command line, in this process (a new one would import torch again).
    from ssdopt.__main__ import main

    def cli(*args):
        capsys.readouterr()
        try:
            code = main(["checkpoint", *args])
        except SystemExit as exit:
            code = exit.code
        out = capsys.readouterr()
        return code, out.out, out.err
    code, out, err = cli("ls", root)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 3 and "step-000000000003" in lines[2] and "<- latest" in lines[2]
    assert "committed" in lines[1] and "<- latest" not in lines[1]
    code, out, err = cli("inspect", root)
    assert code == 0, err
    assert f"checkpoint {root}/step-000000000003" in out
    assert "meta/name = \"s3\"" in out
    code, out, err = cli("verify", root)
    assert code == 0 and "every checksum of" in out, err
    code, out, err = cli("inspect", f"s3://{s3.bucket()}/nothing")
    assert code == 1 and err.strip().endswith("does not exist"), err


def test_async_save_and_retention_never_removes_latest(s3, tmp_path, monkeypatch):
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    root, options = f"s3://{s3.bucket()}/async", s3.storage_options()
    future = ckpt.save(small(0), root, async_save=True, storage_options=options)
    assert future.result(timeout=120) == 0
    future = ckpt.save(small(1), root, async_save=True, storage_options=options)
    ckpt.wait()  # the upload too
    assert future.done() and ckpt.latest(root, storage_options=options) == 1
    # A committed step newer than the one `latest` names (a save killed
    # between its manifest and `latest`): retention keeps both.
    fs = s3.filesystem()
    base = root[len("s3://"):]
    for name in ("rank-00000.data", "manifest.json"):
        fs.copy(f"{base}/step-000000000000/{name}", f"{base}/step-000000000009/{name}")
    from ssdopt import _remote
    assert _remote.Remote(root, options).collect_garbage(1) == ["step-000000000000"]
    assert sorted(n.split("/")[0] for n in objects(s3, root) if "/" in n) == \
        ["step-000000000001"] * 2 + ["step-000000000009"] * 2
    assert ckpt.latest(root, storage_options=options) == 1
    # Saving step 9 again replaces the one nothing points at; a step that
    # `latest` names or has passed is refused before anything is written.
    assert ckpt.save(small(9), root, step=9, storage_options=options) == 9
    target = blank()
    ckpt.load(target, root, storage_options=options)
    check_small(target, 9)
    with pytest.raises(ckpt.CheckpointError, match="already committed") as error:
        ckpt.save(small(1), root, step=1, storage_options=options)
    assert "nothing was saved" in str(error.value)


def test_elastic_load_n_on_m(ranks, s3):
    """The elastic cases' state (every dtype, DTensors, AdamW, values, resume
    state) saved remotely by 2 ranks, loaded by 3 and by 1."""
    root = f"s3://{s3.bucket()}/elastic"
    assert ranks(2).run("with_env_case", s3.env, "save_case", root, SEED, "save1d") == [0, 0]
    for m in (3, 1):
        results = ranks(m).run("with_env_case", s3.env, "load_case", root, SEED, 2)
        assert {r["step"] for r in results} == {0}
        assert {r["directory"] for r in results} == {f"{root}/step-000000000000"}
    assert ranks(1).run("with_env_case", s3.env, "latest_case", root) == [0]


def test_async_saves_of_two_ranks_agree_on_the_step(ranks, s3):
    """Rank 1's future completes once rank 0 committed the step remotely,
    possibly before `latest` moved; its next save still takes rank 0's step."""
    root = f"s3://{s3.bucket()}/async2"
    assert ranks(2).run("with_env_case", s3.env, "save_async_steps_case", root, 3) == \
        [[0, 1, 2]] * 2
    assert ranks(2).run("with_env_case", s3.env, "load_small_case", root) == \
        [(2, [2.0] * 5, 2.0)] * 2


def test_load_reads_only_the_ranges_of_each_rank(ranks, s3):
    """16 MiB sharded over 2 ranks, loaded by 3: each rank fetches its third
    and at most one checksum block (1 MiB) more at each edge of its box."""
    root = f"s3://{s3.bucket()}/ranges"
    elements = 4 << 20
    # Each rank uploads its own file and verifies the object by its size and
    # the server's MD5 (ETag): nothing is read back.
    saved = ranks(2).run("with_env_case", s3.env, "big_shard_case", root, False, elements)
    assert saved == [0, 0], saved
    fetched = ranks(3).run("with_env_case", s3.env, "big_shard_case", root, True, elements)
    third = elements * 4 / 3
    assert all(third <= f <= third + 2 * (1 << 20) + 8192 for f in fetched), fetched
    assert sum(fetched) < 2 * elements * 4


def test_corrupted_object_is_named_with_its_offset(s3, monkeypatch):
    root, options = f"s3://{s3.bucket()}/bad", s3.storage_options()
    ckpt.save(small(0), root, storage_options=options)
    fs = s3.filesystem()
    key = f"{root[len('s3://'):]}/step-000000000000/manifest.json"
    manifest = json.loads(fs.cat_file(key))
    chunk = next(t for t in manifest["tensors"] if t["name"] == "w")["chunks"][0]
    data_key = f"{root[len('s3://'):]}/step-000000000000/{chunk['file']}"
    blob = bytearray(fs.cat_file(data_key))
    blob[chunk["file_offset"] + 100] ^= 0xFF
    fs.pipe_file(data_key, bytes(blob))
    target = blank()
    with pytest.raises(ckpt.CheckpointError) as error:
        ckpt.load(target, root, storage_options=options)
    message = str(error.value)
    assert error.value.errno == 74  # EBADMSG
    assert f"{root}/step-000000000000/{chunk['file']} at offset {chunk['file_offset']}" in message
    assert 'tensor "w"' in message and "/tmp" not in message.split("checksum mismatch")[1]
    for name, value in s3.env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ckpt.CheckpointError, match="checksum mismatch in " + root):
        ckpt.command("verify", root)


def _wait_for(predicate, timeout: float, what: str, proc=None) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the saver exited ({proc.returncode}) before {what}: "
                                 + proc.stderr.read().decode()[-2000:])
        if time.monotonic() > deadline:
            raise AssertionError(f"no {what} after {timeout} s")
        time.sleep(0.01)


def test_upload_killed_midway_never_becomes_latest(s3, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(cache))
    root, options = f"s3://{s3.bucket()}/killed", s3.storage_options()
    env = {**os.environ, **s3.env}
    proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), root], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdout.readline().strip() == b"0", proc.stderr.read().decode()[-2000:]
        # Step 1 is committed in the cache and its data object is up, but not
        # yet verified nor committed remotely: kill it there.
        fs = s3.filesystem()
        data = f"{root[len('s3://'):]}/step-000000000001/rank-00000.data"
        _wait_for(lambda: fs.exists(data), 120, "upload of step 1", proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert ckpt.latest(root, storage_options=options) == 0
    assert "step-000000000001/manifest.json" not in objects(s3, root)
    target = {"x": torch.zeros(BIG), "w": torch.zeros(1000)}
    assert ckpt.load(target, root, storage_options=options).step == 0
    assert torch.equal(target["x"], big(0)["x"]) and torch.equal(target["w"], big(0)["w"])
    # The resumed run saves step 1 again over the leftovers (remote and in
    # the cache), and retention removes step 0.
    assert ckpt.save(small(1), root, storage_options=options, keep_last=1) == 1
    assert sorted(objects(s3, root)) == ["latest", "step-000000000001/manifest.json",
                                         "step-000000000001/rank-00000.data"]
    target = blank()
    ckpt.load(target, root, storage_options=options)
    check_small(target, 1)


def test_server_gone_mid_upload_commits_nothing(s3, tmp_path, monkeypatch):
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    root = f"s3://{s3.bucket()}/gone"
    # Few retries, short timeouts: the server does not come back by itself.
    options = {**s3.storage_options(retries={"max_attempts": 1}, connect_timeout=2,
                                    read_timeout=10)}
    ckpt.save(big(0), root, storage_options=options)
    outcome: dict = {}

    def saver():
        try:
            outcome["step"] = ckpt.save(big(1), root, storage_options=options)
        except BaseException as error:  # noqa: BLE001 - checked below
            outcome["error"] = error

    thread = threading.Thread(target=saver)
    thread.start()
    # Kill the server once step 1's data file is written in the cache,
    # before its upload (64 MiB) is through.
    cache = tmp_path / "cache"
    _wait_for(lambda: any(os.path.getsize(f) >= BIG * 4 for f in cache.glob(
        "*/rank-00000/step-000000000001/rank-00000.data")), 120, "data file of step 1")
    s3.kill()
    thread.join(120)
    try:
        assert not thread.is_alive()
        error = outcome.get("error")
        assert isinstance(error, ckpt.CheckpointError), outcome
        message = str(error)
        assert f"step 1 was not published to {root}" in message
        assert "step-000000000001" in message
    finally:
        s3.start(timeout=120)  # same ports and data (about 8 s here)
    options = s3.storage_options()
    assert ckpt.latest(root, storage_options=options) == 0
    assert "step-000000000001/manifest.json" not in objects(s3, root)
    target = {"x": torch.zeros(BIG), "w": torch.zeros(1000)}
    assert ckpt.load(target, root, storage_options=options).step == 0
    assert torch.equal(target["x"], big(0)["x"])


def _saver(root: str) -> None:
    """Saves step 0 (small), says so, then step 1 (64 MiB) until killed."""
    ckpt.save(big(0), root)
    print(0, flush=True)
    ckpt.save(big(1), root)
    print(1, flush=True)


if __name__ == "__main__":
    _saver(sys.argv[1])


def _cached_steps(cache) -> list[str]:
    """The step directories in every rank's cache (cache/<root>/rank-N/)."""
    return [str(p.relative_to(cache)) for p in pathlib.Path(cache).glob("*/rank-*/step-*")]


def test_failed_publish_or_retention_says_which_and_clears_the_cache(s3, tmp_path,
                                                                     monkeypatch):
    from ssdopt import _remote
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    root, options = f"s3://{s3.bucket()}/retention", s3.storage_options()
    ckpt.save(small(0), root, storage_options=options)

    def failing(what):
        def fail(self, *args):
            raise ckpt.CheckpointError(f"injected: {what}")
        return fail

    # Retention fails after `latest` moved: published, and said so.
    with monkeypatch.context() as patch:
        patch.setattr(_remote.Remote, "collect_garbage", failing("retention"))
        with pytest.raises(ckpt.CheckpointError) as raised:
            ckpt.save(small(1), root, storage_options=options, keep_last=1)
    message = str(raised.value)
    assert "step 1 was published to" in message and "not published" not in message
    assert "retention (keep_last=1) failed: injected: retention" in message
    assert ckpt.latest(root, storage_options=options) == 1
    assert _cached_steps(tmp_path / "cache") == []
    # Moving `latest` fails: not published, and the local copy is gone too.
    with monkeypatch.context() as patch:
        patch.setattr(_remote.Remote, "_publish_latest", failing("latest"))
        with pytest.raises(ckpt.CheckpointError, match=r"step 2 was not published to .*"
                                                       r"injected: latest"):
            ckpt.save(small(2), root, storage_options=options)
    assert ckpt.latest(root, storage_options=options) == 1
    assert _cached_steps(tmp_path / "cache") == []


def test_ranks_with_caches_of_their_own(ranks, s3, tmp_path):
    """Ranks that share no cache directory (as on nodes of their own) save
    synchronously and asynchronously through the store; each rank's cache
    only ever holds its own directory, emptied after the upload; 3 ranks
    load what 2 saved."""
    root = f"s3://{s3.bucket()}/nodes"
    base = str(tmp_path / "nodes")
    saved = ranks(2).run("with_own_cache_case", s3.env, base, "save_case", root, SEED, "save1d")
    digest = os.listdir(os.path.join(base, "node0"))[0]
    assert saved == [(0, [digest, f"{digest}/rank-00000"]),
                     (0, [digest, f"{digest}/rank-00001"])], saved
    assert not any(n.startswith("record-") or n.startswith("failed-")
                   for n in objects(s3, root)), objects(s3, root)
    loaded = ranks(3).run("with_own_cache_case", s3.env, base, "load_case", root, SEED, 2)
    assert [r[0]["step"] for r in loaded] == [0, 0, 0]
    steps = ranks(2).run("with_own_cache_case", s3.env, base, "save_async_steps_case", root, 2)
    assert [r[0] for r in steps] == [[1, 2]] * 2
    assert ranks(2).run("with_env_case", s3.env, "load_small_case", root) == \
        [(2, [1.0] * 5, 1.0)] * 2


def test_an_object_that_is_not_what_was_uploaded_is_never_published(s3, tmp_path,
                                                                   monkeypatch):
    """The store's MD5 of what it holds (ETag) is checked against the bytes
    sent: an upload that stores other bytes (here: one flipped) fails the
    save, and `latest` stays."""
    import s3fs
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    root = f"s3://{s3.bucket()}/etag"
    options = s3.storage_options()
    ckpt.save(small(0), root, storage_options=options)
    original = s3fs.core.S3File.write

    def damaging(self, data):  # what the store receives is not what was read
        blob = bytearray(data)
        blob[len(blob) // 2] ^= 1
        return original(self, bytes(blob))
    monkeypatch.setattr(s3fs.core.S3File, "write", damaging)
    with pytest.raises(ckpt.CheckpointError, match=r"step 1 was not published .*the store's "
                       r"checksum \(ETag [0-9a-f]+\) is not the MD5 of the \d+ bytes uploaded"):
        ckpt.save(small(1), root, storage_options=options)
    monkeypatch.setattr(s3fs.core.S3File, "write", original)
    assert ckpt.latest(root, storage_options=options) == 0
    assert "step-000000000001/manifest.json" not in objects(s3, root)
    assert _cached_steps(tmp_path / "cache") == []


def test_a_multipart_upload_is_checked_by_its_etag(s3, tmp_path, monkeypatch):
    """A data file of several parts (UPLOAD_PART_BYTES, here 5 MiB, S3's
    smallest) is sent once, part by part, and verified by the store's
    multipart ETag (the MD5 of the parts' MD5s): nothing is read back."""
    from ssdopt import _remote
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(_remote, "UPLOAD_PART_BYTES", 5 << 20)
    root = f"s3://{s3.bucket()}/parts"
    state = {"x": torch.arange(3 << 20, dtype=torch.float32)}  # 12 MiB: 3 parts
    before = _remote.fetched_bytes()
    assert ckpt.save(state, root, storage_options=s3.storage_options()) == 0
    assert _remote.fetched_bytes() == before
    data = objects(s3, root)["step-000000000000/rank-00000.data"]
    assert data >= 12 << 20
    etag = s3.filesystem().info(f"{root[len('s3://'):]}/step-000000000000/rank-00000.data")
    assert str(etag.get("ETag") or etag.get("etag")).strip('"').endswith(
        f"-{-(-data // (5 << 20))}")
    target = {"x": torch.zeros(3 << 20)}
    assert ckpt.load(target, root, storage_options=s3.storage_options()).step == 0
    assert torch.equal(target["x"], state["x"])


def test_a_failed_upload_is_aborted_and_its_file_closed(s3, tmp_path, monkeypatch):
    """A part that fails to go up aborts the multipart upload and closes
    the file without completing it: left open, it was completed when the
    collector closed it (an error printed from __del__, or an object of the
    parts sent so far)."""
    import s3fs

    from ssdopt import _remote
    monkeypatch.setattr(_remote, "UPLOAD_PART_BYTES", 5 << 20)
    local = tmp_path / "data"
    local.write_bytes(os.urandom(12 << 20))  # 3 parts
    files, write = [], s3fs.core.S3File.write

    def second_part_fails(self, data):
        files.append(self)
        if len(files) == 2:
            raise OSError("the network went away")
        return write(self, data)
    monkeypatch.setattr(s3fs.core.S3File, "write", second_part_fails)
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    remote = _remote.Remote(f"s3://{s3.bucket()}/failed", s3.storage_options())
    with pytest.raises(OSError, match="the network went away"):
        remote._send_in_parts(str(local), remote.remote("data"))
    assert files[0].closed
    del files[:]
    gc.collect()
    assert unraisable == []
    fs = s3.filesystem()
    assert not fs.exists(remote.remote("data"))
    bucket = remote.path.split("/")[0]
    uploads = fs.call_s3("list_multipart_uploads", Bucket=bucket).get("Uploads", [])
    assert [u for u in uploads if u["Key"].endswith("failed/data")] == []


def test_a_store_without_checksums_is_read_back(tmp_path, monkeypatch):
    """fsspec's memory:// store reports no content checksum: each object is
    read back and its MD5 compared (an object changed in the store is found);
    load reads it as any remote root."""
    import fsspec
    from fsspec.implementations.memory import MemoryFile

    from ssdopt import _remote
    monkeypatch.setenv("SSDOPT_CHECKPOINT_CACHE", str(tmp_path / "cache"))
    root = f"memory://ssdopt-{os.getpid()}/run"
    before = _remote.fetched_bytes()
    assert ckpt.save(small(0), root) == 0
    fs = fsspec.filesystem("memory")
    data = f"{root[len('memory://'):]}/step-000000000000/rank-00000.data"
    assert _remote.fetched_bytes() - before == fs.size(data)
    target = blank()
    assert ckpt.load(target, root).step == 0
    check_small(target, 0)
    original = MemoryFile.write

    def damaging(self, data):  # the store keeps other bytes than were sent
        blob = bytearray(data)
        blob[-1] ^= 1
        return original(self, bytes(blob))
    monkeypatch.setattr(MemoryFile, "write", damaging)
    with pytest.raises(ckpt.CheckpointError, match=r"rank-00000.data differs from .* when "
                       r"read back after its upload"):
        ckpt.save(small(1), root)
    assert ckpt.latest(root) == 0
    fs.rm(root[len("memory://"):], recursive=True)


def test_file_urls_are_local_roots(tmp_path):
    root = f"file://{tmp_path}/run"
    assert ckpt.latest(root) is None
    assert ckpt.save(small(0), root) == 0 and ckpt.save(small(1), root, keep_last=1) == 1
    assert ckpt.latest(root) == 1 and ckpt.latest(f"local://{tmp_path}/run") == 1
    assert sorted(os.listdir(tmp_path / "run")) == ["latest", "step-000000000001"]
    target = blank()
    resume = ckpt.load(target, f"{root}/step-000000000001")
    check_small(target, 1)
    assert resume.directory == f"{tmp_path}/run/step-000000000001"
    assert [c["step"] for c in ckpt.listing(root)] == [1]


@pytest.mark.parametrize("failing, async_save", [(1, False), (0, True)])
def test_a_rank_that_fails_stops_the_others_waiting(ranks, s3, failing, async_save):
    """A rank whose upload fails leaves its failure marker: the others raise
    its message at once (well within the 60 s timeout), nothing is
    published, and the next save of the step succeeds."""
    root = f"s3://{s3.bucket()}/fails{failing}"
    results = ranks(2).run("with_env_case", s3.env, "failing_rank_case", root, failing,
                           async_save)
    for rank, (message, seconds) in enumerate(results):
        assert f"injected upload failure on rank {failing}" in message, message
        assert seconds < 30, (rank, seconds)
    assert ranks(1).run("with_env_case", s3.env, "latest_case", root) == [None]
    assert ranks(2).run("with_env_case", s3.env, "failing_rank_case", root, -1,
                        async_save) == ["saved"] * 2
    assert not any(n.split("/")[-1].startswith(("record-", "failed-"))
                   for n in objects(s3, root))
