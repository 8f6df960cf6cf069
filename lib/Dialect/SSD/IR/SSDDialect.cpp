//===- SSDDialect.cpp - ssd dialect, types and attribute checks -----------===//
//
// Registers the ssd dialect and its types, and verifies the `ssd.role` and
// `ssd.name` attributes of the input contract wherever they appear on a
// function's arguments or results.
//
//===----------------------------------------------------------------------===//

#include "ssd/Dialect/SSD/IR/SSDDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::ssd;

#include "ssd/Dialect/SSD/IR/SSDOpsDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "ssd/Dialect/SSD/IR/SSDOpsTypes.cpp.inc"

void SSDDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "ssd/Dialect/SSD/IR/SSDOps.cpp.inc"
      >();
}

void SSDDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "ssd/Dialect/SSD/IR/SSDOpsTypes.cpp.inc"
      >();
}

std::optional<ArgRole> mlir::ssd::parseArgRole(StringRef role) {
  return llvm::StringSwitch<std::optional<ArgRole>>(role)
      .Case("param", ArgRole::Param)
      .Case("optimizer_state", ArgRole::OptimizerState)
      .Case("input", ArgRole::Input)
      .Case("buffer", ArgRole::Buffer)
      .Default(std::nullopt);
}

int64_t mlir::ssd::getTensorByteSize(RankedTensorType type) {
  Type element = type.getElementType();
  int64_t bits;
  if (auto complex = dyn_cast<ComplexType>(element))
    bits = 2 * complex.getElementType().getIntOrFloatBitWidth();
  else if (element.isIndex())
    bits = 64;
  else
    bits = element.getIntOrFloatBitWidth();
  // Sub-byte elements take a byte each in memory, as PyTorch's bool and the
  // default lowering to LLVM store them.
  int64_t elementBytes = std::max<int64_t>(1, (bits + 7) / 8);
  return type.getNumElements() * elementBytes;
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult HandleType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 RankedTensorType tensorType) {
  if (!tensorType.hasStaticShape())
    return emitError() << "handle expects a statically shaped tensor, got "
                       << tensorType;
  Type element = tensorType.getElementType();
  if (!element.isIntOrIndexOrFloat() && !llvm::isa<ComplexType>(element))
    return emitError() << "handle expects an integer, float or complex "
                          "element type, got "
                       << element;
  return success();
}

//===----------------------------------------------------------------------===//
// Contract attributes
//===----------------------------------------------------------------------===//

/// Checks one `ssd.*` attribute of a function argument or result. Roles are
/// meaningful on arguments only, `ssd.resident` on results only; names on
/// both (a result named like a persistent argument is that argument's
/// updated value).
static LogicalResult verifyContractAttribute(Operation *op, NamedAttribute attr,
                                             bool onArgument, unsigned index) {
  StringRef where = onArgument ? "argument" : "result";
  if (attr.getName() == SSDDialect::kRoleAttrName) {
    if (!onArgument)
      return op->emitOpError() << "'" << SSDDialect::kRoleAttrName
                               << "' is only allowed on arguments, found on "
                                  "result #"
                               << index;
    auto role = dyn_cast<StringAttr>(attr.getValue());
    if (!role || !parseArgRole(role.getValue()))
      return op->emitOpError()
             << "argument #" << index << ": '" << SSDDialect::kRoleAttrName
             << "' must be one of \"param\", \"optimizer_state\", \"input\", "
                "\"buffer\"; got "
             << attr.getValue();
    return success();
  }
  if (attr.getName() == SSDDialect::kResidentAttrName) {
    if (onArgument)
      return op->emitOpError() << "'" << SSDDialect::kResidentAttrName
                               << "' is only allowed on results, found on "
                                  "argument #"
                               << index;
    if (!isa<UnitAttr>(attr.getValue()))
      return op->emitOpError()
             << "result #" << index << ": '" << SSDDialect::kResidentAttrName
             << "' takes no value; got " << attr.getValue();
    return success();
  }
  if (attr.getName() == SSDDialect::kNameAttrName) {
    auto name = dyn_cast<StringAttr>(attr.getValue());
    if (!name || name.getValue().empty())
      return op->emitOpError()
             << where << " #" << index << ": '" << SSDDialect::kNameAttrName
             << "' must be a non-empty string; got " << attr.getValue();
    return success();
  }
  return op->emitOpError() << where << " #" << index
                           << ": unknown ssd attribute '"
                           << attr.getName().getValue() << "'";
}

LogicalResult SSDDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  return verifyContractAttribute(op, attr, /*onArgument=*/true, argIndex);
}

LogicalResult SSDDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  return verifyContractAttribute(op, attr, /*onArgument=*/false, resultIndex);
}
