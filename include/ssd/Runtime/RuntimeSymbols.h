//===- RuntimeSymbols.h - Names of the ssdrt C API functions ----*- C++ -*-===//
//
// One list of the C API's function names, shared by the runtime libraries
// (which check at compile time that each names a declared function) and by
// the lowering to runtime calls (which emits func.call @ssdrt_*), so that a
// typo is a compile error instead of an unresolved symbol at run time.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_RUNTIMESYMBOLS_H
#define SSD_RUNTIME_RUNTIMESYMBOLS_H

/// X(suffix) for every ssdrt_<suffix> function in ssdrt.h that libssdrt
/// defines.
#define SSDRT_FOR_EACH_SYMBOL(X)                                               \
  X(last_error)                                                                \
  X(options_init)                                                              \
  X(context_create)                                                            \
  X(context_destroy)                                                           \
  X(context_reserve)                                                           \
  X(engine_name)                                                               \
  X(device_available)                                                          \
  X(handle_create)                                                             \
  X(handle_on_release)                                                         \
  X(handle_offload)                                                            \
  X(handle_offload_stream)                                                     \
  X(handle_prefetch)                                                           \
  X(handle_prefetch_stream)                                                    \
  X(handle_prefetch_range)                                                     \
  X(handles_offload)                                                           \
  X(handles_prefetch)                                                          \
  X(handle_wait)                                                               \
  X(handle_wait_event)                                                         \
  X(handle_wait_stream)                                                        \
  X(handle_mark_dirty)                                                         \
  X(handle_release)                                                            \
  X(handle_free)                                                               \
  X(handle_state)                                                              \
  X(handle_pending)                                                            \
  X(handle_data)                                                               \
  X(handle_bytes)                                                              \
  X(handle_location)                                                           \
  X(buffer_create)                                                             \
  X(buffer_add)                                                                \
  X(buffer_offload)                                                            \
  X(buffer_prefetch)                                                           \
  X(buffer_wait)                                                               \
  X(buffer_free)                                                               \
  X(stats)

/// X(suffix) for every ssdrt_lower_* function in ssdrt_step.h, the lowering
/// ABI, which libssdrt-step defines (it links libssdrt and the checkpoint
/// library).
#define SSDRT_FOR_EACH_LOWERING_SYMBOL(X)                                      \
  X(lower_step_begin)                                                          \
  X(lower_adopt)                                                               \
  X(lower_keep)                                                                \
  X(lower_free)                                                                \
  X(lower_group_begin)                                                         \
  X(lower_group_end)                                                           \
  X(lower_offload)                                                             \
  X(lower_release)                                                             \
  X(lower_prefetch)                                                            \
  X(lower_prefetch_range)                                                      \
  X(lower_wait)                                                                \
  X(lower_step_end)                                                            \
  X(lower_ckpt_begin)                                                          \
  X(lower_ckpt_save)                                                           \
  X(lower_ckpt_wait)                                                           \
  X(lower_ckpt_commit)

namespace ssd::rt::symbols {
#define SSDRT_SYMBOL_NAME(suffix)                                              \
  inline constexpr const char *suffix = "ssdrt_" #suffix;
SSDRT_FOR_EACH_SYMBOL(SSDRT_SYMBOL_NAME)
SSDRT_FOR_EACH_LOWERING_SYMBOL(SSDRT_SYMBOL_NAME)
#undef SSDRT_SYMBOL_NAME
} // namespace ssd::rt::symbols

#endif // SSD_RUNTIME_RUNTIMESYMBOLS_H
