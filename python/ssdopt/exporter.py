"""A PyTorch training step as the input IR of ``ssd-opt`` (docs/graph-format.md).

Two layers:

* ``fx_to_mlir`` translates an ATen-level FX graph (an AOTAutograd joint
  graph, a ``make_fx`` trace) into one ``func.func`` of ``ssd.kernel`` ops and
  says which FX node each op came from, so a backend can map the planner's
  answer back onto the graph.
* ``export`` builds the whole training step of a model (forward, loss,
  backward through AOTAutograd and the optimizer update) and translates it.

Example::

    import torch, ssdopt.exporter as ex
    model = torch.nn.Linear(8, 4)
    opt = torch.optim.AdamW(model.parameters())
    text = ex.export(model, (torch.randn(2, 8), torch.randn(2, 4)),
                     loss_fn=torch.nn.functional.mse_loss, optimizer=opt)
    # ssd-opt --ssd-verify-graph accepts `text`
"""

from __future__ import annotations

import dataclasses
import inspect
import operator
import re
from typing import Any, Callable

import torch
import torch.fx
import torch.utils._pytree as pytree

from ssdopt._dtypes import MLIR_ELEMENT_TYPES
from ssdopt._flops import kernel_bytes, kernel_flops

ROLES = ("param", "optimizer_state", "buffer", "input")

_DTYPES = MLIR_ELEMENT_TYPES  # torch dtype -> MLIR element type (_dtypes.py)


class ExportError(ValueError):
    """The graph or model cannot be written in the input contract."""


@dataclasses.dataclass
class ExportedGraph:
    """An FX graph as MLIR, with the way back from the MLIR to the graph.

    `text` is a module holding one ``func.func``; `op_nodes[i]` is the FX node
    that the i-th op of the function body (program order, the return not
    counted) came from; `result_nodes[j]` is the FX node that the function's
    j-th result returns.
    """

    text: str
    op_nodes: list[torch.fx.Node]
    result_nodes: list[torch.fx.Node | None]
    # Per op, per result: the index of that result in the op node's tuple
    # value (None for an op whose value is one tensor). Ops drop the None
    # and non-tensor entries of a tuple, so result j need not be item j.
    op_result_items: list[list[int | None]] = dataclasses.field(default_factory=list)
    # The function's arguments (one per placeholder, in order) and, per
    # result, the state it updates (None for the loss and other outputs).
    arg_names: list[str] = dataclasses.field(default_factory=list)
    arg_roles: list[str] = dataclasses.field(default_factory=list)
    result_names: list[str | None] = dataclasses.field(default_factory=list)

    def result_node(self, op: int, result: int) -> torch.fx.Node | None:
        """The FX node that holds result `result` of op `op`: the op's node,
        or its getitem of that item (None when the graph takes none)."""
        node = self.op_nodes[op]
        item = self.op_result_items[op][result]
        if item is None:
            return node
        return next((user for user in node.users
                     if user.target is operator.getitem and user.args[1] == item), None)


def _static_shape(t: torch.Tensor, what: str) -> list[int]:
    from torch.fx.experimental.symbolic_shapes import is_concrete_int

    shape = []
    for size in t.shape:
        if not is_concrete_int(size):
            raise ExportError(
                f"{what} has the symbolic shape {tuple(t.shape)}; ssd-opt plans "
                "static shapes: trace with concrete sizes (torch.compile(..., "
                "dynamic=False))")
        shape.append(int(size))
    return shape


def _tensor_type(t: torch.Tensor, what: str) -> str:
    element = _DTYPES.get(t.dtype)
    if element is None:
        raise ExportError(f"{what} has the dtype {t.dtype}, which has no MLIR "
                          "element type here")
    dims = "".join(f"{size}x" for size in _static_shape(t, what))
    return f"tensor<{dims}{element}>"


def _string(value: str) -> str:
    """An MLIR string literal."""
    out = []
    for char in value:
        if char in '"\\' or not char.isprintable() or not char.isascii():
            out.extend(f"\\{byte:02X}" for byte in char.encode())
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _float(value: float) -> str:
    """An MLIR float literal (it needs a decimal point)."""
    text = repr(float(value))
    if "." not in text and "inf" not in text and "nan" not in text:
        mantissa, _, exponent = text.partition("e")
        text = mantissa + ".0" + ("e" + exponent if exponent else "")
    return text


def _tensor_leaves(value: Any) -> list[torch.Tensor | None]:
    """The results of a node: its value, or the entries of a tuple/list value,
    with None where an entry is not a tensor (skipped)."""
    if isinstance(value, (tuple, list)):
        return [v if isinstance(v, torch.Tensor) else None for v in value]
    return [value if isinstance(value, torch.Tensor) else None]


def _storage(t: torch.Tensor):
    from torch.multiprocessing.reductions import StorageWeakRef

    try:
        return StorageWeakRef(t.untyped_storage()).cdata
    except (NotImplementedError, RuntimeError):  # tensors without storage
        return None


