"""Stores and counters of the runtime behind ``torch.ops.ssdopt.*``.

A store is a directory for offloaded tensors. Its data file exists only while
it holds a live handle (one offloaded and not yet waited for or discarded),
or once disk space was reserved in it (`reserve`), in a directory of the
store's own whose lock the process holds; opening a store removes those of
stores whose process died without closing them (a SIGKILL)::

    from ssdopt import runtime

    store = runtime.open_store("/nvme/scratch")   # OSError if unusable
    ...                                           # torch.ops.ssdopt.offload(x, store)
    print(runtime.stats()["bytes_written"])
    runtime.close_store(store)

docs/python.md ("Runtime ops") states the semantics.
"""

from . import _C, _ops  # noqa: F401  (_ops registers the operators' fakes)


def open_store(directory: str) -> int:
    """Opens a store on ``directory`` and returns its id.

    The directory must exist and be writable (a probe file is created and
    removed); otherwise raises an ``OSError`` naming it and the cause
    (``FileNotFoundError``, ``NotADirectoryError``, ``PermissionError``, ...).
    The files of dead stores in it (``ssdopt-store-*`` directories whose
    ``owner.lock`` no live process holds) are removed, each with a warning;
    a live store's never are.
    """
    return _C.open_store(str(directory))


def close_store(store: int) -> None:
    """Waits for the writes in flight, drops the store's handles and deletes
    its data files. Using a handle of the store afterwards raises."""
    _C.close_store(store)


def stats() -> dict:
    """Process-wide counters, summed over every store.

    ``bytes_written``/``bytes_read``: bytes of tensors whose write completed
    (counted when prefetch, wait or discard sees it) and of tensors read
    back; ``offloads``/``reloads``: offload calls and wait calls that
    returned a tensor; ``failures``: transfers that failed (each raised, or
    dropped by discard); ``stall_seconds``: time spent blocked in wait;
    ``write_stall_seconds``: time prefetch or discard waited for a write
    still in flight; ``live_handles`` and ``open_stores``: current values.
    """
    return _C.stats()


def reset_stats() -> None:
    """Zeroes the counters (not ``live_handles`` and ``open_stores``)."""
    _C.reset_stats()


def reserve(store: int, sizes_by_device: dict) -> None:
    """Allocates on disk now the space that offloads of the given byte sizes
    will write in ``store`` (``{device: [bytes, ...]}``, a CUDA index or -1
    for host tensors), so that none of them can fail for a full disk: a
    caller that must not fail half way (a training step) reserves first. A
    full disk raises ``RuntimeError`` here, naming the data file and the
    offset. The store then keeps its data files (and the space) until it is
    closed."""
    for device, sizes in sizes_by_device.items():
        _C.reserve(store, int(device), [int(size) for size in sizes])
