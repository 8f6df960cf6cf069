// RUN: ssd-opt %s --split-input-file -ssd-offload-pipeline="memory-budget=17KiB policy=exact exact-time-limit=0" --verify-diagnostics

// Tests that the exact search says so when its time limit ends it.
// expected-error @+1 {{planning failed: the exact search reached its time limit of 0 s after 1 nodes before proving a plan optimal}}
func.func @limit(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<16xf32> {
  %a = ssd.kernel "f"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %b = ssd.kernel "g"(%x) {flops = 1.0e12 : f64} : (tensor<1024xf32>) -> tensor<2048xf32>
  %c = ssd.kernel "g2"(%b) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %e = ssd.kernel "g3"(%c) {flops = 1.0e12 : f64} : (tensor<2048xf32>) -> tensor<2048xf32>
  %d = ssd.kernel "h"(%a, %e) {flops = 1.0e12 : f64} : (tensor<2048xf32>, tensor<2048xf32>) -> tensor<16xf32>
  return %d : tensor<16xf32>
}

// -----

// Tests that a step of more than 80 ops is refused, whatever the time limit.
// expected-error @+1 {{planning failed: the exact policy plans steps of at most 80 ops; this one has 81 (plan it with policy=ssd)}}
func.func @large(%x: tensor<1024xf32> {ssd.role = "input", ssd.name = "x"}) -> tensor<1024xf32> {
  %v0 = ssd.kernel "f0"(%x) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v1 = ssd.kernel "f1"(%v0) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v2 = ssd.kernel "f2"(%v1) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v3 = ssd.kernel "f3"(%v2) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v4 = ssd.kernel "f4"(%v3) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v5 = ssd.kernel "f5"(%v4) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v6 = ssd.kernel "f6"(%v5) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v7 = ssd.kernel "f7"(%v6) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v8 = ssd.kernel "f8"(%v7) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v9 = ssd.kernel "f9"(%v8) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v10 = ssd.kernel "f10"(%v9) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v11 = ssd.kernel "f11"(%v10) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v12 = ssd.kernel "f12"(%v11) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v13 = ssd.kernel "f13"(%v12) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v14 = ssd.kernel "f14"(%v13) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v15 = ssd.kernel "f15"(%v14) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v16 = ssd.kernel "f16"(%v15) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v17 = ssd.kernel "f17"(%v16) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v18 = ssd.kernel "f18"(%v17) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v19 = ssd.kernel "f19"(%v18) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v20 = ssd.kernel "f20"(%v19) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v21 = ssd.kernel "f21"(%v20) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v22 = ssd.kernel "f22"(%v21) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v23 = ssd.kernel "f23"(%v22) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v24 = ssd.kernel "f24"(%v23) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v25 = ssd.kernel "f25"(%v24) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v26 = ssd.kernel "f26"(%v25) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v27 = ssd.kernel "f27"(%v26) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v28 = ssd.kernel "f28"(%v27) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v29 = ssd.kernel "f29"(%v28) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v30 = ssd.kernel "f30"(%v29) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v31 = ssd.kernel "f31"(%v30) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v32 = ssd.kernel "f32"(%v31) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v33 = ssd.kernel "f33"(%v32) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v34 = ssd.kernel "f34"(%v33) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v35 = ssd.kernel "f35"(%v34) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v36 = ssd.kernel "f36"(%v35) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v37 = ssd.kernel "f37"(%v36) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v38 = ssd.kernel "f38"(%v37) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v39 = ssd.kernel "f39"(%v38) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v40 = ssd.kernel "f40"(%v39) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v41 = ssd.kernel "f41"(%v40) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v42 = ssd.kernel "f42"(%v41) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v43 = ssd.kernel "f43"(%v42) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v44 = ssd.kernel "f44"(%v43) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v45 = ssd.kernel "f45"(%v44) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v46 = ssd.kernel "f46"(%v45) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v47 = ssd.kernel "f47"(%v46) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v48 = ssd.kernel "f48"(%v47) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v49 = ssd.kernel "f49"(%v48) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v50 = ssd.kernel "f50"(%v49) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v51 = ssd.kernel "f51"(%v50) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v52 = ssd.kernel "f52"(%v51) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v53 = ssd.kernel "f53"(%v52) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v54 = ssd.kernel "f54"(%v53) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v55 = ssd.kernel "f55"(%v54) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v56 = ssd.kernel "f56"(%v55) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v57 = ssd.kernel "f57"(%v56) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v58 = ssd.kernel "f58"(%v57) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v59 = ssd.kernel "f59"(%v58) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v60 = ssd.kernel "f60"(%v59) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v61 = ssd.kernel "f61"(%v60) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v62 = ssd.kernel "f62"(%v61) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v63 = ssd.kernel "f63"(%v62) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v64 = ssd.kernel "f64"(%v63) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v65 = ssd.kernel "f65"(%v64) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v66 = ssd.kernel "f66"(%v65) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v67 = ssd.kernel "f67"(%v66) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v68 = ssd.kernel "f68"(%v67) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v69 = ssd.kernel "f69"(%v68) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v70 = ssd.kernel "f70"(%v69) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v71 = ssd.kernel "f71"(%v70) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v72 = ssd.kernel "f72"(%v71) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v73 = ssd.kernel "f73"(%v72) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v74 = ssd.kernel "f74"(%v73) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v75 = ssd.kernel "f75"(%v74) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v76 = ssd.kernel "f76"(%v75) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v77 = ssd.kernel "f77"(%v76) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v78 = ssd.kernel "f78"(%v77) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v79 = ssd.kernel "f79"(%v78) : (tensor<1024xf32>) -> tensor<1024xf32>
  %v80 = ssd.kernel "f80"(%v79) : (tensor<1024xf32>) -> tensor<1024xf32>
  return %v80 : tensor<1024xf32>
}