def _viewed_operand(results: list[torch.Tensor], operands: list[torch.Tensor]) -> int | None:
    """The operand whose storage every result shares (a view: `t`, `view`,
    `expand`, `detach`..., or the parts of `split`, `unbind`, `chunk`), for
    `view_of`; None for other ops."""
    if not results or (storage := _storage(results[0])) is None:
        return None
    if any(_storage(t) != storage for t in results[1:]):
        return None
    return next((index for index, t in enumerate(operands) if _storage(t) == storage), None)


def _part_offsets(results: list[torch.Tensor], viewed: torch.Tensor) -> list[int] | None:
    """Each result's byte offset in `viewed` when every result is one
    contiguous range of whole rows of it, smaller than it, for
    `part_offsets` (docs/dialect.md: slices, narrows, splits, chunks, unbinds
    and selects along the first dimension of a contiguous tensor, and views
    of those); None for other views (a split along another dimension, a
    transpose, a reshape)."""
    if viewed.dim() == 0 or not viewed.is_contiguous():
        return None
    rows = viewed.shape[1:]
    whole = viewed.numel() * viewed.element_size()
    row_bytes = whole // viewed.shape[0] if viewed.shape[0] else 0
    offsets = []
    for t in results:
        if t.dtype != viewed.dtype or not t.is_contiguous() or \
                not (t.shape == rows or (t.dim() == viewed.dim() and t.shape[1:] == rows)):
            return None
        size = t.numel() * t.element_size()
        offset = int(t.storage_offset() - viewed.storage_offset()) * t.element_size()
        if not 0 < size < whole or offset < 0 or offset + size > whole or offset % row_bytes:
            return None
        offsets.append(offset)
    return offsets


class _Writer:
    """Emits the body of one function, node by node."""

    def __init__(self, parts: bool = False) -> None:
        self.parts = parts
        self.lines: list[str] = []
        self.op_nodes: list[torch.fx.Node] = []
        self.op_result_items: list[list[int | None]] = []
        # node -> per result position: (SSA value, tensor) or None
        self.values: dict[torch.fx.Node, list[tuple[str, torch.Tensor] | None]] = {}
        self._used_names: set[str] = set()

    def ssa_name(self, node: torch.fx.Node) -> str:
        base = re.sub(r"[^A-Za-z0-9_$.]", "_", node.name)
        if not base or base[0].isdigit():
            base = "v" + base
        name, suffix = base, 0
        while name in self._used_names:
            suffix += 1
            name = f"{base}_{suffix}"
        self._used_names.add(name)
        return "%" + name

    def add_kernel(self, node: torch.fx.Node) -> None:
        if node.op == "get_attr":
            name = f"constant.{node.target}"
        elif isinstance(node.target, torch._ops.OpOverload):
            name = str(node.target)
        elif isinstance(node.target, torch._ops.HigherOrderOperator):
            name = f"higher_order.{node.target.name()}"
        else:
            name = getattr(node.target, "__name__", str(node.target))
        operand_nodes: list[torch.fx.Node] = []
        pytree.tree_map_only(torch.fx.Node, operand_nodes.append,
                             (node.args, node.kwargs))
        operands = []
        for arg in operand_nodes:
            entries = self.values.get(arg)
            if entries and len(entries) == 1 and entries[0] is not None:
                operands.append(entries[0])
            elif entries and any(e is not None for e in entries):
                raise ExportError(f"node {node.name} ({name}) takes the whole "
                                  f"multi-result value {arg.name}")
        value = node.meta.get("val")
        leaves = _tensor_leaves(value)
        results = [t for t in leaves if t is not None]
        if not results:
            self.values[node] = [None] * len(leaves)
            return

        result_name = self.ssa_name(node)
        entries, index = [], 0
        for t in leaves:
            if t is None:
                entries.append(None)
                continue
            ref = result_name if len(results) == 1 else f"{result_name}#{index}"
            entries.append((ref, t))
            index += 1
        self.values[node] = entries

        operand_types = ", ".join(_tensor_type(t, f"operand of node {node.name} ({name})")
                                  for _, t in operands)
        result_types = [_tensor_type(t, f"result of node {node.name} ({name})")
                        for t in results]
        if len(results) == 1:
            lhs, result_type = result_name, result_types[0]
        else:
            lhs = f"{result_name}:{len(results)}"
            result_type = "(" + ", ".join(result_types) + ")"
        flops = kernel_flops(node) if node.op == "call_function" else 0.0
        traffic = kernel_bytes(node, [t for _, t in operands], results)
        view = _viewed_operand(results, [t for _, t in operands])
        view_attr = "" if view is None else f", view_of = {view} : i64"
        offsets = _part_offsets(results, operands[view][1]) \
            if view is not None and self.parts else None
        if offsets is not None:
            view_attr += f", part_offsets = array<i64: {', '.join(map(str, offsets))}>"
        self.lines.append(
            f"    {lhs} = \"ssd.kernel\"({', '.join(ref for ref, _ in operands)}) "
            f"{{name = {_string(name)}, flops = {_float(flops)} : f64, "
            f"bytes = {traffic} : i64{view_attr}}} : ({operand_types}) -> {result_type}")
        self.op_nodes.append(node)
        self.op_result_items.append(
            [item for item, t in enumerate(leaves) if t is not None]
            if isinstance(value, (tuple, list)) else [None])

    def add_getitem(self, node: torch.fx.Node) -> None:
        source, index = node.args
        entries = self.values.get(source)
        if entries is None or not isinstance(index, int) or index >= len(entries):
            raise ExportError(f"node {node.name} takes item {index} of "
                              f"{getattr(source, 'name', source)}, which has no such result")
        self.values[node] = [entries[index]]


