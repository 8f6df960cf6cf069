//===- GraphGenerator.cpp - Random training-step graphs -------------------===//
//
// A splitmix64 stream drives every choice, so graphs are identical across
// platforms and standard libraries.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/GraphGenerator.h"

#include <algorithm>
#include <cmath>

using namespace ssd::planner;

namespace {
class Random {
public:
  explicit Random(uint64_t seed) : state(seed) {}

  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  double uniform() { return (next() >> 11) * 0x1.0p-53; }
  bool chance(double probability) { return uniform() < probability; }
  /// Log-uniform in [low, high], rounded to 256-byte multiples.
  uint64_t bytes(uint64_t low, uint64_t high) {
    double value = std::exp(
        std::log(static_cast<double>(std::max<uint64_t>(low, 1))) +
        uniform() *
            (std::log(static_cast<double>(high)) -
             std::log(static_cast<double>(std::max<uint64_t>(low, 1)))));
    return std::max<uint64_t>(256, static_cast<uint64_t>(value) / 256 * 256);
  }
  size_t index(size_t size) { return next() % size; }

private:
  uint64_t state;
};

class Builder {
public:
  Builder(const GeneratorOptions &options)
      : options(options), random(options.seed), graph("train_step") {}

  StepGraph build() {
    unsigned layers = std::max(1u, options.layers);
    unsigned opsPerLayer = std::max(1u, options.opsPerLayer);
    TensorId input =
        graph.addArgument("input", activationBytes(), TensorRole::Input);
    struct Layer {
      TensorId weight, firstMoment, secondMoment;
      TensorId input;
      std::vector<TensorId> saved;
      std::vector<TensorId> residuals;
    };
    std::vector<Layer> stack(layers);
    for (unsigned l = 0; l < layers; ++l) {
      uint64_t bytes =
          random.bytes(options.minParamBytes, options.maxParamBytes);
      std::string prefix = "layer" + std::to_string(l) + ".";
      stack[l].weight =
          graph.addArgument(prefix + "weight", bytes, TensorRole::Param);
      stack[l].firstMoment = graph.addArgument(prefix + "exp_avg", bytes,
                                               TensorRole::OptimizerState);
      stack[l].secondMoment = graph.addArgument(prefix + "exp_avg_sq", bytes,
                                                TensorRole::OptimizerState);
    }

    std::vector<TensorId> allSaved;
    TensorId current = input;
    for (unsigned l = 0; l < layers; ++l) {
      Layer &layer = stack[l];
      layer.input = current;
      for (unsigned j = 0; j < opsPerLayer; ++j) {
        std::vector<TensorId> operands = {current};
        if (j == 0)
          operands.push_back(layer.weight);
        TensorId residual = current;
        if (!allSaved.empty() && random.chance(options.residualProbability)) {
          residual =
              allSaved[allSaved.size() - 1 -
                       random.index(std::min<size_t>(allSaved.size(), 8))];
          operands.push_back(residual);
        }
        uint64_t bytes = activationBytes();
        if (random.chance(options.temporaryProbability)) {
          // A temporary feeding only the next op, e.g. a GEMM's bias add.
          OpId op = addOp("fwd.tmp", operands, bytes);
          TensorId tmp = graph.addResult(op, name("tmp"), bytes);
          operands = {tmp};
        }
        OpId op = addOp(j == 0 ? "aten.mm" : "aten.gelu", operands, bytes);
        current = graph.addResult(op, name("act"), bytes);
        layer.saved.push_back(current);
        layer.residuals.push_back(residual);
        allSaved.push_back(current);
      }
    }
    OpId lossOp = addOp("aten.nll_loss", {current}, 4);
    TensorId loss = graph.addResult(lossOp, "loss", 4);
    if (options.markBackwardStart)
      graph.setBackwardStart(graph.numOps());
    OpId seedOp =
        addOp("aten.ones_like", {loss}, graph.getTensor(current).bytes);
    TensorId grad =
        graph.addResult(seedOp, name("grad"), graph.getTensor(current).bytes);

    std::vector<TensorId> weightGrads(layers);
    for (unsigned l = layers; l-- > 0;) {
      Layer &layer = stack[l];
      for (unsigned j = opsPerLayer; j-- > 0;) {
        TensorId producedFrom = j == 0 ? layer.input : layer.saved[j - 1];
        std::vector<TensorId> operands = {grad, layer.saved[j], producedFrom};
        if (layer.residuals[j] != producedFrom)
          operands.push_back(layer.residuals[j]);
        if (j == 0)
          operands.push_back(layer.weight);
        uint64_t bytes = graph.getTensor(producedFrom).bytes;
        OpId op = addOp("bwd.grad_input", operands, bytes);
        TensorId inputGrad = graph.addResult(op, name("grad"), bytes);
        if (j == 0) {
          uint64_t weightBytes = graph.getTensor(layer.weight).bytes;
          OpId wop =
              addOp("bwd.grad_weight", {grad, producedFrom}, weightBytes);
          weightGrads[l] = graph.addResult(wop, name("dweight"), weightBytes);
        }
        grad = inputGrad;
      }
    }

    std::vector<std::pair<TensorId, TensorId>> returns;
    for (unsigned l = 0; l < layers; ++l) {
      Layer &layer = stack[l];
      uint64_t bytes = graph.getTensor(layer.weight).bytes;
      OpId op = addOp(
          "optim.adam",
          {layer.weight, weightGrads[l], layer.firstMoment, layer.secondMoment},
          bytes);
      std::string prefix = "layer" + std::to_string(l) + ".";
      returns.push_back(
          {graph.addResult(op, prefix + "weight.next", bytes), layer.weight});
      returns.push_back({graph.addResult(op, prefix + "exp_avg.next", bytes),
                         layer.firstMoment});
      returns.push_back({graph.addResult(op, prefix + "exp_avg_sq.next", bytes),
                         layer.secondMoment});
    }
    graph.addReturn(loss);
    for (auto [next, argument] : returns)
      graph.addReturn(next, argument);
    return std::move(graph);
  }

private:
  uint64_t activationBytes() {
    if (random.chance(options.zeroSizeProbability))
      return 0;
    return random.bytes(options.minActivationBytes, options.maxActivationBytes);
  }

