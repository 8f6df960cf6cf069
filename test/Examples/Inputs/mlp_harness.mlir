// Runs one step of examples/mlp_adamw.mlir on deterministic inputs and prints
// the loss, some updated values and whole-tensor sums. It is appended to the
// example (cat) and lowered with it, so that @main calls @step in the same
// module. test/Examples/Inputs/mlp_reference.py builds the same inputs with numpy, computes
// the expected output and writes the CHECK lines of mlp_numerics.mlir; the
// input formulas below and in that script must stay the same.

// A 2-D tensor whose element (i, j) is (((i * a + j * b) mod m) - offset) *
// scale. The examples choose power-of-two scales so that every input value is
// exact in f32.
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

// The same pattern as a 1-D tensor of n elements (row 0 of a 1 x n pattern).
func.func @pattern_1d(%n: index, %b: index, %m: index, %offset: f32,
                      %scale: f32) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %matrix = call @pattern(%c1, %n, %c0, %b, %m, %offset, %scale)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %vector = tensor.collapse_shape %matrix [[0, 1]] : tensor<?x?xf32> into tensor<?xf32>
  return %vector : tensor<?xf32>
}

// Prints ( sum |new - old|, sum |m|, sum v ) of one parameter's update,
// accumulated in f64 so that the order of summation does not matter.
func.func @print_sums(%new: tensor<?xf32>, %old: tensor<?xf32>,
                      %m: tensor<?xf32>, %v: tensor<?xf32>) {
  %zero = arith.constant 0.0 : f64
  %init = tensor.empty() : tensor<f64>
  %acc = linalg.fill ins(%zero : f64) outs(%init : tensor<f64>) -> tensor<f64>
  %dp, %am, %sv = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> ()>, affine_map<(i) -> ()>,
                       affine_map<(i) -> ()>],
      iterator_types = ["reduction"]}
      ins(%new, %old, %m, %v : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
      outs(%acc, %acc, %acc : tensor<f64>, tensor<f64>, tensor<f64>) {
  ^bb0(%p1: f32, %p0: f32, %m1: f32, %v1: f32, %acc_dp: f64, %acc_m: f64, %acc_v: f64):
    %p1d = arith.extf %p1 : f32 to f64
    %p0d = arith.extf %p0 : f32 to f64
    %m1d = arith.extf %m1 : f32 to f64
    %v1d = arith.extf %v1 : f32 to f64
    %diff = arith.subf %p1d, %p0d : f64
    %abs_diff = math.absf %diff : f64
    %abs_m = math.absf %m1d : f64
    %sum_dp = arith.addf %acc_dp, %abs_diff : f64
    %sum_m = arith.addf %acc_m, %abs_m : f64
    %sum_v = arith.addf %acc_v, %v1d : f64
    linalg.yield %sum_dp, %sum_m, %sum_v : f64, f64, f64
  } -> (tensor<f64>, tensor<f64>, tensor<f64>)
  %s0 = tensor.extract %dp[] : tensor<f64>
  %s1 = tensor.extract %am[] : tensor<f64>
  %s2 = tensor.extract %sv[] : tensor<f64>
  %sums = tensor.from_elements %s0, %s1, %s2 : tensor<3xf64>
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f64
  %vec = vector.transfer_read %sums[%c0], %pad : tensor<3xf64>, vector<3xf64>
  vector.print %vec : vector<3xf64>
  return
}