def fx_to_mlir(gm: torch.fx.GraphModule, *, arg_roles: list[str],
               arg_names: list[str], result_names: list[str | None],
               function_name: str = "step",
               backward_start: torch.fx.Node | None = None,
               resident_results: list[bool] | None = None,
               parts: bool = False) -> ExportedGraph:
    """Translates an ATen-level FX graph into the input IR of ``ssd-opt``.

    Placeholders become the function's arguments, in order, with
    ``ssd.role = arg_roles[i]`` and ``ssd.name = arg_names[i]``; each carries
    its tensor in ``node.meta["val"]`` (fake or real). The output's entries
    (flattened) become the results, ``result_names[j]`` naming the state that
    entry j updates (None for the loss and other plain outputs); entries that
    are None or not tensors are skipped. Every other node that makes a
    tensor becomes one ``ssd.kernel`` named by its ATen overload, with FLOPs
    from torch.utils.flop_counter (0 without a formula) and the bytes of its
    tensor operands and results (0 for views); an op with several results
    (``native_batch_norm``) is one kernel with several results and its
    ``getitem`` nodes are no ops. Nodes without tensor results make no op.
    `resident_results[j]` true marks entry j ``ssd.resident``: the caller
    holds it (a compiled forward's output), so no plan moves it.
    `backward_start` is written as the function attribute
    ``ssd.backward_start``: the index of its op, or of the first op after it
    when it makes none (a getitem, a node without tensor results).
    `parts` writes ``part_offsets`` on views whose results are contiguous
    ranges of whole rows of their operand (a slice, split or select along
    the first dimension), so a plan may read back only such a part of a
    tensor (a gap with ``part_offset`` and ``part_bytes`` in the report's
    plan): off where the caller runs the plan itself and reloads whole
    tensors.

    The graph must be functional (no in-place ops) and statically shaped.
    """
    graph = gm.graph
    placeholders = [n for n in graph.nodes if n.op == "placeholder"]
    if not (len(arg_roles) == len(arg_names) == len(placeholders)):
        raise ExportError(
            f"the graph has {len(placeholders)} placeholders but "
            f"{len(arg_roles)} roles and {len(arg_names)} names were given")
    seen: dict[str, int] = {}
    for index, (role, name) in enumerate(zip(arg_roles, arg_names)):
        if role not in ROLES:
            raise ExportError(f"argument #{index} ({placeholders[index].name}): "
                              f"role {role!r} is not one of {', '.join(ROLES)}")
        if not isinstance(name, str) or not name:
            raise ExportError(f"argument #{index} ({placeholders[index].name}): "
                              "the name must be a non-empty string")
        if name in seen:
            raise ExportError(f"argument #{index}: the name {name!r} is already "
                              f"used by argument #{seen[name]}")
        seen[name] = index

    writer = _Writer(parts)
    args = []
    for node, role, name in zip(placeholders, arg_roles, arg_names):
        value = node.meta.get("val")
        if not isinstance(value, torch.Tensor):
            raise ExportError(f"placeholder {node.name} ({name!r}) is "
                              f"{type(value).__name__}, not a tensor; every "
                              "argument of a step is a tensor")
        ref = writer.ssa_name(node)
        writer.values[node] = [(ref, value)]
        args.append(f"    {ref}: {_tensor_type(value, f'argument {name!r}')} "
                    f"{{ssd.role = {_string(role)}, ssd.name = {_string(name)}}}")

    output = None
    for node in graph.nodes:
        if node.op == "placeholder":
            continue
        if node.op == "output":
            output = node
            break
        if node.op == "call_function" and node.target is operator.getitem:
            writer.add_getitem(node)
            continue
        if node.op not in ("call_function", "get_attr"):
            raise ExportError(f"node {node.name} is a {node.op}; export an "
                              "ATen-level graph (AOTAutograd, make_fx)")
        if isinstance(node.target, torch._ops.OpOverload) and \
                node.target._schema.is_mutable:
            raise ExportError(f"node {node.name} ({node.target}) mutates its "
                              "operands; the step must be functional")
        writer.add_kernel(node)

    outputs = pytree.tree_leaves(output.args[0]) if output is not None else []
    if len(result_names) != len(outputs):
        raise ExportError(f"the graph has {len(outputs)} outputs but "
                          f"{len(result_names)} result names were given")
    resident = list(resident_results) if resident_results is not None else [False] * len(outputs)
    if len(resident) != len(outputs):
        raise ExportError(f"the graph has {len(outputs)} outputs but "
                          f"{len(resident)} resident flags were given")
    results, result_nodes, returned, kept_names = [], [], [], []
    for index, (node, name, held) in enumerate(zip(outputs, result_names, resident)):
        if not isinstance(node, torch.fx.Node):
            continue
        entries = writer.values.get(node)
        if not entries or len(entries) != 1 or entries[0] is None:
            continue
        ref, value = entries[0]
        attrs = ", ".join(([f"ssd.name = {_string(name)}"] if name is not None else [])
                          + (["ssd.resident"] if held else []))
        attrs = f" {{{attrs}}}" if attrs else ""
        results.append(f"{_tensor_type(value, f'output #{index}')}{attrs}")
        returned.append((ref, _tensor_type(value, f"output #{index}")))
        result_nodes.append(node)
        kept_names.append(name)

    attributes = ""
    if backward_start is not None:
        if backward_start.graph is not graph:
            raise ExportError(f"backward_start {backward_start.name} is no node "
                              "of this graph")
        op_index = {node: index for index, node in enumerate(writer.op_nodes)}
        node = backward_start
        while node.op != "output" and node not in op_index:
            node = node.next
        if node.op == "output":
            raise ExportError(f"no op at or after backward_start {backward_start.name}")
        attributes = f" attributes {{ssd.backward_start = {op_index[node]} : i64}}"

    symbol = (function_name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", function_name)
              else _string(function_name))
    lines = ["module {", f"  func.func @{symbol}(", ",\n".join(args) + ")",
             "      -> (" + ",\n          ".join(results) + f"){attributes} {{"]
    lines += writer.lines
    lines.append(f"    return {', '.join(ref for ref, _ in returned)}"
                 + (f" : {', '.join(t for _, t in returned)}" if returned else ""))
    lines += ["  }", "}", ""]
    return ExportedGraph("\n".join(lines), writer.op_nodes, result_nodes,
                         writer.op_result_items, list(arg_names), list(arg_roles),
                         kept_names)


