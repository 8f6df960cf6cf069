// One training step of a two-layer MLP classifier with AdamW, written out by
// hand in upstream dialects on tensors: linalg named ops for the matmuls,
// linalg.generic and linalg.reduce with arith and math scalar bodies for
// everything else. No ssd.kernel: the step lowers with upstream passes and
// runs under mlir-cpu-runner (test/Examples/mlp_numerics.mlir checks its
// numbers against test/Examples/Inputs/mlp_reference.py).
//
// Model (PyTorch conventions, weights are [out, in]):
//   h = x @ fc1.weight^T + fc1.bias        x: 64x784, h: 64x256
//   a = relu(h)
//   z = a @ fc2.weight^T + fc2.bias        z: 64x10
//   loss = mean_i( -sum_j y_ij * log_softmax(z)_ij )   y: one-hot targets
// Optimizer: torch.optim.AdamW(lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
// weight_decay=1e-2). `optimizer.step` is the number of steps taken before
// this one (a float32 scalar, as PyTorch keeps it); the step returns it + 1.
//
// Results: the loss, then the new value of every persistent argument, named
// like the argument it replaces.

func.func @step(
    %x: tensor<64x784xf32> {ssd.role = "input", ssd.name = "x"},
    %y: tensor<64x10xf32> {ssd.role = "input", ssd.name = "y"},
    %w1: tensor<256x784xf32> {ssd.role = "param", ssd.name = "fc1.weight"},
    %b1: tensor<256xf32> {ssd.role = "param", ssd.name = "fc1.bias"},
    %w2: tensor<10x256xf32> {ssd.role = "param", ssd.name = "fc2.weight"},
    %b2: tensor<10xf32> {ssd.role = "param", ssd.name = "fc2.bias"},
    %w1_m: tensor<256x784xf32> {ssd.role = "optimizer_state", ssd.name = "fc1.weight.exp_avg"},
    %w1_v: tensor<256x784xf32> {ssd.role = "optimizer_state", ssd.name = "fc1.weight.exp_avg_sq"},
    %b1_m: tensor<256xf32> {ssd.role = "optimizer_state", ssd.name = "fc1.bias.exp_avg"},
    %b1_v: tensor<256xf32> {ssd.role = "optimizer_state", ssd.name = "fc1.bias.exp_avg_sq"},
    %w2_m: tensor<10x256xf32> {ssd.role = "optimizer_state", ssd.name = "fc2.weight.exp_avg"},
    %w2_v: tensor<10x256xf32> {ssd.role = "optimizer_state", ssd.name = "fc2.weight.exp_avg_sq"},
    %b2_m: tensor<10xf32> {ssd.role = "optimizer_state", ssd.name = "fc2.bias.exp_avg"},
    %b2_v: tensor<10xf32> {ssd.role = "optimizer_state", ssd.name = "fc2.bias.exp_avg_sq"},
    %step: tensor<f32> {ssd.role = "buffer", ssd.name = "optimizer.step"})
    -> (tensor<f32>,
        tensor<256x784xf32> {ssd.name = "fc1.weight"},
        tensor<256xf32> {ssd.name = "fc1.bias"},
        tensor<10x256xf32> {ssd.name = "fc2.weight"},
        tensor<10xf32> {ssd.name = "fc2.bias"},
        tensor<256x784xf32> {ssd.name = "fc1.weight.exp_avg"},
        tensor<256x784xf32> {ssd.name = "fc1.weight.exp_avg_sq"},
        tensor<256xf32> {ssd.name = "fc1.bias.exp_avg"},
        tensor<256xf32> {ssd.name = "fc1.bias.exp_avg_sq"},
        tensor<10x256xf32> {ssd.name = "fc2.weight.exp_avg"},
        tensor<10x256xf32> {ssd.name = "fc2.weight.exp_avg_sq"},
        tensor<10xf32> {ssd.name = "fc2.bias.exp_avg"},
        tensor<10xf32> {ssd.name = "fc2.bias.exp_avg_sq"},
        tensor<f32> {ssd.name = "optimizer.step"}) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %neg_inf = arith.constant 0xFF800000 : f32
  %inv_batch = arith.constant 1.562500e-02 : f32  // 1 / 64

  // ---- forward -------------------------------------------------------------
  %h_init = tensor.empty() : tensor<64x256xf32>
  %h_zero = linalg.fill ins(%zero : f32) outs(%h_init : tensor<64x256xf32>) -> tensor<64x256xf32>
  %xw1 = linalg.matmul_transpose_b
      ins(%x, %w1 : tensor<64x784xf32>, tensor<256x784xf32>)
      outs(%h_zero : tensor<64x256xf32>) -> tensor<64x256xf32>
  // h = xw1 + b1 (saved for the ReLU backward), a = relu(h).
  %h, %a = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%xw1, %b1 : tensor<64x256xf32>, tensor<256xf32>)
      outs(%h_init, %h_init : tensor<64x256xf32>, tensor<64x256xf32>) {
  ^bb0(%in: f32, %bias: f32, %out_h: f32, %out_a: f32):
    %sum = arith.addf %in, %bias : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %sum, %relu : f32, f32
  } -> (tensor<64x256xf32>, tensor<64x256xf32>)

  %z_init = tensor.empty() : tensor<64x10xf32>
  %z_zero = linalg.fill ins(%zero : f32) outs(%z_init : tensor<64x10xf32>) -> tensor<64x10xf32>
  %aw2 = linalg.matmul_transpose_b
      ins(%a, %w2 : tensor<64x256xf32>, tensor<10x256xf32>)
      outs(%z_zero : tensor<64x10xf32>) -> tensor<64x10xf32>

  // Softmax cross-entropy, stable form: zs = z - max_j z, lse = log sum exp zs.
  %row_init = tensor.empty() : tensor<64xf32>
  %row_neg_inf = linalg.fill ins(%neg_inf : f32) outs(%row_init : tensor<64xf32>) -> tensor<64xf32>
  %zmax = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i)>],
      iterator_types = ["parallel", "reduction"]}
      ins(%aw2, %b2 : tensor<64x10xf32>, tensor<10xf32>)
      outs(%row_neg_inf : tensor<64xf32>) {
  ^bb0(%in: f32, %bias: f32, %acc: f32):
    %zij = arith.addf %in, %bias : f32
    %max = arith.maximumf %acc, %zij : f32
    linalg.yield %max : f32
  } -> tensor<64xf32>
  %zs, %e = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                       affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%aw2, %b2, %zmax : tensor<64x10xf32>, tensor<10xf32>, tensor<64xf32>)
      outs(%z_init, %z_init : tensor<64x10xf32>, tensor<64x10xf32>) {
  ^bb0(%in: f32, %bias: f32, %max: f32, %out_zs: f32, %out_e: f32):
    %zij = arith.addf %in, %bias : f32
    %shifted = arith.subf %zij, %max : f32
    %exp = math.exp %shifted : f32
    linalg.yield %shifted, %exp : f32, f32
  } -> (tensor<64x10xf32>, tensor<64x10xf32>)
  %row_zero = linalg.fill ins(%zero : f32) outs(%row_init : tensor<64xf32>) -> tensor<64xf32>
  %sumexp = linalg.reduce ins(%e : tensor<64x10xf32>) outs(%row_zero : tensor<64xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %lse = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%sumexp : tensor<64xf32>) outs(%row_init : tensor<64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %log = math.log %in : f32
    linalg.yield %log : f32
  } -> tensor<64xf32>

  // loss = -(1/64) * sum_ij y_ij * (zs_ij - lse_i)
  %scalar_init = tensor.empty() : tensor<f32>
  %scalar_zero = linalg.fill ins(%zero : f32) outs(%scalar_init : tensor<f32>) -> tensor<f32>
  %nll_sum = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i)>, affine_map<(i, j) -> ()>],
      iterator_types = ["reduction", "reduction"]}
      ins(%y, %zs, %lse : tensor<64x10xf32>, tensor<64x10xf32>, tensor<64xf32>)
      outs(%scalar_zero : tensor<f32>) {
  ^bb0(%target: f32, %shifted: f32, %logsum: f32, %acc: f32):
    %logp = arith.subf %shifted, %logsum : f32
    %term = arith.mulf %target, %logp : f32
    %sum = arith.subf %acc, %term : f32
    linalg.yield %sum : f32
  } -> tensor<f32>
  %loss = linalg.generic {
      indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>],
      iterator_types = []}
      ins(%nll_sum : tensor<f32>) outs(%scalar_init : tensor<f32>) {
  ^bb0(%in: f32, %out: f32):
    %mean = arith.mulf %in, %inv_batch : f32
    linalg.yield %mean : f32
  } -> tensor<f32>

  // ---- backward ------------------------------------------------------------
  // dz = (softmax(z) - y) / 64
  %dz = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                       affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%e, %sumexp, %y : tensor<64x10xf32>, tensor<64xf32>, tensor<64x10xf32>)
      outs(%z_init : tensor<64x10xf32>) {
  ^bb0(%exp: f32, %sum: f32, %target: f32, %out: f32):
    %prob = arith.divf %exp, %sum : f32
    %diff = arith.subf %prob, %target : f32
    %grad = arith.mulf %diff, %inv_batch : f32
    linalg.yield %grad : f32
  } -> tensor<64x10xf32>

  // fc2: dW2 = dz^T a, db2 = sum_i dz, da = dz W2
  %w2_init = tensor.empty() : tensor<10x256xf32>
  %w2_zero = linalg.fill ins(%zero : f32) outs(%w2_init : tensor<10x256xf32>) -> tensor<10x256xf32>
  %dw2 = linalg.matmul_transpose_a
      ins(%dz, %a : tensor<64x10xf32>, tensor<64x256xf32>)
      outs(%w2_zero : tensor<10x256xf32>) -> tensor<10x256xf32>
  %b2_init = tensor.empty() : tensor<10xf32>
  %b2_zero = linalg.fill ins(%zero : f32) outs(%b2_init : tensor<10xf32>) -> tensor<10xf32>
  %db2 = linalg.reduce ins(%dz : tensor<64x10xf32>) outs(%b2_zero : tensor<10xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }
  %da = linalg.matmul
      ins(%dz, %w2 : tensor<64x10xf32>, tensor<10x256xf32>)
      outs(%h_zero : tensor<64x256xf32>) -> tensor<64x256xf32>

  // relu: dh = da where h > 0
  %dh = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%da, %h : tensor<64x256xf32>, tensor<64x256xf32>)
      outs(%h_init : tensor<64x256xf32>) {
  ^bb0(%grad: f32, %pre: f32, %out: f32):
    %active = arith.cmpf ogt, %pre, %zero : f32
    %masked = arith.select %active, %grad, %zero : f32
    linalg.yield %masked : f32
  } -> tensor<64x256xf32>

  // fc1: dW1 = dh^T x, db1 = sum_i dh
  %w1_init = tensor.empty() : tensor<256x784xf32>
  %w1_zero = linalg.fill ins(%zero : f32) outs(%w1_init : tensor<256x784xf32>) -> tensor<256x784xf32>
  %dw1 = linalg.matmul_transpose_a
      ins(%dh, %x : tensor<64x256xf32>, tensor<64x784xf32>)
      outs(%w1_zero : tensor<256x784xf32>) -> tensor<256x784xf32>
  %b1_init = tensor.empty() : tensor<256xf32>
  %b1_zero = linalg.fill ins(%zero : f32) outs(%b1_init : tensor<256xf32>) -> tensor<256xf32>
  %db1 = linalg.reduce ins(%dh : tensor<64x256xf32>) outs(%b1_zero : tensor<256xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %sum = arith.addf %in, %acc : f32
      linalg.yield %sum : f32
    }


  // ---- AdamW ---------------------------------------------------------------
  // As torch.optim.AdamW (single-tensor, non-amsgrad) computes it, at step
  // t = step + 1 for every parameter p with gradient g:
  //   p <- p * (1 - lr * weight_decay)
  //   m <- beta1 * m + (1 - beta1) * g
  //   v <- beta2 * v + (1 - beta2) * g * g
  //   p <- p - (lr / (1 - beta1^t)) * m / (sqrt(v) / sqrt(1 - beta2^t) + eps)
  %lr = arith.constant 1.0e-03 : f32
  %beta1 = arith.constant 0.9 : f32
  %beta2 = arith.constant 0.999 : f32
  %one_minus_beta1 = arith.constant 0.1 : f32
  %one_minus_beta2 = arith.constant 1.0e-03 : f32
  %decay = arith.constant 0.99999 : f32  // 1 - lr * weight_decay (1e-2)
  %eps = arith.constant 1.0e-08 : f32

  // The new step count and the step's scalar factors.
  %next_step, %step_size, %bc2_sqrt = linalg.generic {
      indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>,
                       affine_map<() -> ()>, affine_map<() -> ()>],
      iterator_types = []}
      ins(%step : tensor<f32>)
      outs(%scalar_init, %scalar_init, %scalar_init : tensor<f32>, tensor<f32>, tensor<f32>) {
  ^bb0(%count: f32, %out_t: f32, %out_step_size: f32, %out_bc2_sqrt: f32):
    %t = arith.addf %count, %one : f32
    %beta1_pow = math.powf %beta1, %t : f32
    %beta2_pow = math.powf %beta2, %t : f32
    %bc1 = arith.subf %one, %beta1_pow : f32
    %bc2 = arith.subf %one, %beta2_pow : f32
    %size = arith.divf %lr, %bc1 : f32
    %root = math.sqrt %bc2 : f32
    linalg.yield %t, %size, %root : f32, f32, f32
  } -> (tensor<f32>, tensor<f32>, tensor<f32>)

  %w1_new, %w1_m_new, %w1_v_new = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> ()>, affine_map<(i, j) -> ()>,
                       affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%w1, %dw1, %w1_m, %w1_v, %step_size, %bc2_sqrt
          : tensor<256x784xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<f32>, tensor<f32>)
      outs(%w1_init, %w1_init, %w1_init : tensor<256x784xf32>, tensor<256x784xf32>, tensor<256x784xf32>) {
  ^bb0(%p: f32, %g: f32, %m: f32, %v: f32, %size: f32, %root: f32, %out_p: f32, %out_m: f32, %out_v: f32):
    %decayed = arith.mulf %p, %decay : f32
    %m_old = arith.mulf %m, %beta1 : f32
    %m_inc = arith.mulf %g, %one_minus_beta1 : f32
    %m_new = arith.addf %m_old, %m_inc : f32
    %v_old = arith.mulf %v, %beta2 : f32
    %g_sq = arith.mulf %g, %g : f32
    %v_inc = arith.mulf %g_sq, %one_minus_beta2 : f32
    %v_new = arith.addf %v_old, %v_inc : f32
    %v_sqrt = math.sqrt %v_new : f32
    %v_hat_sqrt = arith.divf %v_sqrt, %root : f32
    %denom = arith.addf %v_hat_sqrt, %eps : f32
    %ratio = arith.divf %m_new, %denom : f32
    %update = arith.mulf %ratio, %size : f32
    %p_new = arith.subf %decayed, %update : f32
    linalg.yield %p_new, %m_new, %v_new : f32, f32, f32
  } -> (tensor<256x784xf32>, tensor<256x784xf32>, tensor<256x784xf32>)

  %b1_new, %b1_m_new, %b1_v_new = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> ()>, affine_map<(i) -> ()>,
                       affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%b1, %db1, %b1_m, %b1_v, %step_size, %bc2_sqrt
          : tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<256xf32>, tensor<f32>, tensor<f32>)
      outs(%b1_init, %b1_init, %b1_init : tensor<256xf32>, tensor<256xf32>, tensor<256xf32>) {
  ^bb0(%p: f32, %g: f32, %m: f32, %v: f32, %size: f32, %root: f32, %out_p: f32, %out_m: f32, %out_v: f32):
    %decayed = arith.mulf %p, %decay : f32
    %m_old = arith.mulf %m, %beta1 : f32
    %m_inc = arith.mulf %g, %one_minus_beta1 : f32
    %m_new = arith.addf %m_old, %m_inc : f32
    %v_old = arith.mulf %v, %beta2 : f32
    %g_sq = arith.mulf %g, %g : f32
    %v_inc = arith.mulf %g_sq, %one_minus_beta2 : f32
    %v_new = arith.addf %v_old, %v_inc : f32
    %v_sqrt = math.sqrt %v_new : f32
    %v_hat_sqrt = arith.divf %v_sqrt, %root : f32
    %denom = arith.addf %v_hat_sqrt, %eps : f32
    %ratio = arith.divf %m_new, %denom : f32
    %update = arith.mulf %ratio, %size : f32
    %p_new = arith.subf %decayed, %update : f32
    linalg.yield %p_new, %m_new, %v_new : f32, f32, f32
  } -> (tensor<256xf32>, tensor<256xf32>, tensor<256xf32>)

  %w2_new, %w2_m_new, %w2_v_new = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> ()>, affine_map<(i, j) -> ()>,
                       affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%w2, %dw2, %w2_m, %w2_v, %step_size, %bc2_sqrt
          : tensor<10x256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<f32>, tensor<f32>)
      outs(%w2_init, %w2_init, %w2_init : tensor<10x256xf32>, tensor<10x256xf32>, tensor<10x256xf32>) {
  ^bb0(%p: f32, %g: f32, %m: f32, %v: f32, %size: f32, %root: f32, %out_p: f32, %out_m: f32, %out_v: f32):
    %decayed = arith.mulf %p, %decay : f32
    %m_old = arith.mulf %m, %beta1 : f32
    %m_inc = arith.mulf %g, %one_minus_beta1 : f32
    %m_new = arith.addf %m_old, %m_inc : f32
    %v_old = arith.mulf %v, %beta2 : f32
    %g_sq = arith.mulf %g, %g : f32
    %v_inc = arith.mulf %g_sq, %one_minus_beta2 : f32
    %v_new = arith.addf %v_old, %v_inc : f32
    %v_sqrt = math.sqrt %v_new : f32
    %v_hat_sqrt = arith.divf %v_sqrt, %root : f32
    %denom = arith.addf %v_hat_sqrt, %eps : f32
    %ratio = arith.divf %m_new, %denom : f32
    %update = arith.mulf %ratio, %size : f32
    %p_new = arith.subf %decayed, %update : f32
    linalg.yield %p_new, %m_new, %v_new : f32, f32, f32
  } -> (tensor<10x256xf32>, tensor<10x256xf32>, tensor<10x256xf32>)

  %b2_new, %b2_m_new, %b2_v_new = linalg.generic {
      indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>,
                       affine_map<(i) -> ()>, affine_map<(i) -> ()>,
                       affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]}
      ins(%b2, %db2, %b2_m, %b2_v, %step_size, %bc2_sqrt
          : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>, tensor<f32>)
      outs(%b2_init, %b2_init, %b2_init : tensor<10xf32>, tensor<10xf32>, tensor<10xf32>) {
  ^bb0(%p: f32, %g: f32, %m: f32, %v: f32, %size: f32, %root: f32, %out_p: f32, %out_m: f32, %out_v: f32):
    %decayed = arith.mulf %p, %decay : f32
    %m_old = arith.mulf %m, %beta1 : f32
    %m_inc = arith.mulf %g, %one_minus_beta1 : f32
    %m_new = arith.addf %m_old, %m_inc : f32
    %v_old = arith.mulf %v, %beta2 : f32
    %g_sq = arith.mulf %g, %g : f32
    %v_inc = arith.mulf %g_sq, %one_minus_beta2 : f32
    %v_new = arith.addf %v_old, %v_inc : f32
    %v_sqrt = math.sqrt %v_new : f32
    %v_hat_sqrt = arith.divf %v_sqrt, %root : f32
    %denom = arith.addf %v_hat_sqrt, %eps : f32
    %ratio = arith.divf %m_new, %denom : f32
    %update = arith.mulf %ratio, %size : f32
    %p_new = arith.subf %decayed, %update : f32
    linalg.yield %p_new, %m_new, %v_new : f32, f32, f32
  } -> (tensor<10xf32>, tensor<10xf32>, tensor<10xf32>)

  return %loss, %w1_new, %b1_new, %w2_new, %b2_new,
         %w1_m_new, %w1_v_new, %b1_m_new, %b1_v_new,
         %w2_m_new, %w2_v_new, %b2_m_new, %b2_v_new, %next_step
      : tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>,
        tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>,
        tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>
}
