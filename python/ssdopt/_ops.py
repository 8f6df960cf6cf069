"""The runtime ops ``torch.ops.ssdopt.*`` and their fake implementations.

Importing this module loads the extension ``ssdopt._C``, which registers the
operators on the ssdrt runtime, and registers the fake (meta) implementations
that let them trace under FakeTensorMode, AOTAutograd and dynamo::

    import torch, ssdopt._ops
    from ssdopt import runtime

    store = runtime.open_store("/nvme/scratch")
    handle = torch.ops.ssdopt.offload(x, store)      # async write; x may go
    ticket = torch.ops.ssdopt.prefetch(handle)       # async read
    y = torch.ops.ssdopt.wait(ticket, x.shape, x.stride(), x.dtype, x.device)

docs/python.md ("Runtime ops") states the semantics.
"""

import atexit

import torch

from . import _C

if _C.torch_version != torch.__version__:
    raise ImportError(
        f"ssdopt._C was built against torch {_C.torch_version}, but torch "
        f"{torch.__version__} is installed; rebuild it against this torch with "
        "`pip install --no-build-isolation ./python` (or scripts/setup)"
    )

# Every handle still live at exit is dropped and the data files deleted.
atexit.register(_C.close_all_stores)


def _handle_like() -> torch.Tensor:
    return torch.empty((), dtype=torch.int64, device="cpu")


@torch.library.register_fake("ssdopt::offload")
def _offload_fake(x: torch.Tensor, store: int) -> torch.Tensor:
    return _handle_like()


@torch.library.register_fake("ssdopt::prefetch")
def _prefetch_fake(handle: torch.Tensor) -> torch.Tensor:
    return _handle_like()


@torch.library.register_fake("ssdopt::wait")
def _wait_fake(ticket, size, stride, dtype, device, keep=False) -> torch.Tensor:
    return torch.empty_strided(size, stride, dtype=dtype, device=device)


@torch.library.register_fake("ssdopt::sync")
def _sync_fake(handle: torch.Tensor) -> None:
    return None


@torch.library.register_fake("ssdopt::discard")
def _discard_fake(handle: torch.Tensor) -> None:
    return None


# The ops move data behind the graph's back: dead-code elimination must keep
# them even where a result looks unused.
for _op in (
    torch.ops.ssdopt.offload.default,
    torch.ops.ssdopt.prefetch.default,
    torch.ops.ssdopt.wait.default,
    torch.ops.ssdopt.sync.default,
    torch.ops.ssdopt.discard.default,
):
    torch.fx.node.has_side_effect(_op)