# --------------------------------------------------------------------------
# The whole training step of a model
# --------------------------------------------------------------------------


@dataclasses.dataclass
class _State:
    """One persistent tensor of the step: an argument, maybe also a result."""

    name: str
    role: str
    value: torch.Tensor


class _LossModule(torch.nn.Module):
    """The model and its loss as one module whose output is the loss, the
    form AOTAutograd's joint export takes."""

    def __init__(self, model: torch.nn.Module, loss_fn: Callable | None,
                 num_model_inputs: int, batch_keys: tuple[str, ...] | None = None) -> None:
        super().__init__()
        self.model = model
        self.loss_fn = loss_fn
        self.num_model_inputs = num_model_inputs
        self.batch_keys = batch_keys
        if batch_keys is not None:
            self.model_keys = _keywords_of(model, batch_keys)

    def forward(self, *inputs):
        if self.batch_keys is not None:
            # A batch of keyword inputs: the model takes those its forward
            # names, loss_fn(output, batch) sees them all.
            positional = inputs[:len(inputs) - len(self.batch_keys)]
            batch = dict(zip(self.batch_keys, inputs[len(positional):]))
            output = self.model(*positional, **{k: batch[k] for k in self.model_keys})
            if self.loss_fn is not None:
                loss = self.loss_fn(output, batch)
            else:
                loss = _default_loss(output)
            return (loss,)
        output = self.model(*inputs[:self.num_model_inputs])
        if self.loss_fn is not None:
            loss = self.loss_fn(output, *inputs[self.num_model_inputs:])
        else:
            loss = _default_loss(output)
        return (loss,)


