// Helpers of the multi-step MLP tests (mlp-steady-state-run.mlir): the
// inputs and initial state of examples/mlp_adamw.mlir's step, built from
// the same formulas as test/Examples/Inputs/mlp_harness.mlir, and a printer
// of the state after the steps. Appended, with one of the mlp_steps_*_main
// files, to a module that defines @step; no module braces of its own.

// A 2-D tensor whose element (i, j) is (((i * a + j * b) mod m) - offset) *
// scale.
func.func @pattern(%rows: index, %cols: index, %a: index, %b: index,
                   %m: index, %offset: f32, %scale: f32) -> tensor<?x?xf32> {
  %init = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %filled = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%init : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ia = arith.muli %i, %a : index
    %jb = arith.muli %j, %b : index
    %sum = arith.addi %ia, %jb : index
    %rem = arith.remui %sum, %m : index
    %int = arith.index_cast %rem : index to i64
    %float = arith.sitofp %int : i64 to f32
    %centred = arith.subf %float, %offset : f32
    %value = arith.mulf %centred, %scale : f32
    linalg.yield %value : f32
  } -> tensor<?x?xf32>
  return %filled : tensor<?x?xf32>
}

// The pattern as a 1-D tensor of n elements (row 0 of a 1 x n pattern).
func.func @pattern_1d(%n: index, %b: index, %m: index, %offset: f32,
                      %scale: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %matrix = call @pattern(%c1, %n, %c0, %b, %m, %offset, %scale)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %vector = tensor.collapse_shape %matrix [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %vector : tensor<?xf32>
}

// The step's inputs x, y and its persistent state before the first step,
// in the step's argument order.
func.func @initial_state() -> (tensor<64x784xf32>, tensor<64x10xf32>,
    tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>,
    tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>,
    tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>,
    tensor<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %c10 = arith.constant 10 : index
  %c11 = arith.constant 11 : index
  %c13 = arith.constant 13 : index
  %c17 = arith.constant 17 : index
  %c23 = arith.constant 23 : index
  %c29 = arith.constant 29 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %c784 = arith.constant 784 : index
  %f0 = arith.constant 0.0 : f32
  %f1 = arith.constant 1.0 : f32
  %f2 = arith.constant 2.0 : f32
  %f3 = arith.constant 3.0 : f32
  %f5 = arith.constant 5.0 : f32
  %f8 = arith.constant 8.0 : f32
  %f11 = arith.constant 11.0 : f32
  %f14 = arith.constant 14.0 : f32
  %f_m1 = arith.constant -1.0 : f32
  %s_x = arith.constant 6.250000e-02 : f32
  %s_w1 = arith.constant 1.953125e-03 : f32
  %s_w2 = arith.constant 3.125000e-02 : f32
  %s_b1 = arith.constant 1.562500e-02 : f32
  %s_b2 = arith.constant 2.500000e-01 : f32
  %s_m = arith.constant 1.22070313e-04 : f32
  %s_v = arith.constant 9.53674316e-07 : f32

  %x_dyn = call @pattern(%c64, %c784, %c7, %c3, %c17, %f8, %s_x)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %x = tensor.cast %x_dyn : tensor<?x?xf32> to tensor<64x784xf32>
  %y_init = tensor.empty() : tensor<64x10xf32>
  %y = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%y_init : tensor<64x10xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %label = arith.muli %i, %c3 : index
    %label_mod = arith.remui %label, %c10 : index
    %hit = arith.cmpi eq, %label_mod, %j : index
    %one_hot = arith.select %hit, %f1, %f0 : f32
    linalg.yield %one_hot : f32
  } -> tensor<64x10xf32>
  %w1_dyn = call @pattern(%c256, %c784, %c5, %c11, %c29, %f14, %s_w1)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w1 = tensor.cast %w1_dyn : tensor<?x?xf32> to tensor<256x784xf32>
  %b1_dyn = call @pattern_1d(%c256, %c1, %c7, %f3, %s_b1)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b1 = tensor.cast %b1_dyn : tensor<?xf32> to tensor<256xf32>
  %w2_dyn = call @pattern(%c10, %c256, %c13, %c7, %c23, %f11, %s_w2)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w2 = tensor.cast %w2_dyn : tensor<?x?xf32> to tensor<10x256xf32>
  %b2_dyn = call @pattern_1d(%c10, %c1, %c5, %f2, %s_b2)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b2 = tensor.cast %b2_dyn : tensor<?xf32> to tensor<10xf32>
  %w1_m_dyn = call @pattern(%c256, %c784, %c3, %c5, %c11, %f5, %s_m)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w1_m = tensor.cast %w1_m_dyn : tensor<?x?xf32> to tensor<256x784xf32>
  %w1_v_dyn = call @pattern(%c256, %c784, %c1, %c2, %c7, %f_m1, %s_v)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w1_v = tensor.cast %w1_v_dyn : tensor<?x?xf32> to tensor<256x784xf32>
  %b1_m_dyn = call @pattern_1d(%c256, %c5, %c11, %f5, %s_m)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b1_m = tensor.cast %b1_m_dyn : tensor<?xf32> to tensor<256xf32>
  %b1_v_dyn = call @pattern_1d(%c256, %c2, %c7, %f_m1, %s_v)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b1_v = tensor.cast %b1_v_dyn : tensor<?xf32> to tensor<256xf32>
  %w2_m_dyn = call @pattern(%c10, %c256, %c3, %c5, %c11, %f5, %s_m)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w2_m = tensor.cast %w2_m_dyn : tensor<?x?xf32> to tensor<10x256xf32>
  %w2_v_dyn = call @pattern(%c10, %c256, %c1, %c2, %c7, %f_m1, %s_v)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w2_v = tensor.cast %w2_v_dyn : tensor<?x?xf32> to tensor<10x256xf32>
  %b2_m_dyn = call @pattern_1d(%c10, %c5, %c11, %f5, %s_m)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b2_m = tensor.cast %b2_m_dyn : tensor<?xf32> to tensor<10xf32>
  %b2_v_dyn = call @pattern_1d(%c10, %c2, %c7, %f_m1, %s_v)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b2_v = tensor.cast %b2_v_dyn : tensor<?xf32> to tensor<10xf32>
  %step = arith.constant dense<9.0> : tensor<f32>
  return %x, %y, %w1, %b1, %w2, %b2, %w1_m, %w1_v, %b1_m, %b1_v, %w2_m, %w2_v,
         %b2_m, %b2_v, %step
      : tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>,
        tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>,
        tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>,
        tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>,
        tensor<10xf32>, tensor<10xf32>, tensor<f32>
}

