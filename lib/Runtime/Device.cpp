//===- Device.cpp - CUDA driver API loaded with dlopen --------------------===//
//
// The driver's entry points are resolved once per process from
// libcuda.so.1. Names come from cuda.h's own macros (cuMemAlloc expands to
// cuMemAlloc_v2), so the symbol looked up always matches the prototype used.
// Without cuda.h at build time (SSD_HAVE_CUDA unset) the layer is host-only.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Device.h"
#include "ssd/Runtime/Status.h"

#include <cerrno>
#include <cstdlib>

#ifdef SSD_HAVE_CUDA
#include <cuda.h>
#include <dlfcn.h>
#include <mutex>
#endif

namespace ssd::rt {

#ifdef SSD_HAVE_CUDA
namespace {

#define SSD_CUDA_FUNCTIONS(X)                                                  \
  X(cuInit)                                                                    \
  X(cuGetErrorName)                                                            \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuPointerGetAttribute)                                                     \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemHostRegister)                                                         \
  X(cuMemHostUnregister)                                                       \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuStreamWaitEvent)                                                         \
  X(cuEventCreate)                                                             \
  X(cuEventDestroy)                                                            \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoHAsync)

#define SSD_STR2(x) #x
#define SSD_STR(x) SSD_STR2(x)

struct Driver {
#define X(fn) decltype(&fn) p_##fn = nullptr;
  SSD_CUDA_FUNCTIONS(X)
#undef X
  std::string error;

  Driver() {
    // SSDRT_CUDA_LIBRARY lets tests substitute a fake driver.
    const char *path = std::getenv("SSDRT_CUDA_LIBRARY");
    void *lib =
        dlopen(path && *path ? path : "libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      const char *e = dlerror();
      error = std::string("no CUDA driver (") + (e ? e : "dlopen failed") + ")";
      return;
    }
    // The library stays loaded for the life of the process.
#define X(fn)                                                                  \
  p_##fn = reinterpret_cast<decltype(&fn)>(dlsym(lib, SSD_STR(fn)));           \
  if (!p_##fn) {                                                               \
    error = "CUDA driver lacks " SSD_STR(fn);                                  \
    return;                                                                    \
  }
    SSD_CUDA_FUNCTIONS(X)
#undef X
    CUresult r = p_cuInit(0);
    if (r != CUDA_SUCCESS)
      error = "cuInit failed: " + name(r);
  }

  std::string name(CUresult r) const {
    const char *s = nullptr;
    if (p_cuGetErrorName)
      p_cuGetErrorName(r, &s);
    return s ? s : "CUDA error " + std::to_string(static_cast<int>(r));
  }

  void check(CUresult r, const char *what) const {
    if (r != CUDA_SUCCESS)
      fail(r == CUDA_ERROR_OUT_OF_MEMORY ? ENOMEM : EIO,
           std::string(what) + " failed: " + name(r));
  }
};

const Driver &driver() {
  static const Driver *d = new Driver(); // never destroyed: used at exit.
  return *d;
}

} // namespace

#define D driver()

Device::Device(int ordinal) {
  if (ordinal < 0) {
    why = "host-only mode requested";
    return;
  }
  if (!D.error.empty()) {
    why = D.error;
    return;
  }
  int count = 0;
  if (D.p_cuDeviceGetCount(&count) != CUDA_SUCCESS || ordinal >= count) {
    why = "no CUDA device " + std::to_string(ordinal) + " (" +
          std::to_string(count) + " present)";
    return;
  }
  CUdevice dev;
  CUcontext context;
  if (D.p_cuDeviceGet(&dev, ordinal) != CUDA_SUCCESS ||
      D.p_cuDevicePrimaryCtxRetain(&context, dev) != CUDA_SUCCESS) {
    why = "cannot open CUDA device " + std::to_string(ordinal);
    return;
  }
  device = dev;
  ctx = context;
  why = "CUDA device " + std::to_string(ordinal);
}

Device::~Device() {
  if (ctx)
    D.p_cuDevicePrimaryCtxRelease(device);
}

void Device::makeCurrent() const {
  if (!ctx)
    fail(ENODEV, "no CUDA device: " + why);
  D.check(D.p_cuCtxSetCurrent(static_cast<CUcontext>(ctx)), "cuCtxSetCurrent");
}

bool Device::isDevicePointer(const void *ptr) const {
  if (!ctx)
    return false;
  makeCurrent();
  unsigned type = 0;
  CUresult r =
      D.p_cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                reinterpret_cast<CUdeviceptr>(ptr));
  return r == CUDA_SUCCESS && type == CU_MEMORYTYPE_DEVICE;
}