def _keywords_of(model: torch.nn.Module, keys: tuple[str, ...]) -> list[str]:
    """The keys of a batch that `model.forward` takes (all of them when it
    takes **kwargs)."""
    try:
        params = inspect.signature(model.forward).parameters.values()
    except (TypeError, ValueError):
        return list(keys)
    if any(p.kind == p.VAR_KEYWORD for p in params):
        return list(keys)
    names = {p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return [key for key in keys if key in names]


def _default_loss(output: Any) -> torch.Tensor | None:
    """Without a loss_fn: the model's loss (its `.loss`, as in Hugging Face
    outputs, or a 0-d output), else its first floating-point tensor summed;
    None when there is none (raising here would be inside dynamo)."""
    loss = getattr(output, "loss", None)
    if isinstance(loss, torch.Tensor):
        return loss
    if hasattr(output, "to_tuple"):  # a Hugging Face output without a loss
        output = output.to_tuple()
    for leaf in pytree.tree_leaves(output):
        if isinstance(leaf, torch.Tensor) and leaf.is_floating_point():
            return leaf if leaf.dim() == 0 else leaf.sum()
    return None


def _unique(name: str, taken: set[str]) -> str:
    """`name`, or `name.<n>` where it is taken; then taken."""
    base, suffix = name, 0
    while name in taken:
        suffix += 1
        name = f"{base}.{suffix}"
    taken.add(name)
    return name


def _clip_by_global_norm(grads: dict[int, torch.Tensor],
                         max_norm: float) -> dict[int, torch.Tensor]:
    """The gradients scaled by min(1, max_norm / (their global 2-norm +
    1e-6)): torch.nn.utils.clip_grad_norm_'s rule, out of place."""
    norms = [torch.linalg.vector_norm(grad, 2.0) for grad in grads.values()]
    total = torch.linalg.vector_norm(torch.stack(norms), 2.0)
    coef = torch.clamp(max_norm / (total + 1e-6), max=1.0)
    return {index: grad * coef for index, grad in grads.items()}


def _input_names(model: torch.nn.Module, count: int, has_target: bool,
                 taken: set[str]) -> list[str]:
    """Names of the step's inputs: the forward's parameter names, `target`
    for the loss's, `input<i>` where the signature says nothing."""
    names: list[str] = []
    try:
        params = [p for p in inspect.signature(model.forward).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    model_inputs = count - 1 if has_target else count
    for index in range(count):
        if index < model_inputs:
            name = params[index].name if index < len(params) else f"input{index}"
        else:
            name = "target"
        names.append(_unique(name, taken))
    return names


class _Optimizer:
    """The update of a torch.optim optimizer as out-of-place tensor math,
    so that it traces into the step with its state as arguments and results.

    Hyper-parameters are read from the optimizer's param groups and baked
    into the step; state (momentum buffers, Adam moments and step counts) is
    the optimizer's current state, or zeros where it has none yet: the step
    exported is a steady-state step.
    """

    @staticmethod
    def kind_of(optimizer: torch.optim.Optimizer) -> str:
        """"SGD", "Adam" or "AdamW"; ExportError for other optimizers."""
        # AdamW derives from Adam: test it first.
        for kind in (torch.optim.SGD, torch.optim.AdamW, torch.optim.Adam):
            if isinstance(optimizer, kind):
                return kind.__name__
        raise ExportError(f"the optimizer {type(optimizer).__name__} is not "
                          "supported; export supports SGD, Adam and AdamW")

    # Options of the torch.optim classes that the functional update does not
    # implement, with the value it does implement.
    _UNSUPPORTED_OPTIONS = {"capturable": False, "fused": (None, False)}

    @classmethod
    def check_options(cls, optimizer: torch.optim.Optimizer) -> None:
        """ExportError naming an option of a param group that the update
        does not implement."""
        for index, group in enumerate(optimizer.param_groups):
            for option, supported in cls._UNSUPPORTED_OPTIONS.items():
                allowed = supported if isinstance(supported, tuple) else (supported,)
                if option in group and group[option] not in allowed:
                    raise ExportError(
                        f"{type(optimizer).__name__} param group {index} sets "
                        f"{option}={group[option]!r}, which the functional update "
                        "does not implement")

    def __init__(self, optimizer: torch.optim.Optimizer,
                 params: dict[int, tuple[str, torch.Tensor] | None], fake_mode) -> None:
        """`params` maps id() of the model's parameters to their name and
        fake value, or to None for those the step does not use (they get no
        gradient, so the optimizer leaves them alone); state is made fake in
        `fake_mode` (no memory)."""
        self.kind = self.kind_of(optimizer)
        self.check_options(optimizer)
        self.groups: dict[str, dict] = {}
        self.group_indices: dict[str, int] = {}
        self.states: list[_State] = []
        self.state_slots: dict[str, dict[str, int]] = {}
        for group_index, group in enumerate(optimizer.param_groups):
            if group.get("differentiable"):
                raise ExportError("a differentiable optimizer cannot be exported")
            for param in group["params"]:
                if id(param) not in params:
                    raise ExportError("the optimizer updates a tensor that is "
                                      "not a parameter of the model")
                if params[id(param)] is None:
                    continue
                name, value = params[id(param)]
                self.groups[name] = group
                self.group_indices[name] = group_index
                self._add_state(name, group, optimizer.state.get(param, {}),
                                value, fake_mode)

    def _add_state(self, name: str, group: dict, state: dict,
                   param: torch.Tensor, fake_mode) -> None:
        def slot(key: str, default: Callable[[], torch.Tensor]) -> None:
            value = state.get(key)
            if isinstance(value, torch.Tensor):
                value = fake_mode.from_tensor(value)
            else:
                with fake_mode:
                    value = default()
            self.state_slots.setdefault(name, {})[key] = len(self.states)
            self.states.append(_State(f"{name}.{key}", "optimizer_state", value))

        zeros = lambda: torch.zeros_like(param, memory_format=torch.preserve_format)
        if self.kind == "SGD":
            if group["momentum"] != 0:
                slot("momentum_buffer", zeros)
            return
        slot("step", lambda: torch.tensor(0.0, dtype=torch.float32))
        slot("exp_avg", zeros)
        slot("exp_avg_sq", zeros)
        if group["amsgrad"]:
            slot("max_exp_avg_sq", zeros)

    def group_index(self, name: str) -> int:
        """The param group of parameter `name` (its index in the optimizer's)."""
        return self.group_indices[name]

    def update(self, name: str, param: torch.Tensor, grad: torch.Tensor,
               state: list[torch.Tensor],
               lr: torch.Tensor | None = None) -> tuple[torch.Tensor, dict[int, torch.Tensor]]:
        """The parameter's new value and its states' (by index in `states`);
        `lr`, a 0-d tensor input of the step, replaces the group's learning
        rate (so that a scheduler changes it without a new trace)."""
        group = self.groups[name]
        slots = self.state_slots.get(name, {})
        if lr is None:
            lr = group["lr"]
        if group.get("maximize"):
            grad = -grad
        new_state: dict[int, torch.Tensor] = {}
        if self.kind == "SGD":
            if group["weight_decay"] != 0:
                grad = grad + group["weight_decay"] * param
            if "momentum_buffer" in slots:
                index = slots["momentum_buffer"]
                buf = state[index] * group["momentum"] + (1 - group["dampening"]) * grad
                new_state[index] = buf
                grad = grad + group["momentum"] * buf if group["nesterov"] else buf
            return param - lr * grad, new_state

        beta1, beta2 = group["betas"]
        if group["weight_decay"] != 0:
            if self.kind == "AdamW" or group.get("decoupled_weight_decay"):
                param = param * (1 - lr * group["weight_decay"])
            else:
                grad = grad + group["weight_decay"] * param
        step = state[slots["step"]] + 1
        exp_avg = torch.lerp(state[slots["exp_avg"]], grad, 1 - beta1)
        exp_avg_sq = state[slots["exp_avg_sq"]] * beta2 + (1 - beta2) * grad * grad
        new_state.update({slots["step"]: step, slots["exp_avg"]: exp_avg,
                          slots["exp_avg_sq"]: exp_avg_sq})
        if "max_exp_avg_sq" in slots:
            exp_avg_sq = torch.maximum(state[slots["max_exp_avg_sq"]], exp_avg_sq)
            new_state[slots["max_exp_avg_sq"]] = exp_avg_sq
        bias_correction1 = 1 - torch.pow(beta1, step)
        bias_correction2_sqrt = (1 - torch.pow(beta2, step)).sqrt()
        denom = exp_avg_sq.sqrt() / bias_correction2_sqrt + group["eps"]
        return param - (lr / bias_correction1) * exp_avg / denom, new_state


def makes_constant(node: torch.fx.Node) -> bool:
    """Whether `node` makes a tensor from no tensor: a factory (`full`,
    `zeros`, `arange`, `scalar_tensor`, `empty`...; random ones excepted)
    or a constant the graph holds (`get_attr`). It costs nothing to make
    again."""
    if not isinstance(node.meta.get("val"), torch.Tensor):
        return False
    if node.op == "get_attr":
        return True
    target = node.target
    if node.op != "call_function" or not isinstance(target, torch._ops.OpOverload) \
            or torch.Tag.nondeterministic_seeded in target.tags or target._schema.is_mutable:
        return False
    return not any(isinstance(arg.meta.get("val"), torch.Tensor) for arg in node.all_input_nodes)


def rematerialize_constants(graph: torch.fx.Graph) -> bool:
    """Makes each constant (`makes_constant`) again right before each of
    its users, so that none lives across another op and no plan moves one:
    a move would only cost I/O, and under inductor, which folds a constant
    into the kernels that use it, a moved one is a buffer written and read
    back, which changes what inductor fuses (the torchvision ViT's
    `aten.full` of zeros, moved in its backward, left its training no
    longer bitwise equal to plain inductor's). Every planning path runs it
    on the graph it runs, so plans count a constant's bytes at its uses
    only. Returns whether the graph changed."""
    changed = False
    for node in list(graph.nodes):
        users = list(node.users)
        if not users or not makes_constant(node) or (len(users) == 1 and node.next is users[0]):
            continue
        for user in users:
            with graph.inserting_before(user):
                copy = graph.node_copy(node)
            user.replace_input_with(node, copy)
        graph.erase_node(node)
        changed = True
    return changed


def _backward_start(graph: torch.fx.Graph, loss: torch.fx.Node,
                    gradients: list[torch.fx.Node]) -> torch.fx.Node | None:
    """The first op of the backward in program order: the first that
    depends on the loss (the gradient's seed) and leads to a gradient."""
    leads_to_gradient: set[torch.fx.Node] = set()
    stack = list(gradients)
    while stack:
        node = stack.pop()
        if node not in leads_to_gradient:
            leads_to_gradient.add(node)
            stack.extend(node.all_input_nodes)
    depends_on_loss = {loss}
    for node in graph.nodes:
        if node in depends_on_loss:
            continue
        if any(arg in depends_on_loss for arg in node.all_input_nodes):
            depends_on_loss.add(node)
            if node in leads_to_gradient and node.op == "call_function" and \
                    node.target is not operator.getitem:
                return node
    return None


def _constants_as_buffers(gm: torch.fx.GraphModule) -> None:
    """Registers the tensor attributes that the graph reads and that are no
    parameter or buffer (a model's plain tensor attributes) as buffers, so
    that AOTAutograd lifts them into arguments: read-only state."""
    state = {id(t) for t in gm.parameters()} | {id(t) for t in gm.buffers()}
    for node in gm.graph.nodes:
        if node.op != "get_attr":
            continue
        owner_name, _, attr = node.target.rpartition(".")
        owner = gm.get_submodule(owner_name)
        value = getattr(owner, attr)
        if isinstance(value, torch.Tensor) and id(value) not in state:
            delattr(owner, attr)
            owner.register_buffer(attr, value, persistent=False)


def _fake_state(module: torch.nn.Module, fake_mode) -> dict[str, torch.Tensor]:
    """Fake copies (no memory) of a module's parameters and buffers, by name."""
    state = dict(module.named_parameters(remove_duplicate=False))
    state.update(module.named_buffers(remove_duplicate=False))
    return {name: fake_mode.from_tensor(value) for name, value in state.items()}


def export_step(model: torch.nn.Module, example_inputs: Any,
                loss_fn: Callable | None = None,
                optimizer: torch.optim.Optimizer | None = None, *,
                batch_keys: tuple[str, ...] | None = None,
                lr_inputs: bool = False,
                max_grad_norm: float | None = None,
                return_all_state: bool = False,
                reduce_gradients: Callable | None = None,
                parts: bool = False) -> ExportedGraph:
    """`export`, with the mapping from the MLIR back to the traced step
    (``op_nodes[0].graph.owning_module`` runs the step on real tensors).

    What `ssdopt.compile_step` adds: with `batch_keys`, the last example
    inputs are a batch's keyword entries under those names (the model gets
    the ones its forward takes, ``loss_fn(output, batch)`` all of them);
    `lr_inputs` makes each param group's learning rate a 0-d float32 input
    (``lr.<group>``, after the example inputs); `max_grad_norm` clips the
    gradients by their global 2-norm before the update, as
    ``torch.nn.utils.clip_grad_norm_`` does; `return_all_state` returns the
    persistent arguments that the step does not update, unchanged (each its
    own steady-state partner), so that a plan keeps them for the next step;
    `reduce_gradients` maps the gradients (a dict) before clipping and the
    update: data parallelism's all-reduce, traced as functional
    collectives; `parts` as `fx_to_mlir`'s (`export` sets it)."""
    from torch._functorch.aot_autograd import aot_export_module
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.proxy_tensor import make_fx
    from torch.nn.utils.stateless import _reparametrize_module

    if isinstance(example_inputs, torch.Tensor):
        example_inputs = (example_inputs,)
    example_inputs = tuple(example_inputs)
    if not all(isinstance(t, torch.Tensor) for t in example_inputs):
        raise ExportError("example_inputs must be tensors (a tensor or a tuple "
                          "of tensors)")
    has_target = loss_fn is not None
    if has_target and len(example_inputs) < 2:
        raise ExportError("with a loss_fn, example_inputs are the model's "
                          "inputs followed by the loss's target")
    num_model_inputs = len(example_inputs) - 1 if has_target else len(example_inputs)
    if batch_keys is not None:
        has_target = False  # loss_fn takes the batch
    if max_grad_norm is not None and optimizer is None:
        raise ExportError("max_grad_norm clips the gradients of an optimizer step: pass optimizer")
    if optimizer is not None:
        _Optimizer.kind_of(optimizer)  # fail before tracing

    # Dynamo captures the forward and the loss first, as torch.compile
    # would: models written for it (Hugging Face's) branch on
    # torch.compiler.is_compiling() around data-dependent checks. Then
    # AOTAutograd adds the backward. Both see fake tensors only: given real
    # ones, they run parts of the step for real (memory and time).
    fake_mode = FakeTensorMode()
    fake_inputs = tuple(fake_mode.from_tensor(t) for t in example_inputs)
    wrapper = _LossModule(model, loss_fn, num_model_inputs,
                          None if batch_keys is None else tuple(batch_keys))
    with _reparametrize_module(wrapper, _fake_state(wrapper, fake_mode)):
        program = torch.export.export(wrapper, fake_inputs, strict=True)
    loss = program.graph.output_node().args[0][0]
    loss = loss.meta.get("val") if isinstance(loss, torch.fx.Node) else loss
    if not isinstance(loss, torch.Tensor) or loss.dim() != 0:
        raise ExportError(
            "the loss must be a 0-d tensor, got "
            f"{getattr(loss, 'shape', type(loss).__name__)}"
            + ("" if has_target else "; the model's output has no loss or "
               "floating-point tensor: pass loss_fn"))
    captured = program.module()
    _constants_as_buffers(captured)
    fake_state = _fake_state(captured, fake_mode)
    # In the fake mode, so that tensors the step makes (arange) are fake too.
    with _reparametrize_module(captured, fake_state), fake_mode:
        joint, signature = aot_export_module(captured, fake_inputs,
                                             trace_joint=True, output_loss_index=0)

    def state_name(name: str) -> str:
        return name.removeprefix("model.")

    # The captured module holds the model's state under the same names, and
    # tensor attributes of the model (constants) as buffers: read-only state.
    params = [_State(state_name(n), "param", fake_state[n]) for n in signature.parameters]
    buffers = [_State(state_name(n), "buffer", fake_state[n]) for n in signature.buffers]
    model_params = dict(wrapper.named_parameters(remove_duplicate=False))
    fake_params: dict[int, tuple[str, torch.Tensor] | None] = {
        id(p): None for p in model_params.values()}
    fake_params.update({id(model_params[n]): (state_name(n), fake_state[n])
                        for n in signature.parameters if n in model_params})
    opt = _Optimizer(optimizer, fake_params, fake_mode) if optimizer is not None else None
    opt_states = opt.states if opt is not None else []

    taken = {s.name for s in params + buffers + opt_states}
    if batch_keys is not None:
        positional = _input_names(model, len(example_inputs) - len(batch_keys), False, taken)
        input_names = positional + [_unique(key, taken) for key in batch_keys]
    else:
        input_names = _input_names(model, len(example_inputs), has_target, taken)
    num_groups = len(optimizer.param_groups) if (lr_inputs and opt is not None) else 0
    lr_names = [_unique("lr" if num_groups == 1 else f"lr.{g}", taken) for g in range(num_groups)]

    gradient_of = {param: output for output, param in
                   signature.backward_signature.gradients_to_parameters.items()}
    trained = [(index, state) for index, (state, name) in
               enumerate(zip(params, signature.parameters)) if name in gradient_of]
    updated_params = [(index, state) for index, state in trained
                      if opt is not None and state.name in opt.groups]
    buffer_updates = [(output, state_name(name))
                      for output, name in signature.buffers_to_mutate.items()]
    updated_states = sorted({index for _, state in updated_params
                             for index in opt.state_slots.get(state.name, {}).values()}
                            ) if opt is not None else []
    result_names: list[str | None] = [None]
    if opt is None:
        result_names += [None] * len(trained)  # the gradients
    result_names += [state.name for _, state in updated_params]
    result_names += [name for _, name in buffer_updates]
    result_names += [opt_states[index].name for index in updated_states]
    unchanged: list[int] = []  # indices into params + buffers + opt_states
    if return_all_state:
        returned_names = set(result_names)
        unchanged = [index for index, state in enumerate(params + buffers + opt_states)
                     if state.name not in returned_names]
        result_names += [(params + buffers + opt_states)[index].name for index in unchanged]
    joint_outputs = [n.name for n in joint.graph.output_node().args[0]]
    num_states = len(params) + len(buffers) + len(opt_states)

    def step(*flat):
        """(loss, gradients without an optimizer, updated state..., then
        the gradients again, to find the backward in the trace)."""
        p = flat[:len(params)]
        b = flat[len(params):len(params) + len(buffers)]
        s = list(flat[len(params) + len(buffers):num_states])
        x = flat[num_states:num_states + len(example_inputs)]
        lrs = flat[num_states + len(example_inputs):]
        by_name = dict(zip(joint_outputs, joint(*p, *b, *x)))
        # user_outputs, not loss_output: the latter ignores the buffer
        # updates that come first among the outputs.
        loss = by_name[signature.user_outputs[0]]
        grads = [by_name[gradient_of[signature.parameters[index]]]
                 for index, _ in trained]
        grad_of = {index: grad for (index, _), grad in zip(trained, grads)}
        if reduce_gradients is not None:
            grad_of = reduce_gradients(grad_of)
        if max_grad_norm is not None:
            grad_of = _clip_by_global_norm(grad_of, max_grad_norm)
        results = [loss] + (grads if opt is None else [])
        new_states: dict[int, torch.Tensor] = {}
        for index, state in updated_params:
            lr = lrs[opt.group_index(state.name)] if lrs else None
            new_param, updated = opt.update(state.name, p[index], grad_of[index], s, lr)
            results.append(new_param)
            new_states.update(updated)
        results += [by_name[output] for output, _ in buffer_updates]
        results += [new_states[index] for index in updated_states]
        results += [flat[index] for index in unchanged]
        return (*results, *grads)

    with fake_mode:
        fake_lrs = [torch.tensor(0.0, dtype=torch.float32) for _ in lr_names]
    flat_inputs = [s.value for s in params + buffers + opt_states] + list(fake_inputs) + fake_lrs
    gm = make_fx(step, tracing_mode="fake")(*flat_inputs)
    output = gm.graph.output_node()
    outputs = list(output.args[0])
    results, gradients = outputs[:len(result_names)], outputs[len(result_names):]
    start = _backward_start(gm.graph, results[0], gradients)
    output.args = (tuple(results),)
    gm.graph.eliminate_dead_code()
    rematerialize_constants(gm.graph)
    gm.recompile()

    states = params + buffers + opt_states
    return fx_to_mlir(
        gm,
        arg_roles=[s.role for s in states] + ["input"] * (len(example_inputs) + len(lr_names)),
        arg_names=[s.name for s in states] + input_names + lr_names,
        result_names=result_names,
        backward_start=start, parts=parts)


def export(model: torch.nn.Module, example_inputs: Any,
           loss_fn: Callable | None = None,
           optimizer: torch.optim.Optimizer | None = None) -> str:
    """The training step of `model` as the input IR of ``ssd-opt``.

    The step is the forward on `example_inputs`, the loss, the backward
    (AOTAutograd) and, when `optimizer` is given (SGD, Adam or AdamW), its
    update. With `loss_fn`, the last example input is the target:
    ``loss_fn(model(*example_inputs[:-1]), example_inputs[-1])``. Without,
    ``model(*example_inputs)`` gives the loss: a 0-d output or its ``.loss``
    (Hugging Face) is the loss, else its first floating-point tensor, summed.

    Arguments: parameters (``param``), buffers (``buffer``) and optimizer
    state (``optimizer_state``, ``<param>.exp_avg``...) named by state-dict
    names, then the example inputs (``input``, named after the forward's
    parameters; the target is ``target``). Results: the loss, then the
    updated parameters, buffers and optimizer state under their names. The
    function carries ``ssd.backward_start``. Views that are contiguous ranges
    of rows of their operand carry ``part_offsets`` (`fx_to_mlir`'s `parts`),
    so a plan may read back only such a part.
    """
    return export_step(model, example_inputs, loss_fn, optimizer, parts=True).text
