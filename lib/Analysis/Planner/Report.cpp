//===- Report.cpp - JSON report and memory-timeline picture ---------------===//
//
// Report fields are documented in docs/planner.md.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/Report.h"

#include "llvm/Support/Format.h"

#include <algorithm>

using namespace ssd::planner;

llvm::json::Object
ssd::planner::buildPlanReport(const OffloadPlanner &planner, const Plan &plan,
                              const SimulationResult &simulation,
                              const LowerBound &bound) {
  const StepGraph &graph = planner.getGraph();
  std::vector<uint64_t> after = plan.liveBytes(graph, planner.getLifetimes());
  uint64_t peakAfter =
      after.empty() ? 0 : *std::max_element(after.begin(), after.end());
  unsigned persistentOnSsd = 0;
  for (const Gap &gap : plan.gaps)
    persistentOnSsd += gap.entersOnSsd;
  llvm::json::Object busy;
  for (unsigned resource = 0; resource < kNumResources; ++resource)
    busy[resourceName(static_cast<Resource>(resource))] =
        simulation.busySeconds[resource];
  auto bytes = [](uint64_t value) { return static_cast<int64_t>(value); };
  return llvm::json::Object{
      {"function", graph.getFunctionName()},
      {"ops", static_cast<int64_t>(graph.numOps())},
      {"tensors", static_cast<int64_t>(graph.numTensors())},
      {"target", planner.getTarget().name},
      {"policy", plan.policy},
      {"policy_detail", plan.detail},
      {"memory_budget_bytes", bytes(plan.memoryBudget)},
      {"peak_bytes_before", bytes(planner.getUnplannedPeak())},
      {"peak_bytes_after", bytes(peakAfter)},
      {"compute_seconds", simulation.computeSeconds},
      {"predicted_step_seconds", simulation.stepSeconds},
      {"stall_seconds", simulation.stallSeconds},
      {"lower_bound_seconds", bound.seconds},
      {"lower_bound_link_seconds", bound.linkSeconds},
      {"lower_bound_latency_seconds", bound.latencySeconds},
      {"lower_bound_critical_point", bound.criticalPoint},
      {"bytes_offloaded", bytes(plan.bytesOffloaded(graph))},
      {"bytes_prefetched", bytes(plan.bytesPrefetched(graph))},
      {"gaps", static_cast<int64_t>(plan.gaps.size())},
      {"persistent_entering_on_ssd", persistentOnSsd},
      {"transfers", simulation.transfers},
      {"busy_seconds", std::move(busy)},
  };
}

