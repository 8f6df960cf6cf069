// A plan that uses a tensor after releasing it; ssd-run must refuse it.
func.func @step(%x: tensor<1024xf32>) -> tensor<1024xf32> {
  %h, %t = ssd.offload %x : tensor<1024xf32>
  ssd.release %x after %t : tensor<1024xf32>
  %y = ssd.kernel "f"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %y : tensor<1024xf32>
}
