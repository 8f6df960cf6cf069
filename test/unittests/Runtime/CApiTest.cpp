//===- CApiTest.cpp - Tests of the ssdrt C API ----------------------------===//
//
// The C edge: options, engine choice, handle and buffer life cycles, stats,
// negative errno returns with messages in ssdrt_last_error(), and that
// nothing thrown inside escapes.
//
//===----------------------------------------------------------------------===//
#include "TestUtil.h"

#include "ssd/Runtime/RuntimeSymbols.h"
#include "ssd/Runtime/ssdrt.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

using namespace ssd::rt::test;

extern "C" int ssdrt_test_from_c(const char *directory);

namespace {

TEST(CApi, UsableFromC) {
  ScratchDir dir;
  EXPECT_EQ(ssdrt_test_from_c(dir.path.c_str()), 0) << ssdrt_last_error();
}

class CApiTest : public ::testing::Test {
protected:
  void SetUp() override {
    ssdrt_options_init(&options);
    options.directory = dir.path.c_str();
    options.flags = SSDRT_OPT_HOST_ONLY;
    options.staging_bytes = 1 << 20;
    options.chunk_bytes = 256 << 10;
    ASSERT_EQ(ssdrt_context_create(&options, &ctx), 0) << ssdrt_last_error();
  }
  void TearDown() override { ssdrt_context_destroy(ctx); }
  ScratchDir dir;
  ssdrt_options options;
  ssdrt_context *ctx = nullptr;
};

// Host memory lent with a hand-back, ordered after a stream that host-only
// contexts ignore: the calls the torch extension makes for a CPU tensor.
TEST_F(CApiTest, LentMemoryIsHandedBackOnce) {
  const int64_t n = 70000;
  AlignedBuf mine(n), back(n);
  fillPattern(mine.data, n, 4);
  ssdrt_handle h = 0;
  ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &n, SSDRT_MEM_HOST,
                                mine.data, &h),
            0);
  int handedBack = 0;
  auto count = [](void *counter) { ++*static_cast<int *>(counter); };
  EXPECT_EQ(ssdrt_handle_on_release(ctx, h, nullptr, nullptr), -EINVAL);
  ASSERT_EQ(ssdrt_handle_on_release(ctx, h, count, &handedBack), 0);
  ASSERT_EQ(ssdrt_handle_offload_stream(ctx, h, 0, nullptr), 0);
  EXPECT_EQ(ssdrt_handle_on_release(ctx, h, count, &handedBack), -EBUSY);
  int32_t pending = -1;
  ASSERT_EQ(ssdrt_handle_pending(ctx, h, &pending), 0);
  EXPECT_EQ(pending, 1);
  ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
  EXPECT_EQ(handedBack, 1);
  ASSERT_EQ(ssdrt_handle_pending(ctx, h, &pending), 0);
  EXPECT_EQ(pending, 0);
  ASSERT_EQ(ssdrt_handle_prefetch_stream(ctx, h, back.data, nullptr), 0);
  ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
  EXPECT_TRUE(hasPattern(back.data, n, 4));
  ASSERT_EQ(ssdrt_handle_free(ctx, h), 0);
  EXPECT_EQ(handedBack, 1);
  EXPECT_EQ(ssdrt_handle_pending(ctx, h, &pending), -EBADF);

  ssdrt_handle owned = 0;
  ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &n, SSDRT_MEM_HOST,
                                nullptr, &owned),
            0);
  EXPECT_EQ(ssdrt_handle_on_release(ctx, owned, count, &handedBack), -EINVAL);
  EXPECT_NE(std::string(ssdrt_last_error()).find("caller"), std::string::npos)
      << ssdrt_last_error();
}