void ssd::planner::writeMemoryTimelineSVG(
    llvm::raw_ostream &os, llvm::StringRef title,
    llvm::ArrayRef<uint64_t> before, llvm::ArrayRef<uint64_t> after,
    uint64_t budget, std::optional<uint32_t> backwardStart) {
  constexpr double kWidth = 900, kHeight = 345, kLeft = 70, kTop = 30,
                   kPlotWidth = 800, kPlotHeight = 250;
  size_t points = std::max(before.size(), after.size());
  uint64_t top = budget;
  for (uint64_t value : before)
    top = std::max(top, value);
  for (uint64_t value : after)
    top = std::max(top, value);
  top = std::max<uint64_t>(top, 1);
  size_t columns = std::min<size_t>(std::max<size_t>(points, 1), kPlotWidth);
  auto y = [&](uint64_t value) {
    return kTop + kPlotHeight * (1 - static_cast<double>(value) / top);
  };
  auto polyline = [&](llvm::ArrayRef<uint64_t> series, llvm::StringRef color) {
    os << "<polyline fill=\"none\" stroke=\"" << color
       << "\" stroke-width=\"1.5\" points=\"";
    for (size_t column = 0; column < columns && !series.empty(); ++column) {
      size_t from = column * series.size() / columns;
      size_t to = std::max(from + 1, (column + 1) * series.size() / columns);
      uint64_t peak = *std::max_element(
          series.begin() + from, series.begin() + std::min(to, series.size()));
      double x0 = kLeft + kPlotWidth * column / columns;
      double x1 = kLeft + kPlotWidth * (column + 1) / columns;
      os << llvm::format("%.1f,%.1f %.1f,%.1f ", x0, y(peak), x1, y(peak));
    }
    os << "\"/>\n";
  };
  os << llvm::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
                     "height=\"%.0f\" font-family=\"sans-serif\" "
                     "font-size=\"12\">\n",
                     kWidth, kHeight);
  os << llvm::format("<text x=\"%.0f\" y=\"18\">", kLeft);
  for (char c : title) {
    switch (c) {
    case '<':
      os << "&lt;";
      break;
    case '>':
      os << "&gt;";
      break;
    case '&':
      os << "&amp;";
      break;
    default:
      os << c;
    }
  }
  os << ": live bytes per program point</text>\n";
  os << llvm::format("<rect x=\"%.0f\" y=\"%.0f\" width=\"%.0f\" "
                     "height=\"%.0f\" fill=\"none\" stroke=\"#888\"/>\n",
                     kLeft, kTop, kPlotWidth, kPlotHeight);
  // Axes: bytes at quarters of the top (in the unit that fits it), op
  // index at quarters of the step, each tick at the middle of its point.
  double unit = 1;
  llvm::StringRef unitName = "B";
  for (auto [bytes, name] :
       {std::pair<double, llvm::StringRef>{1ull << 30, "GiB"},
        {1ull << 20, "MiB"},
        {1ull << 10, "KiB"}})
    if (top >= bytes) {
      unit = bytes;
      unitName = name;
      break;
    }
  for (unsigned quarter = 0; quarter <= 4; ++quarter) {
    uint64_t value = top * quarter / 4;
    os << llvm::format("<text x=\"4\" y=\"%.0f\">%.2f ", y(value) + 4,
                       value / unit)
       << unitName << "</text>\n";
    size_t point = points ? (points - 1) * quarter / 4 : 0;
    double x = kLeft + kPlotWidth * (point + 0.5) / std::max<size_t>(points, 1);
    os << llvm::format("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" "
                       "y2=\"%.0f\" stroke=\"#888\"/>",
                       x, x, kTop + kPlotHeight, kTop + kPlotHeight + 4);
    os << llvm::format("<text x=\"%.1f\" y=\"%.0f\" "
                       "text-anchor=\"middle\">%zu</text>\n",
                       x, kTop + kPlotHeight + 16, point);
  }
  os << llvm::format("<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">"
                     "op index</text>\n",
                     kLeft + kPlotWidth / 2, kTop + kPlotHeight + 30);
  if (backwardStart && points > 1) {
    double x = kLeft + kPlotWidth * *backwardStart / double(points);
    os << llvm::format("<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" "
                       "y2=\"%.0f\" stroke=\"#2ca02c\" "
                       "stroke-dasharray=\"2,3\"/><text x=\"%.1f\" "
                       "y=\"%.0f\" fill=\"#2ca02c\">backward</text>\n",
                       x, x, kTop, kTop + kPlotHeight, x + 3, kTop + 12);
  }
  os << llvm::format("<line x1=\"%.0f\" x2=\"%.0f\" y1=\"%.1f\" y2=\"%.1f\" "
                     "stroke=\"#d62728\" stroke-dasharray=\"6,4\"/>\n",
                     kLeft, kLeft + kPlotWidth, y(budget), y(budget));
  polyline(before, "#1f77b4");
  polyline(after, "#2ca02c");
  os << llvm::format("<text x=\"%.0f\" y=\"%.0f\" fill=\"#1f77b4\">before"
                     "</text><text x=\"%.0f\" y=\"%.0f\" fill=\"#2ca02c\">"
                     "after</text><text x=\"%.0f\" y=\"%.0f\" "
                     "fill=\"#d62728\">budget</text>\n",
                     kLeft, kHeight - 10, kLeft + 60, kHeight - 10, kLeft + 110,
                     kHeight - 10);
  os << "</svg>\n";
}