void *Device::allocate(size_t bytes) const {
  makeCurrent();
  CUdeviceptr p = 0;
  D.check(D.p_cuMemAlloc(&p, bytes ? bytes : 1), "cuMemAlloc");
  return reinterpret_cast<void *>(p);
}

void Device::release(void *ptr) const {
  makeCurrent();
  D.p_cuMemFree(reinterpret_cast<CUdeviceptr>(ptr));
}

bool Device::registerHost(void *ptr, size_t bytes) const {
  if (!ctx)
    return false;
  makeCurrent();
  return D.p_cuMemHostRegister(ptr, bytes, CU_MEMHOSTREGISTER_PORTABLE) ==
         CUDA_SUCCESS;
}

void Device::unregisterHost(void *ptr) const {
  makeCurrent();
  D.p_cuMemHostUnregister(ptr);
}

DeviceStream Device::createStream() const {
  makeCurrent();
  CUstream s;
  D.check(D.p_cuStreamCreate(&s, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  return s;
}

void Device::destroyStream(DeviceStream s) const {
  makeCurrent();
  D.p_cuStreamDestroy(static_cast<CUstream>(s));
}

DeviceEvent Device::createEvent() const {
  makeCurrent();
  CUevent e;
  D.check(D.p_cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
  return e;
}

void Device::destroyEvent(DeviceEvent e) const {
  makeCurrent();
  D.p_cuEventDestroy(static_cast<CUevent>(e));
}

void Device::record(DeviceEvent e, DeviceStream s) const {
  makeCurrent();
  D.check(D.p_cuEventRecord(static_cast<CUevent>(e), static_cast<CUstream>(s)),
          "cuEventRecord");
}

void Device::synchronize(DeviceEvent e) const {
  makeCurrent();
  D.check(D.p_cuEventSynchronize(static_cast<CUevent>(e)),
          "cuEventSynchronize");
}

void Device::synchronizeStream(DeviceStream s) const {
  makeCurrent();
  D.check(D.p_cuStreamSynchronize(static_cast<CUstream>(s)),
          "cuStreamSynchronize");
}

void Device::streamWait(DeviceStream s, DeviceEvent e) const {
  makeCurrent();
  D.check(D.p_cuStreamWaitEvent(static_cast<CUstream>(s),
                                static_cast<CUevent>(e), 0),
          "cuStreamWaitEvent");
}

void Device::copyToDevice(void *dst, const void *src, size_t bytes,
                          DeviceStream s) const {
  makeCurrent();
  D.check(D.p_cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(dst), src, bytes,
                                static_cast<CUstream>(s)),
          "cuMemcpyHtoDAsync");
}

void Device::copyToHost(void *dst, const void *src, size_t bytes,
                        DeviceStream s) const {
  makeCurrent();
  D.check(D.p_cuMemcpyDtoHAsync(dst, reinterpret_cast<CUdeviceptr>(src), bytes,
                                static_cast<CUstream>(s)),
          "cuMemcpyDtoHAsync");
}

#else // !SSD_HAVE_CUDA

Device::Device(int) { why = "built without CUDA headers"; }
Device::~Device() = default;
[[noreturn]] static void noDevice() { fail(ENODEV, "no CUDA device"); }
void Device::makeCurrent() const { noDevice(); }
bool Device::isDevicePointer(const void *) const { return false; }
void *Device::allocate(size_t) const { noDevice(); }
void Device::release(void *) const { noDevice(); }
bool Device::registerHost(void *, size_t) const { return false; }
void Device::unregisterHost(void *) const {}
DeviceStream Device::createStream() const { noDevice(); }
void Device::destroyStream(DeviceStream) const {}
DeviceEvent Device::createEvent() const { noDevice(); }
void Device::destroyEvent(DeviceEvent) const {}
void Device::record(DeviceEvent, DeviceStream) const { noDevice(); }
void Device::synchronize(DeviceEvent) const { noDevice(); }
void Device::synchronizeStream(DeviceStream) const { noDevice(); }
void Device::streamWait(DeviceStream, DeviceEvent) const { noDevice(); }
void Device::copyToDevice(void *, const void *, size_t, DeviceStream) const {
  noDevice();
}
void Device::copyToHost(void *, const void *, size_t, DeviceStream) const {
  noDevice();
}

#endif // SSD_HAVE_CUDA

} // namespace ssd::rt
