//===- FakeCudaTest.cpp - Device paths against a fake CUDA driver ---------===//
//
// Runs the device half of the runtime (driver loading, pinned staging,
// device offload and prefetch through staging chunks, events, stream waits,
// copy failures) against FakeCuda.c, so that it is tested on machines
// without a GPU, including the calls the torch extension makes for a CUDA
// tensor. The real GPU check is bench/gpu/run (bench/io/gpucheck.cpp).
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "ssd/Runtime/TensorStore.h"
#include "ssd/Runtime/ssdrt.h"

#include <dlfcn.h>
#include <sstream>

using namespace ssd::rt;
using namespace ssd::rt::test;

namespace {

class FakeCudaTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    // Before the first Device: the driver is loaded once per process.
    ::setenv("SSDRT_CUDA_LIBRARY", SSDRT_FAKE_CUDA_PATH, 1);
  }
  StoreOptions options() {
    StoreOptions o;
    o.directory = dir.path;
    o.device = 0;
    o.queueDepth = 8;
    o.stagingBytes = 256 << 10;
    o.chunkBytes = 64 << 10; // many chunks per tensor: exercise the pipeline
    return o;
  }
  ScratchDir dir;
};

TEST_F(FakeCudaTest, DeviceRoundTripThroughStaging) {
  TensorStore store(options());
  ASSERT_TRUE(store.device().available()) << store.device().note();
  EXPECT_TRUE(store.staging().pinned());
  const int64_t shape[] = {(1 << 20) + 37};
  uint64_t h =
      store.createHandle(int(DType::U8), shape, MemKind::Device, nullptr);
  void *d = store.info(h).data;
  ASSERT_TRUE(store.device().isDevicePointer(d));
  fillPattern(d, shape[0], 1); // fake device memory is host memory
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  EXPECT_EQ(store.stats().stagedBytes, uint64_t(shape[0]));

  store.prefetch(h, nullptr);
  DeviceEvent event = store.waitEvent(h);
  EXPECT_NE(event, nullptr);
  EXPECT_TRUE(hasPattern(store.info(h).data, shape[0], 1));
  store.markDirty(h);
  store.offload(h, false);
  store.wait(h);

  // Into memory the caller allocated, finished with a stream wait.
  void *mine = store.device().allocate(shape[0]);
  DeviceStream compute = store.device().createStream();
  store.prefetch(h, mine);
  store.waitStream(h, compute);
  EXPECT_EQ(store.info(h).data, mine);
  EXPECT_TRUE(hasPattern(mine, shape[0], 1));
  store.free(h);
  store.device().release(mine);
  store.device().destroyStream(compute);
}

TEST_F(FakeCudaTest, HostMemoryIsNotDeviceMemory) {
  TensorStore store(options());
  AlignedBuf host(4096);
  const int64_t shape[] = {1024};
  try {
    store.createHandle(int(DType::F32), shape, MemKind::Device, host.data);
    FAIL() << "expected EINVAL";
  } catch (const Error &e) {
    EXPECT_EQ(e.errnum, EINVAL);
  }
}

TEST_F(FakeCudaTest, FailedCopyLeavesHandleOnDisk) {
  TensorStore store(options());
  const int64_t shape[] = {300000};
  uint64_t h =
      store.createHandle(int(DType::U8), shape, MemKind::Device, nullptr);
  fillPattern(store.info(h).data, shape[0], 2);
  store.offload(h, false);
  store.wait(h);
  ::setenv("FAKE_CUDA_FAIL_H2D", "1", 1);
  store.prefetch(h, nullptr);
  std::string msg;
  errnumOf([&] { store.wait(h); }, &msg);
  ::unsetenv("FAKE_CUDA_FAIL_H2D");
  EXPECT_NE(msg.find("cuMemcpyHtoDAsync"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, shape[0], 2));
}

