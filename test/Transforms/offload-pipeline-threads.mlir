// The pipeline reads the step's ops in chunks of 2048 (buildStepGraph) and
// the planned step's live ranges in chunks of 4096 (verifyPlannedStep) on
// the context's threads; this step has 9,750 ops and 13,510 residency ops,
// several chunks of each. Plan and report are the same with threads as
// without, the graph holds every op and tensor, and the plan verifies: at
// its peak, one byte less is refused, at the first op that reaches it.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import sys; sys.path.insert(0, '%ssd_src_root/bench/planner'); \
// RUN:   from training_step import write_step; write_step(9000, '%t/step.mlir')"
// RUN: ssd-opt %t/step.mlir -o %t/threads.mlir \
// RUN:   -ssd-offload-pipeline="memory-budget=491716608 report=%t/threads.json"
// RUN: ssd-opt %t/step.mlir -o %t/serial.mlir --mlir-disable-threading \
// RUN:   -ssd-offload-pipeline="memory-budget=491716608 report=%t/serial.json"
// RUN: diff %t/threads.mlir %t/serial.mlir
// RUN: diff %t/threads.json %t/serial.json
// RUN: FileCheck %s --input-file=%t/threads.json
// RUN: ssd-opt %t/threads.mlir -ssd-verify-plan="memory-budget=491716608" -o /dev/null
// RUN: not ssd-opt %t/threads.mlir -ssd-verify-plan="memory-budget=491716607" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVER

// CHECK-DAG: "ops": 9750,
// CHECK-DAG: "tensors": 12751,

// OVER: error: live bytes here are 491716608, over the memory budget of 491716607
// OVER-NOT: error:
