"""compile_step's restart safety, full disk and bad input: each an error that
names what went wrong, with the step's state unchanged."""

from __future__ import annotations

import copy
import os
import pathlib
import signal
import subprocess
import sys

import pytest
import torch

import ssdopt
from ssdopt.wholestep import StepError

import cases

HERE = pathlib.Path(__file__).resolve().parent


def options(ssd_opt, directory, budget="50%", **extra):
    return {"memory_budget": budget, "offload_dir": str(directory), "ssd_opt": ssd_opt,
            "measure_peak": False, **extra}


def snapshot(step):
    return {key: value.clone() for key, value in step.state_dict().items()}


def test_two_live_steps_on_one_directory_is_an_error(ssd_opt, tmp_path):
    model, _, loss_fn = cases.mlp()
    other = copy.deepcopy(model)
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn, options(ssd_opt, tmp_path)):
        with pytest.raises(RuntimeError, match=rf"used by a live step \(pid {os.getpid()}"):
            ssdopt.compile_step(other, cases.adamw(other), loss_fn, options(ssd_opt, tmp_path))
    # Once the first is closed, the directory is free again.
    ssdopt.compile_step(other, cases.adamw(other), loss_fn, options(ssd_opt, tmp_path)).close()


def test_sigkill_mid_step_then_a_new_step_cleans_up(ssd_opt, tmp_path):
    """A step killed with SIGKILL while stepping leaves its files (in its
    store's directory); the next compile_step on the directory takes the
    dead step's lock, and its store removes them."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HERE), str(HERE.parent)] + sys.path))
    child = subprocess.Popen([sys.executable, str(HERE / "sigkill_step.py"), str(tmp_path), ssd_opt],
                             stdout=subprocess.PIPE, env=env)
    try:
        assert child.stdout.readline().strip() == b"stepping"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        child.kill()
    dead = list(tmp_path.glob("ssdopt-store-*"))
    assert [path for directory in dead for path in directory.iterdir()
            if path.name != "owner.lock"], "the killed step's files are on disk"
    model, batches, loss_fn = cases.mlp()
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn, options(ssd_opt, tmp_path)) as step:
        assert not any(directory.exists() for directory in dead)
        assert (tmp_path / "ssdopt-step.lock").read_text().strip() == str(os.getpid())
        step(**batches[0])
    assert os.listdir(tmp_path) == []


@pytest.fixture
def small_tmpfs(tmp_path):
    """A real tmpfs of 1 MiB (remount it to resize), or a skip where this
    user cannot mount."""
    mount = tmp_path / "tmpfs"
    mount.mkdir()
    result = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {result.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def resize(mount, size: int) -> None:
    subprocess.run(["mount", "-o", f"remount,size={size}", str(mount)], check=True)


def used_bytes(mount) -> int:
    stat = os.statvfs(mount)
    return (stat.f_blocks - stat.f_bfree) * stat.f_frsize


def test_full_disk_mid_step_raises_and_the_step_can_be_retried(ssd_opt, small_tmpfs, tmp_path):
    """The disk has 4 KiB of room when the step starts (the ResNet at 25%
    of its peak, state on SSD): RuntimeError naming the file and
    the offset; the state is as before; after room is made, the same call
    succeeds and matches a step that never failed, bitwise (the step
    reserves its writes first: the disk full at later points is the next
    test)."""
    model, batches, loss_fn = cases.cnn()
    twin = copy.deepcopy(model)
    resize(small_tmpfs, 64 << 20)
    step = ssdopt.compile_step(model, cases.adamw(model), loss_fn, options(ssd_opt, small_tmpfs, "25%"))
    (tmp_path / "twin").mkdir()
    reference = ssdopt.compile_step(twin, cases.adamw(twin), loss_fn, options(ssd_opt, tmp_path / "twin", "25%"))
    with step, reference:
        step.prepare(**batches[0])  # the state that enters on SSD is written now
        assert any(entry.on_ssd for entry in step._persistent_state())
        before = snapshot(step)
        resize(small_tmpfs, used_bytes(small_tmpfs) + (4 << 10))
        with pytest.raises(RuntimeError, match=r"ssdrt-\S+\.data at offset \d+ .*No space left on device"):
            step(**batches[0])
        after = snapshot(step)
        assert after.keys() == before.keys()
        for key, value in before.items():
            assert torch.equal(value, after[key]), key
        resize(small_tmpfs, 64 << 20)
        assert torch.equal(step(**batches[0]), reference(**batches[0]))
        assert torch.equal(step(**batches[1]), reference(**batches[1]))
        for key, value in snapshot(reference).items():
            assert torch.equal(value, step.state_dict()[key]), key


def extent_bytes(writes) -> int:
    """The disk space the step's writes take: whole 4 KiB blocks each
    (ssdrt's extents)."""
    return sum(max(4096, -(-n // 4096) * 4096) for sizes in writes.values() for n in sizes if n)


def test_full_disk_at_any_point_of_the_step_leaves_it_retryable(ssd_opt, small_tmpfs, tmp_path):
    """The MLP at 50%: state of 4 MiB stays in memory and is freed at its last
    use (its update), with 4 writes after that. The disk is full at several
    points of the step's 26 MiB of writes, at none and past the free of that
    state included: each raises RuntimeError naming the file and offset,
    before anything changed (the step reserves the space of its writes
    first), and the step then runs bitwise like one that never failed. A
    control without the reservation fails at the last of those points in
    the middle of the step, after the free: not retryable."""
    model, batches, loss_fn = cases.mlp()
    twin = copy.deepcopy(model)
    resize(small_tmpfs, 128 << 20)
    step = ssdopt.compile_step(model, cases.adamw(model), loss_fn, options(ssd_opt, small_tmpfs))
    (tmp_path / "twin").mkdir()
    reference = ssdopt.compile_step(twin, cases.adamw(twin), loss_fn, options(ssd_opt, tmp_path / "twin"))
    with step, reference:
        step.prepare(**batches[0])
        program = next(iter(step._programs.values()))
        large = [e.name for e in step._persistent_state() if not e.on_ssd and e.nbytes > 64 << 10]
        assert large, "some state above 64 KiB stays in memory"
        sizes = [n for sizes in program.writes.values() for n in sizes]
        assert len(sizes) >= 4
        before = snapshot(step)
        # Room for none of the writes, for a quarter, half, all but the last.
        points = [0, len(sizes) // 4, len(sizes) // 2, len(sizes) - 1]
        for count in points:
            resize(small_tmpfs, used_bytes(small_tmpfs) + extent_bytes({-1: sizes[:count]}))
            with pytest.raises(RuntimeError, match=r"fallocate of \S+/ssdrt-\S+\.data at offset \d+ "
                                                   r"length \d+ failed: No space left on device"):
                step(**batches[0])
            after = snapshot(step)
            for key, value in before.items():
                assert torch.equal(value, after[key]), (count, key)
        resize(small_tmpfs, 128 << 20)
        for batch in batches[:2]:
            assert torch.equal(step(**batch), reference(**batch))
        # The disk exactly full: whatever the step still needs fails up
        # front, or it needs nothing more; either way the same result.
        resize(small_tmpfs, used_bytes(small_tmpfs))
        try:
            loss = step(**batches[2])
        except RuntimeError as error:
            assert "No space left on device" in str(error)
            resize(small_tmpfs, 128 << 20)
            loss = step(**batches[2])
        assert torch.equal(loss, reference(**batches[2]))
        for key, value in snapshot(reference).items():
            assert torch.equal(value, step.state_dict()[key]), key

    # The control: a fresh step without the reservation, room for half its
    # writes (it frees and reuses extents on the way: measured, it fails in
    # the update, after the free, with room for 8 to 16 of its 26 MiB),
    # fails after it freed the in-memory state.
    model, batches, loss_fn = cases.mlp()
    resize(small_tmpfs, 128 << 20)
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn, options(ssd_opt, small_tmpfs)) as step:
        step._reserve = False
        step.prepare(**batches[0])
        resize(small_tmpfs, used_bytes(small_tmpfs) + extent_bytes({-1: sizes}) // 2 // 4096 * 4096)
        with pytest.raises(RuntimeError, match="cannot be retried"):
            step(**batches[0])
        resize(small_tmpfs, 128 << 20)


class Tied(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(16, 8)
        self.head = torch.nn.Linear(8, 16, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, x):
        return self.head(self.embed(x))


@pytest.mark.parametrize("make_optimizer, message", [
    (lambda p: torch.optim.RMSprop(p), "RMSprop is not supported"),
    (lambda p: torch.optim.Adam(p, capturable=True), "capturable=True"),
])
def test_unsupported_optimizers(ssd_opt, tmp_path, make_optimizer, message):
    model, _, loss_fn = cases.mlp()
    with pytest.raises(StepError, match=message):
        ssdopt.compile_step(model, make_optimizer(model.parameters()), loss_fn, options(ssd_opt, tmp_path))
    assert os.listdir(tmp_path) == []


def test_shared_parameters(ssd_opt, tmp_path):
    model = Tied()
    with pytest.raises(StepError, match=r"shared between modules.*embed\.weight = head\.weight"):
        ssdopt.compile_step(model, torch.optim.SGD(model.parameters(), lr=0.1), None, options(ssd_opt, tmp_path))


def test_bad_options(ssd_opt, tmp_path):
    model, _, loss_fn = cases.mlp()
    optimizer = cases.adamw(model)
    with pytest.raises(StepError, match="unknown option 'budget'"):
        ssdopt.compile_step(model, optimizer, loss_fn, {"budget": 1, "offload_dir": str(tmp_path)})
    with pytest.raises(StepError, match="max_grad_norm must be a positive number"):
        ssdopt.compile_step(model, optimizer, loss_fn, options(ssd_opt, tmp_path, max_grad_norm=-1))
    with pytest.raises(StepError, match="does not exist"):
        ssdopt.compile_step(model, optimizer, loss_fn, options(ssd_opt, tmp_path / "missing"))


def test_budget_below_any_plan_fails_before_the_first_step(ssd_opt, tmp_path):
    """PlanningError naming the op and what it needs; the model keeps its
    parameters (nothing was taken or moved)."""
    model, batches, loss_fn = cases.mlp()
    weights = {name: p.detach().clone() for name, p in model.named_parameters()}
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn, options(ssd_opt, tmp_path, "64KiB")) as step:
        with pytest.raises(ssdopt.PlanningError, match="over the memory budget of 65536 bytes") as error:
            step(**batches[0])
        assert error.value.infeasible and error.value.required_bytes > 65536 and error.value.op
        assert step._persistent_state() == []
    for name, p in model.named_parameters():
        assert torch.equal(p, weights[name])