TEST_F(FakeCudaTest, PartOfADeviceTensorThroughStaging) {
  TensorStore store(options());
  const int64_t shape[] = {300037};
  uint64_t h =
      store.createHandle(int(DType::U8), shape, MemKind::Device, nullptr);
  fillPattern(store.info(h).data, shape[0], 4);
  std::vector<unsigned char> want(shape[0]);
  fillPattern(want.data(), shape[0], 4);
  store.offload(h, false);
  store.wait(h);
  // Unaligned at both ends and across 64 KiB chunks, into the caller's
  // device memory; the copies are waited for through the event.
  const uint64_t offset = 60001, length = 150000;
  char *mine = static_cast<char *>(store.device().allocate(length + 1));
  mine[length] = 0x5A;
  store.prefetchRange(h, mine, offset, length);
  DeviceEvent event = store.waitEvent(h);
  ASSERT_NE(event, nullptr);
  store.device().synchronize(event);
  EXPECT_EQ(std::memcmp(mine, want.data() + offset, length), 0);
  EXPECT_EQ(mine[length], 0x5A);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  // A failed copy to the device fails the wait, the handle unchanged.
  ::setenv("FAKE_CUDA_FAIL_H2D", "1", 1);
  store.prefetchRange(h, mine, offset, length);
  std::string msg;
  errnumOf([&] { store.wait(h); }, &msg);
  ::unsetenv("FAKE_CUDA_FAIL_H2D");
  EXPECT_NE(msg.find("cuMemcpyHtoDAsync"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  store.prefetchRange(h, mine, shape[0] - 7, 7);
  store.wait(h);
  EXPECT_EQ(std::memcmp(mine, want.data() + shape[0] - 7, 7), 0);
  store.free(h);
  store.device().release(mine);
}

TEST_F(FakeCudaTest, FailedDeviceToHostCopyKeepsTheTensor) {
  TensorStore store(options());
  const int64_t shape[] = {200000};
  uint64_t h =
      store.createHandle(int(DType::U8), shape, MemKind::Device, nullptr);
  fillPattern(store.info(h).data, shape[0], 3);
  ::setenv("FAKE_CUDA_FAIL_D2H", "1", 1);
  store.offload(h, false);
  std::string msg;
  errnumOf([&] { store.wait(h); }, &msg);
  ::unsetenv("FAKE_CUDA_FAIL_D2H");
  EXPECT_NE(msg.find("cuMemcpyDtoHAsync"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::Resident);
  EXPECT_TRUE(hasPattern(store.info(h).data, shape[0], 3));
  store.offload(h, false);
  store.wait(h);
  EXPECT_EQ(store.info(h).state, State::OnDisk);
}

TEST_F(FakeCudaTest, CApiReportsTheDevice) {
  ssdrt_options o;
  ssdrt_options_init(&o);
  o.directory = dir.path.c_str();
  o.staging_bytes = 1 << 20;
  o.chunk_bytes = 256 << 10;
  ssdrt_context *ctx;
  ASSERT_EQ(ssdrt_context_create(&o, &ctx), 0) << ssdrt_last_error();
  EXPECT_EQ(ssdrt_device_available(ctx), 1);
  const int64_t shape[] = {64, 64};
  ssdrt_handle h;
  ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_F16, 2, shape,
                                SSDRT_MEM_DEVICE, nullptr, &h),
            0);
  ASSERT_EQ(ssdrt_handle_offload(ctx, h, 0), 0);
  ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0);
  ASSERT_EQ(ssdrt_handle_prefetch(ctx, h, nullptr), 0);
  ASSERT_EQ(ssdrt_handle_wait_stream(ctx, h, nullptr), 0);
  ssdrt_context_destroy(ctx);
}

/// The fake driver's log of stream waits and copies (see FakeCuda.c).
class DriverLog {
public:
  DriverLog() {
    void *lib = dlopen(SSDRT_FAKE_CUDA_PATH, RTLD_NOW | RTLD_NOLOAD);
    EXPECT_NE(lib, nullptr) << "the fake driver is not loaded";
    text = reinterpret_cast<const char *(*)()>(dlsym(lib, "fakeCudaLog"));
    clearFn = reinterpret_cast<void (*)()>(dlsym(lib, "fakeCudaLogClear"));
    idFn = reinterpret_cast<int (*)(void *)>(dlsym(lib, "fakeCudaStreamId"));
  }
  void clear() { clearFn(); }
  std::string stream(DeviceStream s) { return "S" + std::to_string(idFn(s)); }
  std::vector<std::string> lines() {
    std::vector<std::string> out;
    std::istringstream in(text());
    for (std::string line; std::getline(in, line);)
      out.push_back(line);
    return out;
  }

private:
  const char *(*text)() = nullptr;
  void (*clearFn)() = nullptr;
  int (*idFn)(void *) = nullptr;
};

