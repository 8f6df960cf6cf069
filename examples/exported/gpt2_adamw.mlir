// Written by `python -m ssdopt export models:gpt2_adamw`: the training
// step of its model as the input IR of ssd-opt (docs/graph-format.md).
module {
  func.func @step(
    %arg0_1: tensor<256x64xf32> {ssd.role = "param", ssd.name = "transformer.wte.weight"},
    %arg1_1: tensor<64x64xf32> {ssd.role = "param", ssd.name = "transformer.wpe.weight"},
    %arg2_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.ln_1.weight"},
    %arg3_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.ln_1.bias"},
    %arg4_1: tensor<192xf32> {ssd.role = "param", ssd.name = "transformer.h.0.attn.c_attn.bias"},
    %arg5_1: tensor<64x192xf32> {ssd.role = "param", ssd.name = "transformer.h.0.attn.c_attn.weight"},
    %arg6_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.attn.c_proj.bias"},
    %arg7_1: tensor<64x64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.attn.c_proj.weight"},
    %arg8_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.ln_2.weight"},
    %arg9_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.ln_2.bias"},
    %arg10_1: tensor<256xf32> {ssd.role = "param", ssd.name = "transformer.h.0.mlp.c_fc.bias"},
    %arg11_1: tensor<64x256xf32> {ssd.role = "param", ssd.name = "transformer.h.0.mlp.c_fc.weight"},
    %arg12_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.mlp.c_proj.bias"},
    %arg13_1: tensor<256x64xf32> {ssd.role = "param", ssd.name = "transformer.h.0.mlp.c_proj.weight"},
    %arg14_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.ln_1.weight"},
    %arg15_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.ln_1.bias"},
    %arg16_1: tensor<192xf32> {ssd.role = "param", ssd.name = "transformer.h.1.attn.c_attn.bias"},
    %arg17_1: tensor<64x192xf32> {ssd.role = "param", ssd.name = "transformer.h.1.attn.c_attn.weight"},
    %arg18_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.attn.c_proj.bias"},
    %arg19_1: tensor<64x64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.attn.c_proj.weight"},
    %arg20_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.ln_2.weight"},
    %arg21_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.ln_2.bias"},
    %arg22_1: tensor<256xf32> {ssd.role = "param", ssd.name = "transformer.h.1.mlp.c_fc.bias"},
    %arg23_1: tensor<64x256xf32> {ssd.role = "param", ssd.name = "transformer.h.1.mlp.c_fc.weight"},
    %arg24_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.mlp.c_proj.bias"},
    %arg25_1: tensor<256x64xf32> {ssd.role = "param", ssd.name = "transformer.h.1.mlp.c_proj.weight"},
    %arg26_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.ln_f.weight"},
    %arg27_1: tensor<64xf32> {ssd.role = "param", ssd.name = "transformer.ln_f.bias"},
    %arg28_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.wte.weight.step"},
    %arg29_1: tensor<256x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.wte.weight.exp_avg"},
    %arg30_1: tensor<256x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.wte.weight.exp_avg_sq"},
    %arg31_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.wpe.weight.step"},
    %arg32_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.wpe.weight.exp_avg"},
    %arg33_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.wpe.weight.exp_avg_sq"},
    %arg34_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_1.weight.step"},
    %arg35_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_1.weight.exp_avg"},
    %arg36_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_1.weight.exp_avg_sq"},
    %arg37_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_1.bias.step"},
    %arg38_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_1.bias.exp_avg"},
    %arg39_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_1.bias.exp_avg_sq"},
    %arg40_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_attn.weight.step"},
    %arg41_1: tensor<64x192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_attn.weight.exp_avg"},
    %arg42_1: tensor<64x192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_attn.weight.exp_avg_sq"},
    %arg43_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_attn.bias.step"},
    %arg44_1: tensor<192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_attn.bias.exp_avg"},
    %arg45_1: tensor<192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_attn.bias.exp_avg_sq"},
    %arg46_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_proj.weight.step"},
    %arg47_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_proj.weight.exp_avg"},
    %arg48_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_proj.weight.exp_avg_sq"},
    %arg49_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_proj.bias.step"},
    %arg50_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_proj.bias.exp_avg"},
    %arg51_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.attn.c_proj.bias.exp_avg_sq"},
    %arg52_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_2.weight.step"},
    %arg53_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_2.weight.exp_avg"},
    %arg54_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_2.weight.exp_avg_sq"},
    %arg55_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_2.bias.step"},
    %arg56_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_2.bias.exp_avg"},
    %arg57_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.ln_2.bias.exp_avg_sq"},
    %arg58_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_fc.weight.step"},
    %arg59_1: tensor<64x256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_fc.weight.exp_avg"},
    %arg60_1: tensor<64x256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_fc.weight.exp_avg_sq"},
    %arg61_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_fc.bias.step"},
    %arg62_1: tensor<256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_fc.bias.exp_avg"},
    %arg63_1: tensor<256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_fc.bias.exp_avg_sq"},
    %arg64_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_proj.weight.step"},
    %arg65_1: tensor<256x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_proj.weight.exp_avg"},
    %arg66_1: tensor<256x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_proj.weight.exp_avg_sq"},
    %arg67_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_proj.bias.step"},
    %arg68_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_proj.bias.exp_avg"},
    %arg69_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.0.mlp.c_proj.bias.exp_avg_sq"},
    %arg70_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_1.weight.step"},
    %arg71_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_1.weight.exp_avg"},
    %arg72_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_1.weight.exp_avg_sq"},
    %arg73_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_1.bias.step"},
    %arg74_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_1.bias.exp_avg"},
    %arg75_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_1.bias.exp_avg_sq"},
    %arg76_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_attn.weight.step"},
    %arg77_1: tensor<64x192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_attn.weight.exp_avg"},
    %arg78_1: tensor<64x192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_attn.weight.exp_avg_sq"},
    %arg79_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_attn.bias.step"},
    %arg80_1: tensor<192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_attn.bias.exp_avg"},
    %arg81_1: tensor<192xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_attn.bias.exp_avg_sq"},
    %arg82_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_proj.weight.step"},
    %arg83_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_proj.weight.exp_avg"},
    %arg84_1: tensor<64x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_proj.weight.exp_avg_sq"},
    %arg85_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_proj.bias.step"},
    %arg86_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_proj.bias.exp_avg"},
    %arg87_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.attn.c_proj.bias.exp_avg_sq"},
    %arg88_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_2.weight.step"},
    %arg89_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_2.weight.exp_avg"},
    %arg90_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_2.weight.exp_avg_sq"},
    %arg91_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_2.bias.step"},
    %arg92_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_2.bias.exp_avg"},
    %arg93_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.ln_2.bias.exp_avg_sq"},
    %arg94_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_fc.weight.step"},
    %arg95_1: tensor<64x256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_fc.weight.exp_avg"},
    %arg96_1: tensor<64x256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_fc.weight.exp_avg_sq"},
    %arg97_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_fc.bias.step"},
    %arg98_1: tensor<256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_fc.bias.exp_avg"},
    %arg99_1: tensor<256xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_fc.bias.exp_avg_sq"},
    %arg100_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_proj.weight.step"},
    %arg101_1: tensor<256x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_proj.weight.exp_avg"},
    %arg102_1: tensor<256x64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_proj.weight.exp_avg_sq"},
    %arg103_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_proj.bias.step"},
    %arg104_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_proj.bias.exp_avg"},
    %arg105_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.h.1.mlp.c_proj.bias.exp_avg_sq"},
    %arg106_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.ln_f.weight.step"},
    %arg107_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.ln_f.weight.exp_avg"},
    %arg108_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.ln_f.weight.exp_avg_sq"},
    %arg109_1: tensor<f32> {ssd.role = "optimizer_state", ssd.name = "transformer.ln_f.bias.step"},
    %arg110_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.ln_f.bias.exp_avg"},
    %arg111_1: tensor<64xf32> {ssd.role = "optimizer_state", ssd.name = "transformer.ln_f.bias.exp_avg_sq"},
    %arg112_1: tensor<2x32xi64> {ssd.role = "input", ssd.name = "input_ids"},
    %arg113_1: tensor<2x32xi64> {ssd.role = "input", ssd.name = "target"})
      -> (tensor<f32>,
          tensor<256x64xf32> {ssd.name = "transformer.wte.weight"},
          tensor<64x64xf32> {ssd.name = "transformer.wpe.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_1.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_1.bias"},
          tensor<192xf32> {ssd.name = "transformer.h.0.attn.c_attn.bias"},
          tensor<64x192xf32> {ssd.name = "transformer.h.0.attn.c_attn.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.0.attn.c_proj.bias"},
          tensor<64x64xf32> {ssd.name = "transformer.h.0.attn.c_proj.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_2.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_2.bias"},
          tensor<256xf32> {ssd.name = "transformer.h.0.mlp.c_fc.bias"},
          tensor<64x256xf32> {ssd.name = "transformer.h.0.mlp.c_fc.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.0.mlp.c_proj.bias"},
          tensor<256x64xf32> {ssd.name = "transformer.h.0.mlp.c_proj.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_1.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_1.bias"},
          tensor<192xf32> {ssd.name = "transformer.h.1.attn.c_attn.bias"},
          tensor<64x192xf32> {ssd.name = "transformer.h.1.attn.c_attn.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.1.attn.c_proj.bias"},
          tensor<64x64xf32> {ssd.name = "transformer.h.1.attn.c_proj.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_2.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_2.bias"},
          tensor<256xf32> {ssd.name = "transformer.h.1.mlp.c_fc.bias"},
          tensor<64x256xf32> {ssd.name = "transformer.h.1.mlp.c_fc.weight"},
          tensor<64xf32> {ssd.name = "transformer.h.1.mlp.c_proj.bias"},
          tensor<256x64xf32> {ssd.name = "transformer.h.1.mlp.c_proj.weight"},
          tensor<64xf32> {ssd.name = "transformer.ln_f.weight"},
          tensor<64xf32> {ssd.name = "transformer.ln_f.bias"},
          tensor<f32> {ssd.name = "transformer.wte.weight.step"},
          tensor<256x64xf32> {ssd.name = "transformer.wte.weight.exp_avg"},
          tensor<256x64xf32> {ssd.name = "transformer.wte.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.wpe.weight.step"},
          tensor<64x64xf32> {ssd.name = "transformer.wpe.weight.exp_avg"},
          tensor<64x64xf32> {ssd.name = "transformer.wpe.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.ln_1.weight.step"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_1.weight.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_1.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.ln_1.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_1.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_1.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.attn.c_attn.weight.step"},
          tensor<64x192xf32> {ssd.name = "transformer.h.0.attn.c_attn.weight.exp_avg"},
          tensor<64x192xf32> {ssd.name = "transformer.h.0.attn.c_attn.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.attn.c_attn.bias.step"},
          tensor<192xf32> {ssd.name = "transformer.h.0.attn.c_attn.bias.exp_avg"},
          tensor<192xf32> {ssd.name = "transformer.h.0.attn.c_attn.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.attn.c_proj.weight.step"},
          tensor<64x64xf32> {ssd.name = "transformer.h.0.attn.c_proj.weight.exp_avg"},
          tensor<64x64xf32> {ssd.name = "transformer.h.0.attn.c_proj.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.attn.c_proj.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.0.attn.c_proj.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.0.attn.c_proj.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.ln_2.weight.step"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_2.weight.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_2.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.ln_2.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_2.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.0.ln_2.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.mlp.c_fc.weight.step"},
          tensor<64x256xf32> {ssd.name = "transformer.h.0.mlp.c_fc.weight.exp_avg"},
          tensor<64x256xf32> {ssd.name = "transformer.h.0.mlp.c_fc.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.mlp.c_fc.bias.step"},
          tensor<256xf32> {ssd.name = "transformer.h.0.mlp.c_fc.bias.exp_avg"},
          tensor<256xf32> {ssd.name = "transformer.h.0.mlp.c_fc.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.mlp.c_proj.weight.step"},
          tensor<256x64xf32> {ssd.name = "transformer.h.0.mlp.c_proj.weight.exp_avg"},
          tensor<256x64xf32> {ssd.name = "transformer.h.0.mlp.c_proj.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.0.mlp.c_proj.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.0.mlp.c_proj.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.0.mlp.c_proj.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.ln_1.weight.step"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_1.weight.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_1.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.ln_1.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_1.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_1.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.attn.c_attn.weight.step"},
          tensor<64x192xf32> {ssd.name = "transformer.h.1.attn.c_attn.weight.exp_avg"},
          tensor<64x192xf32> {ssd.name = "transformer.h.1.attn.c_attn.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.attn.c_attn.bias.step"},
          tensor<192xf32> {ssd.name = "transformer.h.1.attn.c_attn.bias.exp_avg"},
          tensor<192xf32> {ssd.name = "transformer.h.1.attn.c_attn.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.attn.c_proj.weight.step"},
          tensor<64x64xf32> {ssd.name = "transformer.h.1.attn.c_proj.weight.exp_avg"},
          tensor<64x64xf32> {ssd.name = "transformer.h.1.attn.c_proj.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.attn.c_proj.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.1.attn.c_proj.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.1.attn.c_proj.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.ln_2.weight.step"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_2.weight.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_2.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.ln_2.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_2.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.1.ln_2.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.mlp.c_fc.weight.step"},
          tensor<64x256xf32> {ssd.name = "transformer.h.1.mlp.c_fc.weight.exp_avg"},
          tensor<64x256xf32> {ssd.name = "transformer.h.1.mlp.c_fc.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.mlp.c_fc.bias.step"},
          tensor<256xf32> {ssd.name = "transformer.h.1.mlp.c_fc.bias.exp_avg"},
          tensor<256xf32> {ssd.name = "transformer.h.1.mlp.c_fc.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.mlp.c_proj.weight.step"},
          tensor<256x64xf32> {ssd.name = "transformer.h.1.mlp.c_proj.weight.exp_avg"},
          tensor<256x64xf32> {ssd.name = "transformer.h.1.mlp.c_proj.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.h.1.mlp.c_proj.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.h.1.mlp.c_proj.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.h.1.mlp.c_proj.bias.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.ln_f.weight.step"},
          tensor<64xf32> {ssd.name = "transformer.ln_f.weight.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.ln_f.weight.exp_avg_sq"},
          tensor<f32> {ssd.name = "transformer.ln_f.bias.step"},
          tensor<64xf32> {ssd.name = "transformer.ln_f.bias.exp_avg"},
          tensor<64xf32> {ssd.name = "transformer.ln_f.bias.exp_avg_sq"}) attributes {ssd.backward_start = 180 : i64} {
    %view = "ssd.kernel"(%arg113_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32xi64>) -> tensor<2x32xi64>
    %embedding = "ssd.kernel"(%arg0_1, %view) {name = "aten.embedding.default", flops = 0.0 : f64, bytes = 82432 : i64} : (tensor<256x64xf32>, tensor<2x32xi64>) -> tensor<2x32x64xf32>
    %arange = "ssd.kernel"() {name = "aten.arange.default", flops = 0.0 : f64, bytes = 256 : i64} : () -> tensor<32xi64>
    %add = "ssd.kernel"(%arange) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<32xi64>) -> tensor<32xi64>
    %unsqueeze = "ssd.kernel"(%add) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<32xi64>) -> tensor<1x32xi64>
    %embedding_1 = "ssd.kernel"(%arg1_1, %unsqueeze) {name = "aten.embedding.default", flops = 0.0 : f64, bytes = 24832 : i64} : (tensor<64x64xf32>, tensor<1x32xi64>) -> tensor<1x32x64xf32>
    %add_1 = "ssd.kernel"(%embedding, %embedding_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 40960 : i64} : (tensor<2x32x64xf32>, tensor<1x32x64xf32>) -> tensor<2x32x64xf32>
    %expand = "ssd.kernel"(%unsqueeze) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x32xi64>) -> tensor<2x32xi64>
    %slice_1 = "ssd.kernel"(%expand) {name = "aten.slice.Tensor", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32xi64>) -> tensor<2x1xi64>
    %sub = "ssd.kernel"(%slice_1) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 32 : i64} : (tensor<2x1xi64>) -> tensor<2x1xi64>
    %cat = "ssd.kernel"(%sub, %expand) {name = "aten.cat.default", flops = 0.0 : f64, bytes = 1056 : i64} : (tensor<2x1xi64>, tensor<2x32xi64>) -> tensor<2x33xi64>
    %slice_2 = "ssd.kernel"(%cat) {name = "aten.slice.Tensor", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x33xi64>) -> tensor<2x32xi64>
    %slice_3 = "ssd.kernel"(%cat) {name = "aten.slice.Tensor", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x33xi64>) -> tensor<2x32xi64>
    %sub_1 = "ssd.kernel"(%slice_3, %slice_2) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<2x32xi64>, tensor<2x32xi64>) -> tensor<2x32xi64>
    %ne = "ssd.kernel"(%sub_1) {name = "aten.ne.Scalar", flops = 0.0 : f64, bytes = 576 : i64} : (tensor<2x32xi64>) -> tensor<2x32xi1>
    %cumsum = "ssd.kernel"(%ne) {name = "aten.cumsum.default", flops = 0.0 : f64, bytes = 576 : i64} : (tensor<2x32xi1>) -> tensor<2x32xi64>
    %expand_1 = "ssd.kernel"(%unsqueeze) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x32xi64>) -> tensor<2x32xi64>
    %arange_1 = "ssd.kernel"() {name = "aten.arange.default", flops = 0.0 : f64, bytes = 16 : i64} : () -> tensor<2xi64>
    %arange_2 = "ssd.kernel"() {name = "aten.arange.default", flops = 0.0 : f64, bytes = 256 : i64} : () -> tensor<32xi64>
    %add_2 = "ssd.kernel"(%arange_2) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<32xi64>) -> tensor<32xi64>
    %arange_3 = "ssd.kernel"() {name = "aten.arange.default", flops = 0.0 : f64, bytes = 256 : i64} : () -> tensor<32xi64>
    %add_3 = "ssd.kernel"(%arange_3) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<32xi64>) -> tensor<32xi64>
    %unsqueeze_1 = "ssd.kernel"(%arange_1) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2xi64>) -> tensor<2x1xi64>
    %unsqueeze_2 = "ssd.kernel"(%unsqueeze_1) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x1xi64>) -> tensor<2x1x1xi64>
    %unsqueeze_3 = "ssd.kernel"(%unsqueeze_2) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x1x1xi64>) -> tensor<2x1x1x1xi64>
    %unsqueeze_4 = "ssd.kernel"(%add_2) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<32xi64>) -> tensor<1x32xi64>
    %unsqueeze_5 = "ssd.kernel"(%unsqueeze_4) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %unsqueeze_6 = "ssd.kernel"(%unsqueeze_5) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x1x32xi64>) -> tensor<1x1x32x1xi64>
    %unsqueeze_7 = "ssd.kernel"(%add_3) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<32xi64>) -> tensor<1x32xi64>
    %unsqueeze_8 = "ssd.kernel"(%unsqueeze_7) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x32xi64>) -> tensor<1x1x32xi64>
    %unsqueeze_9 = "ssd.kernel"(%unsqueeze_8) {name = "aten.unsqueeze.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x1x32xi64>) -> tensor<1x1x1x32xi64>
    %new_ones = "ssd.kernel"(%unsqueeze_6) {name = "aten.new_ones.default", flops = 0.0 : f64, bytes = 257 : i64} : (tensor<1x1x32x1xi64>) -> tensor<i1>
    %index = "ssd.kernel"(%expand_1, %unsqueeze_3, %unsqueeze_6) {name = "aten.index.Tensor", flops = 0.0 : f64, bytes = 1296 : i64} : (tensor<2x32xi64>, tensor<2x1x1x1xi64>, tensor<1x1x32x1xi64>) -> tensor<2x1x32x1xi64>
    %index_1 = "ssd.kernel"(%expand_1, %unsqueeze_3, %unsqueeze_9) {name = "aten.index.Tensor", flops = 0.0 : f64, bytes = 1296 : i64} : (tensor<2x32xi64>, tensor<2x1x1x1xi64>, tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %le = "ssd.kernel"(%index_1, %index) {name = "aten.le.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<2x1x1x32xi64>, tensor<2x1x32x1xi64>) -> tensor<2x1x32x32xi1>
    %bitwise_and = "ssd.kernel"(%new_ones, %le) {name = "aten.bitwise_and.Tensor", flops = 0.0 : f64, bytes = 4097 : i64} : (tensor<i1>, tensor<2x1x32x32xi1>) -> tensor<2x1x32x32xi1>
    %index_2 = "ssd.kernel"(%cumsum, %unsqueeze_3, %unsqueeze_6) {name = "aten.index.Tensor", flops = 0.0 : f64, bytes = 1296 : i64} : (tensor<2x32xi64>, tensor<2x1x1x1xi64>, tensor<1x1x32x1xi64>) -> tensor<2x1x32x1xi64>
    %index_3 = "ssd.kernel"(%cumsum, %unsqueeze_3, %unsqueeze_9) {name = "aten.index.Tensor", flops = 0.0 : f64, bytes = 1296 : i64} : (tensor<2x32xi64>, tensor<2x1x1x1xi64>, tensor<1x1x1x32xi64>) -> tensor<2x1x1x32xi64>
    %eq = "ssd.kernel"(%index_2, %index_3) {name = "aten.eq.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<2x1x32x1xi64>, tensor<2x1x1x32xi64>) -> tensor<2x1x32x32xi1>
    %bitwise_and_1 = "ssd.kernel"(%bitwise_and, %eq) {name = "aten.bitwise_and.Tensor", flops = 0.0 : f64, bytes = 6144 : i64} : (tensor<2x1x32x32xi1>, tensor<2x1x32x32xi1>) -> tensor<2x1x32x32xi1>
    %expand_2 = "ssd.kernel"(%bitwise_and_1) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x1x32x32xi1>) -> tensor<2x1x32x32xi1>
    %native_dropout:2 = "ssd.kernel"(%add_1) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xi1>)
    %native_layer_norm:3 = "ssd.kernel"(%native_dropout#0, %arg2_1, %arg3_1) {name = "aten.native_layer_norm.default", flops = 0.0 : f64, bytes = 33792 : i64} : (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>)
    %view_1 = "ssd.kernel"(%native_layer_norm#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %addmm = "ssd.kernel"(%arg4_1, %view_1, %arg5_1) {name = "aten.addmm.default", flops = 1572864.0 : f64, bytes = 115456 : i64} : (tensor<192xf32>, tensor<64x64xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %view_2 = "ssd.kernel"(%addmm) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x192xf32>) -> tensor<2x32x192xf32>
    %split:3 = "ssd.kernel"(%view_2) {name = "aten.split.Tensor", flops = 0.0 : f64, bytes = 0 : i64} : (tensor<2x32x192xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>)
    %view_3 = "ssd.kernel"(%split#1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose = "ssd.kernel"(%view_3) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %view_4 = "ssd.kernel"(%split#2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_1 = "ssd.kernel"(%view_4) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %view_5 = "ssd.kernel"(%split#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_2 = "ssd.kernel"(%view_5) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %scalar_tensor = "ssd.kernel"() {name = "aten.scalar_tensor.default", flops = 0.0 : f64, bytes = 4 : i64} : () -> tensor<f32>
    %scalar_tensor_1 = "ssd.kernel"() {name = "aten.scalar_tensor.default", flops = 0.0 : f64, bytes = 4 : i64} : () -> tensor<f32>
    %where = "ssd.kernel"(%expand_2, %scalar_tensor_1, %scalar_tensor) {name = "aten.where.self", flops = 0.0 : f64, bytes = 10248 : i64} : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %mul = "ssd.kernel"(%transpose_2) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_3 = "ssd.kernel"(%transpose) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %mul_1 = "ssd.kernel"(%transpose_3) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %expand_3 = "ssd.kernel"(%mul) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone = "ssd.kernel"(%expand_3) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view = "ssd.kernel"(%clone) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %expand_4 = "ssd.kernel"(%mul_1) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_1 = "ssd.kernel"(%expand_4) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_1 = "ssd.kernel"(%clone_1) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm = "ssd.kernel"(%_unsafe_view, %_unsafe_view_1) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_6 = "ssd.kernel"(%bmm) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %add_4 = "ssd.kernel"(%view_6, %where) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 40960 : i64} : (tensor<2x2x32x32xf32>, tensor<2x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_safe_softmax = "ssd.kernel"(%add_4) {name = "aten._safe_softmax.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %alias_2 = "ssd.kernel"(%_safe_softmax) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %native_dropout_1:2 = "ssd.kernel"(%_safe_softmax) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x2x32x32xf32>) -> (tensor<2x2x32x32xf32>, tensor<2x2x32x32xi1>)
    %expand_5 = "ssd.kernel"(%native_dropout_1#0) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_7 = "ssd.kernel"(%expand_5) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %expand_6 = "ssd.kernel"(%transpose_1) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_2 = "ssd.kernel"(%expand_6) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_2 = "ssd.kernel"(%clone_2) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_1 = "ssd.kernel"(%view_7, %_unsafe_view_2) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_8 = "ssd.kernel"(%bmm_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_9 = "ssd.kernel"(%view_8) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_4 = "ssd.kernel"(%view_9) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %clone_3 = "ssd.kernel"(%transpose_4) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x2x32xf32>
    %view_10 = "ssd.kernel"(%clone_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %view_11 = "ssd.kernel"(%view_10) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %addmm_1 = "ssd.kernel"(%arg6_1, %view_11, %arg7_1) {name = "aten.addmm.default", flops = 524288.0 : f64, bytes = 49408 : i64} : (tensor<64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %view_12 = "ssd.kernel"(%addmm_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_2:2 = "ssd.kernel"(%view_12) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xi1>)
    %add_5 = "ssd.kernel"(%native_dropout_2#0, %native_dropout#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_1:3 = "ssd.kernel"(%add_5, %arg8_1, %arg9_1) {name = "aten.native_layer_norm.default", flops = 0.0 : f64, bytes = 33792 : i64} : (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>)
    %view_13 = "ssd.kernel"(%native_layer_norm_1#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %addmm_2 = "ssd.kernel"(%arg10_1, %view_13, %arg11_1) {name = "aten.addmm.default", flops = 2097152.0 : f64, bytes = 148480 : i64} : (tensor<256xf32>, tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %view_14 = "ssd.kernel"(%addmm_2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %mul_2 = "ssd.kernel"(%view_14) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %pow_1 = "ssd.kernel"(%view_14) {name = "aten.pow.Tensor_Scalar", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_3 = "ssd.kernel"(%pow_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_6 = "ssd.kernel"(%view_14, %mul_3) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_4 = "ssd.kernel"(%add_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %tanh = "ssd.kernel"(%mul_4) {name = "aten.tanh.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %alias_5 = "ssd.kernel"(%tanh) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_7 = "ssd.kernel"(%tanh) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_5 = "ssd.kernel"(%mul_2, %add_7) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %view_15 = "ssd.kernel"(%mul_5) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %addmm_3 = "ssd.kernel"(%arg12_1, %view_15, %arg13_1) {name = "aten.addmm.default", flops = 2097152.0 : f64, bytes = 147712 : i64} : (tensor<64xf32>, tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
    %view_16 = "ssd.kernel"(%addmm_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_3:2 = "ssd.kernel"(%view_16) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xi1>)
    %add_8 = "ssd.kernel"(%add_5, %native_dropout_3#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_2:3 = "ssd.kernel"(%add_8, %arg14_1, %arg15_1) {name = "aten.native_layer_norm.default", flops = 0.0 : f64, bytes = 33792 : i64} : (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>)
    %view_17 = "ssd.kernel"(%native_layer_norm_2#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %addmm_4 = "ssd.kernel"(%arg16_1, %view_17, %arg17_1) {name = "aten.addmm.default", flops = 1572864.0 : f64, bytes = 115456 : i64} : (tensor<192xf32>, tensor<64x64xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %view_18 = "ssd.kernel"(%addmm_4) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x192xf32>) -> tensor<2x32x192xf32>
    %split_1:3 = "ssd.kernel"(%view_18) {name = "aten.split.Tensor", flops = 0.0 : f64, bytes = 0 : i64} : (tensor<2x32x192xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>)
    %view_19 = "ssd.kernel"(%split_1#1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_5 = "ssd.kernel"(%view_19) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %view_20 = "ssd.kernel"(%split_1#2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_6 = "ssd.kernel"(%view_20) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %view_21 = "ssd.kernel"(%split_1#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_7 = "ssd.kernel"(%view_21) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %scalar_tensor_2 = "ssd.kernel"() {name = "aten.scalar_tensor.default", flops = 0.0 : f64, bytes = 4 : i64} : () -> tensor<f32>
    %scalar_tensor_3 = "ssd.kernel"() {name = "aten.scalar_tensor.default", flops = 0.0 : f64, bytes = 4 : i64} : () -> tensor<f32>
    %where_1 = "ssd.kernel"(%expand_2, %scalar_tensor_3, %scalar_tensor_2) {name = "aten.where.self", flops = 0.0 : f64, bytes = 10248 : i64} : (tensor<2x1x32x32xi1>, tensor<f32>, tensor<f32>) -> tensor<2x1x32x32xf32>
    %mul_6 = "ssd.kernel"(%transpose_7) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_8 = "ssd.kernel"(%transpose_5) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %mul_7 = "ssd.kernel"(%transpose_8) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %expand_7 = "ssd.kernel"(%mul_6) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_4 = "ssd.kernel"(%expand_7) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_3 = "ssd.kernel"(%clone_4) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %expand_8 = "ssd.kernel"(%mul_7) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_5 = "ssd.kernel"(%expand_8) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_4 = "ssd.kernel"(%clone_5) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_2 = "ssd.kernel"(%_unsafe_view_3, %_unsafe_view_4) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_22 = "ssd.kernel"(%bmm_2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %add_9 = "ssd.kernel"(%view_22, %where_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 40960 : i64} : (tensor<2x2x32x32xf32>, tensor<2x1x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_safe_softmax_1 = "ssd.kernel"(%add_9) {name = "aten._safe_softmax.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %alias_8 = "ssd.kernel"(%_safe_softmax_1) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %native_dropout_4:2 = "ssd.kernel"(%_safe_softmax_1) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x2x32x32xf32>) -> (tensor<2x2x32x32xf32>, tensor<2x2x32x32xi1>)
    %expand_9 = "ssd.kernel"(%native_dropout_4#0) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_23 = "ssd.kernel"(%expand_9) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %expand_10 = "ssd.kernel"(%transpose_6) {name = "aten.expand.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_6 = "ssd.kernel"(%expand_10) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_5 = "ssd.kernel"(%clone_6) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_3 = "ssd.kernel"(%view_23, %_unsafe_view_5) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_24 = "ssd.kernel"(%bmm_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_25 = "ssd.kernel"(%view_24) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_9 = "ssd.kernel"(%view_25) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %clone_7 = "ssd.kernel"(%transpose_9) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x2x32xf32>
    %view_26 = "ssd.kernel"(%clone_7) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %view_27 = "ssd.kernel"(%view_26) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %addmm_5 = "ssd.kernel"(%arg18_1, %view_27, %arg19_1) {name = "aten.addmm.default", flops = 524288.0 : f64, bytes = 49408 : i64} : (tensor<64xf32>, tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %view_28 = "ssd.kernel"(%addmm_5) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_5:2 = "ssd.kernel"(%view_28) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xi1>)
    %add_10 = "ssd.kernel"(%native_dropout_5#0, %add_8) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_3:3 = "ssd.kernel"(%add_10, %arg20_1, %arg21_1) {name = "aten.native_layer_norm.default", flops = 0.0 : f64, bytes = 33792 : i64} : (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>)
    %view_29 = "ssd.kernel"(%native_layer_norm_3#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %addmm_6 = "ssd.kernel"(%arg22_1, %view_29, %arg23_1) {name = "aten.addmm.default", flops = 2097152.0 : f64, bytes = 148480 : i64} : (tensor<256xf32>, tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %view_30 = "ssd.kernel"(%addmm_6) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %mul_8 = "ssd.kernel"(%view_30) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %pow_2 = "ssd.kernel"(%view_30) {name = "aten.pow.Tensor_Scalar", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_9 = "ssd.kernel"(%pow_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_11 = "ssd.kernel"(%view_30, %mul_9) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_10 = "ssd.kernel"(%add_11) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %tanh_1 = "ssd.kernel"(%mul_10) {name = "aten.tanh.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %alias_11 = "ssd.kernel"(%tanh_1) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_12 = "ssd.kernel"(%tanh_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_11 = "ssd.kernel"(%mul_8, %add_12) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %view_31 = "ssd.kernel"(%mul_11) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %addmm_7 = "ssd.kernel"(%arg24_1, %view_31, %arg25_1) {name = "aten.addmm.default", flops = 2097152.0 : f64, bytes = 147712 : i64} : (tensor<64xf32>, tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
    %view_32 = "ssd.kernel"(%addmm_7) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_6:2 = "ssd.kernel"(%view_32) {name = "aten.native_dropout.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x64xi1>)
    %add_13 = "ssd.kernel"(%add_10, %native_dropout_6#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_4:3 = "ssd.kernel"(%add_13, %arg26_1, %arg27_1) {name = "aten.native_layer_norm.default", flops = 0.0 : f64, bytes = 33792 : i64} : (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>)
    %view_33 = "ssd.kernel"(%native_layer_norm_4#0) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %alias_12 = "ssd.kernel"(%view_33) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %t = "ssd.kernel"(%arg0_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %view_34 = "ssd.kernel"(%alias_12) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %mm = "ssd.kernel"(%view_34, %t) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %_unsafe_view_6 = "ssd.kernel"(%mm) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 131072 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %view_35 = "ssd.kernel"(%_unsafe_view_6) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %view_36 = "ssd.kernel"(%arg113_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32xi64>) -> tensor<64xi64>
    %_log_softmax = "ssd.kernel"(%view_35) {name = "aten._log_softmax.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %alias_15 = "ssd.kernel"(%_log_softmax) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %nll_loss_forward:2 = "ssd.kernel"(%_log_softmax, %view_36) {name = "aten.nll_loss_forward.default", flops = 0.0 : f64, bytes = 66056 : i64} : (tensor<64x256xf32>, tensor<64xi64>) -> (tensor<f32>, tensor<f32>)
    %ones_like = "ssd.kernel"(%nll_loss_forward#0) {name = "aten.ones_like.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %nll_loss_backward = "ssd.kernel"(%ones_like, %_log_softmax, %view_36, %nll_loss_forward#1) {name = "aten.nll_loss_backward.default", flops = 0.0 : f64, bytes = 131592 : i64} : (tensor<f32>, tensor<64x256xf32>, tensor<64xi64>, tensor<f32>) -> tensor<64x256xf32>
    %alias_16 = "ssd.kernel"(%alias_15) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %_log_softmax_backward_data = "ssd.kernel"(%nll_loss_backward, %alias_16) {name = "aten._log_softmax_backward_data.default", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %view_37 = "ssd.kernel"(%_log_softmax_backward_data) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %view_38 = "ssd.kernel"(%view_37) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %t_1 = "ssd.kernel"(%view_38) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %mm_1 = "ssd.kernel"(%t_1, %view_34) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %t_2 = "ssd.kernel"(%mm_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %t_3 = "ssd.kernel"(%t) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %mm_2 = "ssd.kernel"(%view_38, %t_3) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
    %view_39 = "ssd.kernel"(%mm_2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %t_4 = "ssd.kernel"(%t_2) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %view_40 = "ssd.kernel"(%view_39) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_backward:3 = "ssd.kernel"(%view_40, %add_13, %native_layer_norm_4#1, %native_layer_norm_4#2, %arg26_1, %arg27_1) {name = "aten.native_layer_norm_backward.default", flops = 0.0 : f64, bytes = 50688 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>)
    %native_dropout_backward = "ssd.kernel"(%native_layer_norm_backward#0, %native_dropout_6#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xi1>) -> tensor<2x32x64xf32>
    %view_41 = "ssd.kernel"(%native_dropout_backward) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %t_5 = "ssd.kernel"(%arg25_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %mm_3 = "ssd.kernel"(%view_41, %t_5) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %t_6 = "ssd.kernel"(%view_31) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %mm_4 = "ssd.kernel"(%t_6, %view_41) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %sum_1 = "ssd.kernel"(%view_41) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 16640 : i64} : (tensor<64x64xf32>) -> tensor<1x64xf32>
    %view_42 = "ssd.kernel"(%sum_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x64xf32>) -> tensor<64xf32>
    %view_43 = "ssd.kernel"(%mm_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %mul_12 = "ssd.kernel"(%view_43, %mul_8) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_13 = "ssd.kernel"(%view_43, %add_12) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %alias_17 = "ssd.kernel"(%alias_11) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %tanh_backward = "ssd.kernel"(%mul_12, %alias_17) {name = "aten.tanh_backward.default", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_14 = "ssd.kernel"(%tanh_backward) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_15 = "ssd.kernel"(%mul_14) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %pow_3 = "ssd.kernel"(%view_30) {name = "aten.pow.Tensor_Scalar", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_16 = "ssd.kernel"(%pow_3) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_17 = "ssd.kernel"(%mul_15, %mul_16) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_14 = "ssd.kernel"(%mul_14, %mul_17) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_18 = "ssd.kernel"(%mul_13) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_15 = "ssd.kernel"(%add_14, %mul_18) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %view_44 = "ssd.kernel"(%add_15) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %t_7 = "ssd.kernel"(%arg23_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %mm_5 = "ssd.kernel"(%view_44, %t_7) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
    %t_8 = "ssd.kernel"(%view_29) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_6 = "ssd.kernel"(%t_8, %view_44) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %sum_2 = "ssd.kernel"(%view_44) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 66560 : i64} : (tensor<64x256xf32>) -> tensor<1x256xf32>
    %view_45 = "ssd.kernel"(%sum_2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x256xf32>) -> tensor<256xf32>
    %view_46 = "ssd.kernel"(%mm_5) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_backward_1:3 = "ssd.kernel"(%view_46, %add_10, %native_layer_norm_3#1, %native_layer_norm_3#2, %arg20_1, %arg21_1) {name = "aten.native_layer_norm_backward.default", flops = 0.0 : f64, bytes = 50688 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>)
    %add_16 = "ssd.kernel"(%native_layer_norm_backward#0, %native_layer_norm_backward_1#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_backward_1 = "ssd.kernel"(%add_16, %native_dropout_5#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xi1>) -> tensor<2x32x64xf32>
    %view_47 = "ssd.kernel"(%native_dropout_backward_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %t_9 = "ssd.kernel"(%arg19_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_7 = "ssd.kernel"(%view_47, %t_9) {name = "aten.mm.default", flops = 524288.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %t_10 = "ssd.kernel"(%view_27) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_8 = "ssd.kernel"(%t_10, %view_47) {name = "aten.mm.default", flops = 524288.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sum_3 = "ssd.kernel"(%view_47) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 16640 : i64} : (tensor<64x64xf32>) -> tensor<1x64xf32>
    %view_48 = "ssd.kernel"(%sum_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x64xf32>) -> tensor<64xf32>
    %view_49 = "ssd.kernel"(%mm_7) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %view_50 = "ssd.kernel"(%view_49) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_10 = "ssd.kernel"(%view_50) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %view_51 = "ssd.kernel"(%transpose_10) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_8 = "ssd.kernel"(%view_51) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_7 = "ssd.kernel"(%clone_8) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_11 = "ssd.kernel"(%view_23) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_4 = "ssd.kernel"(%transpose_11, %_unsafe_view_7) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_12 = "ssd.kernel"(%_unsafe_view_5) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_5 = "ssd.kernel"(%_unsafe_view_7, %transpose_12) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_52 = "ssd.kernel"(%bmm_4) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_53 = "ssd.kernel"(%bmm_5) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %native_dropout_backward_2 = "ssd.kernel"(%view_53, %native_dropout_4#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xi1>) -> tensor<2x2x32x32xf32>
    %alias_18 = "ssd.kernel"(%alias_8) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_softmax_backward_data = "ssd.kernel"(%native_dropout_backward_2, %alias_18) {name = "aten._softmax_backward_data.default", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_54 = "ssd.kernel"(%_softmax_backward_data) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_13 = "ssd.kernel"(%_unsafe_view_3) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_6 = "ssd.kernel"(%transpose_13, %view_54) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_14 = "ssd.kernel"(%_unsafe_view_4) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_7 = "ssd.kernel"(%view_54, %transpose_14) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_55 = "ssd.kernel"(%bmm_6) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_56 = "ssd.kernel"(%bmm_7) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %mul_19 = "ssd.kernel"(%view_55) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_15 = "ssd.kernel"(%mul_19) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %mul_20 = "ssd.kernel"(%view_56) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_16 = "ssd.kernel"(%mul_20) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %clone_9 = "ssd.kernel"(%transpose_16) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x2x32xf32>
    %_unsafe_view_8 = "ssd.kernel"(%clone_9) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %transpose_17 = "ssd.kernel"(%view_52) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %clone_10 = "ssd.kernel"(%transpose_17) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x2x32xf32>
    %_unsafe_view_9 = "ssd.kernel"(%clone_10) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %transpose_18 = "ssd.kernel"(%transpose_15) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %view_57 = "ssd.kernel"(%transpose_18) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %cat_1 = "ssd.kernel"(%_unsafe_view_8, %view_57, %_unsafe_view_9) {name = "aten.cat.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x192xf32>
    %view_58 = "ssd.kernel"(%cat_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x192xf32>) -> tensor<64x192xf32>
    %t_11 = "ssd.kernel"(%arg17_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x192xf32>) -> tensor<192x64xf32>
    %mm_9 = "ssd.kernel"(%view_58, %t_11) {name = "aten.mm.default", flops = 1572864.0 : f64, bytes = 114688 : i64} : (tensor<64x192xf32>, tensor<192x64xf32>) -> tensor<64x64xf32>
    %t_12 = "ssd.kernel"(%view_17) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_10 = "ssd.kernel"(%t_12, %view_58) {name = "aten.mm.default", flops = 1572864.0 : f64, bytes = 114688 : i64} : (tensor<64x64xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %sum_4 = "ssd.kernel"(%view_58) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 49920 : i64} : (tensor<64x192xf32>) -> tensor<1x192xf32>
    %view_59 = "ssd.kernel"(%sum_4) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x192xf32>) -> tensor<192xf32>
    %view_60 = "ssd.kernel"(%mm_9) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_backward_2:3 = "ssd.kernel"(%view_60, %add_8, %native_layer_norm_2#1, %native_layer_norm_2#2, %arg14_1, %arg15_1) {name = "aten.native_layer_norm_backward.default", flops = 0.0 : f64, bytes = 50688 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>)
    %add_17 = "ssd.kernel"(%add_16, %native_layer_norm_backward_2#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_backward_3 = "ssd.kernel"(%add_17, %native_dropout_3#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xi1>) -> tensor<2x32x64xf32>
    %view_61 = "ssd.kernel"(%native_dropout_backward_3) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %t_13 = "ssd.kernel"(%arg13_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<256x64xf32>) -> tensor<64x256xf32>
    %mm_11 = "ssd.kernel"(%view_61, %t_13) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %t_14 = "ssd.kernel"(%view_15) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %mm_12 = "ssd.kernel"(%t_14, %view_61) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<256x64xf32>, tensor<64x64xf32>) -> tensor<256x64xf32>
    %sum_5 = "ssd.kernel"(%view_61) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 16640 : i64} : (tensor<64x64xf32>) -> tensor<1x64xf32>
    %view_62 = "ssd.kernel"(%sum_5) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x64xf32>) -> tensor<64xf32>
    %view_63 = "ssd.kernel"(%mm_11) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<2x32x256xf32>
    %mul_21 = "ssd.kernel"(%view_63, %mul_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_22 = "ssd.kernel"(%view_63, %add_7) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %alias_19 = "ssd.kernel"(%alias_5) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %tanh_backward_1 = "ssd.kernel"(%mul_21, %alias_19) {name = "aten.tanh_backward.default", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_23 = "ssd.kernel"(%tanh_backward_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_24 = "ssd.kernel"(%mul_23) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %pow_4 = "ssd.kernel"(%view_14) {name = "aten.pow.Tensor_Scalar", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_25 = "ssd.kernel"(%pow_4) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_26 = "ssd.kernel"(%mul_24, %mul_25) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_18 = "ssd.kernel"(%mul_23, %mul_26) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %mul_27 = "ssd.kernel"(%mul_22) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %add_19 = "ssd.kernel"(%add_18, %mul_27) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<2x32x256xf32>, tensor<2x32x256xf32>) -> tensor<2x32x256xf32>
    %view_64 = "ssd.kernel"(%add_19) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x256xf32>) -> tensor<64x256xf32>
    %t_15 = "ssd.kernel"(%arg11_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x256xf32>) -> tensor<256x64xf32>
    %mm_13 = "ssd.kernel"(%view_64, %t_15) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x256xf32>, tensor<256x64xf32>) -> tensor<64x64xf32>
    %t_16 = "ssd.kernel"(%view_13) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_14 = "ssd.kernel"(%t_16, %view_64) {name = "aten.mm.default", flops = 2097152.0 : f64, bytes = 147456 : i64} : (tensor<64x64xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %sum_6 = "ssd.kernel"(%view_64) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 66560 : i64} : (tensor<64x256xf32>) -> tensor<1x256xf32>
    %view_65 = "ssd.kernel"(%sum_6) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x256xf32>) -> tensor<256xf32>
    %view_66 = "ssd.kernel"(%mm_13) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_backward_3:3 = "ssd.kernel"(%view_66, %add_5, %native_layer_norm_1#1, %native_layer_norm_1#2, %arg8_1, %arg9_1) {name = "aten.native_layer_norm_backward.default", flops = 0.0 : f64, bytes = 50688 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>)
    %add_20 = "ssd.kernel"(%add_17, %native_layer_norm_backward_3#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_backward_4 = "ssd.kernel"(%add_20, %native_dropout_2#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xi1>) -> tensor<2x32x64xf32>
    %view_67 = "ssd.kernel"(%native_dropout_backward_4) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<64x64xf32>
    %t_17 = "ssd.kernel"(%arg7_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_15 = "ssd.kernel"(%view_67, %t_17) {name = "aten.mm.default", flops = 524288.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %t_18 = "ssd.kernel"(%view_11) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_16 = "ssd.kernel"(%t_18, %view_67) {name = "aten.mm.default", flops = 524288.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sum_7 = "ssd.kernel"(%view_67) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 16640 : i64} : (tensor<64x64xf32>) -> tensor<1x64xf32>
    %view_68 = "ssd.kernel"(%sum_7) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x64xf32>) -> tensor<64xf32>
    %view_69 = "ssd.kernel"(%mm_15) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %view_70 = "ssd.kernel"(%view_69) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x64xf32>) -> tensor<2x32x2x32xf32>
    %transpose_19 = "ssd.kernel"(%view_70) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x2x32x32xf32>
    %view_71 = "ssd.kernel"(%transpose_19) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %clone_11 = "ssd.kernel"(%view_71) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_unsafe_view_10 = "ssd.kernel"(%clone_11) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_20 = "ssd.kernel"(%view_7) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_8 = "ssd.kernel"(%transpose_20, %_unsafe_view_10) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_21 = "ssd.kernel"(%_unsafe_view_2) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_9 = "ssd.kernel"(%_unsafe_view_10, %transpose_21) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_72 = "ssd.kernel"(%bmm_8) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_73 = "ssd.kernel"(%bmm_9) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %native_dropout_backward_5 = "ssd.kernel"(%view_73, %native_dropout_1#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xi1>) -> tensor<2x2x32x32xf32>
    %alias_20 = "ssd.kernel"(%alias_2) {name = "aten.alias.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %_softmax_backward_data_1 = "ssd.kernel"(%native_dropout_backward_5, %alias_20) {name = "aten._softmax_backward_data.default", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x2x32x32xf32>, tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_74 = "ssd.kernel"(%_softmax_backward_data_1) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_22 = "ssd.kernel"(%_unsafe_view) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_10 = "ssd.kernel"(%transpose_22, %view_74) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %transpose_23 = "ssd.kernel"(%_unsafe_view_1) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %bmm_11 = "ssd.kernel"(%view_74, %transpose_23) {name = "aten.bmm.default", flops = 262144.0 : f64, bytes = 49152 : i64} : (tensor<4x32x32xf32>, tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %view_75 = "ssd.kernel"(%bmm_10) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %view_76 = "ssd.kernel"(%bmm_11) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<4x32x32xf32>) -> tensor<2x2x32x32xf32>
    %mul_28 = "ssd.kernel"(%view_75) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_24 = "ssd.kernel"(%mul_28) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %mul_29 = "ssd.kernel"(%view_76) {name = "aten.mul.Scalar", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x2x32x32xf32>
    %transpose_25 = "ssd.kernel"(%mul_29) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %clone_12 = "ssd.kernel"(%transpose_25) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x2x32xf32>
    %_unsafe_view_11 = "ssd.kernel"(%clone_12) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %transpose_26 = "ssd.kernel"(%view_72) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %clone_13 = "ssd.kernel"(%transpose_26) {name = "aten.clone.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x2x32xf32>
    %_unsafe_view_12 = "ssd.kernel"(%clone_13) {name = "aten._unsafe_view.default", flops = 0.0 : f64, bytes = 32768 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %transpose_27 = "ssd.kernel"(%transpose_24) {name = "aten.transpose.int", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x2x32x32xf32>) -> tensor<2x32x2x32xf32>
    %view_77 = "ssd.kernel"(%transpose_27) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x2x32xf32>) -> tensor<2x32x64xf32>
    %cat_2 = "ssd.kernel"(%_unsafe_view_11, %view_77, %_unsafe_view_12) {name = "aten.cat.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x192xf32>
    %view_78 = "ssd.kernel"(%cat_2) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<2x32x192xf32>) -> tensor<64x192xf32>
    %t_19 = "ssd.kernel"(%arg5_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x192xf32>) -> tensor<192x64xf32>
    %mm_17 = "ssd.kernel"(%view_78, %t_19) {name = "aten.mm.default", flops = 1572864.0 : f64, bytes = 114688 : i64} : (tensor<64x192xf32>, tensor<192x64xf32>) -> tensor<64x64xf32>
    %t_20 = "ssd.kernel"(%view_1) {name = "aten.t.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mm_18 = "ssd.kernel"(%t_20, %view_78) {name = "aten.mm.default", flops = 1572864.0 : f64, bytes = 114688 : i64} : (tensor<64x64xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %sum_8 = "ssd.kernel"(%view_78) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 49920 : i64} : (tensor<64x192xf32>) -> tensor<1x192xf32>
    %view_79 = "ssd.kernel"(%sum_8) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<1x192xf32>) -> tensor<192xf32>
    %view_80 = "ssd.kernel"(%mm_17) {name = "aten.view.default", flops = 0.0 : f64, bytes = 0 : i64, view_of = 0 : i64} : (tensor<64x64xf32>) -> tensor<2x32x64xf32>
    %native_layer_norm_backward_4:3 = "ssd.kernel"(%view_80, %native_dropout#0, %native_layer_norm#1, %native_layer_norm#2, %arg2_1, %arg3_1) {name = "aten.native_layer_norm_backward.default", flops = 0.0 : f64, bytes = 50688 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>, tensor<2x32x1xf32>, tensor<2x32x1xf32>, tensor<64xf32>, tensor<64xf32>) -> (tensor<2x32x64xf32>, tensor<64xf32>, tensor<64xf32>)
    %add_21 = "ssd.kernel"(%add_20, %native_layer_norm_backward_4#0) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xf32>) -> tensor<2x32x64xf32>
    %native_dropout_backward_6 = "ssd.kernel"(%add_21, %native_dropout#1) {name = "aten.native_dropout_backward.default", flops = 0.0 : f64, bytes = 36864 : i64} : (tensor<2x32x64xf32>, tensor<2x32x64xi1>) -> tensor<2x32x64xf32>
    %sum_9 = "ssd.kernel"(%native_dropout_backward_6) {name = "aten.sum.dim_IntList", flops = 0.0 : f64, bytes = 24576 : i64} : (tensor<2x32x64xf32>) -> tensor<1x32x64xf32>
    %embedding_dense_backward = "ssd.kernel"(%sum_9, %unsqueeze) {name = "aten.embedding_dense_backward.default", flops = 0.0 : f64, bytes = 24832 : i64} : (tensor<1x32x64xf32>, tensor<1x32xi64>) -> tensor<64x64xf32>
    %embedding_dense_backward_1 = "ssd.kernel"(%native_dropout_backward_6, %view) {name = "aten.embedding_dense_backward.default", flops = 0.0 : f64, bytes = 82432 : i64} : (tensor<2x32x64xf32>, tensor<2x32xi64>) -> tensor<256x64xf32>
    %add_22 = "ssd.kernel"(%t_4, %embedding_dense_backward_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_30 = "ssd.kernel"(%arg0_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %add_23 = "ssd.kernel"(%arg28_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp = "ssd.kernel"(%arg29_1, %add_22) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_31 = "ssd.kernel"(%arg30_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_32 = "ssd.kernel"(%add_22) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_33 = "ssd.kernel"(%mul_32, %add_22) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %add_24 = "ssd.kernel"(%mul_31, %mul_33) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %pow_5 = "ssd.kernel"(%add_23) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub = "ssd.kernel"(%pow_5) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_6 = "ssd.kernel"(%add_23) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_1 = "ssd.kernel"(%pow_6) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt = "ssd.kernel"(%rsub_1) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_1 = "ssd.kernel"(%add_24) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %div = "ssd.kernel"(%sqrt_1, %sqrt) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<256x64xf32>, tensor<f32>) -> tensor<256x64xf32>
    %add_25 = "ssd.kernel"(%div) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %reciprocal = "ssd.kernel"(%rsub) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_34 = "ssd.kernel"(%reciprocal) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_35 = "ssd.kernel"(%mul_34, %lerp) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<f32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %div_1 = "ssd.kernel"(%mul_35, %add_25) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %sub_2 = "ssd.kernel"(%mul_30, %div_1) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_36 = "ssd.kernel"(%arg1_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_26 = "ssd.kernel"(%arg31_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_1 = "ssd.kernel"(%arg32_1, %embedding_dense_backward) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_37 = "ssd.kernel"(%arg33_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_38 = "ssd.kernel"(%embedding_dense_backward) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_39 = "ssd.kernel"(%mul_38, %embedding_dense_backward) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_27 = "ssd.kernel"(%mul_37, %mul_39) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %pow_7 = "ssd.kernel"(%add_26) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_2 = "ssd.kernel"(%pow_7) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_8 = "ssd.kernel"(%add_26) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_3 = "ssd.kernel"(%pow_8) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_2 = "ssd.kernel"(%rsub_3) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_3 = "ssd.kernel"(%add_27) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_2 = "ssd.kernel"(%sqrt_3, %sqrt_2) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64x64xf32>
    %add_28 = "ssd.kernel"(%div_2) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %reciprocal_1 = "ssd.kernel"(%rsub_2) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_40 = "ssd.kernel"(%reciprocal_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_41 = "ssd.kernel"(%mul_40, %lerp_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<f32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_3 = "ssd.kernel"(%mul_41, %add_28) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sub_3 = "ssd.kernel"(%mul_36, %div_3) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_42 = "ssd.kernel"(%arg2_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_29 = "ssd.kernel"(%arg34_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_2 = "ssd.kernel"(%arg35_1, %native_layer_norm_backward_4#1) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_43 = "ssd.kernel"(%arg36_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_44 = "ssd.kernel"(%native_layer_norm_backward_4#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_45 = "ssd.kernel"(%mul_44, %native_layer_norm_backward_4#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_30 = "ssd.kernel"(%mul_43, %mul_45) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_9 = "ssd.kernel"(%add_29) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_4 = "ssd.kernel"(%pow_9) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_10 = "ssd.kernel"(%add_29) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_5 = "ssd.kernel"(%pow_10) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_4 = "ssd.kernel"(%rsub_5) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_5 = "ssd.kernel"(%add_30) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_4 = "ssd.kernel"(%sqrt_5, %sqrt_4) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_31 = "ssd.kernel"(%div_4) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_2 = "ssd.kernel"(%rsub_4) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_46 = "ssd.kernel"(%reciprocal_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_47 = "ssd.kernel"(%mul_46, %lerp_2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_5 = "ssd.kernel"(%mul_47, %add_31) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_4 = "ssd.kernel"(%mul_42, %div_5) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_48 = "ssd.kernel"(%arg3_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_32 = "ssd.kernel"(%arg37_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_3 = "ssd.kernel"(%arg38_1, %native_layer_norm_backward_4#2) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_49 = "ssd.kernel"(%arg39_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_50 = "ssd.kernel"(%native_layer_norm_backward_4#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_51 = "ssd.kernel"(%mul_50, %native_layer_norm_backward_4#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_33 = "ssd.kernel"(%mul_49, %mul_51) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_11 = "ssd.kernel"(%add_32) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_6 = "ssd.kernel"(%pow_11) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_12 = "ssd.kernel"(%add_32) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_7 = "ssd.kernel"(%pow_12) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_6 = "ssd.kernel"(%rsub_7) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_7 = "ssd.kernel"(%add_33) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_6 = "ssd.kernel"(%sqrt_7, %sqrt_6) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_34 = "ssd.kernel"(%div_6) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_3 = "ssd.kernel"(%rsub_6) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_52 = "ssd.kernel"(%reciprocal_3) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_53 = "ssd.kernel"(%mul_52, %lerp_3) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_7 = "ssd.kernel"(%mul_53, %add_34) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_5 = "ssd.kernel"(%mul_48, %div_7) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_54 = "ssd.kernel"(%arg4_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %add_35 = "ssd.kernel"(%arg43_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_4 = "ssd.kernel"(%arg44_1, %view_79) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %mul_55 = "ssd.kernel"(%arg45_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %mul_56 = "ssd.kernel"(%view_79) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %mul_57 = "ssd.kernel"(%mul_56, %view_79) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %add_36 = "ssd.kernel"(%mul_55, %mul_57) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %pow_13 = "ssd.kernel"(%add_35) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_8 = "ssd.kernel"(%pow_13) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_14 = "ssd.kernel"(%add_35) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_9 = "ssd.kernel"(%pow_14) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_8 = "ssd.kernel"(%rsub_9) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_9 = "ssd.kernel"(%add_36) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %div_8 = "ssd.kernel"(%sqrt_9, %sqrt_8) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 1540 : i64} : (tensor<192xf32>, tensor<f32>) -> tensor<192xf32>
    %add_37 = "ssd.kernel"(%div_8) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %reciprocal_4 = "ssd.kernel"(%rsub_8) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_58 = "ssd.kernel"(%reciprocal_4) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_59 = "ssd.kernel"(%mul_58, %lerp_4) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1540 : i64} : (tensor<f32>, tensor<192xf32>) -> tensor<192xf32>
    %div_9 = "ssd.kernel"(%mul_59, %add_37) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %sub_6 = "ssd.kernel"(%mul_54, %div_9) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %mul_60 = "ssd.kernel"(%arg5_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %add_38 = "ssd.kernel"(%arg40_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_5 = "ssd.kernel"(%arg41_1, %mm_18) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_61 = "ssd.kernel"(%arg42_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_62 = "ssd.kernel"(%mm_18) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_63 = "ssd.kernel"(%mul_62, %mm_18) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %add_39 = "ssd.kernel"(%mul_61, %mul_63) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %pow_15 = "ssd.kernel"(%add_38) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_10 = "ssd.kernel"(%pow_15) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_16 = "ssd.kernel"(%add_38) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_11 = "ssd.kernel"(%pow_16) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_10 = "ssd.kernel"(%rsub_11) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_11 = "ssd.kernel"(%add_39) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %div_10 = "ssd.kernel"(%sqrt_11, %sqrt_10) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 98308 : i64} : (tensor<64x192xf32>, tensor<f32>) -> tensor<64x192xf32>
    %add_40 = "ssd.kernel"(%div_10) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %reciprocal_5 = "ssd.kernel"(%rsub_10) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_64 = "ssd.kernel"(%reciprocal_5) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_65 = "ssd.kernel"(%mul_64, %lerp_5) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98308 : i64} : (tensor<f32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %div_11 = "ssd.kernel"(%mul_65, %add_40) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %sub_7 = "ssd.kernel"(%mul_60, %div_11) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_66 = "ssd.kernel"(%arg6_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_41 = "ssd.kernel"(%arg49_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_6 = "ssd.kernel"(%arg50_1, %view_68) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_67 = "ssd.kernel"(%arg51_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_68 = "ssd.kernel"(%view_68) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_69 = "ssd.kernel"(%mul_68, %view_68) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_42 = "ssd.kernel"(%mul_67, %mul_69) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_17 = "ssd.kernel"(%add_41) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_12 = "ssd.kernel"(%pow_17) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_18 = "ssd.kernel"(%add_41) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_13 = "ssd.kernel"(%pow_18) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_12 = "ssd.kernel"(%rsub_13) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_13 = "ssd.kernel"(%add_42) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_12 = "ssd.kernel"(%sqrt_13, %sqrt_12) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_43 = "ssd.kernel"(%div_12) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_6 = "ssd.kernel"(%rsub_12) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_70 = "ssd.kernel"(%reciprocal_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_71 = "ssd.kernel"(%mul_70, %lerp_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_13 = "ssd.kernel"(%mul_71, %add_43) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_8 = "ssd.kernel"(%mul_66, %div_13) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_72 = "ssd.kernel"(%arg7_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_44 = "ssd.kernel"(%arg46_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_7 = "ssd.kernel"(%arg47_1, %mm_16) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_73 = "ssd.kernel"(%arg48_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_74 = "ssd.kernel"(%mm_16) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_75 = "ssd.kernel"(%mul_74, %mm_16) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_45 = "ssd.kernel"(%mul_73, %mul_75) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %pow_19 = "ssd.kernel"(%add_44) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_14 = "ssd.kernel"(%pow_19) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_20 = "ssd.kernel"(%add_44) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_15 = "ssd.kernel"(%pow_20) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_14 = "ssd.kernel"(%rsub_15) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_15 = "ssd.kernel"(%add_45) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_14 = "ssd.kernel"(%sqrt_15, %sqrt_14) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64x64xf32>
    %add_46 = "ssd.kernel"(%div_14) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %reciprocal_7 = "ssd.kernel"(%rsub_14) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_76 = "ssd.kernel"(%reciprocal_7) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_77 = "ssd.kernel"(%mul_76, %lerp_7) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<f32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_15 = "ssd.kernel"(%mul_77, %add_46) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sub_9 = "ssd.kernel"(%mul_72, %div_15) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_78 = "ssd.kernel"(%arg8_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_47 = "ssd.kernel"(%arg52_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_8 = "ssd.kernel"(%arg53_1, %native_layer_norm_backward_3#1) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_79 = "ssd.kernel"(%arg54_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_80 = "ssd.kernel"(%native_layer_norm_backward_3#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_81 = "ssd.kernel"(%mul_80, %native_layer_norm_backward_3#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_48 = "ssd.kernel"(%mul_79, %mul_81) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_21 = "ssd.kernel"(%add_47) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_16 = "ssd.kernel"(%pow_21) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_22 = "ssd.kernel"(%add_47) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_17 = "ssd.kernel"(%pow_22) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_16 = "ssd.kernel"(%rsub_17) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_17 = "ssd.kernel"(%add_48) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_16 = "ssd.kernel"(%sqrt_17, %sqrt_16) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_49 = "ssd.kernel"(%div_16) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_8 = "ssd.kernel"(%rsub_16) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_82 = "ssd.kernel"(%reciprocal_8) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_83 = "ssd.kernel"(%mul_82, %lerp_8) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_17 = "ssd.kernel"(%mul_83, %add_49) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_10 = "ssd.kernel"(%mul_78, %div_17) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_84 = "ssd.kernel"(%arg9_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_50 = "ssd.kernel"(%arg55_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_9 = "ssd.kernel"(%arg56_1, %native_layer_norm_backward_3#2) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_85 = "ssd.kernel"(%arg57_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_86 = "ssd.kernel"(%native_layer_norm_backward_3#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_87 = "ssd.kernel"(%mul_86, %native_layer_norm_backward_3#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_51 = "ssd.kernel"(%mul_85, %mul_87) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_23 = "ssd.kernel"(%add_50) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_18 = "ssd.kernel"(%pow_23) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_24 = "ssd.kernel"(%add_50) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_19 = "ssd.kernel"(%pow_24) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_18 = "ssd.kernel"(%rsub_19) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_19 = "ssd.kernel"(%add_51) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_18 = "ssd.kernel"(%sqrt_19, %sqrt_18) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_52 = "ssd.kernel"(%div_18) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_9 = "ssd.kernel"(%rsub_18) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_88 = "ssd.kernel"(%reciprocal_9) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_89 = "ssd.kernel"(%mul_88, %lerp_9) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_19 = "ssd.kernel"(%mul_89, %add_52) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_11 = "ssd.kernel"(%mul_84, %div_19) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_90 = "ssd.kernel"(%arg10_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %add_53 = "ssd.kernel"(%arg61_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_10 = "ssd.kernel"(%arg62_1, %view_65) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %mul_91 = "ssd.kernel"(%arg63_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %mul_92 = "ssd.kernel"(%view_65) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %mul_93 = "ssd.kernel"(%mul_92, %view_65) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %add_54 = "ssd.kernel"(%mul_91, %mul_93) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %pow_25 = "ssd.kernel"(%add_53) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_20 = "ssd.kernel"(%pow_25) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_26 = "ssd.kernel"(%add_53) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_21 = "ssd.kernel"(%pow_26) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_20 = "ssd.kernel"(%rsub_21) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_21 = "ssd.kernel"(%add_54) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %div_20 = "ssd.kernel"(%sqrt_21, %sqrt_20) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 2052 : i64} : (tensor<256xf32>, tensor<f32>) -> tensor<256xf32>
    %add_55 = "ssd.kernel"(%div_20) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %reciprocal_10 = "ssd.kernel"(%rsub_20) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_94 = "ssd.kernel"(%reciprocal_10) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_95 = "ssd.kernel"(%mul_94, %lerp_10) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2052 : i64} : (tensor<f32>, tensor<256xf32>) -> tensor<256xf32>
    %div_21 = "ssd.kernel"(%mul_95, %add_55) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %sub_12 = "ssd.kernel"(%mul_90, %div_21) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %mul_96 = "ssd.kernel"(%arg11_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %add_56 = "ssd.kernel"(%arg58_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_11 = "ssd.kernel"(%arg59_1, %mm_14) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_97 = "ssd.kernel"(%arg60_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_98 = "ssd.kernel"(%mm_14) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_99 = "ssd.kernel"(%mul_98, %mm_14) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %add_57 = "ssd.kernel"(%mul_97, %mul_99) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %pow_27 = "ssd.kernel"(%add_56) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_22 = "ssd.kernel"(%pow_27) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_28 = "ssd.kernel"(%add_56) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_23 = "ssd.kernel"(%pow_28) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_22 = "ssd.kernel"(%rsub_23) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_23 = "ssd.kernel"(%add_57) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %div_22 = "ssd.kernel"(%sqrt_23, %sqrt_22) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<64x256xf32>, tensor<f32>) -> tensor<64x256xf32>
    %add_58 = "ssd.kernel"(%div_22) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %reciprocal_11 = "ssd.kernel"(%rsub_22) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_100 = "ssd.kernel"(%reciprocal_11) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_101 = "ssd.kernel"(%mul_100, %lerp_11) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<f32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %div_23 = "ssd.kernel"(%mul_101, %add_58) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %sub_13 = "ssd.kernel"(%mul_96, %div_23) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_102 = "ssd.kernel"(%arg12_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_59 = "ssd.kernel"(%arg67_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_12 = "ssd.kernel"(%arg68_1, %view_62) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_103 = "ssd.kernel"(%arg69_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_104 = "ssd.kernel"(%view_62) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_105 = "ssd.kernel"(%mul_104, %view_62) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_60 = "ssd.kernel"(%mul_103, %mul_105) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_29 = "ssd.kernel"(%add_59) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_24 = "ssd.kernel"(%pow_29) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_30 = "ssd.kernel"(%add_59) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_25 = "ssd.kernel"(%pow_30) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_24 = "ssd.kernel"(%rsub_25) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_25 = "ssd.kernel"(%add_60) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_24 = "ssd.kernel"(%sqrt_25, %sqrt_24) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_61 = "ssd.kernel"(%div_24) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_12 = "ssd.kernel"(%rsub_24) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_106 = "ssd.kernel"(%reciprocal_12) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_107 = "ssd.kernel"(%mul_106, %lerp_12) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_25 = "ssd.kernel"(%mul_107, %add_61) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_14 = "ssd.kernel"(%mul_102, %div_25) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_108 = "ssd.kernel"(%arg13_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %add_62 = "ssd.kernel"(%arg64_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_13 = "ssd.kernel"(%arg65_1, %mm_12) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_109 = "ssd.kernel"(%arg66_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_110 = "ssd.kernel"(%mm_12) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_111 = "ssd.kernel"(%mul_110, %mm_12) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %add_63 = "ssd.kernel"(%mul_109, %mul_111) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %pow_31 = "ssd.kernel"(%add_62) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_26 = "ssd.kernel"(%pow_31) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_32 = "ssd.kernel"(%add_62) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_27 = "ssd.kernel"(%pow_32) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_26 = "ssd.kernel"(%rsub_27) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_27 = "ssd.kernel"(%add_63) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %div_26 = "ssd.kernel"(%sqrt_27, %sqrt_26) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<256x64xf32>, tensor<f32>) -> tensor<256x64xf32>
    %add_64 = "ssd.kernel"(%div_26) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %reciprocal_13 = "ssd.kernel"(%rsub_26) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_112 = "ssd.kernel"(%reciprocal_13) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_113 = "ssd.kernel"(%mul_112, %lerp_13) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<f32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %div_27 = "ssd.kernel"(%mul_113, %add_64) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %sub_15 = "ssd.kernel"(%mul_108, %div_27) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_114 = "ssd.kernel"(%arg14_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_65 = "ssd.kernel"(%arg70_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_14 = "ssd.kernel"(%arg71_1, %native_layer_norm_backward_2#1) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_115 = "ssd.kernel"(%arg72_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_116 = "ssd.kernel"(%native_layer_norm_backward_2#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_117 = "ssd.kernel"(%mul_116, %native_layer_norm_backward_2#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_66 = "ssd.kernel"(%mul_115, %mul_117) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_33 = "ssd.kernel"(%add_65) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_28 = "ssd.kernel"(%pow_33) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_34 = "ssd.kernel"(%add_65) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_29 = "ssd.kernel"(%pow_34) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_28 = "ssd.kernel"(%rsub_29) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_29 = "ssd.kernel"(%add_66) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_28 = "ssd.kernel"(%sqrt_29, %sqrt_28) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_67 = "ssd.kernel"(%div_28) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_14 = "ssd.kernel"(%rsub_28) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_118 = "ssd.kernel"(%reciprocal_14) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_119 = "ssd.kernel"(%mul_118, %lerp_14) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_29 = "ssd.kernel"(%mul_119, %add_67) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_16 = "ssd.kernel"(%mul_114, %div_29) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_120 = "ssd.kernel"(%arg15_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_68 = "ssd.kernel"(%arg73_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_15 = "ssd.kernel"(%arg74_1, %native_layer_norm_backward_2#2) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_121 = "ssd.kernel"(%arg75_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_122 = "ssd.kernel"(%native_layer_norm_backward_2#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_123 = "ssd.kernel"(%mul_122, %native_layer_norm_backward_2#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_69 = "ssd.kernel"(%mul_121, %mul_123) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_35 = "ssd.kernel"(%add_68) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_30 = "ssd.kernel"(%pow_35) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_36 = "ssd.kernel"(%add_68) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_31 = "ssd.kernel"(%pow_36) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_30 = "ssd.kernel"(%rsub_31) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_31 = "ssd.kernel"(%add_69) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_30 = "ssd.kernel"(%sqrt_31, %sqrt_30) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_70 = "ssd.kernel"(%div_30) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_15 = "ssd.kernel"(%rsub_30) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_124 = "ssd.kernel"(%reciprocal_15) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_125 = "ssd.kernel"(%mul_124, %lerp_15) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_31 = "ssd.kernel"(%mul_125, %add_70) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_17 = "ssd.kernel"(%mul_120, %div_31) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_126 = "ssd.kernel"(%arg16_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %add_71 = "ssd.kernel"(%arg79_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_16 = "ssd.kernel"(%arg80_1, %view_59) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %mul_127 = "ssd.kernel"(%arg81_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %mul_128 = "ssd.kernel"(%view_59) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %mul_129 = "ssd.kernel"(%mul_128, %view_59) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %add_72 = "ssd.kernel"(%mul_127, %mul_129) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %pow_37 = "ssd.kernel"(%add_71) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_32 = "ssd.kernel"(%pow_37) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_38 = "ssd.kernel"(%add_71) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_33 = "ssd.kernel"(%pow_38) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_32 = "ssd.kernel"(%rsub_33) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_33 = "ssd.kernel"(%add_72) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %div_32 = "ssd.kernel"(%sqrt_33, %sqrt_32) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 1540 : i64} : (tensor<192xf32>, tensor<f32>) -> tensor<192xf32>
    %add_73 = "ssd.kernel"(%div_32) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 1536 : i64} : (tensor<192xf32>) -> tensor<192xf32>
    %reciprocal_16 = "ssd.kernel"(%rsub_32) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_130 = "ssd.kernel"(%reciprocal_16) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_131 = "ssd.kernel"(%mul_130, %lerp_16) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 1540 : i64} : (tensor<f32>, tensor<192xf32>) -> tensor<192xf32>
    %div_33 = "ssd.kernel"(%mul_131, %add_73) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %sub_18 = "ssd.kernel"(%mul_126, %div_33) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 2304 : i64} : (tensor<192xf32>, tensor<192xf32>) -> tensor<192xf32>
    %mul_132 = "ssd.kernel"(%arg17_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %add_74 = "ssd.kernel"(%arg76_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_17 = "ssd.kernel"(%arg77_1, %mm_10) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_133 = "ssd.kernel"(%arg78_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_134 = "ssd.kernel"(%mm_10) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_135 = "ssd.kernel"(%mul_134, %mm_10) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %add_75 = "ssd.kernel"(%mul_133, %mul_135) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %pow_39 = "ssd.kernel"(%add_74) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_34 = "ssd.kernel"(%pow_39) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_40 = "ssd.kernel"(%add_74) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_35 = "ssd.kernel"(%pow_40) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_34 = "ssd.kernel"(%rsub_35) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_35 = "ssd.kernel"(%add_75) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %div_34 = "ssd.kernel"(%sqrt_35, %sqrt_34) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 98308 : i64} : (tensor<64x192xf32>, tensor<f32>) -> tensor<64x192xf32>
    %add_76 = "ssd.kernel"(%div_34) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 98304 : i64} : (tensor<64x192xf32>) -> tensor<64x192xf32>
    %reciprocal_17 = "ssd.kernel"(%rsub_34) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_136 = "ssd.kernel"(%reciprocal_17) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_137 = "ssd.kernel"(%mul_136, %lerp_17) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 98308 : i64} : (tensor<f32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %div_35 = "ssd.kernel"(%mul_137, %add_76) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %sub_19 = "ssd.kernel"(%mul_132, %div_35) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 147456 : i64} : (tensor<64x192xf32>, tensor<64x192xf32>) -> tensor<64x192xf32>
    %mul_138 = "ssd.kernel"(%arg18_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_77 = "ssd.kernel"(%arg85_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_18 = "ssd.kernel"(%arg86_1, %view_48) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_139 = "ssd.kernel"(%arg87_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_140 = "ssd.kernel"(%view_48) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_141 = "ssd.kernel"(%mul_140, %view_48) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_78 = "ssd.kernel"(%mul_139, %mul_141) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_41 = "ssd.kernel"(%add_77) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_36 = "ssd.kernel"(%pow_41) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_42 = "ssd.kernel"(%add_77) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_37 = "ssd.kernel"(%pow_42) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_36 = "ssd.kernel"(%rsub_37) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_37 = "ssd.kernel"(%add_78) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_36 = "ssd.kernel"(%sqrt_37, %sqrt_36) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_79 = "ssd.kernel"(%div_36) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_18 = "ssd.kernel"(%rsub_36) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_142 = "ssd.kernel"(%reciprocal_18) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_143 = "ssd.kernel"(%mul_142, %lerp_18) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_37 = "ssd.kernel"(%mul_143, %add_79) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_20 = "ssd.kernel"(%mul_138, %div_37) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_144 = "ssd.kernel"(%arg19_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_80 = "ssd.kernel"(%arg82_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_19 = "ssd.kernel"(%arg83_1, %mm_8) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_145 = "ssd.kernel"(%arg84_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_146 = "ssd.kernel"(%mm_8) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_147 = "ssd.kernel"(%mul_146, %mm_8) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %add_81 = "ssd.kernel"(%mul_145, %mul_147) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %pow_43 = "ssd.kernel"(%add_80) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_38 = "ssd.kernel"(%pow_43) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_44 = "ssd.kernel"(%add_80) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_39 = "ssd.kernel"(%pow_44) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_38 = "ssd.kernel"(%rsub_39) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_39 = "ssd.kernel"(%add_81) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_38 = "ssd.kernel"(%sqrt_39, %sqrt_38) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64x64xf32>
    %add_82 = "ssd.kernel"(%div_38) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 32768 : i64} : (tensor<64x64xf32>) -> tensor<64x64xf32>
    %reciprocal_19 = "ssd.kernel"(%rsub_38) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_148 = "ssd.kernel"(%reciprocal_19) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_149 = "ssd.kernel"(%mul_148, %lerp_19) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 32772 : i64} : (tensor<f32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %div_39 = "ssd.kernel"(%mul_149, %add_82) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %sub_21 = "ssd.kernel"(%mul_144, %div_39) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 49152 : i64} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
    %mul_150 = "ssd.kernel"(%arg20_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_83 = "ssd.kernel"(%arg88_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_20 = "ssd.kernel"(%arg89_1, %native_layer_norm_backward_1#1) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_151 = "ssd.kernel"(%arg90_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_152 = "ssd.kernel"(%native_layer_norm_backward_1#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_153 = "ssd.kernel"(%mul_152, %native_layer_norm_backward_1#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_84 = "ssd.kernel"(%mul_151, %mul_153) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_45 = "ssd.kernel"(%add_83) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_40 = "ssd.kernel"(%pow_45) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_46 = "ssd.kernel"(%add_83) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_41 = "ssd.kernel"(%pow_46) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_40 = "ssd.kernel"(%rsub_41) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_41 = "ssd.kernel"(%add_84) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_40 = "ssd.kernel"(%sqrt_41, %sqrt_40) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_85 = "ssd.kernel"(%div_40) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_20 = "ssd.kernel"(%rsub_40) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_154 = "ssd.kernel"(%reciprocal_20) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_155 = "ssd.kernel"(%mul_154, %lerp_20) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_41 = "ssd.kernel"(%mul_155, %add_85) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_22 = "ssd.kernel"(%mul_150, %div_41) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_156 = "ssd.kernel"(%arg21_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_86 = "ssd.kernel"(%arg91_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_21 = "ssd.kernel"(%arg92_1, %native_layer_norm_backward_1#2) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_157 = "ssd.kernel"(%arg93_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_158 = "ssd.kernel"(%native_layer_norm_backward_1#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_159 = "ssd.kernel"(%mul_158, %native_layer_norm_backward_1#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_87 = "ssd.kernel"(%mul_157, %mul_159) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_47 = "ssd.kernel"(%add_86) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_42 = "ssd.kernel"(%pow_47) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_48 = "ssd.kernel"(%add_86) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_43 = "ssd.kernel"(%pow_48) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_42 = "ssd.kernel"(%rsub_43) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_43 = "ssd.kernel"(%add_87) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_42 = "ssd.kernel"(%sqrt_43, %sqrt_42) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_88 = "ssd.kernel"(%div_42) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_21 = "ssd.kernel"(%rsub_42) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_160 = "ssd.kernel"(%reciprocal_21) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_161 = "ssd.kernel"(%mul_160, %lerp_21) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_43 = "ssd.kernel"(%mul_161, %add_88) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_23 = "ssd.kernel"(%mul_156, %div_43) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_162 = "ssd.kernel"(%arg22_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %add_89 = "ssd.kernel"(%arg97_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_22 = "ssd.kernel"(%arg98_1, %view_45) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %mul_163 = "ssd.kernel"(%arg99_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %mul_164 = "ssd.kernel"(%view_45) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %mul_165 = "ssd.kernel"(%mul_164, %view_45) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %add_90 = "ssd.kernel"(%mul_163, %mul_165) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %pow_49 = "ssd.kernel"(%add_89) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_44 = "ssd.kernel"(%pow_49) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_50 = "ssd.kernel"(%add_89) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_45 = "ssd.kernel"(%pow_50) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_44 = "ssd.kernel"(%rsub_45) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_45 = "ssd.kernel"(%add_90) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %div_44 = "ssd.kernel"(%sqrt_45, %sqrt_44) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 2052 : i64} : (tensor<256xf32>, tensor<f32>) -> tensor<256xf32>
    %add_91 = "ssd.kernel"(%div_44) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 2048 : i64} : (tensor<256xf32>) -> tensor<256xf32>
    %reciprocal_22 = "ssd.kernel"(%rsub_44) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_166 = "ssd.kernel"(%reciprocal_22) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_167 = "ssd.kernel"(%mul_166, %lerp_22) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 2052 : i64} : (tensor<f32>, tensor<256xf32>) -> tensor<256xf32>
    %div_45 = "ssd.kernel"(%mul_167, %add_91) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %sub_24 = "ssd.kernel"(%mul_162, %div_45) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 3072 : i64} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
    %mul_168 = "ssd.kernel"(%arg23_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %add_92 = "ssd.kernel"(%arg94_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_23 = "ssd.kernel"(%arg95_1, %mm_6) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_169 = "ssd.kernel"(%arg96_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_170 = "ssd.kernel"(%mm_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_171 = "ssd.kernel"(%mul_170, %mm_6) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %add_93 = "ssd.kernel"(%mul_169, %mul_171) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %pow_51 = "ssd.kernel"(%add_92) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_46 = "ssd.kernel"(%pow_51) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_52 = "ssd.kernel"(%add_92) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_47 = "ssd.kernel"(%pow_52) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_46 = "ssd.kernel"(%rsub_47) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_47 = "ssd.kernel"(%add_93) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %div_46 = "ssd.kernel"(%sqrt_47, %sqrt_46) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<64x256xf32>, tensor<f32>) -> tensor<64x256xf32>
    %add_94 = "ssd.kernel"(%div_46) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<64x256xf32>) -> tensor<64x256xf32>
    %reciprocal_23 = "ssd.kernel"(%rsub_46) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_172 = "ssd.kernel"(%reciprocal_23) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_173 = "ssd.kernel"(%mul_172, %lerp_23) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<f32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %div_47 = "ssd.kernel"(%mul_173, %add_94) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %sub_25 = "ssd.kernel"(%mul_168, %div_47) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<64x256xf32>, tensor<64x256xf32>) -> tensor<64x256xf32>
    %mul_174 = "ssd.kernel"(%arg24_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_95 = "ssd.kernel"(%arg103_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_24 = "ssd.kernel"(%arg104_1, %view_42) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_175 = "ssd.kernel"(%arg105_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_176 = "ssd.kernel"(%view_42) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_177 = "ssd.kernel"(%mul_176, %view_42) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_96 = "ssd.kernel"(%mul_175, %mul_177) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_53 = "ssd.kernel"(%add_95) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_48 = "ssd.kernel"(%pow_53) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_54 = "ssd.kernel"(%add_95) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_49 = "ssd.kernel"(%pow_54) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_48 = "ssd.kernel"(%rsub_49) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_49 = "ssd.kernel"(%add_96) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_48 = "ssd.kernel"(%sqrt_49, %sqrt_48) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_97 = "ssd.kernel"(%div_48) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_24 = "ssd.kernel"(%rsub_48) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_178 = "ssd.kernel"(%reciprocal_24) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_179 = "ssd.kernel"(%mul_178, %lerp_24) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_49 = "ssd.kernel"(%mul_179, %add_97) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_26 = "ssd.kernel"(%mul_174, %div_49) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_180 = "ssd.kernel"(%arg25_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %add_98 = "ssd.kernel"(%arg100_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_25 = "ssd.kernel"(%arg101_1, %mm_4) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_181 = "ssd.kernel"(%arg102_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_182 = "ssd.kernel"(%mm_4) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_183 = "ssd.kernel"(%mul_182, %mm_4) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %add_99 = "ssd.kernel"(%mul_181, %mul_183) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %pow_55 = "ssd.kernel"(%add_98) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_50 = "ssd.kernel"(%pow_55) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_56 = "ssd.kernel"(%add_98) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_51 = "ssd.kernel"(%pow_56) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_50 = "ssd.kernel"(%rsub_51) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_51 = "ssd.kernel"(%add_99) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %div_50 = "ssd.kernel"(%sqrt_51, %sqrt_50) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<256x64xf32>, tensor<f32>) -> tensor<256x64xf32>
    %add_100 = "ssd.kernel"(%div_50) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 131072 : i64} : (tensor<256x64xf32>) -> tensor<256x64xf32>
    %reciprocal_25 = "ssd.kernel"(%rsub_50) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_184 = "ssd.kernel"(%reciprocal_25) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_185 = "ssd.kernel"(%mul_184, %lerp_25) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 131076 : i64} : (tensor<f32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %div_51 = "ssd.kernel"(%mul_185, %add_100) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %sub_27 = "ssd.kernel"(%mul_180, %div_51) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 196608 : i64} : (tensor<256x64xf32>, tensor<256x64xf32>) -> tensor<256x64xf32>
    %mul_186 = "ssd.kernel"(%arg26_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_101 = "ssd.kernel"(%arg106_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_26 = "ssd.kernel"(%arg107_1, %native_layer_norm_backward#1) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_187 = "ssd.kernel"(%arg108_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_188 = "ssd.kernel"(%native_layer_norm_backward#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_189 = "ssd.kernel"(%mul_188, %native_layer_norm_backward#1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_102 = "ssd.kernel"(%mul_187, %mul_189) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_57 = "ssd.kernel"(%add_101) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_52 = "ssd.kernel"(%pow_57) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_58 = "ssd.kernel"(%add_101) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_53 = "ssd.kernel"(%pow_58) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_52 = "ssd.kernel"(%rsub_53) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_53 = "ssd.kernel"(%add_102) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_52 = "ssd.kernel"(%sqrt_53, %sqrt_52) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_103 = "ssd.kernel"(%div_52) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_26 = "ssd.kernel"(%rsub_52) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_190 = "ssd.kernel"(%reciprocal_26) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_191 = "ssd.kernel"(%mul_190, %lerp_26) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_53 = "ssd.kernel"(%mul_191, %add_103) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_28 = "ssd.kernel"(%mul_186, %div_53) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_192 = "ssd.kernel"(%arg27_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %add_104 = "ssd.kernel"(%arg109_1) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %lerp_27 = "ssd.kernel"(%arg110_1, %native_layer_norm_backward#2) {name = "aten.lerp.Scalar", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %mul_193 = "ssd.kernel"(%arg111_1) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_194 = "ssd.kernel"(%native_layer_norm_backward#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %mul_195 = "ssd.kernel"(%mul_194, %native_layer_norm_backward#2) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %add_105 = "ssd.kernel"(%mul_193, %mul_195) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %pow_59 = "ssd.kernel"(%add_104) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_54 = "ssd.kernel"(%pow_59) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %pow_60 = "ssd.kernel"(%add_104) {name = "aten.pow.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %rsub_55 = "ssd.kernel"(%pow_60) {name = "aten.rsub.Scalar", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_54 = "ssd.kernel"(%rsub_55) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %sqrt_55 = "ssd.kernel"(%add_105) {name = "aten.sqrt.default", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %div_54 = "ssd.kernel"(%sqrt_55, %sqrt_54) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<64xf32>, tensor<f32>) -> tensor<64xf32>
    %add_106 = "ssd.kernel"(%div_54) {name = "aten.add.Tensor", flops = 0.0 : f64, bytes = 512 : i64} : (tensor<64xf32>) -> tensor<64xf32>
    %reciprocal_27 = "ssd.kernel"(%rsub_54) {name = "aten.reciprocal.default", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_196 = "ssd.kernel"(%reciprocal_27) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 8 : i64} : (tensor<f32>) -> tensor<f32>
    %mul_197 = "ssd.kernel"(%mul_196, %lerp_27) {name = "aten.mul.Tensor", flops = 0.0 : f64, bytes = 516 : i64} : (tensor<f32>, tensor<64xf32>) -> tensor<64xf32>
    %div_55 = "ssd.kernel"(%mul_197, %add_106) {name = "aten.div.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    %sub_29 = "ssd.kernel"(%mul_192, %div_55) {name = "aten.sub.Tensor", flops = 0.0 : f64, bytes = 768 : i64} : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
    return %nll_loss_forward#0, %sub_2, %sub_3, %sub_4, %sub_5, %sub_6, %sub_7, %sub_8, %sub_9, %sub_10, %sub_11, %sub_12, %sub_13, %sub_14, %sub_15, %sub_16, %sub_17, %sub_18, %sub_19, %sub_20, %sub_21, %sub_22, %sub_23, %sub_24, %sub_25, %sub_26, %sub_27, %sub_28, %sub_29, %add_23, %lerp, %add_24, %add_26, %lerp_1, %add_27, %add_29, %lerp_2, %add_30, %add_32, %lerp_3, %add_33, %add_38, %lerp_5, %add_39, %add_35, %lerp_4, %add_36, %add_44, %lerp_7, %add_45, %add_41, %lerp_6, %add_42, %add_47, %lerp_8, %add_48, %add_50, %lerp_9, %add_51, %add_56, %lerp_11, %add_57, %add_53, %lerp_10, %add_54, %add_62, %lerp_13, %add_63, %add_59, %lerp_12, %add_60, %add_65, %lerp_14, %add_66, %add_68, %lerp_15, %add_69, %add_74, %lerp_17, %add_75, %add_71, %lerp_16, %add_72, %add_80, %lerp_19, %add_81, %add_77, %lerp_18, %add_78, %add_83, %lerp_20, %add_84, %add_86, %lerp_21, %add_87, %add_92, %lerp_23, %add_93, %add_89, %lerp_22, %add_90, %add_98, %lerp_25, %add_99, %add_95, %lerp_24, %add_96, %add_101, %lerp_26, %add_102, %add_104, %lerp_27, %add_105 : tensor<f32>, tensor<256x64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<192xf32>, tensor<64x192xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<256xf32>, tensor<64x256xf32>, tensor<64xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<192xf32>, tensor<64x192xf32>, tensor<64xf32>, tensor<64x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<256xf32>, tensor<64x256xf32>, tensor<64xf32>, tensor<256x64xf32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<256x64xf32>, tensor<256x64xf32>, tensor<f32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64x192xf32>, tensor<64x192xf32>, tensor<f32>, tensor<192xf32>, tensor<192xf32>, tensor<f32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64x256xf32>, tensor<64x256xf32>, tensor<f32>, tensor<256xf32>, tensor<256xf32>, tensor<f32>, tensor<256x64xf32>, tensor<256x64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64x192xf32>, tensor<64x192xf32>, tensor<f32>, tensor<192xf32>, tensor<192xf32>, tensor<f32>, tensor<64x64xf32>, tensor<64x64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64x256xf32>, tensor<64x256xf32>, tensor<f32>, tensor<256xf32>, tensor<256xf32>, tensor<f32>, tensor<256x64xf32>, tensor<256x64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>, tensor<f32>, tensor<64xf32>, tensor<64xf32>
  }
}
