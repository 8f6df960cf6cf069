//===- CostModel.h - Seconds per op on a target -----------------*- C++ -*-===//
//
// The numeric half of the cost model. The MLIR adapter extracts what an op
// says about its cost (`cost_seconds`, `flops`, `bytes`) or, for known
// upstream ops, asks `estimateFlops` from their shapes; this file turns those
// numbers into seconds on a target, falling back to the bytes the op touches
// when nothing else is known.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_COSTMODEL_H
#define SSD_ANALYSIS_PLANNER_COSTMODEL_H

#include "ssd/Analysis/Planner/StepGraph.h"
#include "ssd/Analysis/Planner/Target.h"

#include "llvm/ADT/ArrayRef.h"

#include <optional>
#include <vector>

namespace ssd::planner {

/// Seconds of one op: explicit seconds; else the target's measured curve
/// for `opName` (`Target::opTimeCurve`) at the op's flops or bytes (bytes
/// unknown: `bytesTouched`); else opOverheadSeconds plus the roofline
/// max(flops / computeFlops, bytes / deviceMemoryBandwidth) of what is
/// known; else that overhead plus `bytesTouched` / deviceMemoryBandwidth.
double estimateOpSeconds(const OpCost &cost, uint64_t bytesTouched,
                         const Target &target, llvm::StringRef opName = {});

/// Seconds of every op of `graph`, bytes touched being its operands and
/// results.
std::vector<double> computeOpSeconds(const StepGraph &graph,
                                     const Target &target);

/// Compute seconds before each point: entry p sums the ops before point p,
/// for p from 0 to N+1 (the return at point N takes no time).
std::vector<double> computeSecondsBefore(llvm::ArrayRef<double> opSeconds);

/// FLOPs of well-known upstream and ATen ops from their static shapes:
/// matmul families (2*M*N*K, batched), 2-D convolutions and element-wise
/// ops (one per result element). Empty for anything else.
std::optional<double>
estimateFlops(llvm::StringRef opName,
              llvm::ArrayRef<llvm::ArrayRef<int64_t>> operandShapes,
              llvm::ArrayRef<llvm::ArrayRef<int64_t>> resultShapes);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_COSTMODEL_H
