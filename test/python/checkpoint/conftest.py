"""Fixtures of the checkpoint tests: gloo process groups shared by all tests."""

import pytest

from ranks import Groups


@pytest.fixture(scope="session")
def ranks():
    """ranks(N) -> a Group of N gloo ranks, started once per session."""
    groups = Groups()
    yield groups
    groups.close()


@pytest.fixture(scope="session")
def s3():
    """A SeaweedFS S3 server on loopback (seaweed.py), started once per
    session; tests take a new bucket each (`s3.bucket()`)."""
    from seaweed import Server

    server = Server()
    server.start()
    yield server
    server.close()
