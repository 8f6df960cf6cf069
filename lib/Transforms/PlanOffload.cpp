//===- PlanOffload.cpp - ssd-plan-offload and ssd-offload-pipeline --------===//
//
// Thin wrappers around the planner core: build the step's graph, plan it
// under the budget, write the plan into the IR, and for the pipeline also
// verify it and report what it predicts.
//
//===----------------------------------------------------------------------===//

#include "ssd/Transforms/Passes.h"

#include "ssd/Analysis/Planner/CostModel.h"
#include "ssd/Analysis/Planner/Planner.h"
#include "ssd/Analysis/Planner/Recompute.h"
#include "ssd/Analysis/Planner/Report.h"
#include "ssd/Transforms/ApplyPlan.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/ToolOutputFile.h"

namespace mlir::ssd {
#define GEN_PASS_DEF_ANNOTATECOSTSPASS
#define GEN_PASS_DEF_PLANOFFLOADPASS
#define GEN_PASS_DEF_INSERTPREFETCHPASS
#define GEN_PASS_DEF_GROUPBUFFERSPASS
#define GEN_PASS_DEF_OFFLOADPIPELINEPASS
#include "ssd/Transforms/Passes.h.inc"
} // namespace mlir::ssd

using namespace mlir;
using namespace mlir::ssd;

namespace {
/// The options both passes share, parsed and checked.
struct PlanningSetup {
  planner::Target target;
  planner::PlannerOptions options;
};
} // namespace

static FailureOr<planner::Target> parseTarget(func::FuncOp func,
                                              StringRef target) {
  llvm::Expected<planner::Target> loaded = planner::loadTarget(target);
  if (!loaded)
    return func.emitError() << "target: " << llvm::toString(loaded.takeError());
  return std::move(*loaded);
}

static FailureOr<uint64_t> parseSize(func::FuncOp func, StringRef option,
                                     StringRef text) {
  llvm::Expected<uint64_t> size = planner::parseMemorySize(text);
  if (!size)
    return func.emitError()
           << option << ": " << llvm::toString(size.takeError());
  return *size;
}

static FailureOr<PlanningSetup> parseSetup(func::FuncOp func,
                                           StringRef memoryBudget,
                                           StringRef target, StringRef policy,
                                           StringRef movable = "") {
  PlanningSetup setup;
  if (memoryBudget.empty())
    return func.emitError() << "the 'memory-budget' option is required";
  FailureOr<uint64_t> budget = parseSize(func, "memory-budget", memoryBudget);
  if (failed(budget))
    return failure();
  setup.options.memoryBudget = *budget;
  std::optional<planner::Policy> parsedPolicy = planner::parsePolicy(policy);
  if (!parsedPolicy) {
    InFlightDiagnostic diag = func.emitError() << "unknown policy '" << policy
                                               << "'; expected one of";
    for (planner::Policy known : planner::knownPolicies())
      diag << " " << planner::policyName(known);
    return diag;
  }
  setup.options.policy = *parsedPolicy;
  llvm::Expected<planner::RoleSet> roles = planner::parseRoleList(movable);
  if (!roles)
    return func.emitError() << "movable: " << llvm::toString(roles.takeError());
  setup.options.movableRoles = *roles;
  FailureOr<planner::Target> loaded = parseTarget(func, target);
  if (failed(loaded))
    return failure();
  setup.target = std::move(*loaded);
  return setup;
}

/// The pool the planner makes its candidate plans on: the context's, where
/// MLIR may use threads (the pass itself may run on it; the planner waits
/// without blocking a worker). None, so serial, otherwise.
static llvm::ThreadPoolInterface *plannerThreads(func::FuncOp func) {
  MLIRContext *context = func.getContext();
  if (!context->isMultithreadingEnabled())
    return nullptr;
  return &context->getThreadPool();
}

/// Checks the input contract, then builds the planner's graph of `func`.
static FailureOr<StepGraphMapping> buildCheckedStepGraph(func::FuncOp func) {
  if (failed(verifyTrainingStep(func)))
    return failure();
  return buildStepGraph(func);
}

