"""The backend's options read ssd-opt's own rules: the memory-size grammar
and the policy list come from `ssd-opt`, never from a Python copy."""

import subprocess

import pytest

from ssdopt import options


@pytest.mark.parametrize("text", ["1e9", "1.5GiB", "512MiB", " 2 GB ", "4096", "100KB", "0.5K"])
def test_memory_sizes_are_ssd_opt_s(ssd_opt, text):
    answer = subprocess.run([ssd_opt, f"--ssd-memory-size={text}"], capture_output=True, text=True, check=True)
    assert options.parse_memory_size(text, ssd_opt) == int(answer.stdout)


def test_scientific_notation_is_a_size(ssd_opt):
    # The Python copy of the grammar that this replaced refused it.
    assert options.parse_memory_size("1e9", ssd_opt) == 10**9


def test_bad_size_carries_ssd_opt_s_reason(ssd_opt):
    with pytest.raises(ValueError, match=r"cannot parse memory size 'lots': invalid memory size 'lots'"):
        options.parse_memory_size("lots", ssd_opt)
    with pytest.raises(ValueError, match="must be positive"):
        options.parse_memory_size("0B", ssd_opt)
    with pytest.raises(ValueError, match="must be positive"):
        options.parse_memory_size(0, ssd_opt)


def test_python_holds_no_grammar_of_its_own(tmp_path):
    # An ssd-opt that answers 12345 to everything: Python must say the same.
    fake = tmp_path / "ssd-opt"
    fake.write_text("#!/bin/sh\necho 12345\n")
    fake.chmod(0o755)
    assert options.parse_memory_size("2GiB", str(fake)) == 12345


def test_policies_are_the_planner_s(ssd_opt):
    listed = subprocess.run([ssd_opt, "--ssd-list-policies"], capture_output=True, text=True, check=True)
    assert options.policies(ssd_opt) == tuple(listed.stdout.split())
    assert options.policies(ssd_opt)[0] == "ssd"
    # The exact search is a policy like the others, so Python can offer it.
    assert options.policies(ssd_opt)[-1] == "exact"


def test_parse_options_uses_both(ssd_opt, tmp_path):
    parsed = options.parse_options(
        {"memory_budget": "1e9", "offload_dir": str(tmp_path), "policy": "fixed-depth", "ssd_opt": ssd_opt}
    )
    assert (parsed.memory_budget, parsed.policy) == (10**9, "fixed-depth")
    with pytest.raises(ValueError, match="unknown policy 'lru'; expected one of ssd, reload-on-use"):
        options.parse_options({"memory_budget": "1GiB", "offload_dir": str(tmp_path), "policy": "lru", "ssd_opt": ssd_opt})
