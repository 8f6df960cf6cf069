//===- PlannerBench.cpp - Plan quality and planning time of the planner ---===//
//
// Quality: generated training steps at 75%, 50% and 25% of their unplanned
// peak, every policy on the same simulator, each step time divided by the
// lower bound. Scale: the whole pipeline (analyses, `ssd` plan, verify,
// simulate, report) on generated steps of 1k, 10k and 100k ops. Optimum:
// small steps (1 and 2 layers) planned by the exact policy, every policy's
// step divided by that optimum (all judged ungrouped, as the exact search
// judges plans). Prints tables, then one JSON line with the headline
// numbers.
//
// Usage: ssd-planner-bench [--quick] [--target=NAME] [--svg=DIR]
// (--svg writes each case's memory timeline at 50% under `ssd`.)
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/ExactPlanner.h"
#include "ssd/Analysis/Planner/GraphGenerator.h"
#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Report.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <ctime>
#include <map>

using namespace ssd::planner;

namespace {

struct Case {
  std::string name;
  GeneratorOptions options;
};

/// Graphs from compute-bound to I/O-bound on the chosen target; the
/// balance is the FLOPs per result byte of the heavy ops (a matmul with
/// inner dimension k does 2k FLOPs per 2-byte result element: k per byte).
std::vector<Case> qualityCases(bool quick) {
  std::vector<Case> cases;
  const double intensities[] = {2e5, 5e4, 1.5e4};
  const char *balance[] = {"compute", "balanced", "io"};
  unsigned seeds = quick ? 2 : 5;
  for (unsigned b = 0; b < 3; ++b)
    for (unsigned seed = 1; seed <= seeds; ++seed) {
      GeneratorOptions options;
      options.seed = seed * 7919 + b;
      options.layers = 6 + 4 * seed;
      options.opsPerLayer = 2 + seed % 3;
      options.flopsPerByte = intensities[b];
      options.residualProbability = 0.1 * seed;
      options.markBackwardStart = seed % 2;
      cases.push_back(
          {std::string(balance[b]) + "-s" + std::to_string(seed), options});
    }
  return cases;
}

/// Processor time of this (single-threaded) process: unlike wall time it
/// does not grow when other jobs share the machine.
double cpuSeconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

} // namespace

