//===- FakeCudaTest.cpp - Device paths against a fake CUDA driver ---------===//
//
// Runs the device half of the runtime (driver loading, pinned staging,
// device offload and prefetch through staging chunks, events, stream waits,
// copy failures) against FakeCuda.c, so that it is tested on machines
// without a GPU. The real GPU check is bench/gpu/runtime_check.sh.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "ssd/Runtime/TensorStore.h"
#include "ssd/Runtime/ssdrt.h"

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
  try {
    store.wait(h);
  } catch (const Error &e) {
    msg = e.what();
  }
  ::unsetenv("FAKE_CUDA_FAIL_H2D");
  EXPECT_NE(msg.find("cuMemcpyHtoDAsync"), std::string::npos) << msg;
  EXPECT_EQ(store.info(h).state, State::OnDisk);
  store.prefetch(h, nullptr);
  store.wait(h);
  EXPECT_TRUE(hasPattern(store.info(h).data, shape[0], 2));
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
  try {
    store.wait(h);
  } catch (const Error &e) {
    msg = e.what();
  }
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

} // namespace
