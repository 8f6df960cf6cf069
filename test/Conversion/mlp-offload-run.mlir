// Tests a compiled training step that offloads for real: the MLP with its
// AdamW update is planned at a budget below its peak (6,479,064 bytes), lowered
// to the runtime and LLVM, and run under mlir-cpu-runner with libssdrt-step.
// Its printed results must equal those of the same step compiled without
// offload, and the runtime's statistics must show the planned tensor going
// to disk and back.
//
// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %ssd_src_root/test/Examples/Inputs/mlp_harness.mlir > %t/program.mlir
// RUN: ssd-opt %t/program.mlir -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" \
// RUN:   | FileCheck %s --check-prefix=PLAN
// RUN: ssd-opt %t/program.mlir -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm \
// RUN:   | env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_STATS=1 SSDRT_LOG=off mlir-cpu-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so,%ssd_lib_dir/Runtime/libssdrt-step.so \
// RUN:   > %t/offloaded.out
// RUN: ssd-opt %t/program.mlir --ssd-lower-to-llvm \
// RUN:   | mlir-cpu-runner -e main -entry-point-result=void \
// RUN:       -shared-libs=%mlir_lib_dir/libmlir_runner_utils.so,%mlir_lib_dir/libmlir_c_runner_utils.so \
// RUN:   > %t/resident.out
// RUN: FileCheck %s --check-prefix=STATS --input-file=%t/offloaded.out
// RUN: grep -v '^ssdrt-stats' %t/offloaded.out | diff - %t/resident.out
// RUN: FileCheck %s --check-prefix=RESULT --input-file=%t/resident.out

// PLAN: ssd.offload
// PLAN: ssd.release
// PLAN: ssd.prefetch
// PLAN: ssd.wait

// fc2.weight (10 KiB, stored in whole 4 KiB blocks) leaves and comes back.
// STATS: ssdrt-stats: bytes_written 12288 bytes_read 12288 offloads 1 prefetches 1

// RESULT: loss 2.36
