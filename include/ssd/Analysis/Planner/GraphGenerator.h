//===- GraphGenerator.h - Random training-step graphs -----------*- C++ -*-===//
//
// Builds random but structurally faithful training steps for property tests
// and benchmarks: a forward pass of layers that save activations (with
// residual branches and temporaries), a loss, a backward pass that reads the
// saved activations in reverse and produces weight gradients, and an Adam
// update that returns every parameter and optimizer state as the next
// step's value. Sizes, costs, unknown ops and zero-size tensors are drawn
// from a seeded generator, so a seed names a graph.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_GRAPHGENERATOR_H
#define SSD_ANALYSIS_PLANNER_GRAPHGENERATOR_H

#include "ssd/Analysis/Planner/StepGraph.h"

namespace ssd::planner {

struct GeneratorOptions {
  uint64_t seed = 1;
  unsigned layers = 8;
  /// Forward ops per layer, each saving one activation.
  unsigned opsPerLayer = 3;
  uint64_t minActivationBytes = 1ull << 20;
  uint64_t maxActivationBytes = 32ull << 20;
  uint64_t minParamBytes = 1ull << 20;
  uint64_t maxParamBytes = 16ull << 20;
  /// FLOPs per byte of an op's result: the step's compute-to-I/O balance.
  double flopsPerByte = 20000;
  double residualProbability = 0.3;
  double temporaryProbability = 0.3;
  /// Ops without cost numbers (timed by bytes touched).
  double unknownOpProbability = 0.1;
  double zeroSizeProbability = 0.02;
  /// Whether the exporter marks the backward start (else it is inferred).
  bool markBackwardStart = true;
};

StepGraph generateTrainingStep(const GeneratorOptions &options);

/// Options for a graph of about `ops` ops with the given seed.
GeneratorOptions generatorOptionsForOps(size_t ops, uint64_t seed);

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_GRAPHGENERATOR_H