int main(int argc, char **argv) {
  bool quick = false;
  std::string targetName = "h100-pcie5-4xpm1743";
  std::string svgDirectory;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "--quick")
      quick = true;
    else if (arg.consume_front("--target="))
      targetName = arg.str();
    else if (arg.consume_front("--svg="))
      svgDirectory = arg.str();
    else {
      llvm::errs() << "usage: ssd-planner-bench [--quick] [--target=NAME] "
                      "[--svg=DIR]\n";
      return 2;
    }
  }
  llvm::Expected<Target> target = loadTarget(targetName);
  if (!target) {
    llvm::errs() << llvm::toString(target.takeError()) << "\n";
    return 1;
  }
  llvm::raw_ostream &os = llvm::outs();
  const unsigned fractions[] = {75, 50, 25};
  llvm::ArrayRef<Policy> policies = allPolicies();

  os << "## Plan quality: predicted step / lower bound (target " << target->name
     << ")\n\n| case | ops | budget | lower bound (ms) |";
  for (Policy policy : policies)
    os << " " << policyName(policy) << " |";
  os << " ssd winner |\n|---|---|---|---|";
  for (size_t i = 0; i < policies.size(); ++i)
    os << "---|";
  os << "---|\n";

  std::map<unsigned, std::map<Policy, std::vector<double>>> ratios;
  std::map<std::string, unsigned> winners;
  unsigned worseThanBaseline = 0, evaluated = 0, infeasible = 0;
  for (const Case &benchCase : qualityCases(quick)) {
    StepGraph graph = generateTrainingStep(benchCase.options);
    OffloadPlanner planner(graph, *target);
    for (unsigned fraction : fractions) {
      uint64_t budget = planner.getUnplannedPeak() * fraction / 100;
      LowerBound bound = planner.lowerBound(budget);
      std::map<Policy, double> stepSeconds;
      std::string winner;
      bool failed = false;
      for (Policy policy : policies) {
        PlannerOptions options;
        options.memoryBudget = budget;
        options.policy = policy;
        llvm::Expected<Plan> plan = planner.plan(options);
        if (!plan) {
          llvm::consumeError(plan.takeError());
          failed = true;
          break;
        }
        stepSeconds[policy] = planner.simulate(*plan).stepSeconds;
        if (policy != Policy::Ssd)
          continue;
        winner = plan->detail;
        if (!svgDirectory.empty() && fraction == 50) {
          std::error_code error;
          llvm::raw_fd_ostream svg(svgDirectory + "/" + benchCase.name + ".svg",
                                   error);
          if (error) {
            llvm::errs() << "cannot write into " << svgDirectory << ": "
                         << error.message() << "\n";
            return 1;
          }
          writeMemoryTimelineSVG(svg, benchCase.name + " at 50% (ssd)",
                                 planner.getUnplannedLiveBytes(),
                                 plan->liveBytes(graph, planner.getLifetimes()),
                                 budget);
        }
      }
      if (failed) {
        ++infeasible;
        continue;
      }
      ++evaluated;
      ++winners[winner];
      os << "| " << benchCase.name << " | " << graph.numOps() << " | "
         << fraction << "% | " << llvm::format("%.2f", bound.seconds * 1e3)
         << " |";
      double bestBaseline = std::numeric_limits<double>::infinity();
      for (Policy policy : policies) {
        double ratio = stepSeconds[policy] / bound.seconds;
        ratios[fraction][policy].push_back(ratio);
        os << llvm::format(" %.3f |", ratio);
        if (policy != Policy::Ssd)
          bestBaseline = std::min(bestBaseline, stepSeconds[policy]);
      }
      if (stepSeconds[Policy::Ssd] > bestBaseline * (1 + 1e-9))
        ++worseThanBaseline;
      os << " " << winner << " |\n";
    }
  }

  auto mean = [](const std::vector<double> &values) {
    double sum = 0;
    for (double value : values)
      sum += value;
    return values.empty() ? 0.0 : sum / values.size();
  };
  os << "\n### Mean ratio to the lower bound\n\n| budget |";
  for (Policy policy : policies)
    os << " " << policyName(policy) << " |";
  os << "\n|---|";
  for (size_t i = 0; i < policies.size(); ++i)
    os << "---|";
  os << "\n";
  for (unsigned fraction : fractions) {
    os << "| " << fraction << "% |";
    for (Policy policy : policies)
      os << llvm::format(" %.3f |", mean(ratios[fraction][policy]));
    os << "\n";
  }
  os << "\n### Which candidate the `ssd` policy kept\n\n";
  for (const auto &[name, count] : winners)
    os << "- " << name << ": " << count << "\n";

  // Against the optimum: the exact policy on small steps, 2 s each.
  os << "\n## Against the optimum on small steps (exact policy, 2 s limit, "
        "no grouping)\n\n| case | ops | budget | optimum (ms) |";
  for (Policy policy : policies)
    os << " " << policyName(policy) << " |";
  os << "\n|---|---|---|---|";
  for (size_t i = 0; i < policies.size(); ++i)
    os << "---|";
  os << "\n";
  std::map<Policy, std::vector<double>> toOptimum;
  unsigned unsolved = 0;
  for (unsigned layers : {1u, 2u})
    for (uint64_t seed = 1; seed <= (quick ? 4 : 16); ++seed)
      for (double share : {0.5, 0.2}) {
        GeneratorOptions options;
        options.seed = seed;
        options.layers = layers;
        options.opsPerLayer = 1 + seed % 3;
        options.flopsPerByte =
            std::vector<double>{1e3, 1.5e4, 5e4, 3e5}[seed % 4];
        options.residualProbability = (seed % 5) / 5.0;
        options.temporaryProbability = (seed % 3) / 3.0;
        options.markBackwardStart = seed % 2;
        StepGraph graph = generateTrainingStep(options);
        OffloadPlanner planner(graph, *target);
        uint64_t required = 0;
        for (uint32_t point = 0; point < planner.getLifetimes().numPoints();
             ++point)
          required = std::max(required,
                              planner.getLifetimes().getRequiredBytes(point));
        PlannerOptions planning;
        planning.memoryBudget =
            required + static_cast<uint64_t>(
                           (planner.getUnplannedPeak() - required) * share);
        planning.exactTimeLimitSeconds = 2;
        llvm::Expected<Plan> exact = planExact(planner, planning);
        if (!exact) {
          llvm::consumeError(exact.takeError());
          ++unsolved;
          continue;
        }
        double optimum = planner.simulate(*exact).stepSeconds;
        os << "| l" << layers << "-s" << seed << " | " << graph.numOps()
           << " | " << llvm::format("%.0f%%", share * 100) << " | "
           << llvm::format("%.3f", optimum * 1e3) << " |";
        for (Policy policy : policies) {
          planning.policy = policy;
          llvm::Expected<Plan> plan = planner.plan(planning);
          if (!plan) {
            llvm::errs() << llvm::toString(plan.takeError()) << "\n";
            return 1;
          }
          double ratio = planner.simulate(*plan).stepSeconds / optimum;
          toOptimum[policy].push_back(ratio);
          os << llvm::format(" %.3f |", ratio);
        }
        os << "\n";
      }
  auto worst = [](const std::vector<double> &values) {
    return values.empty() ? 0.0
                          : *std::max_element(values.begin(), values.end());
  };
  os << "\nSolved " << toOptimum[Policy::Ssd].size() << ", stopped by the "
     << "time limit " << unsolved << "; ssd mean "
     << llvm::format("%.4f", mean(toOptimum[Policy::Ssd])) << ", worst "
     << llvm::format("%.4f", worst(toOptimum[Policy::Ssd])) << "\n";

  os << "\n## Planning time at a 50% budget (processor seconds)\n\n"
     << "`ssd` searches until its effort limit; `fixed-depth` is one sweep "
        "and one schedule, the engine's own cost. The pipeline is analyses, "
        "`ssd` plan, buffer grouping, verification, simulation and report."
        "\n\n| ops | tensors | analyses (s) | fixed-depth plan (s) | ssd plan "
        "(s) | pipeline (s) |\n|---|---|---|---|---|---|\n";
  llvm::json::Object scale;
  double largestTotal = 0;
  for (size_t ops : {size_t(1000), size_t(10000), size_t(100000)}) {
    StepGraph graph = generateTrainingStep(generatorOptionsForOps(ops, 42));
    double start = cpuSeconds();
    OffloadPlanner planner(graph, *target);
    double analysed = cpuSeconds();
    PlannerOptions options;
    options.memoryBudget = planner.getUnplannedPeak() / 2;
    llvm::Expected<Plan> plan = planner.plan(options);
    if (!plan) {
      llvm::errs() << llvm::toString(plan.takeError()) << "\n";
      return 1;
    }
    double planned = cpuSeconds();
    groupTransfers(*plan, graph, 1 << 20);
    if (llvm::Error error = verifyPlan(graph, planner.getLifetimes(), *plan,
                                       options.memoryBudget)) {
      llvm::errs() << llvm::toString(std::move(error)) << "\n";
      return 1;
    }
    SimulationResult simulation = planner.simulate(*plan);
    llvm::json::Object report = buildPlanReport(
        planner, *plan, simulation, planner.lowerBound(options.memoryBudget));
    double done = cpuSeconds();
    PlannerOptions single = options;
    single.policy = Policy::FixedDepth;
    double singleStart = cpuSeconds();
    llvm::Expected<Plan> singlePlan = planner.plan(single);
    double singleSeconds = cpuSeconds() - singleStart;
    if (!singlePlan)
      llvm::consumeError(singlePlan.takeError());
    double total = done - start;
    largestTotal = total;
    os << "| " << graph.numOps() << " | " << graph.numTensors() << " | "
       << llvm::format("%.3f | %.3f | %.3f | %.3f |\n", analysed - start,
                       singleSeconds, planned - analysed, total);
    scale["pipeline_seconds_" + std::to_string(ops / 1000) + "k_ops"] = total;
  }

  llvm::json::Object summary{
      {"target", target->name},
      {"cases", static_cast<int64_t>(evaluated)},
      {"infeasible_cases", static_cast<int64_t>(infeasible)},
      {"mean_ratio_to_lower_bound_at_75pct", mean(ratios[75][Policy::Ssd])},
      {"mean_ratio_to_lower_bound_at_50pct", mean(ratios[50][Policy::Ssd])},
      {"mean_ratio_to_lower_bound_at_25pct", mean(ratios[25][Policy::Ssd])},
      {"worse_than_a_baseline_cases", static_cast<int64_t>(worseThanBaseline)},
      {"pipeline_seconds_100k_ops", largestTotal},
      {"mean_ratio_to_optimum_small", mean(toOptimum[Policy::Ssd])},
      {"worst_ratio_to_optimum_small", worst(toOptimum[Policy::Ssd])},
      {"optimum_small_cases",
       static_cast<int64_t>(toOptimum[Policy::Ssd].size())},
      {"optimum_small_unsolved", static_cast<int64_t>(unsolved)},
  };
  for (Policy policy : policies)
    summary["mean_ratio_at_50pct_" + policyName(policy).str()] =
        mean(ratios[50][policy]);
  for (auto &[key, value] : scale)
    summary[key] = value;
  os << "\n" << llvm::json::Value(std::move(summary)) << "\n";
  return 0;
}
