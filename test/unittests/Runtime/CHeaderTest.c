/*===- CHeaderTest.c - ssdrt.h compiles and works as plain C -------------===*
 *
 * Compiled as C11 so that the header stays usable from C (and thus from the
 * lowered IR's calling convention); CApiTest.cpp calls this function.
 *
 *===----------------------------------------------------------------------===*/
#include "ssd/Runtime/ssdrt.h"

#include <stddef.h>

int ssdrt_test_from_c(const char *directory) {
  ssdrt_options options;
  ssdrt_context *ctx = NULL;
  ssdrt_handle h = 0;
  int64_t shape[2] = {4, 1024};
  int32_t state = -1;
  int rc;
  ssdrt_options_init(&options);
  options.directory = directory;
  options.flags = SSDRT_OPT_HOST_ONLY;
  options.staging_bytes = 1 << 20;
  options.chunk_bytes = 1 << 18;
  if ((rc = ssdrt_context_create(&options, &ctx)) != 0)
    return rc;
  if ((rc = ssdrt_handle_create(ctx, SSDRT_DTYPE_F32, 2, shape, SSDRT_MEM_HOST,
                                NULL, &h)) == 0 &&
      (rc = ssdrt_handle_offload(ctx, h, 0)) == 0 &&
      (rc = ssdrt_handle_wait(ctx, h)) == 0 &&
      (rc = ssdrt_handle_state(ctx, h, &state)) == 0)
    rc = state == SSDRT_STATE_ON_DISK ? 0 : -1;
  ssdrt_context_destroy(ctx);
  return rc;
}
