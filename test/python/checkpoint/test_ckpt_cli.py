"""python -m ssdopt checkpoint ls|inspect|verify: once as a user runs it,
then through ssdopt.__main__.main in this process (importing torch in a new
process per call would take most of the suite's time)."""

import contextlib
import io
import json
import os
import subprocess
import sys
from types import SimpleNamespace

import torch

import ssdopt.checkpoint as ckpt
from ssdopt.__main__ import main


def cli(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["checkpoint", *map(str, args)])
        except SystemExit as exit:
            code = exit.code
    return SimpleNamespace(returncode=code, stdout=out.getvalue(), stderr=err.getvalue())


def test_ls_inspect_verify(tmp_path):
    ckpt.save({"w": torch.ones(3, 4), "opt": {"lr": 0.5, "betas": (0.9, 0.99)}}, tmp_path)
    ckpt.save({"w": torch.ones(3, 4), "opt": {"lr": 0.25, "betas": (0.9, 0.99)}}, tmp_path)
    run = subprocess.run([sys.executable, "-m", "ssdopt", "checkpoint", "ls", str(tmp_path)],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0].split() == ["STEP", "NAME", "STATE", "SIZE"]
    assert lines[1].split()[:3] == ["0", "step-000000000000", "committed"]
    assert lines[2].split()[:3] == ["1", "step-000000000001", "committed"]
    assert lines[2].endswith("<- latest") and not lines[1].endswith("<- latest")

    run = cli("inspect", tmp_path)
    assert run.returncode == 0, run.stderr
    assert f"checkpoint {tmp_path}/step-000000000001" in run.stdout
    assert "format version 2, step 1, world size 1, 1 tensors" in run.stdout
    assert any(line.split()[:4] == ["w", "F32", "[3,", "4]"] for line in run.stdout.splitlines())
    assert "opt/lr = 0.25" in run.stdout and "opt/betas/1 = 0.99" in run.stdout

    run = cli("verify", tmp_path / "step-000000000000")
    assert run.returncode == 0, run.stderr
    assert "every checksum of 1 tensors matches" in run.stdout

    directory = tmp_path / "step-000000000001"
    manifest = json.loads((directory / "manifest.json").read_text())
    chunk = next(t for t in manifest["tensors"] if t["name"] == "w")["chunks"][0]
    with open(directory / chunk["file"], "r+b") as f:
        f.seek(chunk["file_offset"] + 5)
        byte = f.read(1)
        f.seek(chunk["file_offset"] + 5)
        f.write(bytes([byte[0] ^ 1]))
    run = cli("verify", tmp_path)
    assert run.returncode == 1
    assert "ssdopt checkpoint verify: error:" in run.stderr and chunk["file"] in run.stderr


def test_errors_are_one_line(tmp_path):
    run = cli("inspect", tmp_path / "missing")
    assert run.returncode == 1
    assert run.stderr.strip().endswith("does not exist") and "Traceback" not in run.stderr
    run = cli("ls", "nosuch://bucket/run")
    assert run.returncode == 1 and "nosuch:// is not supported" in run.stderr
    assert os.listdir(tmp_path) == []