  std::string name(llvm::StringRef base) {
    return base.str() + std::to_string(counter++);
  }

  OpId addOp(llvm::StringRef opName, llvm::ArrayRef<TensorId> operands,
             uint64_t resultBytes) {
    OpCost cost;
    if (!random.chance(options.unknownOpProbability)) {
      // Matmul-like ops do the work; the rest are cheap element-wise ops.
      bool heavy = opName == "aten.mm" || opName.starts_with("bwd.") ||
                   opName == "fwd.tmp";
      double intensity = heavy ? options.flopsPerByte : 4;
      cost.flops = intensity *
                   static_cast<double>(std::max<uint64_t>(resultBytes, 256)) *
                   (0.5 + random.uniform());
      cost.bytes = 2.0 * static_cast<double>(resultBytes);
    }
    return graph.addOp(opName.str(), operands, cost);
  }

  const GeneratorOptions &options;
  Random random;
  StepGraph graph;
  unsigned counter = 0;
};
} // namespace

StepGraph ssd::planner::generateTrainingStep(const GeneratorOptions &options) {
  return Builder(options).build();
}

GeneratorOptions ssd::planner::generatorOptionsForOps(size_t ops,
                                                      uint64_t seed) {
  GeneratorOptions options;
  options.seed = seed;
  options.opsPerLayer = 4;
  // Per layer: about 1.3 forward ops per saved activation, as many backward
  // ops plus a weight gradient and an optimizer update.
  double opsPerLayer = options.opsPerLayer * 2.6 + 2;
  options.layers = std::max<unsigned>(1, std::lround(ops / opsPerLayer));
  return options;
}
