"""A disk that fills up during a save: a clear error naming the file, nothing
committed, the previous step still loads. The disk is a 512 KiB tmpfs mounted
in a user and mount namespace of its own (unshare -rm), so no privileges are
needed and nothing outside the test sees it."""

import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent("""
    import json, os, sys, torch
    import ssdopt.checkpoint as ckpt
    root = sys.argv[1]
    ckpt.save({"w": torch.arange(1000.0)}, root, step=0)
    out = {}
    try:
        ckpt.save({"w": torch.ones(1000), "big": torch.ones(300_000)}, root, step=1)
    except ckpt.CheckpointError as error:
        out["errno"], out["message"] = error.errno, str(error)
    # The same failure in the writing thread of an asynchronous save, at its
    # commit, after every tensor was handed over: it reaches the future.
    future = ckpt.save({"w": torch.ones(1000), "big": torch.ones(300_000)}, root, step=1,
                       async_save=True)
    out["async_errno"] = future.exception(timeout=60).errno
    target = {"w": torch.zeros(1000)}
    out["latest"] = ckpt.latest(root)
    out["entries"] = sorted(os.listdir(root))
    out["loaded"] = ckpt.load(target, root).step
    out["equal"] = torch.equal(target["w"], torch.arange(1000.0))
    print(json.dumps(out))
""")


def test_full_disk_during_save(tmp_path):
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "-rm", "true"], capture_output=True) \
        if unshare else None
    if probe is None or probe.returncode != 0:
        pytest.skip("unshare -rm (user namespaces) is not available here to mount a small tmpfs")
    mount = tmp_path / "disk"
    mount.mkdir()
    run = subprocess.run(
        [unshare, "-rm", "sh", "-c",
         f'mount -t tmpfs -o size=512k none "{mount}" && exec "$0" -c "$1" "{mount}/root"',
         sys.executable, SCRIPT],
        capture_output=True, text=True, timeout=120, env=os.environ)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.splitlines()[-1])
    assert out["errno"] == out["async_errno"] == 28, out  # ENOSPC
    assert "step-000000000001/rank-00000.data at offset 0 length" in out["message"], out
    assert "No space left on device" in out["message"], out
    assert out["latest"] == 0 and out["loaded"] == 0 and out["equal"], out
    # The failed step's directory is gone: a lone rank aborts its save.
    assert out["entries"] == ["latest", "step-000000000000"], out