// Prints ( sum x, sum |x| ) of a tensor, in f64, and its first four
// elements.
func.func @print_tensor(%t: tensor<?xf32>) {
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<f64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<f64>) -> tensor<f64>
  %sum, %abs = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>,
                       affine_map<(i) -> ()>],
      iterator_types = ["reduction"]}
      ins(%t : tensor<?xf32>) outs(%acc, %acc : tensor<f64>, tensor<f64>) {
  ^bb0(%x: f32, %acc_sum: f64, %acc_abs: f64):
    %xd = arith.extf %x : f32 to f64
    %ax = math.absf %xd : f64
    %s = arith.addf %acc_sum, %xd : f64
    %a = arith.addf %acc_abs, %ax : f64
    linalg.yield %s, %a : f64, f64
  } -> (tensor<f64>, tensor<f64>)
  %s0 = tensor.extract %sum[] : tensor<f64>
  %s1 = tensor.extract %abs[] : tensor<f64>
  %sums = tensor.from_elements %s0, %s1 : tensor<2xf64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %t0 = tensor.extract %t[%c0] : tensor<?xf32>
  %t1 = tensor.extract %t[%c1] : tensor<?xf32>
  %t2 = tensor.extract %t[%c2] : tensor<?xf32>
  %t3 = tensor.extract %t[%c3] : tensor<?xf32>
  %first = tensor.from_elements %t0, %t1, %t2, %t3 : tensor<4xf32>
  %pad = arith.constant 0.0 : f64
  %padf = arith.constant 0.0 : f32
  %vec = vector.transfer_read %sums[%c0], %pad : tensor<2xf64>, vector<2xf64>
  %head = vector.transfer_read %first[%c0], %padf : tensor<4xf32>, vector<4xf32>
  vector.print %vec : vector<2xf64>
  vector.print %head : vector<4xf32>
  return
}

