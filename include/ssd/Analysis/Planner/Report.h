//===- Report.h - JSON report and memory-timeline picture -------*- C++ -*-===//
//
// What ssd-plan-offload reports about a plan: sizes, peaks before and after,
// predicted step time against the lower bound, bytes moved, per-resource
// busy time; and an SVG of live bytes over the step before and after
// planning, against the budget.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_REPORT_H
#define SSD_ANALYSIS_PLANNER_REPORT_H

#include "ssd/Analysis/Planner/Planner.h"

namespace ssd::planner {

/// The report of `plan` (simulated by `simulation`) made by `planner`.
llvm::json::Object buildPlanReport(const OffloadPlanner &planner,
                                   const Plan &plan,
                                   const SimulationResult &simulation,
                                   const LowerBound &bound);

/// Live bytes per point before and after planning as two step lines, the
/// budget as a dashed line, axes in GiB and op index, and where the
/// backward pass starts when given. Long steps are reduced to their
/// per-pixel maxima so that peaks stay visible. (Against time, with a lane
/// per link: bench/planner/plots.py on the Chrome trace.)
void writeMemoryTimelineSVG(llvm::raw_ostream &os, llvm::StringRef title,
                            llvm::ArrayRef<uint64_t> before,
                            llvm::ArrayRef<uint64_t> after, uint64_t budget,
                            std::optional<uint32_t> backwardStart = {});

/// The simulated schedule of `plan` as a Chrome trace (JSON, opens in
/// Perfetto and chrome://tracing): one track per queue (compute, D2H, H2D,
/// SSD read, SSD write), each op and each transfer a slice named by the op
/// or the tensors it moves, and compute's stalls as slices of their own.
void writeChromeTrace(llvm::raw_ostream &os, const OffloadPlanner &planner,
                      const Plan &plan);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_REPORT_H
