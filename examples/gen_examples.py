#!/usr/bin/env python3
"""Writes the ssd.kernel example training steps in examples/.

  examples/transformer_block.mlir  one GPT-2-small block (+ MSE loss), AdamW
  examples/convnet.mlir            a small ResNet on 32x32 images, SGD momentum

Each op is an `ssd.kernel` named like the ATen op PyTorch's autograd would run
(`aten.addmm`, `aten.bmm`, `aten._softmax`, `aten.native_layer_norm`,
`aten.convolution_backward`, ...), with `flops` and `bytes` from the formulas
below, each written once. docs/examples.md explains the conventions and
hand-checks the totals. Plain Python, no torch, no numpy.

Usage:
    .venv/bin/python examples/gen_examples.py           # rewrite the examples
    .venv/bin/python examples/gen_examples.py --check   # exit 1 if a file is out of date
"""

import argparse
import difflib
import os
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# ---------------------------------------------------------------------------
# Cost formulas. A multiply-add is 2 flops; a transcendental function (exp,
# tanh, log, sqrt) is 1 flop, as FLOP counters usually count it. Work per row
# or per channel (a mean's division, an rsqrt) is negligible next to the work
# per element and left out.
# ---------------------------------------------------------------------------


def matmul_flops(m, n, k):
    """C[m, n] = A[m, k] B[k, n]: a multiply and an add for every (i, j, l)."""
    return 2 * m * n * k


def addmm_flops(m, n, k):
    """bias + A B: the matmul plus one add per output element."""
    return matmul_flops(m, n, k) + m * n


def bmm_flops(batch, m, n, k):
    return batch * matmul_flops(m, n, k)


def conv2d_flops(n, c_out, h_out, w_out, c_in, k_h, k_w):
    """A multiply-add per output element and filter tap (no bias, groups 1).

    Its backward is a convolution of the same size for grad_input and one for
    grad_weight: twice the forward."""
    return 2 * n * c_out * h_out * w_out * c_in * k_h * k_w


# Flops per element of the tensor named in each comment.
FLOPS_PER_ELEMENT = {
    # output: one op per element
    "aten.add.Tensor": 1,
    "aten.div.Tensor": 1,
    "aten.where.self": 1,
    "aten.relu": 1,
    "aten.threshold_backward": 1,
    # input: one add per element reduced
    "aten.sum.dim_IntList": 1,
    "aten._adaptive_avg_pool2d": 1,
    # grad_input: one divide per element
    "aten._adaptive_avg_pool2d_backward": 1,
    # 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): x^3 2, * 0.044715 1,
    # + x 1, * sqrt(2/pi) 1, tanh 1, + 1 1, * x 1, * 0.5 1
    "aten.gelu": 9,
    # recompute the tanh argument and tanh 6; 0.5 (1 + t) 2; the derivative of
    # the tanh term: t^2 1, 1 - t^2 1, 3 * 0.044715 x^2 + 1 2, * sqrt(2/pi) 1,
    # * (1 - t^2) 1, * 0.5 x 2; the sum 1; * grad 1
    "aten.gelu_backward": 18,
    # max 1, subtract 1, exp 1, sum 1, divide 1
    "aten._softmax": 5,
    # y * dy 1, sum 1, dy - sum 1, * y 1
    "aten._softmax_backward_data": 4,
    # max 1, subtract 1, exp 1, sum 1, subtract the log-sum 1
    "aten._log_softmax": 5,
    # exp(y) 1, sum of dy 1, * 1, subtract 1
    "aten._log_softmax_backward_data": 4,
    # (input) mean 1; variance: subtract, square, add 3; normalise: subtract,
    # multiply by rstd 2; affine: multiply, add 2
    "aten.native_layer_norm": 8,
    "aten._native_batch_norm_legit_functional": 8,
    # (input) xhat = (x - mean) rstd 2; grad_weight += dy xhat 2; grad_bias +=
    # dy 1; g = dy w 1; sum g 1; sum g xhat 2; rstd (g - mean g - xhat mean
    # g xhat) 4
    "aten.native_layer_norm_backward": 13,
    "aten.native_batch_norm_backward": 13,
    # (input) subtract, square, add
    "aten.mse_loss": 3,
    # (input) subtract, scale
    "aten.mse_loss_backward": 2,
    # (batch) gather, negate and accumulate per sample
    "aten.nll_loss_forward": 1,
    "aten.nll_loss_backward": 1,
    # (parameter) torch.optim.AdamW: p (1 - lr wd) 1; m = b1 m + (1 - b1) g 3;
    # v = b2 v + (1 - b2) g g 4; sqrt(v) 1, / sqrt(bias correction 2) 1,
    # + eps 1; m / denominator 1; * step size 1; subtract 1
    "aten._fused_adamw": 14,
    # (parameter) torch.optim.SGD with momentum and weight decay: g + wd p 2;
    # buf = momentum buf + g 2; p - lr buf 2
    "aten._fused_sgd": 6,
    # copies move bytes and compute nothing
    "aten.permute_copy": 0,
    "aten.cat": 0,
}