func.func @main() {
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
  %s_x = arith.constant 6.250000e-02 : f32      // 2^-4
  %s_w1 = arith.constant 1.953125e-03 : f32     // 2^-9
  %s_w2 = arith.constant 3.125000e-02 : f32     // 2^-5
  %s_b1 = arith.constant 1.562500e-02 : f32     // 2^-6
  %s_b2 = arith.constant 2.500000e-01 : f32     // 2^-2
  %s_m = arith.constant 1.22070313e-04 : f32    // 2^-13
  %s_v = arith.constant 9.53674316e-07 : f32    // 2^-20

  // x(i, k) = (((7i + 3k) mod 17) - 8) / 16
  %x_dyn = call @pattern(%c64, %c784, %c7, %c3, %c17, %f8, %s_x)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %x = tensor.cast %x_dyn : tensor<?x?xf32> to tensor<64x784xf32>
  // y(i, j) = 1 if j == 3i mod 10 else 0: ((3i + 9j) mod 10) is 0 exactly
  // there (9 = -1 mod 10), so y = (that == 0).
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

  // fc1.weight(o, k) = (((5o + 11k) mod 29) - 14) / 512
  %w1_dyn = call @pattern(%c256, %c784, %c5, %c11, %c29, %f14, %s_w1)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w1 = tensor.cast %w1_dyn : tensor<?x?xf32> to tensor<256x784xf32>
  // fc1.bias(o) = ((o mod 7) - 3) / 64
  %b1_dyn = call @pattern_1d(%c256, %c1, %c7, %f3, %s_b1)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b1 = tensor.cast %b1_dyn : tensor<?xf32> to tensor<256xf32>
  // fc2.weight(c, o) = (((13c + 7o) mod 23) - 11) / 32
  %w2_dyn = call @pattern(%c10, %c256, %c13, %c7, %c23, %f11, %s_w2)
      : (index, index, index, index, index, f32, f32) -> tensor<?x?xf32>
  %w2 = tensor.cast %w2_dyn : tensor<?x?xf32> to tensor<10x256xf32>
  // fc2.bias(c) = ((c mod 5) - 2) / 4
  %b2_dyn = call @pattern_1d(%c10, %c1, %c5, %f2, %s_b2)
      : (index, index, index, f32, f32) -> tensor<?xf32>
  %b2 = tensor.cast %b2_dyn : tensor<?xf32> to tensor<10xf32>

  // exp_avg(i, j) = (((3i + 5j) mod 11) - 5) / 8192 and
  // exp_avg_sq(i, j) = (((i + 2j) mod 7) + 1) / 2^20 for every parameter (1-D
  // ones use row 0).
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

  // Nine steps were taken before this one.
  %step = arith.constant dense<9.0> : tensor<f32>

  %loss, %w1_new, %b1_new, %w2_new, %b2_new,
  %w1_m_new, %w1_v_new, %b1_m_new, %b1_v_new,
  %w2_m_new, %w2_v_new, %b2_m_new, %b2_v_new, %step_new = call @step(
      %x, %y, %w1, %b1, %w2, %b2, %w1_m, %w1_v, %b1_m, %b1_v,
      %w2_m, %w2_v, %b2_m, %b2_v, %step)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>,
         tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>,
         tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>,
         tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>,
          tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>,
          tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)

  %pad = arith.constant 0.0 : f32
  %loss_value = tensor.extract %loss[] : tensor<f32>
  %step_value = tensor.extract %step_new[] : tensor<f32>
  vector.print str "loss "
  vector.print %loss_value : f32
  vector.print str "step "
  vector.print %step_value : f32

  // A few values of each updated tensor.
  %fc2_bias = vector.transfer_read %b2_new[%c0], %pad : tensor<10xf32>, vector<10xf32>
  %fc2_bias_m = vector.transfer_read %b2_m_new[%c0], %pad : tensor<10xf32>, vector<10xf32>
  %fc2_bias_v = vector.transfer_read %b2_v_new[%c0], %pad : tensor<10xf32>, vector<10xf32>
  %fc2_weight = vector.transfer_read %w2_new[%c3, %c0], %pad : tensor<10x256xf32>, vector<8xf32>
  %fc2_weight_m = vector.transfer_read %w2_m_new[%c3, %c0], %pad : tensor<10x256xf32>, vector<8xf32>
  %fc1_bias = vector.transfer_read %b1_new[%c0], %pad : tensor<256xf32>, vector<8xf32>
  %fc1_bias_m = vector.transfer_read %b1_m_new[%c0], %pad : tensor<256xf32>, vector<8xf32>
  %fc1_weight = vector.transfer_read %w1_new[%c5, %c0], %pad : tensor<256x784xf32>, vector<8xf32>
  %fc1_weight_m = vector.transfer_read %w1_m_new[%c5, %c0], %pad : tensor<256x784xf32>, vector<8xf32>
  %fc1_weight_v = vector.transfer_read %w1_v_new[%c5, %c0], %pad : tensor<256x784xf32>, vector<8xf32>
  vector.print str "fc2.bias "
  vector.print %fc2_bias : vector<10xf32>
  vector.print str "fc2.bias.exp_avg "
  vector.print %fc2_bias_m : vector<10xf32>
  vector.print str "fc2.bias.exp_avg_sq "
  vector.print %fc2_bias_v : vector<10xf32>
  vector.print str "fc2.weight[3, 0:8] "
  vector.print %fc2_weight : vector<8xf32>
  vector.print str "fc2.weight.exp_avg[3, 0:8] "
  vector.print %fc2_weight_m : vector<8xf32>
  vector.print str "fc1.bias[0:8] "
  vector.print %fc1_bias : vector<8xf32>
  vector.print str "fc1.bias.exp_avg[0:8] "
  vector.print %fc1_bias_m : vector<8xf32>
  vector.print str "fc1.weight[5, 0:8] "
  vector.print %fc1_weight : vector<8xf32>
  vector.print str "fc1.weight.exp_avg[5, 0:8] "
  vector.print %fc1_weight_m : vector<8xf32>
  vector.print str "fc1.weight.exp_avg_sq[5, 0:8] "
  vector.print %fc1_weight_v : vector<8xf32>

  // Whole-tensor sums, so that every element counts.
  %w1_new_flat = tensor.collapse_shape %w1_new [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w1_flat = tensor.collapse_shape %w1 [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w1_m_flat = tensor.collapse_shape %w1_m_new [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w1_v_flat = tensor.collapse_shape %w1_v_new [[0, 1]] : tensor<256x784xf32> into tensor<200704xf32>
  %w1_new_any = tensor.cast %w1_new_flat : tensor<200704xf32> to tensor<?xf32>
  %w1_any = tensor.cast %w1_flat : tensor<200704xf32> to tensor<?xf32>
  %w1_m_any = tensor.cast %w1_m_flat : tensor<200704xf32> to tensor<?xf32>
  %w1_v_any = tensor.cast %w1_v_flat : tensor<200704xf32> to tensor<?xf32>
  vector.print str "sums fc1.weight "
  call @print_sums(%w1_new_any, %w1_any, %w1_m_any, %w1_v_any)
      : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> ()
  %b1_new_any = tensor.cast %b1_new : tensor<256xf32> to tensor<?xf32>
  %b1_m_any = tensor.cast %b1_m_new : tensor<256xf32> to tensor<?xf32>
  %b1_v_any = tensor.cast %b1_v_new : tensor<256xf32> to tensor<?xf32>
  vector.print str "sums fc1.bias "
  call @print_sums(%b1_new_any, %b1_dyn, %b1_m_any, %b1_v_any)
      : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> ()
  %w2_new_flat = tensor.collapse_shape %w2_new [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %w2_flat = tensor.collapse_shape %w2 [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %w2_m_flat = tensor.collapse_shape %w2_m_new [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %w2_v_flat = tensor.collapse_shape %w2_v_new [[0, 1]] : tensor<10x256xf32> into tensor<2560xf32>
  %w2_new_any = tensor.cast %w2_new_flat : tensor<2560xf32> to tensor<?xf32>
  %w2_any = tensor.cast %w2_flat : tensor<2560xf32> to tensor<?xf32>
  %w2_m_any = tensor.cast %w2_m_flat : tensor<2560xf32> to tensor<?xf32>
  %w2_v_any = tensor.cast %w2_v_flat : tensor<2560xf32> to tensor<?xf32>
  vector.print str "sums fc2.weight "
  call @print_sums(%w2_new_any, %w2_any, %w2_m_any, %w2_v_any)
      : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> ()
  %b2_new_any = tensor.cast %b2_new : tensor<10xf32> to tensor<?xf32>
  %b2_m_any = tensor.cast %b2_m_new : tensor<10xf32> to tensor<?xf32>
  %b2_v_any = tensor.cast %b2_v_new : tensor<10xf32> to tensor<?xf32>
  vector.print str "sums fc2.bias "
  call @print_sums(%b2_new_any, %b2_dyn, %b2_m_any, %b2_v_any)
      : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> ()
  return
}
