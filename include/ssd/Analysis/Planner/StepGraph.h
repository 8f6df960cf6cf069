//===- StepGraph.h - The planner's model of a training step -----*- C++ -*-===//
//
// A training step as the offload planner sees it: ops in program order over
// immutable tensors with byte sizes and roles, function arguments, returned
// values and the pairing of each persistent argument with the value that
// replaces it in the next step. The MLIR adapter builds one of these from a
// `func.func`; the generator builds random ones for tests and benchmarks.
// Nothing here depends on MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_ANALYSIS_PLANNER_STEPGRAPH_H
#define SSD_ANALYSIS_PLANNER_STEPGRAPH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ssd::planner {

using TensorId = uint32_t;
using OpId = uint32_t;

/// What a tensor is for. Param, OptimizerState and Buffer arguments are
/// persistent: they survive the step and may live on SSD between steps.
enum class TensorRole : uint8_t {
  Unknown,
  Input,
  Param,
  OptimizerState,
  Buffer,
  SavedActivation,
  Gradient,
  Temporary,
};

bool isPersistentRole(TensorRole role);
llvm::StringRef roleName(TensorRole role);
/// Parses the spelling of `ssd.role` and the names `roleName` prints.
std::optional<TensorRole> parseRole(llvm::StringRef name);

/// A set of roles, such as the roles of the tensors a plan may move.
class RoleSet {
public:
  /// The empty set.
  RoleSet() = default;
  static RoleSet all() { return RoleSet(~0u); }

  void insert(TensorRole role) { bits |= bit(role); }
  bool contains(TensorRole role) const { return bits & bit(role); }
  bool operator==(const RoleSet &other) const { return bits == other.bits; }

private:
  explicit RoleSet(uint32_t bits) : bits(bits) {}
  static uint32_t bit(TensorRole role) {
    return 1u << static_cast<unsigned>(role);
  }

  uint32_t bits = 0;
};

/// Parses a comma-separated list of role names (`activation,gradient`); the
/// empty list is every role. Fails on a name `parseRole` does not know.
llvm::Expected<RoleSet> parseRoleList(llvm::StringRef names);

/// The numbers an op's cost can be derived from; the cost model turns them
/// into seconds for a target. Absent numbers fall back to bytes touched.
struct OpCost {
  std::optional<double> seconds;
  std::optional<double> flops;
  std::optional<double> bytes;
};

struct Tensor {
  std::string name;
  uint64_t bytes = 0;
  TensorRole role = TensorRole::Unknown;
  /// The op that defines the tensor; empty for a function argument.
  std::optional<OpId> definingOp;
  bool returned = false;
  /// For a persistent argument, the returned tensor that holds its value for
  /// the next step, and for that result the argument (the tensor itself when
  /// it is returned unchanged). Steady state ties their residency together.
  std::optional<TensorId> steadyStatePartner;
  /// For a view, the tensor that owns the storage it shares (the root of a
  /// chain of views, never a view itself). A view holds no bytes of its own
  /// and never moves: each of its touches needs the root resident (and what
  /// else rebuilding it needs); between them the root may leave.
  std::optional<TensorId> aliasOf;
  /// For a view that is one contiguous byte range of its root's storage
  /// (a `split` or `unbind` along the first dimension, a leading slice),
  /// where that range starts and how many bytes it spans. Such a part may be
  /// read back alone after its root left (a partial reload, `Gap::part`).
  /// (`StepGraph::getPart`, kept beside the tensors: most steps have none).
  struct Part {
    uint64_t offset = 0;
    uint64_t bytes = 0;
  };

  bool isArgument() const { return !definingOp; }
  bool isAlias() const { return aliasOf.has_value(); }
};

struct Op {
  std::string name;
  std::vector<TensorId> operands;
  std::vector<TensorId> results;
  OpCost cost;
};

/// A training step. Ops are appended in program order and operands must be
/// defined before they are used, so every tensor has one definition.
class StepGraph {
public:
  explicit StepGraph(std::string functionName = "step")
      : functionName(std::move(functionName)) {}

  /// Makes room for `ops` ops and `tensors` tensors, when the caller knows.
  void reserve(size_t ops, size_t tensors) {
    this->ops.reserve(ops);
    this->tensors.reserve(tensors);
  }
  TensorId addArgument(std::string name, uint64_t bytes, TensorRole role);
  OpId addOp(std::string name, llvm::ArrayRef<TensorId> operands,
             OpCost cost = {});
  TensorId addResult(OpId op, std::string name, uint64_t bytes,
                     TensorRole role = TensorRole::Unknown);
  /// Adds a result of `op` that is a view of `viewed` (usually an operand of
  /// `op`): it shares the storage of `viewed`'s root and holds 0 bytes.
  TensorId addAlias(OpId op, std::string name, TensorId viewed,
                    TensorRole role = TensorRole::Unknown);
  /// Declares that view `view` is the `bytes` bytes of its root's storage
  /// from byte `offset` on.
  void setPart(TensorId view, uint64_t offset, uint64_t bytes) {
    parts[view] = Tensor::Part{offset, bytes};
  }
  /// The byte range of its root's storage that view `tensor` is, or null.
  const Tensor::Part *getPart(TensorId tensor) const {
    if (parts.empty())
      return nullptr;
    auto it = parts.find(tensor);
    return it == parts.end() ? nullptr : &it->second;
  }
  bool hasParts() const { return !parts.empty(); }
  /// The tensor that owns `tensor`'s storage: its root if it is a view, else
  /// the tensor itself.
  TensorId getStorage(TensorId tensor) const {
    return tensors[tensor].aliasOf.value_or(tensor);
  }
  /// Marks `value` as returned; `replacesArgument` names the persistent
  /// argument whose next-step value it is.
  void addReturn(TensorId value,
                 std::optional<TensorId> replacesArgument = std::nullopt);
  /// Where the backward pass begins, when the exporter knows it. Role
  /// inference guesses it from the memory peak otherwise.
  void setBackwardStart(OpId op) { backwardStart = op; }

  llvm::StringRef getFunctionName() const { return functionName; }
  size_t numOps() const { return ops.size(); }
  size_t numTensors() const { return tensors.size(); }
  const Op &getOp(OpId id) const { return ops[id]; }
  const Tensor &getTensor(TensorId id) const { return tensors[id]; }
  Tensor &getTensor(TensorId id) { return tensors[id]; }
  llvm::ArrayRef<Op> getOps() const { return ops; }
  llvm::ArrayRef<Tensor> getTensors() const { return tensors; }
  llvm::ArrayRef<TensorId> getReturned() const { return returnedValues; }
  std::optional<OpId> getBackwardStart() const { return backwardStart; }

  /// Checks the invariants the analyses rely on: operands defined before
  /// use, partners paired both ways and persistent, returned values unique,
  /// views of earlier tensors that own their storage, with no bytes, and
  /// parts of views only, non-empty and inside their root.
  llvm::Error verify() const;
  void print(llvm::raw_ostream &os) const;

private:
  llvm::Error verifyAlias(TensorId id, const std::vector<bool> &defined) const;

  std::string functionName;
  std::vector<Tensor> tensors;
  std::vector<Op> ops;
  std::vector<TensorId> returnedValues;
  llvm::DenseMap<TensorId, Tensor::Part> parts;
  std::optional<OpId> backwardStart;
};

} // namespace ssd::planner

#endif // SSD_ANALYSIS_PLANNER_STEPGRAPH_H