/// The planner's plan, or its failure reported at the op it concerns.
static FailureOr<planner::Plan> takePlan(const StepGraphMapping &mapping,
                                         llvm::Expected<planner::Plan> plan) {
  if (plan)
    return std::move(*plan);
  func::FuncOp func = mapping.returnOp->getParentOfType<func::FuncOp>();
  llvm::handleAllErrors(
      plan.takeError(),
      [&](const planner::InfeasibleBudgetError &infeasible) {
        Operation *op = infeasible.point < mapping.ops.size()
                            ? mapping.ops[infeasible.point]
                            : mapping.returnOp;
        InFlightDiagnostic diag = op->emitError()
                                  << "needs " << infeasible.requiredBytes
                                  << " bytes resident (its operands and "
                                     "results";
        if (infeasible.unmovableBytes)
          diag << ", and " << infeasible.unmovableBytes
               << " bytes of live tensors whose roles may not move";
        diag << "), over the memory budget of " << infeasible.budget
             << " bytes";
      },
      [&](const llvm::ErrorInfoBase &other) {
        func.emitError() << "planning failed: " << other.message();
      });
  return failure();
}

/// Reads the plan of a planned step, lets `change` refine it, and writes it
/// back: the passes that improve a plan made elsewhere.
static LogicalResult refinePlan(func::FuncOp func,
                                function_ref<void(ExtractedPlan &)> change) {
  FailureOr<ExtractedPlan> extracted = extractPlan(func);
  if (failed(extracted))
    return failure();
  change(*extracted);
  return applyPlan(func, extracted->mapping, extracted->plan);
}

/// The planner's report of `plan`, with the plan itself.
static llvm::json::Object makeReport(const planner::OffloadPlanner &planner,
                                     const planner::Plan &plan, uint64_t budget,
                                     bool withRecompute) {
  llvm::json::Object report = planner::buildPlanReport(
      planner, plan, planner.simulate(plan), planner.lowerBound(budget));
  report["plan"] = plan.toJSON(planner.getGraph());
  if (withRecompute)
    report["recompute"] = planner::recomputeToJSON(
        planner::planRecompute(planner, budget), planner.getGraph());
  return report;
}

static LogicalResult writeTrace(func::FuncOp func, StringRef path,
                                const planner::OffloadPlanner &planner,
                                const planner::Plan &plan) {
  std::error_code error;
  llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return func.emitError()
           << "cannot write the trace to '" << path << "': " << error.message();
  planner::writeChromeTrace(file.os(), planner, plan);
  file.keep();
  return success();
}

static LogicalResult writeTimelinePlot(func::FuncOp func, StringRef path,
                                       const planner::OffloadPlanner &planner,
                                       const planner::Plan &plan,
                                       uint64_t budget) {
  std::error_code error;
  llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return func.emitError()
           << "cannot write the plot to '" << path << "': " << error.message();
  std::vector<uint64_t> after =
      plan.liveBytes(planner.getGraph(), planner.getLifetimes());
  planner::writeMemoryTimelineSVG(file.os(), ("@" + func.getSymName()).str(),
                                  planner.getUnplannedLiveBytes(), after,
                                  budget,
                                  planner.getLifetimes().getBackwardStart());
  file.keep();
  return success();
}

static LogicalResult writeReport(func::FuncOp func, StringRef path,
                                 llvm::json::Object report) {
  std::error_code error;
  llvm::ToolOutputFile file(path, error, llvm::sys::fs::OF_Text);
  if (error)
    return func.emitError() << "cannot write the report to '" << path
                            << "': " << error.message();
  file.os() << llvm::formatv("{0:2}", llvm::json::Value(std::move(report)))
            << "\n";
  file.keep();
  return success();
}

namespace {
struct AnnotateCostsPass
    : public mlir::ssd::impl::AnnotateCostsPassBase<AnnotateCostsPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    FailureOr<planner::Target> loaded = parseTarget(func, target);
    if (failed(loaded))
      return signalPassFailure();
    FailureOr<StepGraphMapping> mapping = buildStepGraph(func);
    if (failed(mapping))
      return signalPassFailure();
    std::vector<double> seconds =
        planner::computeOpSeconds(mapping->graph, *loaded);
    Builder builder(func.getContext());
    for (auto [op, opSeconds] : llvm::zip_equal(mapping->ops, seconds))
      op->setAttr("ssd.estimated_seconds", builder.getF64FloatAttr(opSeconds));
  }
};

