/*===- FakeCuda.c - A host-memory stand-in for libcuda.so.1 --------------===*
 *
 * Implements the driver entry points the runtime resolves, with "device"
 * memory that is host memory the fake remembers, and copies done at once.
 * Loaded through SSDRT_CUDA_LIBRARY, it lets the device paths (staging
 * pipeline, events, stream waits, failures) run in host-only CI.
 * FAKE_CUDA_FAIL_H2D=1 / FAKE_CUDA_FAIL_D2H=1 make copies fail.
 *
 * Streams are numbered as they are created (the default stream, NULL, is
 * S0) and the fake logs what orders work between them: an event remembers
 * the stream it was last recorded on, and fakeCudaLog() returns lines
 * "wait S<waiter> S<recorded on>", "d2h S<n>" and "h2d S<n>" in call order,
 * so tests can check that copies wait for the caller's stream and that the
 * caller's stream waits for the copies.
 *
 *===----------------------------------------------------------------------===*/
#include <cuda.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxAllocations = 4096 };
static struct {
  uintptr_t base;
  size_t bytes;
} allocations[kMaxAllocations];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int dummy;

struct FakeStream {
  int id;
};
struct FakeEvent {
  int recordedOn; /* stream id, -1 before the first record */
};
static int streamCount;
static char orderLog[1 << 16];
static size_t orderLogLength;

static int streamId(CUstream stream) {
  return stream ? ((struct FakeStream *)stream)->id : 0;
}

static void logLine(const char *what, int a, int b) {
  pthread_mutex_lock(&lock);
  char line[64];
  int n = b < 0 ? snprintf(line, sizeof line, "%s S%d\n", what, a)
                : snprintf(line, sizeof line, "%s S%d S%d\n", what, a, b);
  if (n > 0 && orderLogLength + (size_t)n < sizeof orderLog) {
    memcpy(orderLog + orderLogLength, line, (size_t)n + 1);
    orderLogLength += (size_t)n;
  }
  pthread_mutex_unlock(&lock);
}

/* Test hooks, looked up with dlsym. */
const char *fakeCudaLog(void) { return orderLog; }
void fakeCudaLogClear(void) {
  pthread_mutex_lock(&lock);
  orderLogLength = 0;
  orderLog[0] = 0;
  pthread_mutex_unlock(&lock);
}
int fakeCudaStreamId(CUstream stream) { return streamId(stream); }

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
  struct FakeStream *s = malloc(sizeof *s);
  if (!s)
    return CUDA_ERROR_OUT_OF_MEMORY;
  pthread_mutex_lock(&lock);
  s->id = ++streamCount;
  pthread_mutex_unlock(&lock);
  *stream = (CUstream)s;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamDestroy(CUstream stream) {
  free(stream);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuStreamSynchronize(CUstream stream) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuStreamWaitEvent(CUstream stream, CUevent event,
                                   unsigned int flags) {
  pthread_mutex_lock(&lock);
  int recordedOn = ((struct FakeEvent *)event)->recordedOn;
  pthread_mutex_unlock(&lock);
  logLine("wait", streamId(stream), recordedOn);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventCreate(CUevent *event, unsigned int flags) {
  struct FakeEvent *e = malloc(sizeof *e);
  if (!e)
    return CUDA_ERROR_OUT_OF_MEMORY;
  e->recordedOn = -1;
  *event = (CUevent)e;
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventDestroy(CUevent event) {
  free(event);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventRecord(CUevent event, CUstream stream) {
  pthread_mutex_lock(&lock);
  ((struct FakeEvent *)event)->recordedOn = streamId(stream);
  pthread_mutex_unlock(&lock);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuEventSynchronize(CUevent event) { return CUDA_SUCCESS; }
CUresult CUDAAPI cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src,
                                   size_t bytes, CUstream stream) {
  const char *fail = getenv("FAKE_CUDA_FAIL_H2D");
  if ((fail && *fail == '1') || !isDevice(dst))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  logLine("h2d", streamId(stream), -1);
  memcpy((void *)dst, src, bytes);
  return CUDA_SUCCESS;
}
CUresult CUDAAPI cuMemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t bytes,
                                   CUstream stream) {
  const char *fail = getenv("FAKE_CUDA_FAIL_D2H");
  if ((fail && *fail == '1') || !isDevice(src))
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  logLine("d2h", streamId(stream), -1);
  memcpy(dst, (const void *)src, bytes);
  return CUDA_SUCCESS;
}
