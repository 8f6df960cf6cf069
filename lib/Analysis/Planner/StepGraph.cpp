//===- StepGraph.cpp - The planner's model of a training step -------------===//
//
// Construction, role names and the structural checks of StepGraph.
//
//===----------------------------------------------------------------------===//

#include "ssd/Analysis/Planner/StepGraph.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace ssd::planner;
using llvm::createStringError;
using llvm::inconvertibleErrorCode;

bool ssd::planner::isPersistentRole(TensorRole role) {
  return role == TensorRole::Param || role == TensorRole::OptimizerState ||
         role == TensorRole::Buffer;
}

llvm::StringRef ssd::planner::roleName(TensorRole role) {
  switch (role) {
  case TensorRole::Unknown:
    return "unknown";
  case TensorRole::Input:
    return "input";
  case TensorRole::Param:
    return "param";
  case TensorRole::OptimizerState:
    return "optimizer_state";
  case TensorRole::Buffer:
    return "buffer";
  case TensorRole::SavedActivation:
    return "activation";
  case TensorRole::Gradient:
    return "gradient";
  case TensorRole::Temporary:
    return "temporary";
  }
  return "unknown";
}

std::optional<TensorRole> ssd::planner::parseRole(llvm::StringRef name) {
  return llvm::StringSwitch<std::optional<TensorRole>>(name)
      .Case("unknown", TensorRole::Unknown)
      .Case("input", TensorRole::Input)
      .Case("param", TensorRole::Param)
      .Case("optimizer_state", TensorRole::OptimizerState)
      .Case("buffer", TensorRole::Buffer)
      .Case("activation", TensorRole::SavedActivation)
      .Case("gradient", TensorRole::Gradient)
      .Case("temporary", TensorRole::Temporary)
      .Default(std::nullopt);
}

llvm::Expected<RoleSet> ssd::planner::parseRoleList(llvm::StringRef names) {
  if (names.trim().empty())
    return RoleSet::all();
  RoleSet roles;
  llvm::SmallVector<llvm::StringRef> parts;
  names.split(parts, ',');
  for (llvm::StringRef part : parts) {
    llvm::StringRef name = part.trim();
    std::optional<TensorRole> role = parseRole(name);
    if (!role)
      return createStringError(
          inconvertibleErrorCode(),
          "unknown role '" + name +
              "'; expected a comma-separated list of param, optimizer_state, "
              "buffer, input, activation, gradient, temporary, unknown");
    roles.insert(*role);
  }
  return roles;
}

TensorId StepGraph::addArgument(std::string name, uint64_t bytes,
                                TensorRole role) {
  tensors.push_back(
      Tensor{std::move(name), bytes, role, std::nullopt, false, std::nullopt});
  return tensors.size() - 1;
}

OpId StepGraph::addOp(std::string name, llvm::ArrayRef<TensorId> operands,
                      OpCost cost) {
  ops.push_back(Op{std::move(name), operands.vec(), {}, cost});
  return ops.size() - 1;
}

TensorId StepGraph::addResult(OpId op, std::string name, uint64_t bytes,
                              TensorRole role) {
  tensors.push_back(
      Tensor{std::move(name), bytes, role, op, false, std::nullopt});
  TensorId id = tensors.size() - 1;
  ops[op].results.push_back(id);
  return id;
}

TensorId StepGraph::addAlias(OpId op, std::string name, TensorId viewed,
                             TensorRole role) {
  TensorId root = getStorage(viewed);
  TensorId id = addResult(op, std::move(name), /*bytes=*/0, role);
  tensors[id].aliasOf = root;
  return id;
}

void StepGraph::addReturn(TensorId value,
                          std::optional<TensorId> replacesArgument) {
  tensors[value].returned = true;
  returnedValues.push_back(value);
  if (replacesArgument) {
    tensors[value].steadyStatePartner = *replacesArgument;
    tensors[*replacesArgument].steadyStatePartner = value;
  }
}

