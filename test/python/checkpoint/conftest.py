"""Fixtures of the checkpoint tests: gloo process groups shared by all tests."""

import pytest

from ranks import Groups


@pytest.fixture(scope="session")
def ranks():
    """ranks(N) -> a Group of N gloo ranks, started once per session."""
    groups = Groups()
    yield groups
    groups.close()
