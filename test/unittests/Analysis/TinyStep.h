//===- TinyStep.h - A hand-built step for planner tests ---------*- C++ -*-===//
//
// Two forward ops, a loss, two backward ops, a weight gradient and an Adam
// update, with byte sizes small enough to reason about by hand:
//
//   #0 a = fwd1(x, w)          #4 ga = bwd1(gb, a)
//   #1 b = fwd2(a)             #5 dw = wgrad(ga, x)
//   #2 l = loss(b)             #6 w2, m2 = adam(w, dw, m)
//   #3 gb = bwd2(l, b)         return l, w2 (next w), m2 (next m)
//
// Live bytes per point 0..7: 220 320 324 424 424 234 54 24; bwd1 alone
// needs 300.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_TEST_UNITTESTS_ANALYSIS_TINYSTEP_H
#define SSD_TEST_UNITTESTS_ANALYSIS_TINYSTEP_H

#include "ssd/Analysis/Planner/StepGraph.h"

namespace ssd::planner::testing {

struct TinyStep {
  StepGraph graph{"tiny"};
  TensorId x, w, m, a, b, l, gb, ga, dw, w2, m2;

  explicit TinyStep(double secondsPerOp = 1e-3) {
    OpCost cost{secondsPerOp, std::nullopt, std::nullopt};
    x = graph.addArgument("x", 100, TensorRole::Input);
    w = graph.addArgument("w", 10, TensorRole::Param);
    m = graph.addArgument("m", 10, TensorRole::OptimizerState);
    a = graph.addResult(graph.addOp("fwd1", {x, w}, cost), "a", 100);
    b = graph.addResult(graph.addOp("fwd2", {a}, cost), "b", 100);
    l = graph.addResult(graph.addOp("loss", {b}, cost), "l", 4);
    gb = graph.addResult(graph.addOp("bwd2", {l, b}, cost), "gb", 100);
    ga = graph.addResult(graph.addOp("bwd1", {gb, a}, cost), "ga", 100);
    dw = graph.addResult(graph.addOp("wgrad", {ga, x}, cost), "dw", 10);
    OpId adam = graph.addOp("adam", {w, dw, m}, cost);
    w2 = graph.addResult(adam, "w2", 10);
    m2 = graph.addResult(adam, "m2", 10);
    graph.addReturn(l);
    graph.addReturn(w2, w);
    graph.addReturn(m2, m);
  }
};

} // namespace ssd::planner::testing

#endif // SSD_TEST_UNITTESTS_ANALYSIS_TINYSTEP_H
