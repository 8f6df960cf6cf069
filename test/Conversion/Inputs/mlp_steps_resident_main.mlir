// Three steps of examples/mlp_adamw.mlir with all state in memory, the
// reference of mlp-steady-state-run.mlir: prints each step's loss and the
// state after the third. Needs mlp_steps_common.mlir.

func.func @main() {
  %x, %y, %w1_0, %b1_0, %w2_0, %b2_0, %w1_m_0, %w1_v_0, %b1_m_0, %b1_v_0, %w2_m_0, %w2_v_0, %b2_m_0, %b2_v_0, %step_0 = call @initial_state()
      : () -> (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  %loss_1, %w1_1, %b1_1, %w2_1, %b2_1, %w1_m_1, %w1_v_1, %b1_m_1, %b1_v_1, %w2_m_1, %w2_v_1, %b2_m_1, %b2_v_1, %step_1 = call @step(
      %x, %y, %w1_0, %b1_0, %w2_0, %b2_0, %w1_m_0, %w1_v_0, %b1_m_0, %b1_v_0, %w2_m_0, %w2_v_0, %b2_m_0, %b2_v_0, %step_0)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  call @print_loss(%loss_1) : (tensor<f32>) -> ()
  %loss_2, %w1_2, %b1_2, %w2_2, %b2_2, %w1_m_2, %w1_v_2, %b1_m_2, %b1_v_2, %w2_m_2, %w2_v_2, %b2_m_2, %b2_v_2, %step_2 = call @step(
      %x, %y, %w1_1, %b1_1, %w2_1, %b2_1, %w1_m_1, %w1_v_1, %b1_m_1, %b1_v_1, %w2_m_1, %w2_v_1, %b2_m_1, %b2_v_1, %step_1)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  call @print_loss(%loss_2) : (tensor<f32>) -> ()
  %loss_3, %w1_3, %b1_3, %w2_3, %b2_3, %w1_m_3, %w1_v_3, %b1_m_3, %b1_v_3, %w2_m_3, %w2_v_3, %b2_m_3, %b2_v_3, %step_3 = call @step(
      %x, %y, %w1_2, %b1_2, %w2_2, %b2_2, %w1_m_2, %w1_v_2, %b1_m_2, %b1_v_2, %w2_m_2, %w2_v_2, %b2_m_2, %b2_v_2, %step_2)
      : (tensor<64x784xf32>, tensor<64x10xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
      -> (tensor<f32>, tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>)
  call @print_loss(%loss_3) : (tensor<f32>) -> ()
  call @print_state(%w1_3, %b1_3, %w2_3, %b2_3, %w1_m_3, %w1_v_3, %b1_m_3, %b1_v_3, %w2_m_3, %w2_v_3, %b2_m_3, %b2_v_3, %step_3)
      : (tensor<256x784xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<256x784xf32>, tensor<256x784xf32>, tensor<256xf32>, tensor<256xf32>, tensor<10x256xf32>, tensor<10x256xf32>, tensor<10xf32>, tensor<10xf32>, tensor<f32>) -> ()
  return
}
