// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=20KiB" | FileCheck %s --check-prefix=ANY
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=20KiB movable=activation" | FileCheck %s --check-prefix=ACT
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=20KiB movable=activation policy=reload-on-use" | FileCheck %s --check-prefix=ACT
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=20KiB movable=activation policy=stash-window" | FileCheck %s --check-prefix=ACT
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=20KiB movable=activation policy=aot-prefetch" | FileCheck %s --check-prefix=ACT
// RUN: ssd-opt %s -ssd-plan-offload="memory-budget=20KiB movable=activation policy=fixed-depth" | FileCheck %s --check-prefix=ACT
// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=20KiB movable=gradient,activation" | FileCheck %s --check-prefix=ACT

// Tests that `movable` restricts the plan to the listed roles. The step
// needs 24 KiB; evicting the parameter `w` until its only use costs one read
// and no write, so every policy moves it when it may. With
// movable=activation, only the saved activations (%a and %b, defined before
// the backward start at op 3 and used after it) may move, and every policy
// moves %a across the ops that do not use it.
// ANY-LABEL: func.func @step
// ANY-SAME: %[[W:.+]]: !ssd.handle<tensor<2048xf32>> {ssd.name = "w", ssd.role = "param"}
// ANY-NOT: ssd.offload
// ANY: %[[R:.+]] = ssd.prefetch %[[W]]
// ANY: %[[W2:.+]] = ssd.wait %[[R]], %[[W]]
// ANY: ssd.kernel "f_bwd"({{.*}}, %[[W2]])

// ACT-LABEL: func.func @step
// ACT-SAME: %[[W:.+]]: tensor<2048xf32> {ssd.name = "w", ssd.role = "param"}
// ACT: %[[A:.+]] = ssd.kernel "f"
// ACT-NEXT: %[[H:.+]], %[[T:.+]] = ssd.offload %[[A]]
// ACT-NEXT: ssd.release %[[A]] after %[[T]]
// ACT-NEXT: ssd.kernel "g"
// ACT-NEXT: ssd.kernel "loss"
// ACT-NEXT: ssd.kernel "g_bwd"
// ACT-NEXT: %[[R:.+]] = ssd.prefetch %[[H]]
// ACT-NEXT: %[[A2:.+]] = ssd.wait %[[R]], %[[H]]
// ACT-NEXT: ssd.kernel "f_bwd"({{.*}}, %[[A2]], %[[W]])
func.func @step(%w: tensor<2048xf32> {ssd.role = "param", ssd.name = "w"},
                %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 3 : i64} {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %l = ssd.kernel "loss"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %gb = ssd.kernel "g_bwd"(%l, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>) -> tensor<16xf32>
  %ga = ssd.kernel "f_bwd"(%gb, %a, %w) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}
