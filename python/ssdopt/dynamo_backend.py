"""The `torch.compile` backend "ssd".

For each graph dynamo captures, AOTAutograd traces the joint forward and
backward graph and partitions it (the default partitioner under the eager
inner compiler, inductor's min-cut one under inductor). Then:

1. The forward and backward graphs are joined into one step, in execution
   order, and exported to the input IR of `ssd-opt`, with the backward's
   first op marked (`ssd.backward_start`).
2. `ssd-opt --ssd-offload-pipeline` plans it at the memory budget, moving
   what the graphs make (`MOVABLE_ROLES`): saved activations, and values
   inside the forward or the backward. (Under inductor, the graphs as its
   post-grad pattern passes leave them: `_inductor_partition`.) Constants
   are made again at each use, so none moves
   (`exporter.rematerialize_constants`).
   Parameters, inputs and the forward's outputs belong to the caller
   (`ssd.resident`), so moving them would free nothing.
3. Each saved activation the plan moves is written to `offload_dir` by
   `ssdopt.offload` right after its last forward use (the forward returns a
   small handle in its place, so its memory is freed once the write is done);
   the backward starts `ssdopt.prefetch` at the planned point and
   `ssdopt.wait`s right before the first use. A value moved inside one
   graph is written after its last use before the gap and waited for
   before its next use, which (and every later use) reads the reload.

Saved tensors that share storage (a tensor and its views) move together: the
one that covers the storage is written once and the others are rebuilt as
views of it after the wait. Saved tensors that alias a graph input stay.
"""

from __future__ import annotations

import dataclasses
import operator
import functools
import itertools
import json
import logging
import os
import weakref
from typing import Any, Callable, Mapping, Sequence

import torch
import torch.fx
from torch._inductor.custom_graph_pass import CustomPartitionerFn
from torch._prims_common import is_non_overlapping_and_dense_or_false
from torch.multiprocessing.reductions import StorageWeakRef

from . import planning
from .options import Options, parse_options

logger = logging.getLogger("ssdopt")

# A budget above any graph's peak: plans nothing, reports the peak.
_NO_LIMIT = 1 << 62

# What the backend may move: saved activations across the forward/backward
# boundary, and inside the forward or the backward every value it makes
# (temporaries, gradients until the backward returns them), under either
# inner compiler. Parameters and inputs are the caller's, and so are the
# forward's outputs (ssd.resident).
MOVABLE_ROLES = "activation,gradient,temporary"

# One entry per graph the backend planned, for `ssdopt.stats()`.
_planned_graphs: list[dict[str, Any]] = []
_graph_ids = itertools.count()


def planned_graphs() -> list[dict[str, Any]]:
    return list(_planned_graphs)


def backend(**options: Any) -> Callable[..., Any]:
    """The backend with its options checked now: pass the result as
    `torch.compile(model, backend=ssdopt.backend(memory_budget=..., ...))`."""
    return _SsdBackend(parse_options(options))


def ssd_backend(
    gm: torch.fx.GraphModule,
    example_inputs: Sequence[Any],
    options: Mapping[str, Any] | None = None,
    **unsupported: Any,
) -> Any:
    """The entry point `torch.compile(..., backend="ssd", options={...})`
    reaches through `torch_dynamo_backends`."""
    if unsupported:
        raise ValueError(
            f"the 'ssd' backend does not take {', '.join(sorted(unsupported))}; "
            "pass its settings in options={...}"
        )
    return _SsdBackend(parse_options(options))(gm, example_inputs)


class _SsdBackend:
    def __init__(self, options: Options):
        self.options = options
        self._store: int | None = None
        # The bytes of every write the planned graphs make in a step, by
        # device (-1: the host), reserved on disk in the store.
        self._writes: dict[int, list[int]] = {}

    def store(self) -> int:
        if self._store is None:
            from . import runtime

            self._store = runtime.open_store(self.options.offload_dir)
        return self._store

    def reserve(self, writes: Mapping[int, Sequence[int]]) -> None:
        """Reserves on disk the writes of a graph just planned, with those
        of the graphs planned before (they may be in flight together): a
        full disk fails here, at compile time, not in the middle of a step.
        The store then keeps its runtime context and data file from step to
        step (`runtime.reserve`), rather than opening them at each step's
        first offload and deleting them at its last wait (about 10 ms a
        step on the zoo's VM: the staging pool locked and registered, the
        file allocated, written and discarded). `close()` deletes them."""
        from . import runtime

        for device, sizes in writes.items():
            self._writes.setdefault(device, []).extend(sizes)
        runtime.reserve(self.store(), self._writes)

    def close(self) -> None:
        """Closes the store: waits for writes in flight and deletes its data
        files (done at interpreter exit otherwise). A later graph opens a
        new one."""
        if self._store is not None:
            from . import runtime

            runtime.close_store(self._store)
            self._store = None
            self._writes = {}

    def __call__(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        from . import _ops  # noqa: F401  (registers torch.ops.ssdopt)

        # A bad offload_dir or a missing ssd-opt fails here, at compile time.
        self.store()
        planning.find_ssd_opt(self.options.ssd_opt)
        if any(_is_symbolic(value) for value in example_inputs):
            return _PlanPerShape(self, gm, example_inputs)
        return self.compile(gm, example_inputs)

    def compile(self, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]) -> Any:
        graph_id = next(_graph_ids)
        if self.options.inner == "eager":
            from torch._dynamo.backends.common import aot_autograd
            from torch._dynamo.backends.debugging import boxed_nop

            # The graphs run as aot_eager runs them (boxed_nop): their
            # generated code drops each input, saved tensors included, after
            # its last use. (Called with the unpacked arguments, the backward
            # held every saved tensor until it returned: T5's steps took
            # 1.5x aot_eager's at an unlimited budget, its minor page faults
            # 1.44x.)
            partition = functools.partial(self._partition, graph_id, _default_partition)
            return aot_autograd(
                fw_compiler=boxed_nop,
                bw_compiler=boxed_nop,
                partition_fn=partition,
                keep_inference_input_mutations=True,
            )(gm, example_inputs)

        from torch._inductor.compile_fx import compile_fx

        partitioner = _InductorPartitioner(self, graph_id)
        _register_inductor_offload()
        # Inductor lowers ssdopt.offload as _register_inductor_offload says (the saved
        # tensor gets the layout inductor gives a saved tensor, and its
        # memory is never recycled while the runtime may still read it), and
        # each backward is compiled with the strides its forward chose.
        # The FX graph cache would skip the forward's lowering, which is
        # where those strides are learned.
        patches = {"custom_partitioner_fn": partitioner, "fx_graph_cache": False}
        return compile_fx(gm, example_inputs, inner_compile=_inductor_inner_compile, config_patches=patches)

    def _partition(
        self,
        graph_id: int,
        partitioner: Callable[..., Any],
        joint: torch.fx.GraphModule,
        joint_inputs: Any,
        *,
        num_fwd_outputs: int,
        **kwargs: Any,
    ) -> tuple[torch.fx.GraphModule, torch.fx.GraphModule]:
        from .exporter import rematerialize_constants

        fw, bw = partitioner(joint, joint_inputs, num_fwd_outputs=num_fwd_outputs, **kwargs)
        for module in (fw, bw):
            if rematerialize_constants(module.graph):  # so that no plan moves one
                module.recompile()
        _OffloadRewriter(self, graph_id, fw, bw, num_fwd_outputs).run()
        return fw, bw