llvm::Error StepGraph::verifyAlias(TensorId id,
                                   const std::vector<bool> &defined) const {
  const Tensor &view = tensors[id];
  const Tensor::Part *part = getPart(id);
  if (!view.aliasOf) {
    if (part)
      return createStringError(inconvertibleErrorCode(),
                               "tensor '%s' is no view but has a part",
                               view.name.c_str());
    return llvm::Error::success();
  }
  TensorId root = *view.aliasOf;
  if (root >= tensors.size() || !defined[root] || tensors[root].isAlias())
    return createStringError(inconvertibleErrorCode(),
                             "view '%s' must alias a tensor defined before it "
                             "that owns its storage, got tensor %u",
                             view.name.c_str(), root);
  if (view.bytes)
    return createStringError(inconvertibleErrorCode(),
                             "view '%s' shares the storage of '%s' and must "
                             "hold 0 bytes, got %llu",
                             view.name.c_str(), tensors[root].name.c_str(),
                             static_cast<unsigned long long>(view.bytes));
  if (part && (part->bytes == 0 || part->offset > tensors[root].bytes ||
               part->bytes > tensors[root].bytes - part->offset))
    return createStringError(
        inconvertibleErrorCode(),
        "view '%s' is bytes [%llu, %llu) of '%s', which holds %llu bytes; "
        "expected a non-empty range inside it",
        view.name.c_str(), static_cast<unsigned long long>(part->offset),
        static_cast<unsigned long long>(part->offset + part->bytes),
        tensors[root].name.c_str(),
        static_cast<unsigned long long>(tensors[root].bytes));
  return llvm::Error::success();
}

llvm::Error StepGraph::verify() const {
  std::vector<bool> defined(tensors.size(), false);
  for (TensorId id = 0; id < tensors.size(); ++id)
    defined[id] = tensors[id].isArgument();
  for (OpId opId = 0; opId < ops.size(); ++opId) {
    const Op &op = ops[opId];
    for (TensorId operand : op.operands) {
      if (operand >= tensors.size() || !defined[operand])
        return createStringError(inconvertibleErrorCode(),
                                 "op '%s' (#%u) uses tensor %u before it is "
                                 "defined",
                                 op.name.c_str(), opId, operand);
    }
    for (TensorId result : op.results) {
      if (tensors[result].definingOp != opId)
        return createStringError(inconvertibleErrorCode(),
                                 "tensor %u is listed as a result of op #%u "
                                 "but defined by another op",
                                 result, opId);
      if (llvm::Error error = verifyAlias(result, defined))
        return error;
      defined[result] = true;
    }
  }
  llvm::DenseSet<TensorId> seen;
  for (TensorId value : returnedValues)
    if (!seen.insert(value).second)
      return createStringError(inconvertibleErrorCode(),
                               "tensor '%s' is returned twice",
                               tensors[value].name.c_str());
  for (TensorId id = 0; id < tensors.size(); ++id) {
    const Tensor &tensor = tensors[id];
    if (!tensor.steadyStatePartner)
      continue;
    TensorId partner = *tensor.steadyStatePartner;
    const Tensor &other = tensors[partner];
    const Tensor &argument = tensor.isArgument() ? tensor : other;
    if (other.steadyStatePartner != id || !argument.isArgument() ||
        !isPersistentRole(argument.role) ||
        !(tensor.isArgument() ? other.returned : tensor.returned))
      return createStringError(
          inconvertibleErrorCode(),
          "tensor '%s' has a steady-state partner '%s' that is not a "
          "persistent argument paired with a returned value",
          tensor.name.c_str(), other.name.c_str());
  }
  if (backwardStart && *backwardStart > ops.size())
    return createStringError(inconvertibleErrorCode(),
                             "backward start #%u is past the last op",
                             *backwardStart);
  return llvm::Error::success();
}

void StepGraph::print(llvm::raw_ostream &os) const {
  os << "step '" << functionName << "': " << ops.size() << " ops, "
     << tensors.size() << " tensors\n";
  for (TensorId id = 0; id < tensors.size(); ++id)
    if (tensors[id].isArgument())
      os << "  arg %" << id << " '" << tensors[id].name
         << "' bytes=" << tensors[id].bytes
         << " role=" << roleName(tensors[id].role) << "\n";
  for (OpId opId = 0; opId < ops.size(); ++opId) {
    const Op &op = ops[opId];
    os << "  #" << opId << " ";
    for (TensorId result : op.results) {
      os << "%" << result;
      if (const auto &root = tensors[result].aliasOf) {
        os << "(view of %" << *root;
        if (const Tensor::Part *part = getPart(result))
          os << " bytes " << part->offset << "+" << part->bytes;
        os << ") ";
      } else
        os << "(" << tensors[result].bytes << ") ";
    }
    os << "= " << op.name << "(";
    for (size_t i = 0; i < op.operands.size(); ++i)
      os << (i ? ", %" : "%") << op.operands[i];
    os << ")\n";
  }
  os << "  return";
  for (TensorId value : returnedValues) {
    os << " %" << value;
    if (const auto &partner = tensors[value].steadyStatePartner)
      os << "(next %" << *partner << ")";
  }
  os << "\n";
}
