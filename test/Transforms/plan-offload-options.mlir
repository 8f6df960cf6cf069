// RUN: not ssd-opt %s -ssd-plan-offload 2>&1 | FileCheck %s --check-prefix=NOBUDGET
// RUN: not ssd-opt %s -ssd-plan-offload="memory-budget=lots" 2>&1 | FileCheck %s --check-prefix=BADBUDGET
// RUN: not ssd-opt %s -ssd-plan-offload="memory-budget=1GiB policy=magic" 2>&1 | FileCheck %s --check-prefix=POLICY
// RUN: not ssd-opt %s -ssd-plan-offload="memory-budget=1GiB target=/nonexistent.json" 2>&1 | FileCheck %s --check-prefix=TARGET
// RUN: not ssd-opt %s -ssd-plan-offload="memory-budget=1GiB movable=activation,weights" 2>&1 | FileCheck %s --check-prefix=MOVABLE
// RUN: not ssd-opt %s -ssd-offload-pipeline="memory-budget=1GiB movable=params" 2>&1 | FileCheck %s --check-prefix=MOVABLE-PIPELINE

// Tests the diagnostics for bad options.
// NOBUDGET: error: the 'memory-budget' option is required
// BADBUDGET: error: memory-budget:
// POLICY: error: unknown policy 'magic'; expected one of ssd reload-on-use stash-window aot-prefetch fixed-depth exact{{$}}
// TARGET: error: target:
// MOVABLE: error: movable: unknown role 'weights'; expected a comma-separated list of param, optimizer_state, buffer, input, activation, gradient, temporary, unknown
// MOVABLE-PIPELINE: error: movable: unknown role 'params'
func.func @step(%x: tensor<4xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