// Where a handle's bytes are on disk: what a checkpoint copies file to file.
TEST_F(CApiTest, HandleLocationNamesTheBytesOnDisk) {
  const int64_t n = 70000;
  ssdrt_handle h = 0;
  ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, &n, SSDRT_MEM_HOST,
                                nullptr, &h),
            0);
  char path[4096];
  uint64_t offset = 0;
  EXPECT_EQ(ssdrt_handle_location(ctx, h, path, sizeof(path), &offset),
            -ENODATA);
  EXPECT_NE(std::string(ssdrt_last_error()).find("no bytes on disk"),
            std::string::npos)
      << ssdrt_last_error();
  void *data = nullptr;
  ASSERT_EQ(ssdrt_handle_data(ctx, h, &data), 0);
  fillPattern(data, n, 9);
  ASSERT_EQ(ssdrt_handle_offload(ctx, h, 0), 0);
  ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
  ASSERT_EQ(ssdrt_handle_location(ctx, h, path, sizeof(path), &offset), 0)
      << ssdrt_last_error();
  EXPECT_EQ(std::string(path).rfind(dir.path, 0), 0u) << path;
  std::vector<char> bytes(n);
  int fd = ::open(path, O_RDONLY);
  ASSERT_GE(fd, 0) << path;
  EXPECT_EQ(::pread(fd, bytes.data(), n, off_t(offset)), n);
  ::close(fd);
  EXPECT_TRUE(hasPattern(bytes.data(), n, 9));
  EXPECT_EQ(ssdrt_handle_location(ctx, h, path, 4, &offset), -ERANGE);
  EXPECT_EQ(ssdrt_handle_location(ctx, h, nullptr, 0, &offset), -EINVAL);
  ASSERT_EQ(ssdrt_handle_free(ctx, h), 0);
  EXPECT_EQ(ssdrt_handle_location(ctx, h, path, sizeof(path), &offset), -EBADF);
}

TEST_F(CApiTest, HandleLifeCycle) {
  EXPECT_STREQ(ssdrt_engine_name(ctx), "io_uring");
  EXPECT_EQ(ssdrt_device_available(ctx), 0);
  const int64_t shape[] = {128, 33};
  ssdrt_handle h = 0;
  ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_F32, 2, shape, SSDRT_MEM_HOST,
                                nullptr, &h),
            0);
  uint64_t bytes = 0;
  ASSERT_EQ(ssdrt_handle_bytes(ctx, h, &bytes), 0);
  EXPECT_EQ(bytes, 128u * 33 * 4);
  void *data = nullptr;
  ASSERT_EQ(ssdrt_handle_data(ctx, h, &data), 0);
  fillPattern(data, bytes, 1);
  int32_t state = -1;
  ASSERT_EQ(ssdrt_handle_offload(ctx, h, 0), 0);
  ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
  ASSERT_EQ(ssdrt_handle_state(ctx, h, &state), 0);
  EXPECT_EQ(state, SSDRT_STATE_ON_DISK);
  AlignedBuf dst(bytes);
  ASSERT_EQ(ssdrt_handle_prefetch(ctx, h, dst.data), 0);
  void *event = &event;
  ASSERT_EQ(ssdrt_handle_wait_event(ctx, h, &event), 0);
  EXPECT_EQ(event, nullptr); // host-only: nothing left to wait on
  EXPECT_TRUE(hasPattern(dst.data, bytes, 1));
  ASSERT_EQ(ssdrt_handle_state(ctx, h, &state), 0);
  EXPECT_EQ(state, SSDRT_STATE_BOTH);
  ASSERT_EQ(ssdrt_handle_mark_dirty(ctx, h), 0);
  ASSERT_EQ(ssdrt_handle_offload(ctx, h, SSDRT_OFFLOAD_KEEP), 0);
  ASSERT_EQ(ssdrt_handle_wait_stream(ctx, h, nullptr), 0);
  ASSERT_EQ(ssdrt_handle_release(ctx, h), 0); // the lowering of ssd.release
  ASSERT_EQ(ssdrt_handle_state(ctx, h, &state), 0);
  EXPECT_EQ(state, SSDRT_STATE_ON_DISK);
  ASSERT_EQ(ssdrt_handle_free(ctx, h), 0);

  ssdrt_stats_t stats;
  ASSERT_EQ(ssdrt_stats(ctx, &stats), 0);
  // Disk bytes: O_DIRECT writes whole 4 KiB blocks.
  uint64_t onDisk = (bytes + 4095) / 4096 * 4096;
  EXPECT_EQ(stats.bytes_written, 2 * onDisk);
  EXPECT_EQ(stats.bytes_read, onDisk);
  EXPECT_EQ(stats.offloads, 2u);
  EXPECT_EQ(stats.prefetches, 1u);
  EXPECT_EQ(stats.sync_ops, 2u);
  EXPECT_GE(stats.wait_seconds, 0.0);
}

