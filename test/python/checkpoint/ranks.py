"""Process groups of gloo ranks that stay up for the whole test session.

Starting a rank means importing torch, which takes seconds on the 2-core CI
machine; so each world size gets one group of processes, forked from one
forkserver that imported torch once, and every test sends its case (a
function of cases.py and its arguments) to the ranks over pipes. A rank that
raises sends back its traceback; a rank that hangs is killed after the
timeout, which fails the test instead of the session.
"""

from __future__ import annotations

import multiprocessing
import os
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))


class RankError(Exception):
    """What a rank raised (its type, message and traceback text)."""

    def __init__(self, rank: int, kind: str, message: str, text: str):
        super().__init__(f"rank {rank}: {kind}: {message}\n{text}")
        self.rank, self.kind, self.message = rank, kind, message


def _serve(rank: int, world: int, init_file: str, conn) -> None:
    import torch.distributed as dist

    import cases

    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank,
                            world_size=world)
    try:
        while (message := conn.recv()) is not None:
            name, args, kwargs = message
            try:
                conn.send(("ok", getattr(cases, name)(*args, **kwargs)))
            except BaseException as error:  # noqa: BLE001 - sent to the test
                conn.send(("error", type(error).__name__, str(error), traceback.format_exc()))
    finally:
        dist.destroy_process_group()


class Group:
    """`world` gloo ranks running cases.py's functions on request."""

    def __init__(self, context, world: int):
        self.world = world
        self.init_file = tempfile.mktemp(prefix=f"ssdopt-gloo-{world}-")
        self.conns, self.procs = [], []
        for rank in range(world):
            parent, child = context.Pipe()
            proc = context.Process(target=_serve, args=(rank, world, self.init_file, child),
                                   daemon=True)
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)

    def run(self, case: str, *args, timeout: float = 120.0, **kwargs) -> list:
        """Every rank's return value; raises the first RankError otherwise."""
        results = self.run_all(case, *args, timeout=timeout, **kwargs)
        for result in results:
            if isinstance(result, RankError):
                raise result
        return results

    def run_all(self, case: str, *args, timeout: float = 120.0, **kwargs) -> list:
        """Every rank's return value or RankError, in rank order."""
        for conn in self.conns:
            conn.send((case, args, kwargs))
        results = []
        for rank, conn in enumerate(self.conns):
            if not conn.poll(timeout):
                self.close(kill=True)
                raise TimeoutError(f"rank {rank} of {self.world} did not finish {case} "
                                   f"in {timeout} s")
            reply = conn.recv()
            results.append(reply[1] if reply[0] == "ok" else RankError(rank, *reply[1:]))
        return results

    def close(self, kill: bool = False) -> None:
        for conn, proc in zip(self.conns, self.procs):
            try:
                if kill:
                    proc.kill()
                else:
                    conn.send(None)
            except (OSError, ValueError):
                pass
        for proc in self.procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
        self.conns, self.procs = [], []
        if os.path.exists(self.init_file):
            os.unlink(self.init_file)


class Groups:
    """One Group per world size, made on first use."""

    def __init__(self):
        # The forkserver must find cases.py and this module.
        path = os.environ.get("PYTHONPATH", "")
        os.environ["PYTHONPATH"] = HERE + (os.pathsep + path if path else "")
        self.context = multiprocessing.get_context("forkserver")
        self.context.set_forkserver_preload(["torch", "torch.distributed.tensor", "cases"])
        self.groups: dict[int, Group] = {}

    def __call__(self, world: int) -> Group:
        group = self.groups.get(world)
        if group is None or not group.procs:
            group = self.groups[world] = Group(self.context, world)
        return group

    def close(self) -> None:
        for group in self.groups.values():
            group.close()