struct InsertPrefetchPass
    : public mlir::ssd::impl::InsertPrefetchPassBase<InsertPrefetchPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    FailureOr<PlanningSetup> setup =
        parseSetup(func, memoryBudget, target, policy);
    if (failed(setup))
      return signalPassFailure();
    auto reschedule = [&](ExtractedPlan &extracted) {
      extracted.plan.memoryBudget = setup->options.memoryBudget;
      extracted.plan.policy = planner::policyName(setup->options.policy).str();
      planner::OffloadPlanner offloadPlanner(extracted.mapping.graph,
                                             setup->target);
      offloadPlanner.schedulePrefetches(extracted.plan, setup->options);
    };
    if (failed(refinePlan(func, reschedule)))
      return signalPassFailure();
  }
};

struct GroupBuffersPass
    : public mlir::ssd::impl::GroupBuffersPassBase<GroupBuffersPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    FailureOr<uint64_t> bytes = parseSize(func, "min-bytes", minBytes);
    if (failed(bytes))
      return signalPassFailure();
    auto group = [&](ExtractedPlan &extracted) {
      planner::groupTransfers(extracted.plan, extracted.mapping.graph, *bytes);
    };
    if (failed(refinePlan(func, group)))
      return signalPassFailure();
  }
};

struct PlanOffloadPass
    : public mlir::ssd::impl::PlanOffloadPassBase<PlanOffloadPass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    FailureOr<PlanningSetup> setup =
        parseSetup(func, memoryBudget, target, policy, movable);
    if (failed(setup))
      return signalPassFailure();
    FailureOr<StepGraphMapping> mapping = buildCheckedStepGraph(func);
    if (failed(mapping))
      return signalPassFailure();
    planner::OffloadPlanner offloadPlanner(mapping->graph, setup->target);
    setup->options.exactTimeLimitSeconds = exactTimeLimit;
    setup->options.exactNodeLimit = exactNodeLimit;
    FailureOr<planner::Plan> plan =
        takePlan(*mapping, offloadPlanner.chooseGaps(setup->options,
                                                     plannerThreads(func)));
    if (failed(plan) || failed(applyPlan(func, *mapping, *plan)))
      return signalPassFailure();
  }
};

struct OffloadPipelinePass
    : public mlir::ssd::impl::OffloadPipelinePassBase<OffloadPipelinePass> {
  using Base::Base;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func.isExternal() ||
        (!function.empty() && func.getSymName() != function))
      return;
    FailureOr<PlanningSetup> setup =
        parseSetup(func, memoryBudget, target, policy, movable);
    if (failed(setup))
      return signalPassFailure();
    FailureOr<uint64_t> minBytes =
        parseSize(func, "group-min-bytes", groupMinBytes);
    if (failed(minBytes))
      return signalPassFailure();
    FailureOr<StepGraphMapping> mapping = buildCheckedStepGraph(func);
    if (failed(mapping))
      return signalPassFailure();
    planner::OffloadPlanner offloadPlanner(mapping->graph, setup->target);
    setup->options.groupMinBytes = *minBytes;
    setup->options.exactTimeLimitSeconds = exactTimeLimit;
    setup->options.exactNodeLimit = exactNodeLimit;
    FailureOr<planner::Plan> plan = takePlan(
        *mapping, offloadPlanner.plan(setup->options, plannerThreads(func)));
    if (failed(plan))
      return signalPassFailure();
    planner::groupTransfers(*plan, mapping->graph, *minBytes);
    if (llvm::Error error =
            planner::verifyPlan(mapping->graph, offloadPlanner.getLifetimes(),
                                *plan, setup->options.memoryBudget)) {
      func.emitError() << "the planner produced an invalid plan: "
                       << llvm::toString(std::move(error));
      return signalPassFailure();
    }
    plan->memoryBudget = setup->options.memoryBudget;
    if (!report.empty() &&
        failed(writeReport(func, report,
                           makeReport(offloadPlanner, *plan,
                                      setup->options.memoryBudget,
                                      reportRecompute))))
      return signalPassFailure();
    if (!reportPlot.empty() &&
        failed(writeTimelinePlot(func, reportPlot, offloadPlanner, *plan,
                                 setup->options.memoryBudget)))
      return signalPassFailure();
    if (!reportTrace.empty() &&
        failed(writeTrace(func, reportTrace, offloadPlanner, *plan)))
      return signalPassFailure();
    if (failed(applyPlan(func, *mapping, *plan)) ||
        failed(verifyPlannedStep(func, setup->options.memoryBudget)))
      return signalPassFailure();
  }
};
} // namespace