TEST_F(CApiTest, ErrorsAreNegativeErrnoWithMessage) {
  ssdrt_handle h = 0;
  const int64_t shape[] = {16};
  ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_I64, 1, shape, SSDRT_MEM_HOST,
                                nullptr, &h),
            0);
  EXPECT_EQ(ssdrt_handle_wait(ctx, h), -EINVAL);
  EXPECT_NE(std::string(ssdrt_last_error()).find("nothing to wait for"),
            std::string::npos);
  ASSERT_EQ(ssdrt_handle_offload(ctx, h, 0), 0);
  ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0);
  EXPECT_EQ(ssdrt_handle_wait(ctx, h), -EINVAL); // waiting twice
  ASSERT_EQ(ssdrt_handle_free(ctx, h), 0);
  EXPECT_EQ(ssdrt_handle_prefetch(ctx, h, nullptr), -EBADF);
  EXPECT_NE(std::string(ssdrt_last_error()).find("was freed"),
            std::string::npos);
  EXPECT_EQ(ssdrt_handle_create(ctx, 77, 1, shape, SSDRT_MEM_HOST, nullptr, &h),
            -EINVAL);
  EXPECT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_F32, 1, nullptr,
                                SSDRT_MEM_HOST, nullptr, &h),
            -EINVAL);
  EXPECT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_F32, 1, shape,
                                SSDRT_MEM_DEVICE, nullptr, &h),
            -ENODEV);
  EXPECT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_F32, 1, shape, SSDRT_MEM_HOST,
                                nullptr, nullptr),
            -EINVAL);
  EXPECT_EQ(ssdrt_handle_offload(nullptr, 1, 0), -EINVAL);
  EXPECT_EQ(ssdrt_stats(ctx, nullptr), -EINVAL);
}

TEST_F(CApiTest, BufferOps) {
  ssdrt_handle b = 0, m1 = 0, m2 = 0;
  ASSERT_EQ(ssdrt_buffer_create(ctx, 8192, SSDRT_MEM_HOST, nullptr, &b), 0);
  const int64_t s1[] = {100}, s2[] = {7, 7};
  ASSERT_EQ(ssdrt_buffer_add(ctx, b, SSDRT_DTYPE_F64, 1, s1, &m1), 0);
  ASSERT_EQ(ssdrt_buffer_add(ctx, b, SSDRT_DTYPE_I16, 2, s2, &m2), 0);
  void *d1, *d2;
  ssdrt_handle_data(ctx, m1, &d1);
  ssdrt_handle_data(ctx, m2, &d2);
  fillPattern(d1, 800, 2);
  fillPattern(d2, 98, 3);
  EXPECT_EQ(ssdrt_buffer_offload(ctx, m1, 0), -EINVAL); // not a buffer
  ASSERT_EQ(ssdrt_buffer_offload(ctx, b, 0), 0);
  ASSERT_EQ(ssdrt_buffer_wait(ctx, b), 0);
  ASSERT_EQ(ssdrt_buffer_prefetch(ctx, b, nullptr), 0);
  ASSERT_EQ(ssdrt_buffer_wait(ctx, b), 0);
  ssdrt_handle_data(ctx, m1, &d1);
  ssdrt_handle_data(ctx, m2, &d2);
  EXPECT_TRUE(hasPattern(d1, 800, 2));
  EXPECT_TRUE(hasPattern(d2, 98, 3));
  const int64_t big[] = {10000};
  EXPECT_EQ(ssdrt_buffer_add(ctx, b, SSDRT_DTYPE_F32, 1, big, &m1), -EBUSY);
  ASSERT_EQ(ssdrt_buffer_free(ctx, b), 0);
  int32_t state;
  EXPECT_EQ(ssdrt_handle_state(ctx, m2, &state), -EBADF);
}

