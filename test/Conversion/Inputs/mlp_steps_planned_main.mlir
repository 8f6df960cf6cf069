// Three steps of examples/mlp_adamw.mlir planned at a budget that keeps
// fc2.weight.exp_avg and fc2.weight.exp_avg_sq on SSD between steps: the
// planned @step takes and returns them as handles. Like a training loop, it
// puts them on SSD once (offload, release), passes each step's result
// handles to the next step, and reads the last ones back to print them.
// Prints what mlp_steps_resident_main.mlir prints. Needs
// mlp_steps_common.mlir.

func.func @main() {
  %x, %y, %w1_0, %b1_0, %w2_0, %b2_0, %w1_m_0, %w1_v_0, %b1_m_0, %b1_v_0, %w2_m_0, %w2_v_0, %b2_m_0, %b2_v_0, %step_0 = call @initial_state()
      : () -> (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  // The state the plan keeps on SSD between steps goes there first.
  %w2_m_h, %w2_v_h, %written = ssd.offload %w2_m_0, %w2_v_0 : tensor<10x256xf32>, tensor<10x256xf32>
  ssd.release %w2_m_0, %w2_v_0 after %written : tensor<10x256xf32>, tensor<10x256xf32>
  %loss_1, %w1_1, %b1_1, %w2_1, %b2_1, %w1_m_1, %w1_v_1, %b1_m_1, %b1_v_1, %w2_m_1, %w2_v_1, %b2_m_1, %b2_v_1, %step_1 = call @step(
      %x, %y, %w1_0, %b1_0, %w2_0, %b2_0, %w1_m_0, %w1_v_0, %b1_m_0, %b1_v_0, %w2_m_h, %w2_v_h, %b2_m_0, %b2_v_0, %step_0)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  call @print_loss(%loss_1) : (tensor<f32>) -> ()
  %loss_2, %w1_2, %b1_2, %w2_2, %b2_2, %w1_m_2, %w1_v_2, %b1_m_2, %b1_v_2, %w2_m_2, %w2_v_2, %b2_m_2, %b2_v_2, %step_2 = call @step(
      %x, %y, %w1_1, %b1_1, %w2_1, %b2_1, %w1_m_1, %w1_v_1, %b1_m_1, %b1_v_1, %w2_m_1, %w2_v_1, %b2_m_1, %b2_v_1, %step_1)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  call @print_loss(%loss_2) : (tensor<f32>) -> ()
  %loss_3, %w1_3, %b1_3, %w2_3, %b2_3, %w1_m_3, %w1_v_3, %b1_m_3, %b1_v_3, %w2_m_3, %w2_v_3, %b2_m_3, %b2_v_3, %step_3 = call @step(
      %x, %y, %w1_2, %b1_2, %w2_2, %b2_2, %w1_m_2, %w1_v_2, %b1_m_2, %b1_v_2, %w2_m_2, %w2_v_2, %b2_m_2, %b2_v_2, %step_2)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  call @print_loss(%loss_3) : (tensor<f32>) -> ()
  // Read the state kept on SSD back to print it.
  %read = ssd.prefetch %w2_m_3, %w2_v_3 : !ssd.handle<tensor<10x256xf32>>, !ssd.handle<tensor<10x256xf32>>
  %w2_m_r = ssd.wait %read, %w2_m_3 : !ssd.handle<tensor<10x256xf32>>
  %w2_v_r = ssd.wait %read, %w2_v_3 : !ssd.handle<tensor<10x256xf32>>
  call @print_state(%w1_3, %b1_3, %w2_3, %b2_3, %w1_m_3, %w1_v_3, %b1_m_3, %b1_v_3, %w2_m_r, %w2_v_r, %b2_m_3, %b2_v_3, %step_3)
      : (tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>) -> ()
  return
}
