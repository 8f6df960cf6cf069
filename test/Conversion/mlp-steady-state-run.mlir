// Tests state that lives on SSD between compiled steps: at this budget the
// planner keeps fc2.weight.exp_avg and fc2.weight.exp_avg_sq on SSD between
// steps, so the planned step takes and returns them as handles. A training
// loop (mlp_steps_planned_main.mlir) puts them on SSD once, runs three
// steps passing each step's handles to the next, and reads them back at
// the end. Everything it prints must equal three steps of the unplanned
// step, and the runtime's statistics must show that state going to disk
// and back in every step.
//
// The planned module gets the loop appended inside its braces (written
// against the planned signature, it could not be parsed with the step
// before planning).
// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-opt %ssd_src_root/examples/mlp_adamw.mlir -ssd-offload-pipeline="memory-budget=6450000 target=epyc9654-990pro" \
// RUN:   | sed '/^}$/d' > %t/planned.mlir
// RUN: FileCheck %s --check-prefix=PLAN --input-file=%t/planned.mlir
// RUN: cat %S/Inputs/mlp_steps_common.mlir %S/Inputs/mlp_steps_planned_main.mlir >> %t/planned.mlir
// RUN: echo '}' >> %t/planned.mlir
// RUN: ssd-opt %t/planned.mlir --ssd-lower-to-llvm \
// RUN:   | env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_STATS=1 %run_step > %t/planned.out
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %S/Inputs/mlp_steps_common.mlir %S/Inputs/mlp_steps_resident_main.mlir \
// RUN:   | ssd-opt --ssd-lower-to-llvm | %run_step > %t/resident.out
// RUN: grep -v '^ssdrt-stats' %t/planned.out | diff - %t/resident.out
// RUN: FileCheck %s --check-prefix=STATS --input-file=%t/planned.out

// PLAN: func.func @step(
// PLAN-SAME: !ssd.handle<tensor<10x256xf32>> {ssd.name = "fc2.weight.exp_avg", ssd.role = "optimizer_state"}
// PLAN-SAME: !ssd.handle<tensor<10x256xf32>> {ssd.name = "fc2.weight.exp_avg_sq", ssd.role = "optimizer_state"}
// PLAN-SAME: -> (
// PLAN-SAME: !ssd.handle<tensor<10x256xf32>> {ssd.name = "fc2.weight.exp_avg"}
// PLAN-SAME: !ssd.handle<tensor<10x256xf32>> {ssd.name = "fc2.weight.exp_avg_sq"}

// The loop writes the two states (2 x 12 KiB, whole 4 KiB blocks); each
// step reads them and fc2.weight, and writes fc2.weight and the two new
// states (3 x 12 KiB each way); the loop reads the last states back. The
// two states move as one group, made durable by one fdatasync: two syncs a
// step, not three.
// STATS: ssdrt-stats: bytes_written 61440 bytes_read 36864 offloads 5 prefetches 3 sync_ops 3
// STATS-NEXT: loss 2.36197
// STATS-NEXT: ssdrt-stats: bytes_written 98304 bytes_read 73728 offloads 8 prefetches 6 sync_ops 5
// STATS-NEXT: loss 2.34075
// STATS-NEXT: ssdrt-stats: bytes_written 135168 bytes_read 110592 offloads 11 prefetches 9 sync_ops 7
// STATS-NEXT: loss 2.30914
// STATS-NEXT: optimizer.step 12
// STATS: ssdrt-stats: bytes_written 135168 bytes_read 135168 offloads 11 prefetches 11 sync_ops 7
