"""Generated training steps for the planner benchmarks (bench/planner/mlir-run,
bench/planner/snapshot): `write_step(ops, path)` writes a step of about `ops`
ssd.kernel ops and returns how many it wrote."""


def write_step(ops, path):
    """A training step of `ops` ssd.kernel ops: a forward chain whose layers
    save activations (some with residual branches), a backward chain that
    reads them in reverse, and an SGD update of every parameter."""
    layers = max(1, ops // 3)
    lines = []
    args = ['%x: tensor<64x256xf32> {ssd.role = "input", ssd.name = "x"}']
    for i in range(layers):
        args.append(f'%w{i}: tensor<256x256xf32> {{ssd.role = "param", ssd.name = "w{i}"}}')
    results, result_types = [], []
    lines.append(f"func.func @step({', '.join(args)}) -> (RESULTS) {{")
    act = "%x"
    for i in range(layers):
        lines.append(f'  %a{i} = ssd.kernel "aten.mm"({act}, %w{i}) {{flops = 8.4e6 : f64}} '
                     f": (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>")
        if i % 4 == 3:
            lines.append(f'  %r{i} = ssd.kernel "aten.add"(%a{i}, %a{i - 2}) {{flops = 1.6e4 : f64}} '
                         f": (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>")
            act = f"%r{i}"
        else:
            act = f"%a{i}"
    grad = act
    for i in reversed(range(layers)):
        saved = "%x" if i == 0 else f"%a{i - 1}"
        lines.append(f'  %g{i} = ssd.kernel "aten.mm"({grad}, %w{i}) {{flops = 8.4e6 : f64}} '
                     f": (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>")
        lines.append(f'  %u{i} = ssd.kernel "sgd"(%w{i}, {saved}, {grad}) {{flops = 8.4e6 : f64}} '
                     f": (tensor<256x256xf32>, tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<256x256xf32>")
        results.append(f"%u{i}")
        result_types.append(f'tensor<256x256xf32> {{ssd.name = "w{i}"}}')
        grad = f"%g{i}"
    lines.append(f"  return {', '.join(results)} : {', '.join('tensor<256x256xf32>' for _ in results)}")
    lines.append("}")
    text = "\n".join(lines).replace("RESULTS", ", ".join(result_types))
    with open(path, "w") as f:
        f.write(text + "\n")
    return len([l for l in lines if "ssd.kernel" in l])