TEST_F(CApiTest, GroupOps) {
  const int64_t shape[] = {3000};
  ssdrt_handle handles[3];
  void *data[3];
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(ssdrt_handle_create(ctx, SSDRT_DTYPE_F32, 1, shape,
                                  SSDRT_MEM_HOST, nullptr, &handles[i]),
              0);
    ssdrt_handle_data(ctx, handles[i], &data[i]);
    fillPattern(data[i], 12000, 10 + i);
  }
  ASSERT_EQ(ssdrt_handles_offload(ctx, handles, 3, 0), 0);
  for (ssdrt_handle h : handles)
    ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
  ssdrt_stats_t stats;
  ASSERT_EQ(ssdrt_stats(ctx, &stats), 0);
  EXPECT_EQ(stats.offloads, 3u);
  EXPECT_EQ(stats.sync_ops, 1u);
  AlignedBuf dst(12000);
  void *const dsts[] = {nullptr, dst.data, nullptr};
  ASSERT_EQ(ssdrt_handles_prefetch(ctx, handles, dsts, 3), 0);
  for (ssdrt_handle h : handles)
    ASSERT_EQ(ssdrt_handle_wait(ctx, h), 0) << ssdrt_last_error();
  EXPECT_TRUE(hasPattern(dst.data, 12000, 11));
  ssdrt_handle_data(ctx, handles[2], &data[2]);
  EXPECT_TRUE(hasPattern(data[2], 12000, 12));

  const ssdrt_handle twice[] = {handles[0], handles[0]};
  EXPECT_EQ(ssdrt_handles_offload(ctx, twice, 2, SSDRT_OFFLOAD_KEEP), -EINVAL);
  EXPECT_NE(std::string(ssdrt_last_error()).find("twice"), std::string::npos);
  EXPECT_EQ(ssdrt_handles_offload(ctx, nullptr, 2, 0), -EINVAL);
  EXPECT_EQ(ssdrt_handles_prefetch(ctx, nullptr, nullptr, 1), -EINVAL);
  EXPECT_EQ(ssdrt_handles_offload(ctx, nullptr, 0, 0), 0); // empty group
  for (ssdrt_handle h : handles)
    ASSERT_EQ(ssdrt_handle_free(ctx, h), 0);
}

TEST(CApi, OptionsAndEngines) {
  ScratchDir dir;
  ssdrt_options o;
  ssdrt_options_init(&o);
  o.directory = dir.path.c_str();
  o.flags = SSDRT_OPT_HOST_ONLY;
  o.staging_bytes = 1 << 20;
  o.chunk_bytes = 64 << 10;
  ssdrt_context *ctx = nullptr;
  o.engine = "bogus";
  EXPECT_EQ(ssdrt_context_create(&o, &ctx), -EINVAL);
  EXPECT_NE(std::string(ssdrt_last_error()).find("bogus"), std::string::npos);
  o.engine = "threads";
  ASSERT_EQ(ssdrt_context_create(&o, &ctx), 0);
  EXPECT_STREQ(ssdrt_engine_name(ctx), "threads");
  ssdrt_context_destroy(ctx);
  o.engine = nullptr;
  ::setenv("SSDRT_IO_ENGINE", "threads", 1);
  ASSERT_EQ(ssdrt_context_create(&o, &ctx), 0);
  ::unsetenv("SSDRT_IO_ENGINE");
  EXPECT_STREQ(ssdrt_engine_name(ctx), "threads");
  ssdrt_context_destroy(ctx);
  o.queue_depth = 0;
  EXPECT_EQ(ssdrt_context_create(&o, &ctx), -EINVAL);
  o.queue_depth = 8;
  o.staging_bytes = 4096;
  EXPECT_EQ(ssdrt_context_create(&o, &ctx), -EINVAL);
  o.staging_bytes = 1 << 20;
  std::string notDir = dir.path + "/file";
  fclose(fopen(notDir.c_str(), "w"));
  o.directory = notDir.c_str();
  EXPECT_LT(ssdrt_context_create(&o, &ctx), 0);
  EXPECT_EQ(ssdrt_context_create(&o, nullptr), -EINVAL);
  ssdrt_context_destroy(nullptr);
}

TEST(CApi, EverySymbolIsExported) {
  std::vector<const char *> names;
#define SSDRT_NAME(suffix) names.push_back(ssd::rt::symbols::suffix);
  SSDRT_FOR_EACH_SYMBOL(SSDRT_NAME)
#undef SSDRT_NAME
  EXPECT_STREQ(ssd::rt::symbols::handle_offload, "ssdrt_handle_offload");
  for (const char *name : names)
    EXPECT_NE(dlsym(RTLD_DEFAULT, name), nullptr) << name;
}

} // namespace
