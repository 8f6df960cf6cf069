//===- DType.cpp - The element-type table -----------------------------===//
//
// DTypes.def as an array indexed by code.
//
//===----------------------------------------------------------------------===//

#include "ssd/Runtime/DType.h"

#include <iterator>

using namespace ssd::rt;

namespace {
constexpr DTypeInfo kDTypes[] = {
#define SSD_DTYPE(C_NAME, CXX_NAME, CODE, BYTES, NAME, SAFETENSORS, MLIR,      \
                  IN_CKPT)                                                     \
  {DType::CXX_NAME, BYTES, NAME, SAFETENSORS, MLIR, IN_CKPT != 0},
#include "ssd/Runtime/DTypes.def"
#undef SSD_DTYPE
};

constexpr bool codesAreIndices() {
  for (int i = 0; i < int(std::size(kDTypes)); ++i)
    if (int(kDTypes[i].dtype) != i)
      return false;
  return true;
}
static_assert(codesAreIndices(), "DTypes.def: codes must be 0, 1, 2, ...");
} // namespace

std::span<const DTypeInfo> ssd::rt::allDTypes() { return kDTypes; }

const DTypeInfo *ssd::rt::findDType(int code) {
  if (code < 0 || code >= int(std::size(kDTypes)))
    return nullptr;
  return &kDTypes[code];
}

const DTypeInfo &ssd::rt::dtypeInfo(DType dtype) { return kDTypes[int(dtype)]; }

const DTypeInfo *ssd::rt::findDTypeBySafetensorsName(std::string_view name) {
  for (const DTypeInfo &info : kDTypes)
    if (name == info.safetensorsName)
      return &info;
  return nullptr;
}

unsigned ssd::rt::dtypeSize(int dtype) {
  const DTypeInfo *info = findDType(dtype);
  return info ? info->bytes : 0;
}

const char *ssd::rt::dtypeName(int dtype) {
  const DTypeInfo *info = findDType(dtype);
  return info ? info->name : "?";
}