# Bytes of one element as PyTorch stores it (bool takes a byte).
ELEMENT_BYTES = {"f32": 4, "i64": 8, "i1": 1}

# ---------------------------------------------------------------------------
# A step under construction.
# ---------------------------------------------------------------------------


def numel(shape):
    n = 1
    for d in shape:
        n *= d
    return n


class Value:
    def __init__(self, name, shape, dtype, alias_of=None):
        self.name = name
        self.shape = tuple(shape)
        self.dtype = dtype
        # Reshapes and slices share their source's memory.
        self.alias_of = alias_of

    @property
    def type(self):
        dims = "".join("%dx" % d for d in self.shape)
        return "tensor<%s%s>" % (dims, self.dtype)

    @property
    def numel(self):
        return numel(self.shape)

    @property
    def bytes(self):
        return self.numel * ELEMENT_BYTES[self.dtype]

    def storage(self):
        return self.alias_of.storage() if self.alias_of else self


class Step:
    """Builds one func.func @step in the input contract, in program order."""

    def __init__(self):
        self.args = []       # (Value, role, ssd.name)
        self.lines = []
        self.results = []    # (Value, ssd.name or None)
        self.names = set()
        self.ops = []        # (phase, inputs, outputs) for the summary
        self.phase = "forward"
        self.kernel_flops = []  # (phase, ATen name, flops)

    def fresh(self, name):
        base = name.replace(".", "_")
        name, n = base, 1
        while name in self.names:
            n += 1
            name = "%s_%d" % (base, n)
        self.names.add(name)
        return name

    def arg(self, ssd_name, role, shape, dtype="f32"):
        value = Value(self.fresh(ssd_name), shape, dtype)
        self.args.append((value, role, ssd_name))
        return value

    def kernel(self, op, inputs, outputs, flops, comment=None):
        """Emits `ssd.kernel op(inputs)` with results [(name, shape[, dtype])]."""
        results = [Value(self.fresh(o[0]), o[1], o[2] if len(o) > 2 else "f32")
                   for o in outputs]
        traffic = sum(v.bytes for v in inputs) + sum(v.bytes for v in results)
        in_types = ", ".join(v.type for v in inputs)
        out_types = ", ".join(v.type for v in results)
        if len(results) > 1:
            out_types = "(%s)" % out_types
        if comment:
            self.lines.append("  // %s" % comment)
        self.lines.append(
            '  %s = ssd.kernel "%s"(%s) {bytes = %d : i64, flops = %d.0 : f64}'
            % (", ".join("%" + v.name for v in results), op,
               ", ".join("%" + v.name for v in inputs), traffic, flops))
        self.lines.append("      : (%s) -> %s" % (in_types, out_types))
        self.ops.append((self.phase, list(inputs), results))
        self.kernel_flops.append((self.phase, op, flops))
        return results[0] if len(results) == 1 else results

    def elementwise(self, op, inputs, outputs, per, comment=None):
        """A kernel costing FLOPS_PER_ELEMENT[op] per element of `per`."""
        return self.kernel(op, inputs, outputs,
                           FLOPS_PER_ELEMENT[op] * per.numel, comment)

    def reshape(self, value, groups, shape, name):
        """tensor.collapse_shape or tensor.expand_shape: a view, no kernel."""
        result = Value(self.fresh(name), shape, value.dtype, alias_of=value)
        reassociation = "[%s]" % ", ".join(
            "[%s]" % ", ".join(str(d) for d in g) for g in groups)
        if len(shape) < len(value.shape):
            self.lines.append("  %%%s = tensor.collapse_shape %%%s %s : %s into %s"
                              % (result.name, value.name, reassociation,
                                 value.type, result.type))
        else:
            self.lines.append(
                "  %%%s = tensor.expand_shape %%%s %s output_shape [%s] : %s into %s"
                % (result.name, value.name, reassociation,
                   ", ".join(str(d) for d in shape), value.type, result.type))
        self.ops.append((self.phase, [value], [result]))
        return result

    def column_slice(self, value, start, width, name):
        """Columns [start, start + width) of a matrix: a view (torch.split)."""
        rows = value.shape[0]
        result = Value(self.fresh(name), (rows, width), value.dtype, alias_of=value)
        self.lines.append(
            "  %%%s = tensor.extract_slice %%%s[0, %d] [%d, %d] [1, 1] : %s to %s"
            % (result.name, value.name, start, rows, width, value.type, result.type))
        self.ops.append((self.phase, [value], [result]))
        return result

    def scalar_constant(self, name, number):
        result = Value(self.fresh(name), (), "f32")
        self.lines.append("  %%%s = arith.constant dense<%s> : %s"
                          % (result.name, repr(float(number)), result.type))
        self.ops.append((self.phase, [], [result]))
        return result

    def section(self, title, phase=None):
        if phase:
            self.phase = phase
        self.lines.append("")
        self.lines.append("  // ---- %s %s" % (title, "-" * max(3, 70 - len(title))))

    def output(self, value, ssd_name=None):
        self.results.append((value, ssd_name))

    # -- summary --------------------------------------------------------------

    def expect_flops(self, phase, op, expected, why):
        """Fails the script unless the `op` kernels of `phase` add up to a
        total derived by hand (docs/examples.md, "Hand checks")."""
        total = sum(f for ph, name, f in self.kernel_flops if ph == phase and name == op)
        if total != expected:
            sys.exit("gen_examples.py: %s %s flops are %d, expected %d (%s)"
                     % (phase, op, total, expected, why))

    def state_bytes(self, roles):
        return sum(v.bytes for v, role, _ in self.args if role in roles)

    def param_count(self):
        return sum(v.numel for v, role, _ in self.args if role == "param")

    def saved_activation_bytes(self):
        """Bytes of tensors made by the forward and read by the backward."""
        made = {}
        for phase, _, outs in self.ops:
            if phase == "forward":
                for v in outs:
                    if v.alias_of is None:
                        made[v.name] = v
        saved = {}
        for phase, ins, _ in self.ops:
            if phase == "backward":
                for v in ins:
                    s = v.storage()
                    if s.name in made:
                        saved[s.name] = s
        return sum(v.bytes for v in saved.values())

    def peak_intermediate_bytes(self):
        """Peak bytes of tensors made inside the step, each live from its
        kernel to its last use (the results to the end), in program order."""
        last_use = {}
        for index, (_, ins, _) in enumerate(self.ops):
            for v in ins:
                last_use[v.storage().name] = index
        for v, _ in self.results:
            last_use[v.storage().name] = len(self.ops)
        live, peak = {}, 0
        for index, (_, ins, outs) in enumerate(self.ops):
            for v in outs:
                if v.alias_of is None:
                    live[v.name] = v.bytes
            peak = max(peak, sum(live.values()))
            for name in [n for n in live if last_use.get(n, index) <= index]:
                del live[name]
        return peak

    def render(self, description):
        """The step's text; `description` is a paragraph for its header."""
        header = ["GENERATED by examples/gen_examples.py; edit the script, not this file.", ""]
        header += textwrap.wrap(description, width=77) + [""] + self.summary()
        out = ["// " + line if line else "//" for line in header]
        out.append("")
        out.append("func.func @step(")
        arg_lines = ['    %%%s: %s {ssd.role = "%s", ssd.name = "%s"}'
                     % (v.name, v.type, role, name) for v, role, name in self.args]
        out.append(",\n".join(arg_lines) + ")")
        result_types = [v.type + (' {ssd.name = "%s"}' % name if name else "")
                        for v, name in self.results]
        out.append("    -> (%s) {" % ",\n        ".join(result_types))
        out.extend(self.lines)
        out.append("")
        out.append("  return %s" % ", ".join("%" + v.name for v, _ in self.results))
        out.append("      : %s" % ", ".join(v.type for v, _ in self.results))
        out.append("}")
        return "\n".join(out) + "\n"

    def summary(self):
        def size(b):
            return "%.1f MiB" % (b / 2**20) if b >= 2**20 else "%.1f KiB" % (b / 2**10)
        flops = {}
        for phase, _, f in self.kernel_flops:
            flops[phase] = flops.get(phase, 0) + f
        return textwrap.wrap(
            "Parameters: %d (%s); optimizer state %s; buffers %s; inputs %s. "
            "Saved activations (made by the forward, read by the backward): %s. "
            "Peak of the tensors made in the step, each kept from its kernel to "
            "its last use in program order: %s. FLOPs: forward (with the loss) %.4g, backward "
            "%.4g, optimizer %.4g."
            % (self.param_count(), size(self.state_bytes({"param"})),
               size(self.state_bytes({"optimizer_state"})),
               size(self.state_bytes({"buffer"})), size(self.state_bytes({"input"})),
               size(self.saved_activation_bytes()), size(self.peak_intermediate_bytes()),
               flops.get("forward", 0), flops.get("backward", 0),
               flops.get("optimizer", 0)), width=77)


