// Tests that the CHECK lines of mlp_numerics.mlir are what
// test/Examples/Inputs/mlp_reference.py computes with numpy now.

// RUN: %python %S/Inputs/mlp_reference.py --check
