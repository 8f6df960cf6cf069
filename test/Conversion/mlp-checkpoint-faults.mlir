// Tests that a compiled step that cannot write its checkpoint stops with a
// message naming the file and the cause, instead of going on without one:
// no checkpoint root, a root that cannot be created, a data file that
// cannot grow (a file size limit, as a full disk: the write fails), and a
// rank that never publishes its record.
//
// RUN: rm -rf %t && mkdir -p %t/scratch && touch %t/not-a-directory
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %ssd_src_root/test/Examples/Inputs/mlp_harness.mlir > %t/program.mlir
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=1 rank=0" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm > %t/step.mlir
// RUN: env -u SSDRT_CHECKPOINT_DIR SSDRT_SCRATCH_DIR=%t/scratch not --crash %run_step < %t/step.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=UNSET
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/not-a-directory/ckpt not --crash %run_step < %t/step.mlir 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROOT
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/full \
// RUN:   not --crash bash -c "trap '' XFSZ; ulimit -f 1024; exec %run_step < %t/step.mlir" 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FULL
// RUN: not ls %t/full/latest
//
// Rank 0 of two alone: it waits for rank 1's record, then gives up.
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=2 rank=0" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm > %t/rank0.mlir
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/alone SSDRT_CHECKPOINT_TIMEOUT=1 \
// RUN:   not --crash %run_step < %t/rank0.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not ls %t/alone/latest
//
// Rank 1 of two alone: it waits for rank 0 to begin the checkpoint.
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=2 rank=1" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm > %t/rank1.mlir
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch SSDRT_CHECKPOINT_DIR=%t/alone1 SSDRT_CHECKPOINT_TIMEOUT=1 \
// RUN:   not --crash %run_step < %t/rank1.mlir 2>&1 | FileCheck %s --check-prefix=NORANK0

// UNSET: ssdrt: the step writes a checkpoint (step 1), but SSDRT_CHECKPOINT_DIR, the checkpoint root, is not set
// ROOT: ssdrt: beginning checkpoint step 1 in {{.*}}not-a-directory/ckpt failed: creation of {{.*}}not-a-directory/ckpt failed: Not a directory
// FULL: ssdrt: checkpoint {{.*}}full/step-000000000001 is not committed: {{.*}}write of {{.*}}full/step-000000000001/rank-00000.data at offset {{[0-9]+}} length {{[0-9]+}} failed: File too large
// MISSING: ssdrt: checkpoint {{.*}}alone/step-000000000001 is not committed: no record from rank 1 after 1 s (SSDRT_CHECKPOINT_TIMEOUT)
// NORANK0: ssdrt: rank 1 timed out after 1 s waiting for rank 0 to begin checkpoint {{.*}}alone1/step-000000000001 (no {{.*}}alone1/step-000000000001/begun)
