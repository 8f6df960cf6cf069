//===- StepCheckpoint.h - Checkpoints of state kept on SSD ------*- C++ -*-===//
//
// torch.ops.ssdopt.disk_location: where the bytes of a handle of
// torch.ops.ssdopt.offload are on disk, so that ssdopt.step_checkpoint saves
// a compiled step's state from SSD and loads it back file to file through
// the checkpoint library (ssdckpt_save_add_file, ssdckpt_reader_load_file),
// never staging a tensor whole in memory.
//
//===----------------------------------------------------------------------===//
#ifndef SSDOPT_CSRC_STEPCHECKPOINT_H
#define SSDOPT_CSRC_STEPCHECKPOINT_H

#include <ATen/ATen.h>

#include <cstdint>
#include <string>
#include <tuple>

namespace ssdopt {

/// (data file, offset, bytes) of HANDLE, its write done; see `locate`.
std::tuple<std::string, int64_t, int64_t>
diskLocation(const at::Tensor &handle);

} // namespace ssdopt

#endif // SSDOPT_CSRC_STEPCHECKPOINT_H