// Prints the persistent state after the steps, every element counted.
func.func @print_state(%w1: tensor<256x784xf32>, %b1: tensor<256xf32>,
    %w2: tensor<10x256xf32>, %b2: tensor<10xf32>,
    %w1_m: tensor<256x784xf32>, %w1_v: tensor<256x784xf32>,
    %b1_m: tensor<256xf32>, %b1_v: tensor<256xf32>,
    %w2_m: tensor<10x256xf32>, %w2_v: tensor<10x256xf32>,
    %b2_m: tensor<10xf32>, %b2_v: tensor<10xf32>, %step: tensor<f32>) {
  %step_value = tensor.extract %step[] : tensor<f32>
  vector.print str "optimizer.step "
  vector.print %step_value : f32
  %w1_flat = tensor.collapse_shape %w1 [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w1_m_flat = tensor.collapse_shape %w1_m [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w1_v_flat = tensor.collapse_shape %w1_v [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w2_flat = tensor.collapse_shape %w2 [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %w2_m_flat = tensor.collapse_shape %w2_m [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %w2_v_flat = tensor.collapse_shape %w2_v [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %a0 = tensor.cast %w1_flat : tensor<200704xf32> to tensor<?xf32>
  %a1 = tensor.cast %b1 : tensor<256xf32> to tensor<?xf32>
  %a2 = tensor.cast %w2_flat : tensor<2560xf32> to tensor<?xf32>
  %a3 = tensor.cast %b2 : tensor<10xf32> to tensor<?xf32>
  %a4 = tensor.cast %w1_m_flat : tensor<200704xf32> to tensor<?xf32>
  %a5 = tensor.cast %w1_v_flat : tensor<200704xf32> to tensor<?xf32>
  %a6 = tensor.cast %b1_m : tensor<256xf32> to tensor<?xf32>
  %a7 = tensor.cast %b1_v : tensor<256xf32> to tensor<?xf32>
  %a8 = tensor.cast %w2_m_flat : tensor<2560xf32> to tensor<?xf32>
  %a9 = tensor.cast %w2_v_flat : tensor<2560xf32> to tensor<?xf32>
  %a10 = tensor.cast %b2_m : tensor<10xf32> to tensor<?xf32>
  %a11 = tensor.cast %b2_v : tensor<10xf32> to tensor<?xf32>
  vector.print str "fc1.weight "
  call @print_tensor(%a0) : (tensor<?xf32>) -> ()
  vector.print str "fc1.bias "
  call @print_tensor(%a1) : (tensor<?xf32>) -> ()
  vector.print str "fc2.weight "
  call @print_tensor(%a2) : (tensor<?xf32>) -> ()
  vector.print str "fc2.bias "
  call @print_tensor(%a3) : (tensor<?xf32>) -> ()
  vector.print str "fc1.weight.exp_avg "
  call @print_tensor(%a4) : (tensor<?xf32>) -> ()
  vector.print str "fc1.weight.exp_avg_sq "
  call @print_tensor(%a5) : (tensor<?xf32>) -> ()
  vector.print str "fc1.bias.exp_avg "
  call @print_tensor(%a6) : (tensor<?xf32>) -> ()
  vector.print str "fc1.bias.exp_avg_sq "
  call @print_tensor(%a7) : (tensor<?xf32>) -> ()
  vector.print str "fc2.weight.exp_avg "
  call @print_tensor(%a8) : (tensor<?xf32>) -> ()
  vector.print str "fc2.weight.exp_avg_sq "
  call @print_tensor(%a9) : (tensor<?xf32>) -> ()
  vector.print str "fc2.bias.exp_avg "
  call @print_tensor(%a10) : (tensor<?xf32>) -> ()
  vector.print str "fc2.bias.exp_avg_sq "
  call @print_tensor(%a11) : (tensor<?xf32>) -> ()
  return
}

// Prints a step's loss.
func.func @print_loss(%loss: tensor<f32>) {
  %value = tensor.extract %loss[] : tensor<f32>
  vector.print str "loss "
  vector.print %value : f32
  return
}