void ssd::planner::writeChromeTrace(llvm::raw_ostream &os,
                                    const OffloadPlanner &planner,
                                    const Plan &plan) {
  const StepGraph &graph = planner.getGraph();
  std::vector<TransferSpan> spans;
  SimulationResult timing = planner.simulate(plan, &spans);
  llvm::ArrayRef<double> opSeconds = planner.getOpSeconds();
  // Perfetto wants microseconds.
  auto micros = [](double seconds) { return seconds * 1e6; };
  llvm::json::Array events;
  auto track = [&](Resource resource) {
    return static_cast<int64_t>(resource) + 1;
  };
  for (unsigned r = 0; r < kNumResources; ++r) {
    auto resource = static_cast<Resource>(r);
    events.push_back(llvm::json::Object{
        {"name", "thread_name"},
        {"ph", "M"},
        {"pid", 1},
        {"tid", track(resource)},
        {"args", llvm::json::Object{{"name", resourceName(resource)}}}});
    events.push_back(llvm::json::Object{
        {"name", "thread_sort_index"},
        {"ph", "M"},
        {"pid", 1},
        {"tid", track(resource)},
        {"args", llvm::json::Object{{"sort_index", static_cast<int64_t>(r)}}}});
  }
  auto slice = [&](std::string name, Resource resource, double start,
                   double end, llvm::json::Object args) {
    events.push_back(llvm::json::Object{{"name", std::move(name)},
                                        {"ph", "X"},
                                        {"pid", 1},
                                        {"tid", track(resource)},
                                        {"ts", micros(start)},
                                        {"dur", micros(end - start)},
                                        {"args", std::move(args)}});
  };
  uint32_t returnPoint = planner.getLifetimes().returnPoint();
  for (uint32_t point = 0; point < returnPoint; ++point) {
    double start = timing.pointStart[point];
    if (start > timing.slotTime[point])
      slice("stall", Resource::Compute, timing.slotTime[point], start,
            llvm::json::Object{{"before_op", point}});
    slice(graph.getOp(point).name, Resource::Compute, start,
          start + opSeconds[point], llvm::json::Object{{"op", point}});
  }
  if (timing.pointStart[returnPoint] > timing.slotTime[returnPoint])
    slice("stall", Resource::Compute, timing.slotTime[returnPoint],
          timing.pointStart[returnPoint],
          llvm::json::Object{{"before_op", "return"}});
  // Device memory as a counter track: live bytes at each op (and the
  // return) from when it starts, with and without the plan.
  std::vector<uint64_t> planned = plan.liveBytes(graph, planner.getLifetimes());
  llvm::ArrayRef<uint64_t> unplanned = planner.getUnplannedLiveBytes();
  for (uint32_t point = 0; point <= returnPoint; ++point)
    events.push_back(llvm::json::Object{
        {"name", "device memory"},
        {"ph", "C"},
        {"pid", 1},
        {"ts", micros(timing.pointStart[point])},
        {"args", llvm::json::Object{
                     {"planned", static_cast<int64_t>(planned[point])},
                     {"unplanned", static_cast<int64_t>(unplanned[point])}}}});
  for (const TransferSpan &span : spans) {
    std::string name;
    for (uint32_t gap : span.gaps)
      name += (name.empty() ? "" : ", ") +
              graph.getTensor(plan.gaps[gap].tensor).name;
    slice(name, span.resource, span.start, span.end,
          llvm::json::Object{
              {"bytes", static_cast<int64_t>(span.bytes)},
              {"tensors", static_cast<int64_t>(span.gaps.size())}});
  }
  os << llvm::formatv(
      "{0:2}",
      llvm::json::Value(llvm::json::Object{
          {"traceEvents", std::move(events)},
          {"displayTimeUnit", "ms"},
          {"otherData",
           llvm::json::Object{
               {"policy", plan.policy},
               {"step_seconds", timing.stepSeconds},
               {"compute_seconds", timing.computeSeconds},
               {"memory_budget_bytes", static_cast<int64_t>(plan.memoryBudget)},
               {"backward_start", planner.getLifetimes().getBackwardStart()},
               {"ops", static_cast<int64_t>(returnPoint)}}}}));
  os << "\n";
}
