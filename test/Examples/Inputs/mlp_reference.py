#!/usr/bin/env python3
"""Reference numbers for examples/mlp_adamw.mlir, computed with numpy.

Builds the deterministic inputs of test/Examples/Inputs/mlp_harness.mlir,
runs the same training step (forward, softmax cross-entropy, backward by hand,
torch.optim.AdamW's update) in float64, and writes the lit test
test/Examples/mlp_numerics.mlir whose CHECK lines are these numbers.

The step under mlir-cpu-runner computes in float32 and prints six significant
digits (C's %g), so a CHECK line cannot ask for every digit. For each value
the script also runs the step in float32 with numpy (a different summation
order) and takes the float32-versus-float64 difference, times a safety factor,
as the tolerance; the CHECK regex keeps the leading digits that every number
within the tolerance prints with. Values that keep fewer than
MIN_SIGNIFICANT_DIGITS are an error: change the inputs, not the tolerance.

Usage:
    .venv/bin/python test/Examples/Inputs/mlp_reference.py            # rewrite the lit test
    .venv/bin/python test/Examples/Inputs/mlp_reference.py --check    # exit 1 if it is out of date
    .venv/bin/python test/Examples/Inputs/mlp_reference.py --print    # show values and tolerances

The float32 tolerances depend on the OpenBLAS kernel numpy runs, and lit
passes no OPENBLAS_* variable to the test: regenerate the same way, with
`env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE` in front.
"""

import argparse
import os
import re
import sys

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
TEST_PATH = os.path.join(ROOT, "test", "Examples", "mlp_numerics.mlir")

BATCH, IN, HIDDEN, CLASSES = 64, 784, 256, 10
# The optimizer's constants as the example holds them: f32 literals (so the
# float64 reference computes the example's function, and float32 rounding is
# the only difference).
F32 = lambda v: float(np.float32(v))
LR, BETA1, BETA2, EPS = F32(1e-3), F32(0.9), F32(0.999), F32(1e-8)
ONE_MINUS_BETA1, ONE_MINUS_BETA2 = F32(0.1), F32(1e-3)
DECAY = F32(1 - 1e-3 * 1e-2)  # 1 - lr * weight_decay
STEPS_BEFORE = 9.0

# Tolerance of a printed value: RTOL relative, plus SAFETY times the
# float32-versus-float64 difference numpy sees for it.
RTOL = 1e-5
SAFETY = 8.0
MIN_SIGNIFICANT_DIGITS = 3


def pattern(rows, cols, a, b, m, offset, scale):
    """Element (i, j) is (((a*i + b*j) mod m) - offset) * scale, as @pattern."""
    i = np.arange(rows)[:, None]
    j = np.arange(cols)[None, :]
    return (((a * i + b * j) % m) - offset) * scale


def pattern_1d(n, b, m, offset, scale):
    return pattern(1, n, 0, b, m, offset, scale)[0]


def inputs():
    """The harness's inputs, exactly (every value is a dyadic fraction)."""
    x = pattern(BATCH, IN, 7, 3, 17, 8, 2.0**-4)
    labels = (3 * np.arange(BATCH)) % CLASSES
    y = (labels[:, None] == np.arange(CLASSES)[None, :]).astype(np.float64)
    params = {
        "fc1.weight": pattern(HIDDEN, IN, 5, 11, 29, 14, 2.0**-9),
        "fc1.bias": pattern_1d(HIDDEN, 1, 7, 3, 2.0**-6),
        "fc2.weight": pattern(CLASSES, HIDDEN, 13, 7, 23, 11, 2.0**-5),
        "fc2.bias": pattern_1d(CLASSES, 1, 5, 2, 2.0**-2),
    }
    state = {}
    for name, p in params.items():
        if p.ndim == 2:
            rows, cols = p.shape
            state[name + ".exp_avg"] = pattern(rows, cols, 3, 5, 11, 5, 2.0**-13)
            state[name + ".exp_avg_sq"] = pattern(rows, cols, 1, 2, 7, -1, 2.0**-20)
        else:
            state[name + ".exp_avg"] = pattern_1d(p.size, 5, 11, 5, 2.0**-13)
            state[name + ".exp_avg_sq"] = pattern_1d(p.size, 2, 7, -1, 2.0**-20)
    return x, y, params, state


