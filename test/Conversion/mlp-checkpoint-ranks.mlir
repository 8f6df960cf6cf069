// Tests a checkpoint written by two ranks, one mlir-cpu-runner process
// each: every rank compiles the step with its own rank (both hold the same
// state here, as rows 0-255 and 256-511 of the global tensors), rank 1
// publishes its record in the checkpoint's directory and rank 0 commits
// both. The checkpoint verifies, has both ranks' chunks, and rank 1's rows
// are the state its step returned.
//
// RUN: rm -rf %t && mkdir -p %t/scratch0 %t/scratch1
// RUN: cat %ssd_src_root/examples/mlp_adamw.mlir %ssd_src_root/test/Examples/Inputs/mlp_harness.mlir > %t/program.mlir
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=2 rank=0" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm > %t/rank0.mlir
// RUN: ssd-opt %t/program.mlir --ssd-shard-checkpoint="world-size=2 rank=1" \
// RUN:   -ssd-offload-pipeline="memory-budget=6470000 target=epyc9654-990pro function=step" --ssd-lower-to-llvm > %t/rank1.mlir
// RUN: env SSDRT_SCRATCH_DIR=%t/scratch1 SSDRT_CHECKPOINT_DIR=%t/ckpt SSDRT_CHECKPOINT_TIMEOUT=60 %run_step < %t/rank1.mlir > %t/rank1.out & \
// RUN:   env SSDRT_SCRATCH_DIR=%t/scratch0 SSDRT_CHECKPOINT_DIR=%t/ckpt SSDRT_CHECKPOINT_TIMEOUT=60 %run_step < %t/rank0.mlir > %t/rank0.out && wait $!
// RUN: ssd-ckpt verify %t/ckpt | FileCheck %s --check-prefix=VERIFY
// RUN: ssd-ckpt inspect %t/ckpt | FileCheck %s --check-prefix=INSPECT
// RUN: ls %t/ckpt/step-000000000001 | FileCheck %s --check-prefix=FILES
// RUN: ssd-ckpt export-safetensors %t/ckpt/step-000000000001 %t/state.safetensors
// RUN: %python %S/Inputs/mlp_checkpoint_values.py %ssd_src_root %t/state.safetensors --shard 1/2 > %t/saved1.out
// RUN: grep -v '^loss' %t/rank1.out | diff - %t/saved1.out
// RUN: diff %t/rank0.out %t/rank1.out

// VERIFY: ok: {{.*}}step-000000000001: 13 tensors, 25 chunks

// INSPECT: format version 2, step 1, world size 2
// INSPECT: rank 0: rank-00000.data
// INSPECT: rank 1: rank-00001.data
// INSPECT: tensor optimizer.step: F32 [], 1 chunks
// INSPECT-NEXT: offsets [] sizes []: rank-00000.data at 0, 4 bytes
// INSPECT: tensor fc1.weight: F32 [512, 784], 2 chunks
// INSPECT-NEXT: offsets [0, 0] sizes [256, 784]: rank-00000.data
// INSPECT-NEXT: offsets [256, 0] sizes [256, 784]: rank-00001.data
// INSPECT: tensor fc2.bias.exp_avg_sq: F32 [20], 2 chunks
// INSPECT-NEXT: offsets [0] sizes [10]: rank-00000.data
// INSPECT-NEXT: offsets [10] sizes [10]: rank-00001.data

// Only the manifest and the data files: the records and the mark that
// rank 0 began are gone.
// FILES: manifest.json
// FILES-NEXT: rank-00000.data
// FILES-NEXT: rank-00001.data
// FILES-NOT: record
