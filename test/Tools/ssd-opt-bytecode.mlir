// MLIR bytecode is a supported input and output of ssd-opt
// (docs/graph-format.md, "Bytecode"): a step read from bytecode plans to
// exactly what its text plans to, the report included, and a planned step
// written as bytecode reads back to the text ssd-opt prints. A damaged file
// is an error that names it.

// RUN: ssd-opt %S/../../examples/exported/gpt2_adamw.mlir --emit-bytecode -o %t.mlirbc
// RUN: od -An -c -N4 %t.mlirbc | FileCheck %s --check-prefix=MAGIC
// MAGIC: M L 357 R

// RUN: ssd-opt %S/../../examples/exported/gpt2_adamw.mlir \
// RUN:   -ssd-offload-pipeline="memory-budget=1345722 report=%t.text.json" -o %t.text.mlir
// RUN: ssd-opt %t.mlirbc \
// RUN:   -ssd-offload-pipeline="memory-budget=1345722 report=%t.bytecode.json" -o %t.bytecode.mlir
// RUN: diff %t.text.mlir %t.bytecode.mlir
// RUN: diff %t.text.json %t.bytecode.json
// RUN: FileCheck %s < %t.text.mlir

// RUN: ssd-opt %t.mlirbc -ssd-offload-pipeline="memory-budget=1345722" \
// RUN:   --emit-bytecode -o %t.planned.mlirbc
// RUN: ssd-opt %t.planned.mlirbc -o %t.planned.mlir
// RUN: diff %t.text.mlir %t.planned.mlir
// RUN: ssd-opt %t.planned.mlirbc -ssd-verify-plan="memory-budget=1345722" -o /dev/null

// RUN: head -c 300 %t.mlirbc > %t.truncated.mlirbc
// RUN: not ssd-opt %t.truncated.mlirbc -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=TRUNCATED -DFILE=%t.truncated.mlirbc
// TRUNCATED: [[FILE]]:0:0: error: attempting to parse {{[0-9]+}} bytes when only {{[0-9]+}} remain

// The exported GPT-2 step at half its peak moves tensors both ways.
// CHECK: func.func @
// CHECK: ssd.offload
// CHECK: ssd.prefetch
// CHECK: ssd.wait
