//===- Device.h - CUDA through the driver API, or host-only -----*- C++ -*-===//
//
// The device layer loads libcuda.so.1 with dlopen at run time, so the runtime
// builds and runs on machines with no CUDA at all. Without a driver or a GPU
// `available()` is false and every caller takes its host-only path; the API
// stays the same. Streams and events are opaque pointers (CUstream, CUevent)
// so that no CUDA header leaks into users of the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_DEVICE_H
#define SSD_RUNTIME_DEVICE_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace ssd::rt {

using DeviceStream = void *;
using DeviceEvent = void *;

class Device {
public:
  /// Opens device `ordinal` (negative: host-only on purpose). Never throws;
  /// `note()` says why the device is unavailable.
  explicit Device(int ordinal);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  bool available() const { return ctx != nullptr; }
  const std::string &note() const { return why; }

  // Every call below requires `available()`; each throws `Error` with the
  // driver's error name on failure.

  /// Makes this device's primary context current on the calling thread.
  void makeCurrent() const;
  /// True when `ptr` is device memory (or managed memory).
  bool isDevicePointer(const void *ptr) const;
  void *allocate(size_t bytes) const;
  void release(void *devicePtr) const;
  /// Page-locks host memory and maps it for DMA; returns false if refused.
  bool registerHost(void *ptr, size_t bytes) const;
  void unregisterHost(void *ptr) const;

  DeviceStream createStream() const;
  void destroyStream(DeviceStream stream) const;
  DeviceEvent createEvent() const;
  void destroyEvent(DeviceEvent event) const;
  void record(DeviceEvent event, DeviceStream stream) const;
  void synchronize(DeviceEvent event) const;
  void synchronizeStream(DeviceStream stream) const;
  /// Makes `stream` wait for `event` on the device (the host does not wait).
  void streamWait(DeviceStream stream, DeviceEvent event) const;
  void copyToDevice(void *dst, const void *src, size_t bytes,
                    DeviceStream stream) const;
  void copyToHost(void *dst, const void *src, size_t bytes,
                  DeviceStream stream) const;

private:
  void *ctx = nullptr;
  int device = -1;
  std::string why;
};

} // namespace ssd::rt

#endif // SSD_RUNTIME_DEVICE_H
