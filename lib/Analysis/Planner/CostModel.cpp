//===- CostModel.cpp - Seconds per op on a target -------------------------===//
//
// Roofline timing of ops from the numbers the adapter extracts, and FLOP
// estimates for the upstream and ATen ops whose shapes determine them.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/CostModel.h"

#include "llvm/ADT/StringSet.h"

#include <algorithm>

using namespace ssd::planner;

double ssd::planner::estimateOpSeconds(const OpCost &cost,
                                       uint64_t bytesTouched,
                                       const Target &target,
                                       llvm::StringRef opName) {
  if (cost.seconds)
    return std::max(0.0, *cost.seconds);
  // A measured curve of this kind of op includes the op's start.
  if (const OpTimeCurve *curve = target.opTimeCurve(opName)) {
    double work = curve->by == OpTimeCurve::Work::Flops
                      ? cost.flops.value_or(0)
                      : cost.bytes.value_or(static_cast<double>(bytesTouched));
    return curve->secondsAt(work);
  }
  // A measured time includes the op's start; a modelled one adds it.
  if (cost.flops || cost.bytes) {
    double computeSeconds = cost.flops ? *cost.flops / target.computeFlops : 0;
    double memorySeconds =
        cost.bytes ? *cost.bytes / target.deviceMemoryBandwidth : 0;
    return target.opOverheadSeconds +
           std::max({0.0, computeSeconds, memorySeconds});
  }
  return target.opOverheadSeconds +
         static_cast<double>(bytesTouched) / target.deviceMemoryBandwidth;
}

std::vector<double> ssd::planner::computeOpSeconds(const StepGraph &graph,
                                                   const Target &target) {
  std::vector<double> seconds;
  seconds.reserve(graph.numOps());
  for (const Op &op : graph.getOps()) {
    uint64_t touched = 0;
    for (TensorId operand : op.operands)
      touched += graph.getTensor(operand).bytes;
    for (TensorId result : op.results)
      touched += graph.getTensor(result).bytes;
    seconds.push_back(estimateOpSeconds(op.cost, touched, target, op.name));
  }
  return seconds;
}

std::vector<double>
ssd::planner::computeSecondsBefore(llvm::ArrayRef<double> opSeconds) {
  std::vector<double> before(opSeconds.size() + 2, 0);
  for (size_t point = 0; point < opSeconds.size(); ++point)
    before[point + 1] = before[point] + opSeconds[point];
  before.back() = before[opSeconds.size()];
  return before;
}

namespace {
double elementCount(llvm::ArrayRef<int64_t> shape) {
  double count = 1;
  for (int64_t extent : shape)
    count *= static_cast<double>(std::max<int64_t>(extent, 0));
  return count;
}
} // namespace

std::optional<double> ssd::planner::estimateFlops(
    llvm::StringRef opName,
    llvm::ArrayRef<llvm::ArrayRef<int64_t>> operandShapes,
    llvm::ArrayRef<llvm::ArrayRef<int64_t>> resultShapes) {
  static const llvm::StringSet<> kMatmuls = {
      "linalg.matmul", "linalg.batch_matmul", "linalg.matmul_transpose_b",
      "linalg.matvec", "tosa.matmul",         "aten.mm",
      "aten.bmm",      "aten.matmul",         "aten.addmm",
      "aten.linear",   "aten.baddbmm"};
  static const llvm::StringSet<> kConvolutions = {
      "linalg.conv_2d_nchw_fchw", "linalg.conv_2d_nhwc_hwcf", "tosa.conv2d",
      "aten.convolution"};
  if (resultShapes.empty())
    return std::nullopt;
  double outputElements = elementCount(resultShapes.front());
  if (kMatmuls.contains(opName)) {
    // The contracted extent is the last dimension of the first matrix
    // operand (aten.addmm carries the bias first).
    size_t lhs = (opName == "aten.addmm" || opName == "aten.baddbmm") ? 1 : 0;
    if (operandShapes.size() <= lhs || operandShapes[lhs].empty())
      return std::nullopt;
    return 2 * outputElements * static_cast<double>(operandShapes[lhs].back());
  }
  if (kConvolutions.contains(opName)) {
    // Every output element is a dot product over one filter:
    // 2 * prod(filter shape without its output-channel dimension).
    if (operandShapes.size() < 2 || operandShapes[1].empty())
      return std::nullopt;
    llvm::ArrayRef<int64_t> filter = operandShapes[1];
    bool channelsLast = opName == "linalg.conv_2d_nhwc_hwcf";
    double perOutput =
        elementCount(filter) /
        std::max<double>(1, channelsLast ? filter.back() : filter.front());
    return 2 * outputElements * perOutput;
  }
  if (opName.starts_with("arith.") || opName.starts_with("math.") ||
      opName == "linalg.add" || opName == "linalg.mul" ||
      opName == "linalg.sub" || opName == "linalg.div" ||
      opName == "linalg.exp" || opName == "tosa.add" || opName == "tosa.mul")
    return outputElements;
  return std::nullopt;
}
