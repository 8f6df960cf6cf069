//===- DType.h - Element types and I/O alignment of the runtime -*- C++ -*-===//
//
// The C++ view of DTypes.def, the one table of element types, and the one
// alignment every data file, extent and staging buffer is laid out in.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_DTYPE_H
#define SSD_RUNTIME_DTYPE_H

#include <cstdint>
#include <span>
#include <string_view>

namespace ssd::rt {

/// O_DIRECT's alignment on every device we target: offsets, lengths and
/// buffer addresses of direct I/O, data-file layout, checksum blocks.
constexpr uint64_t kIoAlignment = 4096;

constexpr uint64_t alignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}
constexpr uint64_t alignDown(uint64_t value, uint64_t alignment) {
  return value / alignment * alignment;
}

/// Element types; the values are the C API's SSDRT_DTYPE_* codes.
enum class DType : int {
#define SSD_DTYPE(C_NAME, CXX_NAME, CODE, ...) CXX_NAME = CODE,
#include "ssd/Runtime/DTypes.def"
#undef SSD_DTYPE
};

struct DTypeInfo {
  DType dtype;
  unsigned bytes;
  /// What the runtime prints: "f32", "bf16", ...
  const char *name;
  /// The checkpoint manifest's (safetensors') spelling: "F32", "BOOL", ...
  const char *safetensorsName;
  /// The MLIR element type, in MLIR's syntax: "f32", "ui8", "i1", ...
  const char *mlirName;
  bool inCheckpoints;
};

/// Every row of DTypes.def, in code order.
std::span<const DTypeInfo> allDTypes();
/// The row of `code` (an SSDRT_DTYPE_* value), or null for an unknown one.
const DTypeInfo *findDType(int code);
const DTypeInfo &dtypeInfo(DType dtype);
/// The row whose safetensors spelling is `name`, or null.
const DTypeInfo *findDTypeBySafetensorsName(std::string_view name);

/// Bytes per element, or 0 for an unknown code.
unsigned dtypeSize(int dtype);
/// The runtime's name of `dtype`, or "?" for an unknown code.
const char *dtypeName(int dtype);

} // namespace ssd::rt

#endif // SSD_RUNTIME_DTYPE_H