def _default_partition(joint: torch.fx.GraphModule, joint_inputs: Any, **kwargs: Any) -> tuple[torch.fx.GraphModule, torch.fx.GraphModule]:
    """AOTAutograd's default partition, less the random ops it leaves unused
    in the backward. (A graph traced with symbolic sizes gets them: the math
    attention's backward traces its forward again, dropout included. Running
    them would draw random numbers that eager autograd does not, and change
    every later dropout mask.)"""
    from torch._functorch.partitioners import default_partition

    fw, bw = default_partition(joint, joint_inputs, **kwargs)
    if bw.graph.eliminate_dead_code(is_impure_node=lambda node: node.is_impure(impure_random=False)):
        bw.recompile()
    return fw, bw


def _is_symbolic(value: Any) -> bool:
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return True
    return isinstance(value, torch.Tensor) and not all(
        isinstance(size, int) for size in (*value.shape, *value.stride())
    )


def _shape_key(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return (tuple(value.shape), value.stride(), value.dtype, value.device, value.requires_grad)
    return value if isinstance(value, (int, float, bool)) else type(value)


class _PlanPerShape:
    """A graph that dynamo traced with symbolic sizes (after it met a second
    input size, or from `mark_dynamic`). ssd-opt plans static shapes, so
    each set of concrete sizes the graph runs with is compiled and planned
    on its own, at its first call: as many plans as shapes, each exact."""

    def __init__(self, backend: _SsdBackend, gm: torch.fx.GraphModule, example_inputs: Sequence[Any]):
        self.backend = backend
        self.gm = gm
        self.compiled: dict[tuple[Any, ...], Callable[..., Any]] = {}
        # Only these inputs can change shape between calls (dynamo's guards
        # hold the others' sizes and strides): the key reads them alone, not
        # every parameter at every call.
        self.symbolic = [index for index, value in enumerate(example_inputs) if _is_symbolic(value)]
        logger.info(
            "a graph with symbolic sizes (%s): it is planned once per concrete shape, on first use",
            ", ".join(str(tuple(value.shape)) for value in example_inputs if isinstance(value, torch.Tensor) and _is_symbolic(value)),
        )

    def __call__(self, *args: Any) -> Any:
        key = tuple(_shape_key(args[index]) for index in self.symbolic)
        compiled = self.compiled.get(key)
        if compiled is None:
            logger.info(
                "planning the graph for the shapes %s",
                ", ".join(str(tuple(value.shape)) for value in args if isinstance(value, torch.Tensor)),
            )
            compiled = self.compiled[key] = self.backend.compile(self.gm, list(args))
        return compiled(*args)


class _InductorPartitioner(CustomPartitionerFn):
    """Inductor's min-cut partition, then the offload rewrite."""

    def __init__(self, backend: _SsdBackend, graph_id: int):
        self.backend = backend
        self.graph_id = graph_id

    def __call__(self, joint, joint_inputs, **kwargs):
        return self.backend._partition(self.graph_id, _inductor_partition, joint, joint_inputs, **kwargs)

    def uuid(self):
        return None  # plans depend on the options and the disk: never cached


def _inductor_partition(joint: torch.fx.GraphModule, joint_inputs: Any, **kwargs: Any) -> tuple[torch.fx.GraphModule, torch.fx.GraphModule]:
    """Inductor's min-cut partition, each graph then rewritten by the
    pattern passes inductor runs on it before lowering (post-grad: no-op
    removal, then its pattern sets, which fuse an `mm` whose one use is an
    `add` into an `addmm`, among others). The plan and the moves are then
    made on the graphs inductor lowers: a value moved inside one graph
    between a pattern's nodes (GPT-2's `mm` of the tied embedding's
    gradient, then added to the embedding's own) hid the pattern from
    inductor, which then computed `mm` then `add` where plain inductor calls
    `addmm` (BLAS adds the input in its own order): 1e-8 apart. Inductor
    runs the passes again when it compiles the graphs; they find nothing
    left to rewrite, and the offload ops are no part of any pattern."""
    from torch._functorch.partitioners import min_cut_rematerialization_partition
    from torch._inductor import config as inductor_config
    from torch._inductor.fx_passes import post_grad
    from torch._inductor.virtualized import V

    fw, bw = min_cut_rematerialization_partition(joint, joint_inputs, **kwargs)
    if not inductor_config.pattern_matcher:
        return fw, bw  # inductor runs none of them either
    post_grad.lazy_init()
    fake_mode = next(
        (value.fake_mode for node in joint.graph.nodes if (value := _val(node)) is not None and hasattr(value, "fake_mode")),
        None,
    )
    for module in (fw, bw):
        with V.set_fake_mode(fake_mode):
            post_grad.remove_noop_ops(module.graph)
            for patterns in post_grad.pass_patterns:
                patterns.apply(module.graph)
        module.graph.lint()
        module.recompile()
    return fw, bw


@dataclasses.dataclass
class _InductorLayout:
    """What inductor's lowering of one offload decided, for its wait."""

    # Whose strides the offloaded tensor is written with: "partition" (views
    # are rebuilt from the reload with the partition's strides, so it must
    # keep them), "saved" (inductor's rule for a tensor the forward saves
    # for the backward) or "inductor" (a value moved inside one graph: the
    # layout inductor's lowering gives it, as plain inductor does).
    strides: str
    stride: list[int] | None = None


# By the token the rewrite puts on an offload node and its wait
# (node.meta["ssdopt_layout"]) under inner="inductor".
_inductor_layouts: dict[int, _InductorLayout] = {}
_layout_tokens = itertools.count()


def _register_inductor_offload() -> None:
    """Installs inductor's lowering of ssdopt.offload (once).

    The saved tensor gets the strides inductor gives a tensor the forward
    saves for the backward (its rule for forward outputs: channels-last
    where layout optimization prefers it), so the step computes what plain
    inductor does; they are recorded for the backward's wait. The buffer is
    added to `never_reuse_but_free_buffers`: the runtime reads it until its
    write is on disk (it holds a reference, which freeing drops), so no
    later kernel may be given its memory, nor write its output in place over
    it.

    Each runtime op (offload, prefetch, wait) is also ordered after the one
    before it in the graph (`_in_graph_order`)."""
    from torch._inductor import ir, lowering
    from torch._inductor.virtualized import V

    op = torch.ops.ssdopt.offload.default
    if op in lowering.lowerings:
        return
    fallback = _in_graph_order(lowering.fallback_handler(op, add_to_fallback_set=False))

    def offload(x: Any, store: Any) -> Any:
        node = V.graph.current_node
        layout = _inductor_layouts.get(node.meta.get("ssdopt_layout"))
        saved = node.args[0]
        value = saved.meta["val"]
        stride: Sequence[Any] = value.stride()
        strides = "partition" if layout is None else layout.strides
        if strides == "inductor":
            x = ir.ExternKernel.realize_input(x)
            if ir.is_storage_and_layout(x):
                x.freeze_layout()
        else:
            if (
                strides == "saved"
                and value.dim() == 4
                and is_non_overlapping_and_dense_or_false(value)
                and saved in V.graph.nodes_prefer_channels_last
            ):
                stride = ir.FlexibleLayout.stride_ordered_for_memory_format(x.get_size(), torch.channels_last)
            x = ir.ExternKernel.require_exact_strides(x, stride, allow_padding=strides == "saved")
        V.graph.never_reuse_but_free_buffers.add(x.get_name())
        if layout is not None:
            layout.stride = [int(s) for s in x.get_layout().stride]
        return fallback(x, store)

    lowering.register_lowering(op, type_promotion_kind=None)(offload)
    prefetch_op = torch.ops.ssdopt.prefetch.default
    prefetch = _in_graph_order(lowering.fallback_handler(prefetch_op, add_to_fallback_set=False))
    lowering.register_lowering(prefetch_op, type_promotion_kind=None)(prefetch)
    wait_op = torch.ops.ssdopt.wait.default
    wait_fallback = _in_graph_order(lowering.fallback_handler(wait_op, add_to_fallback_set=False))

    def wait(ticket: Any, size: Any, stride: Any, *rest: Any, **kwargs: Any) -> Any:
        """A wait inside the graph of its offload returns the strides that
        offload's lowering chose: inductor propagates the graph's values
        again from its inputs before lowering (a backward's saved inputs as
        the forward laid them out, channels-last in ResNet-50), so they may
        differ from those the rewrite saw."""
        node = V.graph.current_node
        layout = _inductor_layouts.get(node.meta.get("ssdopt_layout"))
        if layout is not None and layout.stride is not None and list(stride) != layout.stride:
            views = [user.name for user in node.users if user.target is torch.ops.aten.as_strided.default]
            if views:
                # They were rebuilt with the strides the rewrite saw.
                raise RuntimeError(f"ssdopt: {node.name} is reloaded with strides {layout.stride}, not {list(stride)}, and {views} are views of it")
            stride = layout.stride
        return wait_fallback(ticket, size, stride, *rest, **kwargs)

    lowering.register_lowering(wait_op, type_promotion_kind=None)(wait)


# The last runtime op each graph inductor lowers has lowered so far.
_last_runtime_op: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()


def _in_graph_order(fallback: Callable[..., Any]) -> Callable[..., Any]:
    """`fallback` (a runtime op's kernel), ordered after the previous runtime
    op's kernel in the graph. Inductor orders kernels by the data they read
    only, and reorders them for its own estimate of peak memory, but the
    runtime ops' effects need the graph's order: the prefetch of a copy on
    disk that a second gap reads again was scheduled before the first gap's
    wait (Whisper's moves; the runtime refused the handle as "already
    prefetched"). The dependency only orders, as inductor's own effectful
    ops are ordered (`additional_buffer_deps`, a fake `WeakDep`): it keeps
    no buffer alive."""
    from torch._inductor.virtualized import V

    def ordered(*args: Any, **kwargs: Any) -> Any:
        graph = V.graph
        start = len(graph.operations)
        result = fallback(*args, **kwargs)
        previous = _last_runtime_op.get(graph)
        for operation in graph.operations[start:]:
            if previous is not None:
                graph.additional_buffer_deps[operation.get_operation_name()].add(previous.get_name())
        if len(graph.operations) > start:
            _last_runtime_op[graph] = graph.operations[-1]
        return result

    return ordered


def _inductor_inner_compile(gm: torch.fx.GraphModule, example_inputs: Sequence[Any], **kwargs: Any) -> Any:
    """compile_fx_inner, each wait given the strides of the tensor its
    offload wrote: for a move from the forward to the backward, the strides
    the forward's lowering chose (the forward is compiled first); for a move
    inside this graph, those of the offloaded value as it stands here (in
    graph order, so a value reloaded with other strides passes them on)."""
    from torch._inductor.compile_fx import compile_fx_inner

    changed = False
    inside: set[int] = set()  # the tokens of offloads whose strides this lowering decides
    for node in gm.graph.nodes:
        token = node.meta.get("ssdopt_layout")
        if token is None or node.op != "call_function":
            continue
        layout = _inductor_layouts[token]
        if node.target is torch.ops.ssdopt.offload.default:
            if layout.strides == "partition":
                layout.stride = [int(size) for size in node.args[0].meta["val"].stride()]
            else:
                inside.add(token)
            continue
        if node.target is not torch.ops.ssdopt.wait.default or token in inside:
            continue  # (a wait in its offload's graph: its lowering takes the offload's)
        stride = layout.stride
        if stride is None:
            raise RuntimeError(f"ssdopt: the forward of {node.name} was compiled without inductor's offload lowering")
        ticket, size, old_stride, *rest = node.args
        if list(old_stride) != stride:
            node.args = (ticket, size, stride, *rest)
            value = node.meta["val"]
            node.meta["val"] = _OffloadRewriter.fake(
                getattr(value, "fake_mode", None),
                lambda: torch.empty_strided(value.shape, stride, dtype=value.dtype, device=value.device),
            )
            changed = True
    if changed:
        gm.recompile()
    return compile_fx_inner(gm, example_inputs, **kwargs)


@dataclasses.dataclass
class _Move:
    """One tensor the plan moves: the graph that defines it ("fw" or "bw"),
    its node there, the key of its saved group when the backward reads it,
    and its gaps in step order."""

    phase: str
    node: torch.fx.Node
    group: Any | None
    gaps: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    bytes_written: int = 0
    within_graph: bool = False


@dataclasses.dataclass
class _SavedGroup:
    """Saved tensors of one storage: `base` covers all of it."""

    base: torch.fx.Node | None
    members: list[int]  # indices into the saved list


def _val(node: Any) -> torch.Tensor | None:
    value = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    return value if isinstance(value, torch.Tensor) else None


def _attribute(module: torch.nn.Module, target: str) -> Any:
    """The attribute a get_attr node reads (`target` may be dotted)."""
    owner_name, _, name = target.rpartition(".")
    return getattr(module.get_submodule(owner_name), name)


def _storage_key(value: torch.Tensor) -> Any:
    return StorageWeakRef(value.untyped_storage()).cdata


def _covers_storage(value: torch.Tensor) -> bool:
    return (
        value.storage_offset() == 0
        and is_non_overlapping_and_dense_or_false(value)
        and value.numel() * value.element_size() == value.untyped_storage().nbytes()
    )


class _OffloadRewriter:
    def __init__(self, backend: _SsdBackend, graph_id: int, fw, bw, num_fwd_outputs: int):
        self.backend = backend
        self.options = backend.options
        self.graph_id = graph_id
        self.fw, self.bw = fw, bw
        self.num_fwd_outputs = num_fwd_outputs
        self.fw_output = next(iter(fw.graph.find_nodes(op="output")))
        self.saved = list(self.fw_output.args[0])[num_fwd_outputs:]
        self.bw_placeholders = list(bw.graph.find_nodes(op="placeholder"))
        self.bw_output = next(iter(bw.graph.find_nodes(op="output")))
        self.fake_mode = next(
            (value.fake_mode for module in (fw, bw) for node in module.graph.nodes
             if (value := _val(node)) is not None and hasattr(value, "fake_mode")),
            None,
        )

    # -- planning ----------------------------------------------------------

    def movable_groups(self) -> dict[Any, _SavedGroup]:
        """Storage groups of saved tensors that offloading can free."""
        input_storages = {
            _storage_key(value)
            for node in self.fw.graph.find_nodes(op="placeholder")
            if (value := _val(node)) is not None
        }
        groups: dict[Any, _SavedGroup] = {}
        for index, node in enumerate(self.saved):
            value = _val(node)
            if value is None or node.op == "placeholder" or value.device.type not in ("cpu", "cuda"):
                continue
            key = _storage_key(value)
            if key in input_storages:
                continue
            group = groups.setdefault(key, _SavedGroup(base=None, members=[]))
            group.members.append(index)
            if group.base is None and _covers_storage(value):
                group.base = node
        # Where no saved tensor covers the storage (an expanded or sliced
        # view is saved), the forward's node that does is the base: it moves
        # in their place, and they are rebuilt from it in the backward.
        missing = {key for key, group in groups.items() if group.base is None}
        for node in self.fw.graph.nodes:
            if not missing:
                break
            value = _val(node)
            if node.op == "call_function" and value is not None and _covers_storage(value):
                key = _storage_key(value)
                if key in missing:
                    groups[key].base = node
                    missing.discard(key)
        for key in missing:
            del groups[key]  # nothing covers the storage: keep it resident
        return groups

    def joined_step(
        self, groups: dict[Any, _SavedGroup]
    ) -> tuple[torch.fx.GraphModule, dict[torch.fx.Node, tuple[str, torch.fx.Node]], torch.fx.Node | None]:
        """The forward then the backward as one graph, the backward's saved
        inputs wired to the forward values, for planning.

        A saved view of a movable group is rebuilt in the backward right
        before its first use, from the group's base, as the rewrite does
        after the wait; so the view does not pin the base across the gap
        between forward and backward."""
        saved_index = {node: index for index, node in enumerate(self.bw_placeholders[: len(self.saved)])}
        rebuilt_views: dict[int, torch.fx.Node] = {}
        for group in groups.values():
            for index in group.members:
                if self.saved[index] is not group.base:
                    rebuilt_views[index] = group.base
        graph = torch.fx.Graph()
        # The joined graph's get_attr nodes (tensor constants AOTAutograd
        # lifts, `_tensor_constant0`) read attributes of this root: each
        # side's own, renamed apart, since both sides number them from 0.
        root = torch.nn.Module()
        origin: dict[torch.fx.Node, tuple[str, torch.fx.Node]] = {}
        fw_env: dict[torch.fx.Node, torch.fx.Node] = {}
        bw_env: dict[torch.fx.Node, torch.fx.Node] = {}

        def copy_node(phase: str, module: torch.fx.GraphModule, node: torch.fx.Node, arg: Callable) -> torch.fx.Node:
            if node.target is torch.ops.aten.copy_.default and node.args[0].op == "placeholder":
                # The write-back of a mutated input (batch norm's running
                # statistics under inductor): for planning, the last read of
                # the new value, which allocates nothing (a view of it).
                source = node.args[1]
                copy = graph.call_function(torch.ops.aten.alias.default, (arg(source),))
                copy.meta["val"] = source.meta.get("val")
                origin[copy] = (phase, node)
                return copy
            copy = graph.node_copy(node, arg)
            if node.op == "get_attr":
                value = _attribute(module, node.target)
                copy.target = f"{phase}_{node.target.replace('.', '_')}"
                setattr(root, copy.target, value)
                if isinstance(value, torch.Tensor) and "val" not in copy.meta:
                    copy.meta["val"] = value
            origin[copy] = (phase, node)
            return copy

        def copy_placeholder(node: torch.fx.Node) -> Any:
            value = node.meta.get("val")
            if type(value) in (int, float, bool):
                # A size that was symbolic when dynamo traced the graph, and
                # is known for this compilation: a constant of the step.
                return value
            copy = graph.placeholder(node.name)
            copy.meta = dict(node.meta)
            return copy

        for node in self.fw.graph.find_nodes(op="placeholder"):
            fw_env[node] = copy_placeholder(node)
        for node in self.bw_placeholders[len(self.saved) :]:
            bw_env[node] = copy_placeholder(node)
        for node in self.fw.graph.nodes:
            if node.op in ("call_function", "call_method", "call_module", "get_attr"):
                fw_env[node] = copy_node("fw", self.fw, node, fw_env.__getitem__)
        for index, node in enumerate(self.bw_placeholders[: len(self.saved)]):
            saved = self.saved[index]
            if index in rebuilt_views:
                continue  # made on first use below
            if isinstance(saved, torch.fx.Node) and saved in fw_env:
                bw_env[node] = fw_env[saved]
            else:  # a symbolic int or an opaque object: not a tensor
                bw_env[node] = copy_placeholder(node)
        def backward_value(node: torch.fx.Node) -> torch.fx.Node:
            if node not in bw_env:  # a saved view: rebuilt from its base
                index = saved_index[node]
                view = _val(self.saved[index])
                bw_env[node] = graph.call_function(
                    torch.ops.aten.as_strided.default,
                    (fw_env[rebuilt_views[index]], list(view.shape), list(view.stride()), view.storage_offset()),
                )
                bw_env[node].meta["val"] = view
            return bw_env[node]

        backward_start = None
        for node in self.bw.graph.nodes:
            if node.op in ("call_function", "call_method", "call_module", "get_attr"):
                bw_env[node] = copy_node("bw", self.bw, node, backward_value)
                if backward_start is None and node.op == "call_function" and node.target is not operator.getitem:
                    backward_start = bw_env[node]
        outputs = [fw_env[n] for n in self.fw_output.args[0][: self.num_fwd_outputs] if isinstance(n, torch.fx.Node)]
        outputs += [backward_value(n) for n in self.bw_output.args[0] if isinstance(n, torch.fx.Node)]
        graph.output(tuple(outputs))
        return torch.fx.GraphModule(root, graph), origin, backward_start

    def plan(self, groups: dict[Any, _SavedGroup]) -> dict[str, Any]:
        from .exporter import fx_to_mlir

        step, origin, backward_start = self.joined_step(groups)
        placeholders = list(step.graph.find_nodes(op="placeholder"))
        outputs = next(iter(step.graph.find_nodes(op="output"))).args[0]
        forward_outputs = sum(
            1 for node in self.fw_output.args[0][: self.num_fwd_outputs] if isinstance(node, torch.fx.Node)
        )
        exported = fx_to_mlir(
            step,
            arg_roles=["input"] * len(placeholders),
            arg_names=[node.name for node in placeholders],
            result_names=[None] * len(outputs),
            function_name=f"graph{self.graph_id}",
            backward_start=backward_start,
            # The forward's outputs go to the caller, who holds them.
            resident_results=[index < forward_outputs for index in range(len(outputs))],
        )
        report_path = None
        if self.options.report_dir:
            report_path = os.path.join(self.options.report_dir, f"graph{self.graph_id}.json")
            with open(os.path.join(self.options.report_dir, f"graph{self.graph_id}.mlir"), "w") as file:
                file.write(exported.text)
        settings = dict(
            target=self.options.target or self.default_target(),
            policy=self.options.policy,
            ssd_opt=self.options.ssd_opt,
            movable=MOVABLE_ROLES,
        )
        budget = self.options.memory_budget
        if self.options.peak_share is not None:
            unplanned = planning.plan(exported.text, memory_budget=_NO_LIMIT, **settings)
            budget = int(unplanned["peak_bytes_before"] * self.options.peak_share)
        report = planning.plan(exported.text, memory_budget=budget, report_path=report_path, **settings)
        # Each planned move, by tensor: the node that defines it in the
        # forward or the backward, and its gaps in step order.
        self.op_origin = [origin.get(node) for node in exported.op_nodes]
        self.moves: dict[torch.fx.Node, _Move] = {}
        unmapped = []
        for gap in report.get("plan", []):
            if "op" not in gap or gap.get("enters_on_ssd") or gap.get("leaves_on_ssd"):
                unmapped.append(gap.get("tensor", "?"))
                continue
            node = exported.result_node(gap["op"], gap.get("result", 0))
            phase, original = origin.get(node, (None, None))
            if original is None:
                unmapped.append(gap.get("tensor", gap["op"]))
                continue
            move = self.moves.get(original)
            if move is None:
                key = None
                if phase == "fw" and (value := _val(original)) is not None and _storage_key(value) in groups:
                    # A saved tensor, or the root of saved views (the
                    # planner moves a view's root): its storage's group.
                    key = _storage_key(value)
                move = self.moves[original] = _Move(phase, original, key)
            move.gaps.append(gap)
        for move in self.moves.values():
            move.gaps.sort(key=lambda gap: gap.get("offload_slot", gap.get("release_slot", 0)))
        self.unmapped = unmapped
        return report

    def default_target(self) -> str:
        devices = {
            value.device.type
            for node in self.fw.graph.nodes
            if (value := _val(node)) is not None
        }
        return "h100-pcie5-pm1743" if "cuda" in devices else "epyc9654-990pro"

    # -- rewriting ---------------------------------------------------------

    def run(self) -> None:
        from .exporter import ExportError

        groups = self.movable_groups()
        try:
            report = self.plan(groups)
        except (ExportError, planning.PlanningError) as error:
            if getattr(error, "infeasible", False):
                raise  # the budget is the caller's to change
            if self.options.strict:
                logger.error("graph %d cannot be planned: %s", self.graph_id, error)
                raise
            logger.warning(
                "graph %d cannot be planned, so it runs without offload (compiled by %s): %s",
                self.graph_id, self.options.inner, error,
            )
            self.record(None, groups, [], fallback=f"{type(error).__name__}: {error}")
            return
        # Positions are looked up among the graphs' nodes as partitioned (the
        # rewrite only inserts nodes, and every anchor is an original node).
        self.original_order = {
            module: {node: index for index, node in enumerate(module.graph.nodes)} for module in (self.fw, self.bw)
        }
        applied = [move for move in self.moves.values() if self.apply(move, groups)]
        if self.unmapped:
            # The planned peak counts these moves; the graph will not make them.
            logger.warning(
                "graph %d: %d of the plan's moves are of no tensor the backend can move (%s); "
                "the step will not meet the planned peak",
                self.graph_id, len(self.unmapped), ", ".join(map(str, self.unmapped[:5])),
            )
        report["unapplied_moves"] = len(self.unmapped)
        if applied:
            for module in (self.fw, self.bw):
                module.graph.lint()
                module.recompile()
            self.backend.reserve(self.writes())
        self.record(report, groups, applied)

    def writes(self) -> dict[int, list[int]]:
        """The bytes each offload of the rewritten graphs writes, by device
        (-1: the host): `planning.offload_writes` of the offloaded values."""
        return planning.offload_writes(
            value
            for module in (self.fw, self.bw)
            for node in module.graph.find_nodes(op="call_function", target=torch.ops.ssdopt.offload.default)
            if (value := _val(node.args[0])) is not None
        )

    def after(self, slot: int) -> tuple[str, torch.fx.Node] | None:
        """Where slot `slot` is, as the node it follows (point slot-1, or the
        last op before it that a node of the graphs made)."""
        for index in range(min(slot, len(self.op_origin)) - 1, -1, -1):
            if self.op_origin[index] is not None:
                return self.op_origin[index]
        return None

    def before(self, point: int) -> tuple[str, torch.fx.Node]:
        """Where point `point` is, as the node it precedes (the backward's
        output for the step's return)."""
        for index in range(max(point, 0), len(self.op_origin)):
            if self.op_origin[index] is not None:
                return self.op_origin[index]
        return ("bw", self.bw_output)

    def module(self, phase: str) -> torch.fx.GraphModule:
        return self.fw if phase == "fw" else self.bw

    def apply(self, move: "_Move", groups: dict[Any, _SavedGroup]) -> bool:
        """Rewrites the graphs for every gap of `move` that they can make
        (the others are counted in `self.unmapped`); true if any."""
        # The tensor's value in each graph, as rewritten so far: in the
        # backward, a saved tensor is its base's saved input until reloaded.
        current: dict[str, torch.fx.Node | None] = {"fw": None, "bw": None}
        current[move.phase] = move.node
        group = groups.get(move.group) if move.group is not None else None
        if group is not None and group.base in self.saved:
            current["bw"] = self.bw_placeholders[self.saved.index(group.base)]
        elif group is not None and len(group.members) == 1:
            # The base is not saved, one view of it is (inductor's min-cut
            # saves the torchvision ViT's value, a select of its qkv, not
            # the qkv): in the backward that view holds the storage.
            current["bw"] = self.bw_placeholders[group.members[0]]
        # The handle of the last write, in the graph that holds it, while
        # its copy on disk is kept for the next gap.
        handle: tuple[str, torch.fx.Node] | None = None
        # Each gap's kind, and the nodes it leaves after and comes back before.
        kinds, places = [], []
        for gap in move.gaps:
            leave = self.after(gap["offload_slot"] if gap.get("writes") else gap["release_slot"])
            back = self.before(gap["wait_point"])
            kind = None
            if leave is not None and leave[0] == back[0] and current[leave[0]] is not None:
                kind = leave[0]  # within one graph
            elif leave is not None and (leave[0], back[0]) == ("fw", "bw") and group is not None:
                kind = "cross"
            kinds.append(kind)
            places.append((leave[1] if leave is not None else None, back[1]))

        def written(kind: str | None) -> Any:
            """The layout a gap of this kind writes (and its wait returns):
            the saved base's in the backward, else the tensor's own."""
            if kind is None:
                return None
            value = _val(group.base) if group is not None and kind in ("cross", "bw") else _val(move.node)
            return (tuple(value.shape), tuple(value.stride()), value.dtype)

        applied = False
        for index, (gap, kind, (slot, first_use)) in enumerate(zip(move.gaps, kinds, places)):
            if kind is None:
                self.unmapped.append(gap.get("tensor", gap["op"]))
                handle = None
                continue
            home = "fw" if kind == "cross" else kind
            reuse = handle[1] if handle is not None and handle[0] == home and not gap.get("writes") else None
            following = move.gaps[index + 1] if index + 1 < len(move.gaps) else None
            held_in = "bw" if kind == "cross" else kind
            next_home = None
            if following is not None and kinds[index + 1] is not None:
                next_home = "fw" if kinds[index + 1] == "cross" else kinds[index + 1]
            # The copy on disk serves the next gap if it may read it there:
            # the same bytes (no write planned), in the graph that holds the
            # handle, in the same layout.
            keep = bool(
                following is not None
                and not following.get("writes")
                and next_home == held_in
                and written(kinds[index + 1]) == written(kind)
            )
            if kind == "cross":
                made = self.cross(group, gap, slot, current, reuse, keep)
            else:
                made = self.within(kind, gap, slot, first_use, current, reuse, keep)
                move.within_graph = True
            handle = (held_in, made) if keep else None
            move.bytes_written += 0 if reuse is not None else int(gap.get("bytes", 0))
            applied = True
        return applied

    def offload(self, module: torch.fx.GraphModule, value: torch.fx.Node, slot: torch.fx.Node | None, strides: str) -> torch.fx.Node:
        """`ssdopt.offload(value)` after `slot` (never before `value` is
        defined, nor between a node and its getitems), written with
        `strides` under inductor (`_InductorLayout`)."""
        anchor = value
        if slot is not None and slot > anchor:
            anchor = slot
        while anchor.next.op != "output" and anchor.next.target is operator.getitem:
            anchor = anchor.next
        with module.graph.inserting_after(anchor):
            handle = module.graph.call_function(torch.ops.ssdopt.offload.default, (value, self.backend.store()))
        handle.meta["val"] = self.fake(self.fake_mode, lambda: torch.empty((), dtype=torch.int64))
        if self.options.inner == "inductor":
            token = next(_layout_tokens)
            _inductor_layouts[token] = _InductorLayout(strides)
            handle.meta["ssdopt_layout"] = token
        return handle

    def reload(
        self,
        module: torch.fx.GraphModule,
        handle: torch.fx.Node,
        prefetch_at: torch.fx.Node,
        first_use: torch.fx.Node,
        value: torch.Tensor,
        keep: bool,
        token: Any,
        meta: torch.Tensor | None = None,
    ) -> torch.fx.Node:
        """`ssdopt.prefetch(handle)` before `prefetch_at` (where it may be:
        after the handle, not after `first_use`) and its wait before
        `first_use`."""
        if not handle < prefetch_at <= first_use:
            prefetch_at = first_use
        with module.graph.inserting_before(prefetch_at):
            ticket = module.graph.call_function(torch.ops.ssdopt.prefetch.default, (handle,))
        ticket.meta["val"] = self.fake(self.fake_mode, lambda: torch.empty((), dtype=torch.int64))
        arguments = (ticket, list(value.shape), list(value.stride()), value.dtype, value.device)
        with module.graph.inserting_before(first_use):
            loaded = module.graph.call_function(torch.ops.ssdopt.wait.default, arguments, {"keep": True} if keep else {})
        loaded.meta["val"] = meta if meta is not None else value
        if token is not None:
            loaded.meta["ssdopt_layout"] = token
        return loaded

    def within(
        self,
        phase: str,
        gap: dict[str, Any],
        slot: torch.fx.Node,
        first_use: torch.fx.Node,
        current: dict[str, torch.fx.Node | None],
        reuse: torch.fx.Node | None,
        keep: bool,
    ) -> torch.fx.Node:
        """A gap inside one graph: the value is written after its last use
        before the gap (or dropped, its copy on disk kept from the last
        gap), read back before its next use; every later use, and every
        later use of a view of it (rebuilt from the reloaded value), reads
        the reloaded one. Returns the handle."""
        module = self.module(phase)
        value_node = current[phase]
        value = _val(value_node)
        views = self.late_views(module, value_node, first_use)
        # Without views to rebuild, under inductor the value keeps the layout
        # inductor gives it: Whisper's residual stream, made contiguous by
        # plain inductor, written with the partition's strides (a transpose)
        # changed the loops, so the sums, of the kernels that make and read it.
        handle = reuse if reuse is not None else self.offload(module, value_node, slot, "partition" if views else "inductor")
        prefetch_at = self.before(gap.get("prefetch_slot", gap["wait_point"]))
        prefetch_at = prefetch_at[1] if prefetch_at[0] == phase else first_use
        # A tensor of its own (the graph's passes must not take the reload
        # for an alias of the value it replaces).
        fresh = self.fake(
            self.fake_mode,
            lambda: torch.empty_strided(value.shape, value.stride(), dtype=value.dtype, device=value.device),
        )
        loaded = self.reload(module, handle, prefetch_at, first_use, value, keep, handle.meta.get("ssdopt_layout"), fresh)
        self.redirect(module, value_node, loaded, first_use, views)
        current[phase] = loaded
        return handle

    @staticmethod
    def late_views(module: torch.fx.GraphModule, value_node: torch.fx.Node, first_use: torch.fx.Node) -> list[torch.fx.Node]:
        """The other views of `value_node`'s storage made before `first_use`
        and used from there on, which the reload rebuilds. None where the
        value does not cover its storage (their offsets are into it), nor
        from a reload whose strides inductor's layouts chose (theirs are
        relative to the partition's): those keep the old storage while used."""
        value = _val(value_node)
        token = value_node.meta.get("ssdopt_layout")
        if not _covers_storage(value) or (token is not None and _inductor_layouts[token].strides != "partition"):
            return []
        key = _storage_key(value)
        views = []
        for node in module.graph.nodes:
            if node >= first_use:
                break
            node_value = _val(node)
            if node is not value_node and node_value is not None and _storage_key(node_value) == key \
                    and any(user >= first_use for user in node.users):
                views.append(node)
        return views

    def redirect(
        self, module: torch.fx.GraphModule, value_node: torch.fx.Node, loaded: torch.fx.Node, first_use: torch.fx.Node, views: list
    ) -> None:
        """Uses of `value_node` from `first_use` on read `loaded`; so do
        those of `views`, rebuilt from `loaded` by `as_strided` (so that
        they do not hold the old storage)."""
        for node in [value_node, *views]:
            late = [user for user in node.users if user >= first_use and user is not loaded]
            replacement = loaded
            if late and node is not value_node:
                node_value = _val(node)
                with module.graph.inserting_after(loaded):
                    replacement = module.graph.call_function(
                        torch.ops.aten.as_strided.default,
                        (loaded, list(node_value.shape), list(node_value.stride()), node_value.storage_offset()),
                    )
                replacement.meta["val"] = self.fake(
                    self.fake_mode,
                    lambda: torch.as_strided(
                        loaded.meta["val"], node_value.shape, node_value.stride(), node_value.storage_offset()
                    ),
                )
            for user in late:
                user.replace_input_with(node, replacement)

    def cross(
        self,
        group: _SavedGroup,
        gap: dict[str, Any],
        slot: torch.fx.Node,
        current: dict[str, torch.fx.Node | None],
        reuse: torch.fx.Node | None,
        keep: bool,
    ) -> torch.fx.Node:
        """A gap from the forward to the backward: the forward returns a
        handle in place of the group's saved tensors; the backward prefetches
        at the planned point and waits before the first use of any of them,
        its views rebuilt from the reloaded base. Returns the handle's input
        in the backward."""
        base = group.base
        value = _val(base)
        outputs = list(self.fw_output.args[0])
        if base in self.saved:
            # The base, or its reload in the forward.
            saved_value = outputs[self.num_fwd_outputs + self.saved.index(base)]
        else:
            saved_value = current["fw"] if current["fw"] is not None else base
        members = [self.saved[index] for index in group.members]
        if reuse is not None:
            handle = reuse
        else:
            order = self.original_order[self.fw]
            anchor = max(members, key=order.__getitem__)
            if order[slot] > order[anchor]:
                anchor = slot
            handle = self.offload(self.fw, saved_value, anchor, "partition" if len(group.members) > 1 else "saved")
        for index in group.members:
            outputs[self.num_fwd_outputs + index] = handle
        self.fw_output.args = (tuple(outputs),)

        placeholders = [self.bw_placeholders[index] for index in group.members]
        bw_order = self.original_order[self.bw]
        uses = [user for placeholder in placeholders for user in placeholder.users]
        first_compute = next(node for node in self.bw.graph.nodes if node.op != "placeholder")
        first_use = min(uses, key=lambda node: bw_order.get(node, len(bw_order))) if uses else first_compute
        prefetch_at = first_compute
        planned = self.before(gap.get("prefetch_slot", -1)) if "prefetch_slot" in gap else None
        if planned and planned[0] == "bw" and bw_order.get(planned[1], len(bw_order)) <= bw_order.get(first_use, len(bw_order)):
            prefetch_at = planned[1]
        handle_input = placeholders[0]
        loaded = self.reload(self.bw, handle_input, prefetch_at, first_use, value, keep, handle.meta.get("ssdopt_layout"))
        replacements = {}
        for index, placeholder in zip(group.members, placeholders):
            member = _val(self.saved[index])
            if self.saved[index] is base:
                replacements[placeholder] = loaded
                continue
            with self.bw.graph.inserting_before(first_use):
                view = self.bw.graph.call_function(
                    torch.ops.aten.as_strided.default,
                    (loaded, list(member.shape), list(member.stride()), member.storage_offset()),
                )
            view.meta["val"] = member
            replacements[placeholder] = view
        ticket = loaded.args[0]
        for placeholder, replacement in replacements.items():
            for user in list(placeholder.users):
                if user is not ticket:
                    user.replace_input_with(placeholder, replacement)
        for placeholder in placeholders:
            placeholder.meta["val"] = handle.meta["val"]
        if "ssdopt_layout" in handle.meta:
            handle_input.meta["ssdopt_layout"] = handle.meta["ssdopt_layout"]
        current["bw"] = loaded
        return handle_input

    @staticmethod
    def fake(mode: Any, make: Callable[[], torch.Tensor]) -> torch.Tensor:
        if mode is None:
            return make()
        with mode:
            return make()

    def record(
        self,
        report: dict[str, Any] | None,
        groups: dict[Any, _SavedGroup],
        moved: list["_Move"],
        fallback: str | None = None,
    ) -> None:
        saved_tensors = sum(1 for node in self.saved if _val(node) is not None)
        entry = {
            "graph": self.graph_id,
            "fallback": fallback,
            "saved_tensors": saved_tensors,
            # Tensors moved, and the bytes written per step (a tensor moved
            # in several gaps is written once while its copy on disk holds).
            "offloaded_tensors": len(moved),
            "offloaded_bytes": sum(move.bytes_written for move in moved),
            # Of them, moved inside the forward or inside the backward.
            "moved_within_graph": sum(1 for move in moved if move.within_graph),
            "movable_bytes": sum(_val(group.base).untyped_storage().nbytes() for group in groups.values()),
        }
        if report is not None:
            for key in (
                "memory_budget_bytes",
                "peak_bytes_before",
                "peak_bytes_after",
                "predicted_step_seconds",
                "stall_seconds",
                "lower_bound_seconds",
                "target",
                "policy",
                "unapplied_moves",
            ):
                entry[key] = report.get(key)
        _planned_graphs.append(entry)
        if fallback is not None:
            return
        logger.info(
            "graph %d: %d saved tensors, offloading %d (%d bytes); planned peak %s of budget %s bytes",
            self.graph_id,
            saved_tensors,
            entry["offloaded_tensors"],
            entry["offloaded_bytes"],
            entry.get("peak_bytes_after", "unplanned"),
            entry.get("memory_budget_bytes"),
        )
        logger.debug("graph %d report: %s", self.graph_id, json.dumps(report))
