// RUN: rm -rf %t && mkdir -p %t/scratch
// RUN: ssd-opt %S/../Transforms/plan-offload-part-reload.mlir -ssd-offload-pipeline="memory-budget=13KiB" \
// RUN:   | ssd-run /dev/stdin --scratch-dir %t/scratch --target epyc9654-990pro --compute=model --steps 1 | FileCheck %s

// Tests that a partial reload moves only its part through the runtime: %a
// (8192 bytes) is written whole and only its second 4096 bytes are read
// back, by the plan and by the runtime's own count. (One step: between
// steps the replay puts %a back whole, untimed, which the runtime counts.)
// CHECK: "bytes_read": 4096
// CHECK: "bytes_written": 8192
// CHECK: "runtime_bytes_read": 4096
// CHECK: "runtime_bytes_written": 8192
