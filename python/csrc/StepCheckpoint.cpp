//===- StepCheckpoint.cpp - Checkpoints of state kept on SSD --------------===//
//
// Registers torch.ops.ssdopt.disk_location as a fragment of the ssdopt
// library (Module.cpp defines the rest). The copy itself is the checkpoint
// library's, which ssdopt.step_checkpoint calls through ctypes as
// ssdopt.checkpoint does, so there is one loaded instance of it.
//
//===----------------------------------------------------------------------===//
#include "StepCheckpoint.h"

#include "OffloadStore.h"

#include <torch/library.h>

namespace ssdopt {

std::tuple<std::string, int64_t, int64_t>
diskLocation(const at::Tensor &handle) {
  DiskLocation location = locate(handle);
  return {location.path, int64_t(location.offset), int64_t(location.bytes)};
}

} // namespace ssdopt

TORCH_LIBRARY_FRAGMENT(ssdopt, m) {
  m.def("disk_location(Tensor handle) -> (str, int, int)");
}

TORCH_LIBRARY_IMPL(ssdopt, CPU, m) {
  m.impl("disk_location", &ssdopt::diskLocation);
}