/// Checks that every copy of kind COPY ("d2h", "h2d") in LINES runs on one
/// runtime stream that first waited for CALLER; returns that stream.
std::string copiesWaitFor(const std::vector<std::string> &lines,
                          const std::string &copy, const std::string &caller) {
  std::string copyStream;
  bool waited = false;
  for (const std::string &line : lines) {
    std::istringstream in(line);
    std::string what, a, b;
    in >> what >> a >> b;
    if (what == copy) {
      if (copyStream.empty())
        copyStream = a;
      EXPECT_EQ(a, copyStream) << "copies on two streams";
      EXPECT_TRUE(waited) << copy << " on " << a << " before it waited for "
                          << caller;
    } else if (what == "wait" && b == caller && copyStream.empty()) {
      copyStream = a;
      waited = true;
    }
  }
  EXPECT_FALSE(copyStream.empty()) << "no " << copy << " copy";
  EXPECT_NE(copyStream, caller) << "the runtime copied on the caller's stream";
  return copyStream;
}

// What python/csrc/OffloadStore.cpp does for a CUDA tensor: lend the
// tensor's device memory, kept alive until the runtime hands it back, with
// the copies ordered after the caller's (current) stream; read back into
// device memory the caller allocated on its stream, and make that stream,
// not the host, wait for the copies.
TEST_F(FakeCudaTest, TorchExtensionPath) {
  ssdrt_options o;
  ssdrt_options_init(&o);
  o.directory = dir.path.c_str();
  o.flags = SSDRT_OPT_NO_SYNC;
  o.staging_bytes = 256 << 10;
  o.chunk_bytes = 64 << 10;
  ssdrt_context *ctx;
  ASSERT_EQ(ssdrt_context_create(&o, &ctx), 0) << ssdrt_last_error();
  ASSERT_EQ(ssdrt_device_available(ctx), 1);
  Device dev(0);
  const int64_t n = (300 << 10) + 5; // several chunks and a partial one
  void *tensor = dev.allocate(n);
  fillPattern(tensor, n, 7);
  DeviceStream compute = dev.createStream();
  DriverLog log;

  for (DeviceStream caller : {DeviceStream(nullptr), compute}) {
    SCOPED_TRACE(caller ? "a stream of the caller's" : "the default stream");
    ssdrt_handle h;
    ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &n, SSDRT_MEM_DEVICE,
                                  tensor, &h),
              0)
        << ssdrt_last_error();
    int handedBack = 0;
    ASSERT_EQ(ssdrt_handle_on_release(
                  ctx, h, [](void *count) { ++*static_cast<int *>(count); },
                  &handedBack),
              0);
    log.clear();
    ASSERT_EQ(ssdrt_handle_offload_stream(ctx, h, 0, caller), 0);
    int32_t pending = 0, state = -1;
    ASSERT_EQ(ssdrt_handle_pending(ctx, h, &pending), 0);
    EXPECT_EQ(pending, 1);
    ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
    EXPECT_EQ(handedBack, 1);
    ASSERT_EQ(ssdrt_handle_pending(ctx, h, &pending), 0);
    EXPECT_EQ(pending, 0);
    copiesWaitFor(log.lines(), "d2h", log.stream(caller));

    void *back = dev.allocate(n);
    log.clear();
    ASSERT_EQ(ssdrt_handle_prefetch_stream(ctx, h, back, caller), 0)
        << ssdrt_last_error();
    ASSERT_EQ(ssdrt_handle_state(ctx, h, &state), 0);
    ASSERT_EQ(ssdrt_handle_pending(ctx, h, &pending), 0);
    EXPECT_TRUE(state == SSDRT_STATE_READING || state == SSDRT_STATE_BOTH);
    EXPECT_EQ(pending, 1);
    ASSERT_EQ(ssdrt_handle_wait_stream(ctx, h, caller), 0)
        << ssdrt_last_error();
    std::vector<std::string> lines = log.lines();
    std::string copyStream = copiesWaitFor(lines, "h2d", log.stream(caller));
    // The caller's stream waits for an event recorded after the last copy.
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines.back(), "wait " + log.stream(caller) + " " + copyStream);
    EXPECT_TRUE(hasPattern(back, n, 7));
    ASSERT_EQ(ssdrt_handle_free(ctx, h), 0);
    EXPECT_EQ(handedBack, 1);
    dev.release(back);
  }
  ssdrt_context_destroy(ctx);
  dev.destroyStream(compute);
  dev.release(tensor);
}

} // namespace
