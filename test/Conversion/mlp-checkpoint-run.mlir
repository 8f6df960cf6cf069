// Tests a compiled step that writes a checkpoint: the MLP with its AdamW
// update gets ssd-shard-checkpoint's saves, is planned at a budget below
// its peak, lowered to the runtime and LLVM, and run under mlir-cpu-runner.
// The checkpoint must verify, and its tensors must be the state the step
// returned (printed by the harness; mlp_checkpoint_values.py prints the
// saved tensors the same way).
//
// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %ssd_src_root/test/Examples/Inputs/mlp_harness.mlir > %t/program.mlir
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=1 rank=0" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" > %t/planned.mlir
// RUN: FileCheck %s --check-prefix=PLAN --input-file=%t/planned.mlir
// RUN: ssd-opt %t/planned.mlir --ssd-lower-to-llvm > %t/step.mlir
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/ckpt %run_step < %t/step.mlir > %t/run.out
// RUN: ssd-ckpt verify %t/ckpt | FileCheck %s --check-prefix=VERIFY
// RUN: ssd-ckpt export-safetensors %t/ckpt/step-000000000001 %t/state.safetensors
// RUN: %python %S/Inputs/mlp_checkpoint_values.py %ssd_src_root %t/state.safetensors > %t/saved.out
// RUN: grep -v '^loss' %t/run.out | diff - %t/saved.out
//
// The same step again into the same root is step 1 again, which is
// committed: refused, with the way to resume.
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/ckpt not --crash %run_step < %t/step.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=EXISTS
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/ckpt SSDRT_CHECKPOINT_STEP=1 %run_step < %t/step.mlir > /dev/null
// RUN: ssd-ckpt ls %t/ckpt | FileCheck %s --check-prefix=RESUMED
//
// `every 2`: step 1 writes nothing, step 2 writes step-000000000002.
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=1 rank=0 every=2" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm > %t/every2.mlir
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/every %run_step < %t/every2.mlir > /dev/null
// RUN: not ls %t/every
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/every SSDRT_CHECKPOINT_STEP=1 %run_step < %t/every2.mlir > /dev/null
// RUN: ssd-ckpt ls %t/every | FileCheck %s --check-prefix=EVERY
//
// Three steps in one process, each writing a checkpoint, keeping two.
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %S/Inputs/mlp_steps_common.mlir %S/Inputs/mlp_steps_resident_main.mlir \
// RUN:   | ssd-opt --ssd-shard-checkpoint="world-size=1 rank=0" --ssd-lower-to-llvm > %t/steps.mlir
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/steps SSDRT_CHECKPOINT_KEEP=2 %run_step < %t/steps.mlir > /dev/null
// RUN: ssd-ckpt ls %t/steps | FileCheck %s --check-prefix=KEEP
// RUN: ssd-ckpt verify %t/steps/step-000000000002
// RUN: ssd-ckpt verify %t/steps | FileCheck %s --check-prefix=VERIFY3

// PLAN: ssd.offload
// PLAN: ssd.checkpoint_begin rank 0 of 1
// PLAN: ssd.save_shard
// PLAN: ssd.checkpoint_commit

// VERIFY: ok: {{.*}}step-000000000001: 13 tensors, 13 chunks

// EXISTS: ssdrt: beginning checkpoint step 1 in {{.*}}ckpt failed: checkpoint {{.*}}step-000000000001 is already committed; refusing to overwrite it (a resumed run sets SSDRT_CHECKPOINT_STEP to the steps taken before it)

// RESUMED: step-000000000001
// RESUMED: step-000000000002

// EVERY-NOT: step-000000000001
// EVERY: step-000000000002
// EVERY-NOT: step-000000000001

// KEEP-NOT: step-000000000001
// KEEP: step-000000000002 committed
// KEEP-NEXT: step-000000000003 committed {{.*}} <- latest
// VERIFY3: ok: {{.*}}step-000000000003: 13 tensors, 13 chunks