def step(x, y, params, state, dtype):
    """One training step in `dtype`; returns (loss, new params, new state)."""
    c = lambda v: np.asarray(v, dtype=dtype)
    x, y = c(x), c(y)
    p = {k: c(v) for k, v in params.items()}
    s = {k: c(v) for k, v in state.items()}

    h = x @ p["fc1.weight"].T + p["fc1.bias"]
    a = np.maximum(h, 0)
    z = a @ p["fc2.weight"].T + p["fc2.bias"]
    zs = z - z.max(axis=1, keepdims=True)
    e = np.exp(zs)
    sumexp = e.sum(axis=1, keepdims=True)
    loss = -(y * (zs - np.log(sumexp))).sum() / c(BATCH)

    dz = (e / sumexp - y) / c(BATCH)
    grads = {
        "fc2.weight": dz.T @ a,
        "fc2.bias": dz.sum(axis=0),
    }
    dh = np.where(h > 0, dz @ p["fc2.weight"], c(0))
    grads["fc1.weight"] = dh.T @ x
    grads["fc1.bias"] = dh.sum(axis=0)

    t = c(STEPS_BEFORE + 1)
    step_size = c(LR) / (c(1) - c(BETA1) ** t)
    bc2_sqrt = np.sqrt(c(1) - c(BETA2) ** t)
    new_p, new_s = {}, {}
    for name, g in grads.items():
        m = c(BETA1) * s[name + ".exp_avg"] + c(ONE_MINUS_BETA1) * g
        v = c(BETA2) * s[name + ".exp_avg_sq"] + c(ONE_MINUS_BETA2) * g * g
        decayed = p[name] * c(DECAY)
        new_p[name] = decayed - step_size * (m / (np.sqrt(v) / bc2_sqrt + c(EPS)))
        new_s[name + ".exp_avg"] = m
        new_s[name + ".exp_avg_sq"] = v
    return loss, new_p, new_s, t


def printed_lines(params, result):
    """The harness's output as (label, [values]) in print order."""
    loss, p, s, t = result
    lines = [
        ("loss", [loss]),
        ("step", [t]),
        ("fc2.bias", p["fc2.bias"]),
        ("fc2.bias.exp_avg", s["fc2.bias.exp_avg"]),
        ("fc2.bias.exp_avg_sq", s["fc2.bias.exp_avg_sq"]),
        ("fc2.weight[3, 0:8]", p["fc2.weight"][3, :8]),
        ("fc2.weight.exp_avg[3, 0:8]", s["fc2.weight.exp_avg"][3, :8]),
        ("fc1.bias[0:8]", p["fc1.bias"][:8]),
        ("fc1.bias.exp_avg[0:8]", s["fc1.bias.exp_avg"][:8]),
        ("fc1.weight[5, 0:8]", p["fc1.weight"][5, :8]),
        ("fc1.weight.exp_avg[5, 0:8]", s["fc1.weight.exp_avg"][5, :8]),
        ("fc1.weight.exp_avg_sq[5, 0:8]", s["fc1.weight.exp_avg_sq"][5, :8]),
    ]
    for name in ("fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"):
        sums = [
            np.abs(p[name].astype(np.float64) - params[name]).sum(),
            np.abs(s[name + ".exp_avg"].astype(np.float64)).sum(),
            s[name + ".exp_avg_sq"].astype(np.float64).sum(),
        ]
        lines.append(("sums " + name, sums))
    return lines


def mantissa_exponent(value):
    """Six significant digits and the decimal exponent %g prints |value| with."""
    digits, exponent = ("%.5e" % abs(value)).split("e")
    return digits.replace(".", ""), int(exponent)


def printed_pattern(prefix, exponent):
    """A regex for every %g print of a positive number whose six significant
    digits start with `prefix` and whose decimal exponent is `exponent`."""
    if len(prefix) == 6:
        return re.escape("%g" % float("%s.%se%d" % (prefix[0], prefix[1:], exponent)))
    known = len(prefix)
    # %g writes I.F with trailing zeros of F (and a bare point) dropped, and an
    # exponent suffix S outside [-4, 6).
    suffix = ""
    if exponent < -4 or exponent >= 6:
        int_digits, frac_known = prefix[:1], prefix[1:]
        suffix = "e%s%02d" % ("-" if exponent < 0 else r"\+", abs(exponent))
    elif exponent >= 0:
        int_digits, frac_known = prefix[: exponent + 1], prefix[exponent + 1 :]
        if known < exponent + 1:
            unknown_int = exponent + 1 - known
            return int_digits + "[0-9]" * unknown_int + r"(\.[0-9]*)?"
    else:
        int_digits, frac_known = "0", "0" * (-exponent - 1) + prefix
    frac_known = frac_known.rstrip("0")
    if frac_known:
        return int_digits + r"\." + frac_known + "[0-9]*" + suffix
    return int_digits + r"(\.[0-9]*)?" + suffix


