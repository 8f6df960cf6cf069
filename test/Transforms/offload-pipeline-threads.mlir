// RUN: ssd-opt %s -ssd-offload-pipeline="memory-budget=20KiB" > %t.threaded
// RUN: ssd-opt %s --mlir-disable-threading -ssd-offload-pipeline="memory-budget=20KiB" > %t.serial
// RUN: diff %t.threaded %t.serial
// RUN: FileCheck %s < %t.threaded

// Tests that steps planned at once, by function passes that MLIR runs on
// the context's thread pool while the planner makes its candidates on that
// same pool, get the plans a single thread makes, and that none waits
// forever for a worker. Each function is the step of
// plan-offload-movable.mlir: the parameter enters on SSD and is reloaded
// before its use.
// CHECK-LABEL: func.func @step0
// CHECK-SAME: %[[W0:.+]]: !ssd.handle<tensor<2048xf32>>
// CHECK: %[[R0:.+]] = ssd.prefetch %[[W0]]
// CHECK: ssd.wait %[[R0]], %[[W0]]
// CHECK-LABEL: func.func @step1
// CHECK-SAME: %[[W1:.+]]: !ssd.handle<tensor<2048xf32>>
// CHECK: %[[R1:.+]] = ssd.prefetch %[[W1]]
// CHECK: ssd.wait %[[R1]], %[[W1]]
// CHECK-LABEL: func.func @step2
// CHECK-SAME: %[[W2:.+]]: !ssd.handle<tensor<2048xf32>>
// CHECK: %[[R2:.+]] = ssd.prefetch %[[W2]]
// CHECK: ssd.wait %[[R2]], %[[W2]]
// CHECK-LABEL: func.func @step3
// CHECK-SAME: %[[W3:.+]]: !ssd.handle<tensor<2048xf32>>
// CHECK: %[[R3:.+]] = ssd.prefetch %[[W3]]
// CHECK: ssd.wait %[[R3]], %[[W3]]

func.func @step0(%w: tensor<2048xf32> {ssd.role = "param", ssd.name = "w"},
                 %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 3 : i64} {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %l = ssd.kernel "loss"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %gb = ssd.kernel "g_bwd"(%l, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>) -> tensor<16xf32>
  %ga = ssd.kernel "f_bwd"(%gb, %a, %w) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}

func.func @step1(%w: tensor<2048xf32> {ssd.role = "param", ssd.name = "w"},
                 %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 3 : i64} {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %l = ssd.kernel "loss"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %gb = ssd.kernel "g_bwd"(%l, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>) -> tensor<16xf32>
  %ga = ssd.kernel "f_bwd"(%gb, %a, %w) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}

func.func @step2(%w: tensor<2048xf32> {ssd.role = "param", ssd.name = "w"},
                 %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 3 : i64} {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %l = ssd.kernel "loss"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %gb = ssd.kernel "g_bwd"(%l, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>) -> tensor<16xf32>
  %ga = ssd.kernel "f_bwd"(%gb, %a, %w) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}

func.func @step3(%w: tensor<2048xf32> {ssd.role = "param", ssd.name = "w"},
                 %x: tensor<16xf32> {ssd.role = "input", ssd.name = "x"})
    -> tensor<16xf32> attributes {ssd.backward_start = 3 : i64} {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<16xf32>) -> tensor<2048xf32>
  %l = ssd.kernel "loss"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<16xf32>
  %gb = ssd.kernel "g_bwd"(%l, %b) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>) -> tensor<16xf32>
  %ga = ssd.kernel "f_bwd"(%gb, %a, %w) {flops = 1.0e12 : f64} : (tensor<16xf32>, tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %ga : tensor<16xf32>
}
