"""Cost attributes of an exported kernel: FLOPs and bytes of memory traffic.

FLOPs come from the formulas of ``torch.utils.flop_counter`` (matmuls,
convolutions, attention), evaluated on the shapes an FX node records in
``node.meta["val"]``; ops without a formula count 0 and the planner's cost
model then times them by their bytes. Example::

    flops = kernel_flops(node)          # 2*M*N*K for an aten.mm node
    traffic = kernel_bytes(node, operands, results)
"""

from __future__ import annotations

import logging

import torch
import torch.fx

logger = logging.getLogger("ssdopt")


def tensor_bytes(t: torch.Tensor) -> int:
    """Bytes of a dense tensor of `t`'s shape and dtype (sizes must be static)."""
    return int(t.numel()) * t.element_size()


def kernel_flops(node: torch.fx.Node) -> float:
    """FLOPs of `node` by flop_counter's registry, or 0.0 without a formula."""
    from torch.utils.flop_counter import flop_registry

    target = node.target
    packet = getattr(target, "overloadpacket", target)
    formula = flop_registry.get(packet)
    if formula is None:
        return 0.0

    def value(arg):
        return arg.meta.get("val") if isinstance(arg, torch.fx.Node) else arg

    args = torch.fx.node.map_aggregate(node.args, value)
    kwargs = torch.fx.node.map_aggregate(node.kwargs, value)
    try:
        return float(formula(*args, **kwargs, out_val=node.meta.get("val")))
    except Exception:
        logger.warning("no FLOP count for %s (%s): its formula failed",
                       node.name, target, exc_info=True)
        return 0.0


def kernel_bytes(node: torch.fx.Node, operands: list[torch.Tensor],
                 results: list[torch.Tensor]) -> int:
    """Memory traffic of `node`: bytes of its tensor operands and results.

    A view (``aten.view``, ``aten.t``, ``aten.expand``...) reads and writes
    nothing, so it counts 0.
    """
    if getattr(node.target, "is_view", False):
        return 0
    return sum(tensor_bytes(t) for t in operands) + sum(
        tensor_bytes(t) for t in results)