# ---------------------------------------------------------------------------
# Shared layers.
# ---------------------------------------------------------------------------


def adamw(step, params, grads, states, count):
    """torch.optim.AdamW on every parameter, one fused kernel per parameter."""
    new_count = step.elementwise("aten.add.Tensor", [count], [("step_next", ())],
                                 per=count, comment="the step count, + 1")
    updated = {}
    for value, name in params:
        m, v = states[name + ".exp_avg"], states[name + ".exp_avg_sq"]
        p_new, m_new, v_new = step.elementwise(
            "aten._fused_adamw", [value, grads[name], m, v, new_count],
            [(name + "_new", value.shape), (name + ".exp_avg_new", value.shape),
             (name + ".exp_avg_sq_new", value.shape)], per=value)
        updated[name] = p_new
        updated[name + ".exp_avg"] = m_new
        updated[name + ".exp_avg_sq"] = v_new
    return updated, new_count


# ---------------------------------------------------------------------------
# GPT-2 small, one block.
# ---------------------------------------------------------------------------

GPT2 = dict(batch=4, seq=1024, d_model=768, heads=12, d_ff=3072)


def transformer_block():
    B, T, C, H, F = (GPT2[k] for k in ("batch", "seq", "d_model", "heads", "d_ff"))
    D, N, BH = C // H, B * T, B * H
    s = Step()
    x = s.arg("x", "input", (B, T, C))
    target = s.arg("target", "input", (B, T, C))
    # HF GPT-2 names; Conv1D weights are [in, out], so y = x W + b.
    shapes = [("ln_1.weight", (C,)), ("ln_1.bias", (C,)),
              ("attn.c_attn.weight", (C, 3 * C)), ("attn.c_attn.bias", (3 * C,)),
              ("attn.c_proj.weight", (C, C)), ("attn.c_proj.bias", (C,)),
              ("ln_2.weight", (C,)), ("ln_2.bias", (C,)),
              ("mlp.c_fc.weight", (C, F)), ("mlp.c_fc.bias", (F,)),
              ("mlp.c_proj.weight", (F, C)), ("mlp.c_proj.bias", (C,))]
    p = {n: s.arg("h.0." + n, "param", shape) for n, shape in shapes}
    states = {}
    for n, shape in shapes:
        for suffix in (".exp_avg", ".exp_avg_sq"):
            states["h.0." + n + suffix] = s.arg("h.0." + n + suffix, "optimizer_state", shape)
    mask = s.arg("h.0.attn.bias", "buffer", (T, T), "i1")
    count = s.arg("optimizer.step", "buffer", ())

    def layer_norm(inp, w, b, name):
        return s.elementwise("aten.native_layer_norm", [inp, w, b],
                             [(name, inp.shape), (name + "_mean", (B, T, 1)),
                              (name + "_rstd", (B, T, 1))], per=inp)

    def layer_norm_backward(grad, inp, mean, rstd, w, b, name):
        return s.elementwise("aten.native_layer_norm_backward",
                             [grad, inp, mean, rstd, w, b],
                             [(name + "_grad_input", inp.shape),
                              (name + "_grad_weight", w.shape),
                              (name + "_grad_bias", b.shape)], per=inp)

    def linear(inp2d, w, b, name):
        m, k = inp2d.shape
        return s.kernel("aten.addmm", [b, inp2d, w], [(name, (m, w.shape[1]))],
                        addmm_flops(m, w.shape[1], k))

    def linear_backward(grad2d, inp2d, w, name):
        """Gradients of y = x W + b; the transposes are read in place."""
        m, n = grad2d.shape
        k = inp2d.shape[1]
        dw = s.kernel("aten.mm", [inp2d, grad2d], [(name + "_grad_weight", w.shape)],
                      matmul_flops(k, n, m), comment="x^T dy")
        db = s.elementwise("aten.sum.dim_IntList", [grad2d],
                           [(name + "_grad_bias", (n,))], per=grad2d)
        dx = s.kernel("aten.mm", [grad2d, w], [(name + "_grad_input", inp2d.shape)],
                      matmul_flops(m, k, n), comment="dy W^T")
        return dx, dw, db

    def flat(v, name):
        return s.reshape(v, [[0, 1], [2]], (N, v.shape[2]), name)

    def unflat(v, name):
        return s.reshape(v, [[0, 1], [2]], (B, T, v.shape[1]), name)

    def split_heads(v2d, name):
        """[N, C] -> [B, T, H, D] (view) -> [B, H, T, D] (copy)."""
        v4 = s.reshape(v2d, [[0, 1], [2, 3]], (B, T, H, D), name + "_bthd")
        return s.elementwise("aten.permute_copy", [v4], [(name + "_bhtd", (B, H, T, D))],
                             per=v4)

    def merge_heads(v4, name):
        """[B, H, T, D] -> [B, T, H, D] (copy) -> [N, C] (view)."""
        vt = s.elementwise("aten.permute_copy", [v4], [(name + "_bthd", (B, T, H, D))],
                           per=v4)
        return s.reshape(vt, [[0, 1], [2, 3]], (N, C), name)

    def batch_heads(v4, name):
        return s.reshape(v4, [[0, 1], [2], [3]], (BH,) + v4.shape[2:], name)

    def unbatch_heads(v3, name):
        return s.reshape(v3, [[0, 1], [2], [3]], (B, H) + v3.shape[1:], name)

    s.section("forward: attention", "forward")
    ln1, ln1_mean, ln1_rstd = layer_norm(x, p["ln_1.weight"], p["ln_1.bias"], "ln1")
    ln1_2d = flat(ln1, "ln1_2d")
    qkv = linear(ln1_2d, p["attn.c_attn.weight"], p["attn.c_attn.bias"], "qkv")
    q_4d = split_heads(s.column_slice(qkv, 0, C, "q"), "q")
    k_4d = split_heads(s.column_slice(qkv, C, C, "k"), "k")
    v_4d = split_heads(s.column_slice(qkv, 2 * C, C, "v"), "v")
    q_3d, k_3d, v_3d = (batch_heads(t, n) for t, n in
                        ((q_4d, "q_heads"), (k_4d, "k_heads"), (v_4d, "v_heads")))
    scores = s.kernel("aten.bmm", [q_3d, k_3d], [("scores", (BH, T, T))],
                      bmm_flops(BH, T, T, D), comment="q k^T")
    scaled = s.elementwise("aten.div.Tensor", [scores], [("scaled", (BH, T, T))],
                           per=scores, comment="/ sqrt(64)")
    masked = s.elementwise("aten.where.self", [mask, scaled], [("masked", (BH, T, T))],
                           per=scores, comment="causal mask, -inf above the diagonal")
    probs = s.elementwise("aten._softmax", [masked], [("probs", (BH, T, T))], per=masked,
                          comment="attention dropout is 0")
    attn = s.kernel("aten.bmm", [probs, v_3d], [("attn", (BH, T, D))],
                    bmm_flops(BH, T, D, T), comment="probs v")
    attn_2d = merge_heads(unbatch_heads(attn, "attn_4d"), "attn_2d")
    proj = linear(attn_2d, p["attn.c_proj.weight"], p["attn.c_proj.bias"], "attn_proj")
    resid1 = s.elementwise("aten.add.Tensor", [x, unflat(proj, "attn_proj_3d")],
                           [("resid1", (B, T, C))], per=x)

    s.section("forward: MLP")
    ln2, ln2_mean, ln2_rstd = layer_norm(resid1, p["ln_2.weight"], p["ln_2.bias"], "ln2")
    ln2_2d = flat(ln2, "ln2_2d")
    fc = linear(ln2_2d, p["mlp.c_fc.weight"], p["mlp.c_fc.bias"], "fc")
    act = s.elementwise("aten.gelu", [fc], [("gelu", fc.shape)], per=fc,
                        comment='approximate = "tanh"')
    mlp = linear(act, p["mlp.c_proj.weight"], p["mlp.c_proj.bias"], "mlp_proj")
    y = s.elementwise("aten.add.Tensor", [resid1, unflat(mlp, "mlp_proj_3d")],
                      [("y", (B, T, C))], per=resid1)

    s.section("loss: mean squared error against the target")
    loss = s.elementwise("aten.mse_loss", [y, target], [("loss", ())], per=y)

    s.section("backward: MLP", "backward")
    one = s.scalar_constant("grad_loss", 1.0)
    dy = s.elementwise("aten.mse_loss_backward", [one, y, target], [("grad_y", y.shape)],
                       per=y)
    grads = {}
    d_mlp, grads["mlp.c_proj.weight"], grads["mlp.c_proj.bias"] = linear_backward(
        flat(dy, "grad_y_2d"), act, p["mlp.c_proj.weight"], "mlp_proj")
    d_fc = s.elementwise("aten.gelu_backward", [d_mlp, fc], [("grad_fc", fc.shape)], per=fc)
    d_ln2, grads["mlp.c_fc.weight"], grads["mlp.c_fc.bias"] = linear_backward(
        d_fc, ln2_2d, p["mlp.c_fc.weight"], "fc")
    d_resid1_ln, grads["ln_2.weight"], grads["ln_2.bias"] = layer_norm_backward(
        unflat(d_ln2, "grad_ln2"), resid1, ln2_mean, ln2_rstd, p["ln_2.weight"],
        p["ln_2.bias"], "ln2")
    d_resid1 = s.elementwise("aten.add.Tensor", [dy, d_resid1_ln],
                             [("grad_resid1", resid1.shape)], per=resid1,
                             comment="the residual's two paths")

    s.section("backward: attention")
    d_attn_2d, grads["attn.c_proj.weight"], grads["attn.c_proj.bias"] = linear_backward(
        flat(d_resid1, "grad_resid1_2d"), attn_2d, p["attn.c_proj.weight"], "attn_proj")
    d_attn = batch_heads(split_heads(d_attn_2d, "grad_attn"), "grad_attn_heads")
    d_probs = s.kernel("aten.bmm", [d_attn, v_3d], [("grad_probs", (BH, T, T))],
                       bmm_flops(BH, T, T, D), comment="d_attn v^T")
    d_v = s.kernel("aten.bmm", [probs, d_attn], [("grad_v_heads", (BH, T, D))],
                   bmm_flops(BH, T, D, T), comment="probs^T d_attn")
    d_masked = s.elementwise("aten._softmax_backward_data", [d_probs, probs],
                             [("grad_masked", (BH, T, T))], per=probs)
    d_scaled = s.elementwise("aten.where.self", [mask, d_masked],
                             [("grad_scaled", (BH, T, T))], per=probs)
    d_scores = s.elementwise("aten.div.Tensor", [d_scaled], [("grad_scores", (BH, T, T))],
                             per=probs)
    d_q = s.kernel("aten.bmm", [d_scores, k_3d], [("grad_q_heads", (BH, T, D))],
                   bmm_flops(BH, T, D, T), comment="d_scores k")
    d_k = s.kernel("aten.bmm", [d_scores, q_3d], [("grad_k_heads", (BH, T, D))],
                   bmm_flops(BH, T, D, T), comment="d_scores^T q")
    d_qkv_parts = [merge_heads(unbatch_heads(g, n + "_4d"), n + "_2d") for g, n in
                   ((d_q, "grad_q"), (d_k, "grad_k"), (d_v, "grad_v"))]
    d_qkv = s.elementwise("aten.cat", d_qkv_parts, [("grad_qkv", qkv.shape)], per=qkv,
                          comment="the backward of the q, k, v split")
    d_ln1, grads["attn.c_attn.weight"], grads["attn.c_attn.bias"] = linear_backward(
        d_qkv, ln1_2d, p["attn.c_attn.weight"], "qkv")
    d_x_ln, grads["ln_1.weight"], grads["ln_1.bias"] = layer_norm_backward(
        unflat(d_ln1, "grad_ln1"), x, ln1_mean, ln1_rstd, p["ln_1.weight"],
        p["ln_1.bias"], "ln1")
    d_x = s.elementwise("aten.add.Tensor", [d_resid1, d_x_ln], [("grad_x", x.shape)],
                        per=x, comment="the block's input gradient, for a block below")

    s.section("optimizer: AdamW", "optimizer")
    named = {"h.0." + n: v for n, v in p.items()}
    updated, new_count = adamw(s, [(v, n) for n, v in named.items()],
                               {"h.0." + n: g for n, g in grads.items()}, states, count)

    # Independent totals: 2 flops per matmul parameter per token (plus the
    # biases), 4 B T^2 C for q k^T and probs v, and twice both backward.
    matmul_params = C * 3 * C + C * C + 2 * C * F
    s.expect_flops("forward", "aten.addmm", 2 * matmul_params * N + N * (3 * C + C + F + C),
                   "2 params tokens + biases")
    s.expect_flops("forward", "aten.bmm", 4 * B * T * T * C, "4 B T^2 C")
    s.expect_flops("backward", "aten.mm", 2 * 2 * matmul_params * N, "2x the forward matmuls")
    s.expect_flops("backward", "aten.bmm", 2 * 4 * B * T * T * C, "2x the attention matmuls")

    s.output(loss)
    s.output(d_x)
    for v, role, name in s.args:
        if role in ("param", "optimizer_state"):
            s.output(updated[name], name)
    s.output(new_count, "optimizer.step")

    return s.render(
        "One training step of a single GPT-2-small transformer block as ssd.kernel "
        "ops named like the ATen ops autograd runs: batch %d, sequence %d, d_model %d, "
        "%d heads, MLP %d, f32, pre-layernorm, GELU (tanh), causal attention "
        "without dropout, a mean-squared-error loss against `target`, the full "
        "backward (the gradient of the block's input, which a block below would "
        "need, is the second result) and torch.optim.AdamW. Reshapes and the "
        "q/k/v split are tensor ops (views); the head transposes that PyTorch "
        "makes contiguous are aten.permute_copy kernels. Transposed matmul "
        "operands are read in place (aten.mm for x^T dy takes x as stored). "
        "flops and bytes follow docs/examples.md." % (B, T, C, H, F))