def value_regex(value, tolerance):
    """A FileCheck regex for every %g print of a number within tolerance of
    value, and the significant digits it keeps: the most digits for which the
    interval spans at most two prefixes (two, so that a value next to a
    boundary such as 0.0034100 keeps as many digits as one away from it)."""
    lo, hi = value - tolerance, value + tolerance
    if lo * hi <= 0:
        raise ValueError("%r +- %r straddles zero" % (value, tolerance))
    (d_lo, e_lo), (d_hi, e_hi) = mantissa_exponent(lo), mantissa_exponent(hi)
    if e_lo != e_hi:
        raise ValueError("%r +- %r straddles a power of ten" % (value, tolerance))
    if value < 0:
        d_lo, d_hi = d_hi, d_lo
    for kept in range(6, 0, -1):
        first, last = int(d_lo[:kept]), int(d_hi[:kept])
        if last - first <= 1:
            break
    alternatives = [printed_pattern("%0*d" % (kept, prefix), e_lo)
                    for prefix in range(first, last + 1)]
    text = alternatives[0] if len(alternatives) == 1 else "(%s)" % "|".join(alternatives)
    return ("-" if value < 0 else "") + text, kept


def check_lines(lines64, lines32):
    """FileCheck lines for the harness's output, and a report."""
    out, report, weakest = [], [], 6
    for (label, values), (_, values32) in zip(lines64, lines32):
        patterns = []
        for v, v32 in zip(values, values32):
            v, v32 = float(v), float(v32)
            if v == v32 and float("%g" % v) == v:
                # Exact in both precisions and in six digits (0, the step).
                text, kept = re.escape("%g" % v), 6
            else:
                tolerance = RTOL * abs(v) + SAFETY * abs(v - v32)
                text, kept = value_regex(v, tolerance)
            weakest = min(weakest, kept)
            if kept < MIN_SIGNIFICANT_DIGITS:
                raise ValueError("%s: %r +- %r keeps %d digits" % (label, v, tolerance, kept))
            patterns.append("{{%s}}" % text)
            report.append("%-32s %+.9e  f32 %+.9e  digits %d" % (label, v, v32, kept))
        if len(values) == 1:
            out.append("%s %s{{$}}" % (label, patterns[0]))
        else:
            out.append("%s ( %s )" % (label, ", ".join(patterns)))
    return out, report, weakest


HEADER = """\
// Tests that examples/mlp_adamw.mlir computes one AdamW training step of its
// MLP correctly: the harness runs it on deterministic inputs under
// mlir-cpu-runner and prints the loss and updated values, which must match
// numpy's (to the digits float32 rounding leaves; see the script).
//
// GENERATED by test/Examples/Inputs/mlp_reference.py from numpy's results: do not edit the
// CHECK lines by hand; rerun the script after changing the example or the
// harness.
//
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %S/Inputs/mlp_harness.mlir \\
// RUN: | mlir-opt --one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" \\
// RUN:     --buffer-deallocation-pipeline --convert-linalg-to-loops \\
// RUN:     --convert-vector-to-scf --expand-strided-metadata --lower-affine \\
// RUN:     --convert-scf-to-cf --finalize-memref-to-llvm --convert-vector-to-llvm \\
// RUN:     --convert-math-to-llvm --convert-arith-to-llvm --convert-index-to-llvm \\
// RUN:     --convert-cf-to-llvm --convert-func-to-llvm --reconcile-unrealized-casts \\
// RUN: | mlir-cpu-runner -e main -entry-point-result=void \\
// RUN:     -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \\
// RUN: | FileCheck %s
"""


def render():
    x, y, params, state = inputs()
    lines64 = printed_lines(params, step(x, y, params, state, np.float64))
    lines32 = printed_lines(params, step(x, y, params, state, np.float32))
    checks, report, weakest = check_lines(lines64, lines32)
    body = []
    for i, line in enumerate(checks):
        body.append("// %s %s" % ("CHECK:" if i == 0 else "CHECK-NEXT:", line))
    return HEADER + "\n" + "\n".join(body) + "\n", report, weakest


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true",
                      help="fail if the lit test differs from what would be written")
    mode.add_argument("--print", action="store_true",
                      help="print every value with its tolerance")
    args = parser.parse_args()
    text, report, weakest = render()
    if args.print:
        print("\n".join(report))
        print("weakest check keeps %d significant digits" % weakest)
        return 0
    if args.check:
        with open(TEST_PATH) as f:
            if f.read() != text:
                print("%s is out of date: run %s" % (TEST_PATH, sys.argv[0]), file=sys.stderr)
                return 1
        return 0
    with open(TEST_PATH, "w") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
