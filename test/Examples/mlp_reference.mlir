// Tests that the CHECK lines of mlp_numerics.mlir are what
// scripts/mlp_reference.py computes with numpy now.

// RUN: %python %ssd_src_root/scripts/mlp_reference.py --check