# ---------------------------------------------------------------------------
# A small ResNet for 32x32 images.
# ---------------------------------------------------------------------------

CONVNET = dict(batch=128, image=32, classes=10, stem=32,
               # (stage, channels, stride): one basic block per stage
               stages=[("layer1", 32, 1), ("layer2", 64, 2), ("layer3", 128, 2)])


def convnet():
    N, S, K = CONVNET["batch"], CONVNET["image"], CONVNET["classes"]
    s = Step()
    images = s.arg("images", "input", (N, 3, S, S))
    labels = s.arg("labels", "input", (N,), "i64")

    # (conv, its batch norm, in channels, out channels, kernel size) in
    # torchvision's state-dict order; a strided block's shortcut is a 1x1
    # conv + batch norm ("downsample").
    layout = [("conv1", "bn1", 3, CONVNET["stem"], 3)]
    c_in = CONVNET["stem"]
    for stage, c, stride in CONVNET["stages"]:
        block = stage + ".0."
        layout.append((block + "conv1", block + "bn1", c_in, c, 3))
        layout.append((block + "conv2", block + "bn2", c, c, 3))
        if stride != 1:
            layout.append((block + "downsample.0", block + "downsample.1", c_in, c, 1))
        c_in = c
    params, bn_buffers = {}, {}
    for conv, bn, ci, co, k in layout:
        params[conv] = s.arg(conv + ".weight", "param", (co, ci, k, k))
        params[bn] = (s.arg(bn + ".weight", "param", (co,)),
                      s.arg(bn + ".bias", "param", (co,)))
    fc_w = s.arg("fc.weight", "param", (K, c_in))
    fc_b = s.arg("fc.bias", "param", (K,))
    momentum = {name: s.arg(name + ".momentum_buffer", "optimizer_state", v.shape)
                for v, role, name in list(s.args) if role == "param"}
    for _, bn, _, co, _ in layout:
        bn_buffers[bn] = (s.arg(bn + ".running_mean", "buffer", (co,)),
                          s.arg(bn + ".running_var", "buffer", (co,)),
                          s.arg(bn + ".num_batches_tracked", "buffer", (), "i64"))
    kernel_size = {conv: k for conv, _, _, _, k in layout}

    grads, new_buffers = {}, {}

    def conv_bn(inp, conv, bn, stride, relu, needs_input_grad=True):
        """conv (no bias; 3x3 padding 1 or 1x1 padding 0) -> batch norm in
        training mode (-> relu). Returns the output and its backward."""
        w = params[conv]
        c_out, k = w.shape[0], kernel_size[conv]
        h_out = (inp.shape[2] + 2 * (k // 2) - k) // stride + 1
        geometry = (N, c_out, h_out, h_out, inp.shape[1], k, k)
        out_c = s.kernel("aten.convolution", [inp, w],
                         [(conv + "_out", (N, c_out, h_out, h_out))], conv2d_flops(*geometry),
                         comment="%dx%d, stride %d, padding %d" % (k, k, stride, k // 2))
        gamma, beta = params[bn]
        mean, var, tracked = bn_buffers[bn]
        out, save_mean, save_invstd, new_mean, new_var = s.elementwise(
            "aten._native_batch_norm_legit_functional", [out_c, gamma, beta, mean, var],
            [(bn + "_out", out_c.shape), (bn + "_save_mean", (c_out,)),
             (bn + "_save_invstd", (c_out,)), (bn + ".running_mean_new", (c_out,)),
             (bn + ".running_var_new", (c_out,))], per=out_c,
            comment="momentum 0.1, eps 1e-5")
        new_buffers[bn + ".running_mean"] = new_mean
        new_buffers[bn + ".running_var"] = new_var
        new_buffers[bn + ".num_batches_tracked"] = s.elementwise(
            "aten.add.Tensor", [tracked], [(bn + ".num_batches_tracked_new", (), "i64")],
            per=tracked)
        act = out
        if relu:
            act = s.elementwise("aten.relu", [out], [(bn + "_relu", out.shape)], per=out)

        def backward(grad):
            if relu:
                grad = s.elementwise("aten.threshold_backward", [grad, act],
                                     [("grad_" + bn + "_out", out.shape)], per=out)
            d_conv, grads[bn + ".weight"], grads[bn + ".bias"] = s.elementwise(
                "aten.native_batch_norm_backward",
                [grad, out_c, gamma, mean, var, save_mean, save_invstd],
                [("grad_" + conv + "_out", out_c.shape), ("grad_" + bn + "_weight", (c_out,)),
                 ("grad_" + bn + "_bias", (c_out,))], per=out_c)
            if not needs_input_grad:
                grads[conv + ".weight"] = s.kernel(
                    "aten.convolution_backward", [d_conv, inp, w],
                    [("grad_" + conv + "_weight", w.shape)], conv2d_flops(*geometry),
                    comment="grad_weight only: the images need no gradient")
                return None
            d_inp, grads[conv + ".weight"] = s.kernel(
                "aten.convolution_backward", [d_conv, inp, w],
                [("grad_" + conv + "_input", inp.shape), ("grad_" + conv + "_weight", w.shape)],
                2 * conv2d_flops(*geometry))
            return d_inp
        return act, backward

    def basic_block(inp, stage, stride):
        """relu(bn2(conv2(relu(bn1(conv1(x))))) + shortcut(x)), the shortcut
        being x or, for a strided block, bn(conv1x1(x))."""
        block = stage + ".0."
        h, back1 = conv_bn(inp, block + "conv1", block + "bn1", stride, relu=True)
        main, back2 = conv_bn(h, block + "conv2", block + "bn2", 1, relu=False)
        shortcut, back_short = inp, None
        if stride != 1:
            shortcut, back_short = conv_bn(inp, block + "downsample.0", block + "downsample.1",
                                           stride, relu=False)
        summed = s.elementwise("aten.add.Tensor", [main, shortcut],
                               [(stage + "_sum", main.shape)], per=main, comment="residual")
        act = s.elementwise("aten.relu", [summed], [(stage + "_out", main.shape)], per=main)

        def backward(grad):
            d_sum = s.elementwise("aten.threshold_backward", [grad, act],
                                  [("grad_" + stage + "_sum", main.shape)], per=main)
            d_main = back1(back2(d_sum))
            d_short = back_short(d_sum) if back_short else d_sum
            return s.elementwise("aten.add.Tensor", [d_main, d_short],
                                 [("grad_" + stage + "_input", inp.shape)], per=inp,
                                 comment="the two paths' gradients")
        return act, backward

    s.section("forward", "forward")
    h, stem_backward = conv_bn(images, "conv1", "bn1", 1, relu=True, needs_input_grad=False)
    tape = [stem_backward]
    for stage, _, stride in CONVNET["stages"]:
        h, back = basic_block(h, stage, stride)
        tape.append(back)
    c = h.shape[1]
    pooled = s.elementwise("aten._adaptive_avg_pool2d", [h], [("pooled", (N, c, 1, 1))],
                           per=h, comment="output size 1x1")
    flat = s.reshape(pooled, [[0], [1, 2, 3]], (N, c), "pooled_2d")
    logits = s.kernel("aten.addmm", [fc_b, flat, fc_w], [("logits", (N, K))],
                      addmm_flops(N, K, c), comment="x fc.weight^T + fc.bias")

    s.section("loss: cross-entropy")
    logp = s.elementwise("aten._log_softmax", [logits], [("log_probs", (N, K))], per=logits)
    loss, total_weight = s.elementwise(
        "aten.nll_loss_forward", [logp, labels], [("loss", ()), ("total_weight", ())],
        per=labels, comment="reduction mean")

    s.section("backward", "backward")
    one = s.scalar_constant("grad_loss", 1.0)
    d_logp = s.elementwise("aten.nll_loss_backward", [one, logp, labels, total_weight],
                           [("grad_log_probs", (N, K))], per=labels)
    d_logits = s.elementwise("aten._log_softmax_backward_data", [d_logp, logp],
                             [("grad_logits", (N, K))], per=logits)
    grads["fc.weight"] = s.kernel("aten.mm", [d_logits, flat], [("grad_fc_weight", (K, c))],
                                  matmul_flops(K, c, N), comment="dy^T x")
    grads["fc.bias"] = s.elementwise("aten.sum.dim_IntList", [d_logits],
                                     [("grad_fc_bias", (K,))], per=d_logits)
    d_flat = s.kernel("aten.mm", [d_logits, fc_w], [("grad_pooled", (N, c))],
                      matmul_flops(N, c, K), comment="dy fc.weight")
    d_pooled = s.reshape(d_flat, [[0], [1, 2, 3]], (N, c, 1, 1), "grad_pooled_4d")
    grad = s.elementwise("aten._adaptive_avg_pool2d_backward", [d_pooled, h],
                         [("grad_features", h.shape)], per=h)
    for back in reversed(tape):
        grad = back(grad)

    s.section("optimizer: SGD, lr 0.1, momentum 0.9, weight decay 5e-4", "optimizer")
    outputs = {}
    for v, role, name in s.args:
        if role == "param":
            p_new, buf_new = s.elementwise(
                "aten._fused_sgd", [v, grads[name], momentum[name]],
                [(name + "_new", v.shape), (name + ".momentum_buffer_new", v.shape)], per=v)
            outputs[name] = p_new
            outputs[name + ".momentum_buffer"] = buf_new
    outputs.update(new_buffers)

    # The nine convolutions summed by hand in docs/examples.md; the stem's
    # backward computes grad_weight only.
    s.expect_flops("forward", "aten.convolution", 12574523392, "hand sum")
    s.expect_flops("backward", "aten.convolution_backward", 2 * 12574523392 - 226492416,
                   "2x forward less the stem's grad_input")

    s.output(loss)
    for v, role, name in s.args:
        if role != "input":
            s.output(outputs[name], name)

    stages = ", ".join("%s %d channels stride %d" % st for st in CONVNET["stages"])
    return s.render(
        "One training step of a small ResNet as ssd.kernel ops named like the ATen "
        "ops autograd runs: batch %d of 3x%dx%d images (NCHW, f32; labels i64), a "
        "3x3 stem conv to %d channels, one basic block per stage (%s; a strided "
        "block's shortcut is a 1x1 conv + batch norm), global average pooling, a "
        "linear layer to %d classes, cross-entropy, the full backward and "
        "torch.optim.SGD with momentum and weight decay. Batch norm runs in "
        "training mode and returns its updated running statistics (buffers). "
        "Transposed matmul operands are read in place. flops and bytes follow "
        "docs/examples.md." % (N, S, S, CONVNET["stem"], stages, K))


EXAMPLES = {
    "examples/transformer_block.mlir": transformer_block,
    "examples/convnet.mlir": convnet,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="fail if a committed example differs from the script's output")
    args = parser.parse_args()
    stale = 0
    for path, build in EXAMPLES.items():
        text = build()
        full = os.path.join(ROOT, path)
        if args.check:
            with open(full) as f:
                old = f.read()
            if old != text:
                stale += 1
                sys.stdout.writelines(difflib.unified_diff(
                    old.splitlines(True), text.splitlines(True), path, "regenerated", n=1))
        else:
            with open(full, "w") as f:
                f.write(text)
    if stale:
        print("%d example(s) out of date: run examples/gen_examples.py" % stale, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
