"""Step.save_checkpoint / load_checkpoint and options["checkpoint"] on a
compiled step (ssdopt.compile_step), whose state is partly on SSD.

- save_checkpoint from a step at 50% of its peak: nothing is staged through
  torch (the profiler sees no allocation but the generator state's), so the
  save adds no tensor memory to what the step holds; the library's buffers
  are the only resident growth;
  the checkpoint verifies with ``ssd-ckpt`` and loads with
  ``ssdopt.checkpoint.load``; load_checkpoint onto a step with another
  budget and onto one that has not run yet gives the same state and the
  same next losses, bitwise;
- compiler-placed shards every step for three steps, then a load onto
  another budget restores exactly the last committed step.
"""

from __future__ import annotations

import copy
import subprocess

import torch

import ssdopt
import ssdopt.checkpoint as ckpt
from ssdopt import step_checkpoint

import cases
from test_step_checkpoint import peak_rss_bytes, reset_peak_rss, ssd_ckpt


def options(ssd_opt, directory, budget, **extra):
    directory.mkdir(exist_ok=True)
    return {"memory_budget": budget, "offload_dir": str(directory), "ssd_opt": ssd_opt,
            "max_grad_norm": 1.0, **extra}


def torch_bytes_allocated_during(fn) -> tuple[object, int]:
    """fn's result and the most bytes torch's CPU allocator held at once for
    allocations made during fn (the profiler's memory events)."""
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
        result = fn()
    events = sorted((e.start_ns(), e.nbytes()) for e in prof.profiler.kineto_results.events()
                    if e.name() == "[memory]")
    live = peak = 0
    for _, nbytes in events:
        live += nbytes
        peak = max(peak, live)
    return result, peak


def state_of(step) -> dict[str, torch.Tensor]:
    return {name: value.clone() for name, value in step.state_dict().items()}


def test_save_and_load_checkpoint_onto_other_budgets(ssd_opt, tmp_path):
    model, batches, loss_fn = cases.mlp()
    twins = [copy.deepcopy(model), copy.deepcopy(model)]
    root = tmp_path / "ckpt"
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn,
                             options(ssd_opt, tmp_path / "a", "50%")) as first:
        for batch in batches[:2]:
            first(**batch)
        entries = first._persistent_state()
        on_ssd = sum(e.nbytes for e in entries if e.on_ssd)
        in_memory = sum(e.nbytes for e in entries if not e.on_ssd)
        assert on_ssd > 0 and in_memory > 0

        before = reset_peak_rss()
        directory, allocated = torch_bytes_allocated_during(lambda: first.save_checkpoint(root))
        grown = peak_rss_bytes() - before
        # Nothing of the state is staged through torch (the state in memory
        # is written as it is, the state on SSD file to file): the one
        # allocation is the generator state the checkpoint records.
        assert allocated <= torch.get_rng_state().numel()
        # The library's buffers: 8 MiB for the file copies, at most 32 MiB
        # of the writer's staging.
        assert grown < 48 << 20, f"{grown >> 20} MiB"
        assert directory.endswith("step-000000000002")
        saved = state_of(first)
        verify = subprocess.run([ssd_ckpt(), "verify", str(root)], capture_output=True, text=True)
        assert verify.returncode == 0, verify.stderr
        flat = {name: torch.empty_like(value) for name, value in saved.items()}
        assert ckpt.load(flat, root).step == 2
        assert all(torch.equal(flat[n], saved[n]) for n in saved)
        losses = [first(**batch) for batch in batches[2:]]

    # Onto a step with another budget (other tensors on SSD), and onto a
    # step that has not run yet (the model and optimizer take the state).
    with ssdopt.compile_step(twins[0], cases.adamw(twins[0]), loss_fn,
                             options(ssd_opt, tmp_path / "b", "40%")) as second, \
            ssdopt.compile_step(twins[1], cases.adamw(twins[1]), loss_fn,
                                options(ssd_opt, tmp_path / "c", "100%")) as third:
        second.prepare(**batches[0])
        assert any(e.on_ssd for e in second._persistent_state())
        assert second.load_checkpoint(root) == 2
        assert third.load_checkpoint(root) == 2
        for name, value in state_of(second).items():
            assert torch.equal(value, saved[name]), name
        for batch, loss in zip(batches[2:], losses):
            assert torch.equal(second(**batch), loss)
            assert torch.equal(third(**batch), loss)


def test_compiler_placed_shards_every_step_restore_the_last_committed(ssd_opt, tmp_path):
    model, batches, loss_fn = cases.mlp()
    twin = copy.deepcopy(model)
    root = tmp_path / "ckpt"
    checkpoint = {"root": str(root), "every": 1, "keep_last": 2}
    history = []
    with ssdopt.compile_step(model, cases.adamw(model), loss_fn,
                             options(ssd_opt, tmp_path / "a", "50%",
                                     checkpoint=checkpoint)) as step:
        for batch in batches[:3]:
            step(**batch)
            history.append(state_of(step))
        program = next(iter(step._programs.values()))
        saves = [n for n in program.nodes if n.target is step_checkpoint.save_shard]
        assert len(saves) == len(history[0])
        assert any(e.on_ssd for e in step._persistent_state())
    assert [(c["step"], c["committed"]) for c in ckpt.listing(root)] == [(2, True), (3, True)]
    second = ckpt.to_state_dict(root / "step-000000000002")
    assert all(torch.equal(second[n], history[1][n]) for n in history[1])
    with ssdopt.compile_step(twin, cases.adamw(twin), loss_fn,
                             options(ssd_opt, tmp_path / "b", "40%")) as restored:
        restored.prepare(**batches[0])
        assert restored.load_checkpoint(root) == 3
        for name, value in state_of(restored).items():
            assert torch.equal(value, history[2][name]), name
