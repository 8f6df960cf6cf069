/*===- FakeCuda.c - A host-memory stand-in for libcuda.so.1 --------------===*
 *
 * Implements the driver entry points the runtime resolves, with "device"
 * memory that is host memory the fake remembers, and copies done at once.
 * Loaded through SSDRT_CUDA_LIBRARY, it lets the device paths (staging
 * pipeline, events, stream waits, failures) run in host-only CI.
 * FAKE_CUDA_FAIL_H2D=1 / FAKE_CUDA_FAIL_D2H=1 make copies fail.
 *
 *===----------------------------------------------------------------------===*/
#include <cuda.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxAllocations = 4096 };
static struct {
  uintptr_t base;
  size_t bytes;
} allocations[kMaxAllocations];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int dummy;

static int isDevice(uintptr_t p) {
  int found = 0;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < kMaxAllocations && !found; ++i)
    found = allocations[i].bytes && p >= allocations[i].base &&
            p < allocations[i].base + allocations[i].bytes;
  pthread_mutex_unlock(&lock);
  return found;
}

CUresult CUDAAPI cuInit(unsigned int flags) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuGetErrorName(CUresult error, const char **str) {
  *str = error == CUDA_ERROR_ILLEGAL_ADDRESS ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                                             : "CUDA_ERROR_FAKE";
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDeviceGet(CUdevice *device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice dev) {
  *ctx = (CUcontext)&dummy;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice dev) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuCtxSetCurrent(CUcontext ctx) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuPointerGetAttribute(void *data, CUpointer_attribute attr,
                                       CUdeviceptr ptr) {
  if (attr != CU_POINTER_ATTRIBUTE_MEMORY_TYPE || !isDevice(ptr))
    return CUDA_ERROR_INVALID_VALUE;
  *(unsigned *)data = CU_MEMORYTYPE_DEVICE;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemAlloc(CUdeviceptr *dptr, size_t bytes) {
  void *p = malloc(bytes);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < kMaxAllocations; ++i)
    if (!allocations[i].bytes) {
      allocations[i].base = (uintptr_t)p;
      allocations[i].bytes = bytes;
      break;
    }
  pthread_mutex_unlock(&lock);
  *dptr = (CUdeviceptr)p;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < kMaxAllocations; ++i)
    if (allocations[i].base == dptr && allocations[i].bytes)
      allocations[i].bytes = 0;
  pthread_mutex_unlock(&lock);
  free((void *)dptr);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemHostRegister(void *p, size_t bytes, unsigned int flags) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemHostUnregister(void *p) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamCreate(CUstream *stream, unsigned int flags) {
  *stream = (CUstream)malloc(1);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  free(stream);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamSynchronize(CUstream stream) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamWaitEvent(CUstream stream, CUevent event,
                                   unsigned int flags) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int flags) {
  *event = (CUevent)malloc(1);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy(CUevent event) {
  free(event);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent event, CUstream stream) {
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventSynchronize(CUevent event) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src,
                                   size_t bytes, CUstream stream) {
  const char *fail = getenv("FAKE_CUDA_FAIL_H2D");
  if ((fail && *fail == '1') || !isDevice(dst))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  memcpy((void *)dst, src, bytes);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes,
                                   CUstream stream) {
  const char *fail = getenv("FAKE_CUDA_FAIL_D2H");
  if ((fail && *fail == '1') || !isDevice(src))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  memcpy(dst, (const void *)src, bytes);
  return CUDA_SUCCESS;
}
