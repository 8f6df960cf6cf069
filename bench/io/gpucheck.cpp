//===- gpucheck.cpp - GPU -> SSD -> GPU through the runtime, bitwise ------===//
//
// The runtime's CUDA path in one program (bench/gpu/run builds and runs it on
// a machine with a GPU; ctest runs it against the fake driver):
//
//  1. odd sizes one at a time, with ssdrt_handle_offload and
//     ssdrt_handle_prefetch into memory the runtime allocates;
//  2. cuMemcpy host <-> device from pinned memory on one stream, BYTES
//     (default 1 GiB) each way: the bandwidth to compare the pipeline with;
//  3. device tensors of mixed sizes adding up to BYTES, offloaded with
//     ssdrt_handle_offload_stream (the copy stream waits for an event
//     recorded on the caller's stream, then device -> pinned staging ->
//     disk), all in flight at once, then prefetched back into fresh device
//     memory with ssdrt_handle_prefetch_stream.
//
// Every tensor is finished with wait, wait_stream and wait_event in turn and
// compared with its source byte for byte. Prints one JSON line on stdout;
// exits 0 when every tensor came back bitwise, 1 otherwise or on an error,
// 77 (skipped) without a device.
//
//   ssdrt-gpucheck DIR [BYTES]
//
// Against the fake driver (SSDRT_CUDA_LIBRARY=libssdrt-fakecuda.so) the same
// code runs with host memory standing in for the device.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Device.h"
#include "ssd/Runtime/Status.h"
#include "ssd/Runtime/ssdrt.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <sys/mman.h>
#include <vector>

using namespace ssd::rt;

namespace {

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

#define CHECK(call)                                                            \
  do {                                                                         \
    int rc_ = (call);                                                          \
    if (rc_ != 0) {                                                            \
      std::fprintf(stderr, "%s failed: %d %s\n", #call, rc_,                   \
                   ssdrt_last_error());                                        \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

void fill(unsigned char *p, uint64_t n, uint32_t seed) {
  uint32_t x = seed * 2654435761u + 7;
  for (uint64_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    p[i] = static_cast<unsigned char>(x);
  }
}

// Sizes that cycle through odd, page-sized, chunk-sized and large tensors,
// cut so that they add up to `total` exactly.
std::vector<uint64_t> mixedSizes(uint64_t total) {
  const uint64_t cycle[] = {
      1,          4095,     65537,           (1u << 20) + 13,
      8u << 20,   3u << 20, (32u << 20) + 7, 256,
      128u << 20, 4096 * 3, (64u << 20) - 1};
  std::vector<uint64_t> sizes;
  uint64_t sum = 0;
  for (size_t i = 0; sum < total; ++i) {
    uint64_t n = std::min(cycle[i % std::size(cycle)], total - sum);
    sizes.push_back(n);
    sum += n;
  }
  return sizes;
}

// Finishes the prefetch of `h` so that work queued on `compute` afterwards
// sees its bytes: wait (on the host), wait_stream or wait_event, by
// `flavour` % 3; counts which in `waits`.
void finish(ssdrt_context *ctx, const Device &dev, ssdrt_handle h,
            DeviceStream compute, size_t flavour, unsigned waits[3]) {
  switch (flavour % 3) {
  case 0:
    CHECK(ssdrt_handle_wait(ctx, h));
    break;
  case 1:
    CHECK(ssdrt_handle_wait_stream(ctx, h, compute));
    break;
  default: {
    void *event = nullptr;
    CHECK(ssdrt_handle_wait_event(ctx, h, &event));
    if (event)
      dev.streamWait(compute, event);
  }
  }
  ++waits[flavour % 3];
}

void *mapPinned(const Device &dev, uint64_t bytes, const char *what) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED || !dev.registerHost(p, bytes))
    fail(ENOMEM, std::string("cannot pin the ") + what);
  return p;
}

void unmapPinned(const Device &dev, void *p, uint64_t bytes) {
  dev.unregisterHost(p);
  munmap(p, bytes);
}

} // namespace

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  uint64_t total = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : (1ull << 30);
  ssdrt_options o;
  ssdrt_options_init(&o);
  o.directory = dir;
  o.staging_bytes = 256ull << 20;
  o.chunk_bytes = 8ull << 20;
  ssdrt_context *ctx;
  CHECK(ssdrt_context_create(&o, &ctx));
  if (!ssdrt_device_available(ctx)) {
    std::printf("{\"skipped\": \"no CUDA device\"}\n");
    ssdrt_context_destroy(ctx);
    return 77;
  }
  try {
    Device dev(0);
    DeviceStream compute = dev.createStream();
    unsigned waits[3] = {0, 0, 0};

    // 1. Odd sizes one at a time: plain offload, then a prefetch into device
    // memory the runtime allocates (offload without KEEP handed the source
    // back).
    const uint64_t oddSizes[] = {1, 4095, (1 << 20) + 13, 40ull << 20};
    size_t oddMismatched = 0;
    for (size_t i = 0; i < std::size(oddSizes); ++i) {
      uint64_t n = oddSizes[i];
      std::vector<unsigned char> host(n), back(n);
      fill(host.data(), n, uint32_t(i + 1));
      void *d = dev.allocate(n);
      dev.copyToDevice(d, host.data(), n, compute);
      dev.synchronizeStream(compute);
      const int64_t shape[] = {int64_t(n)};
      ssdrt_handle h;
      CHECK(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, shape, SSDRT_MEM_DEVICE,
                                d, &h));
      CHECK(ssdrt_handle_offload(ctx, h, 0));
      CHECK(ssdrt_handle_wait(ctx, h));
      dev.release(d);
      CHECK(ssdrt_handle_prefetch(ctx, h, nullptr));
      finish(ctx, dev, h, compute, i, waits);
      void *data;
      CHECK(ssdrt_handle_data(ctx, h, &data));
      dev.copyToHost(back.data(), data, n, compute);
      dev.synchronizeStream(compute);
      if (host != back) {
        std::fprintf(stderr, "odd-sized tensor %zu (%llu bytes) differs\n", i,
                     (unsigned long long)n);
        ++oddMismatched;
      }
      CHECK(ssdrt_handle_free(ctx, h));
    }

    // The source bytes of 2 and 3, in the mixed sizes, in pinned memory so
    // that filling the device is fast.
    std::vector<uint64_t> sizes = mixedSizes(total);
    size_t count = sizes.size();
    auto *src =
        static_cast<unsigned char *>(mapPinned(dev, total, "source buffer"));
    std::vector<uint64_t> offsets(count);
    for (size_t i = 0, off = 0; i < count; off += sizes[i], ++i) {
      offsets[i] = off;
      fill(src + off, sizes[i], uint32_t(i + 1));
    }

    // 2. cuMemcpy from pinned memory, the whole buffer each way.
    void *scratch = dev.allocate(total);
    double t0 = now();
    dev.copyToDevice(scratch, src, total, compute);
    dev.synchronizeStream(compute);
    double h2d = total / (now() - t0);
    auto *back =
        static_cast<unsigned char *>(mapPinned(dev, total, "result buffer"));
    t0 = now();
    dev.copyToHost(back, scratch, total, compute);
    dev.synchronizeStream(compute);
    double d2h = total / (now() - t0);
    bool memcpyOk = std::memcmp(src, back, total) == 0;
    dev.release(scratch);
    std::memset(back, 0, total);

    // 3. The tensors on the device, written by work on the compute stream
    // that the offloads are ordered after by event, not by a synchronize; all
    // in flight at once.
    std::vector<void *> device(count);
    std::vector<ssdrt_handle> handles(count);
    for (size_t i = 0; i < count; ++i) {
      device[i] = dev.allocate(sizes[i]);
      dev.copyToDevice(device[i], src + offsets[i], sizes[i], compute);
      const int64_t shape[] = {int64_t(sizes[i])};
      CHECK(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, shape, SSDRT_MEM_DEVICE,
                                device[i], &handles[i]));
    }
    t0 = now();
    for (size_t i = 0; i < count; ++i)
      CHECK(ssdrt_handle_offload_stream(ctx, handles[i], 0, compute));
    for (size_t i = 0; i < count; ++i) {
      CHECK(ssdrt_handle_wait(ctx, handles[i]));
      dev.release(device[i]); // the offload handed the memory back
    }
    double offload = total / (now() - t0);

    // Back into fresh device memory.
    t0 = now();
    for (size_t i = 0; i < count; ++i) {
      device[i] = dev.allocate(sizes[i]);
      CHECK(ssdrt_handle_prefetch_stream(ctx, handles[i], device[i], compute));
    }
    for (size_t i = 0; i < count; ++i) {
      finish(ctx, dev, handles[i], compute, i, waits);
      dev.copyToHost(back + offsets[i], device[i], sizes[i], compute);
    }
    dev.synchronizeStream(compute);
    double prefetch = total / (now() - t0);
    size_t mismatched = 0;
    for (size_t i = 0; i < count; ++i) {
      if (std::memcmp(src + offsets[i], back + offsets[i], sizes[i]) != 0) {
        std::fprintf(stderr, "tensor %zu (%llu bytes) differs\n", i,
                     (unsigned long long)sizes[i]);
        ++mismatched;
      }
      CHECK(ssdrt_handle_free(ctx, handles[i]));
      dev.release(device[i]);
    }

    ssdrt_stats_t st;
    CHECK(ssdrt_stats(ctx, &st));
    unmapPinned(dev, src, total);
    unmapPinned(dev, back, total);
    dev.destroyStream(compute);
    bool ok = mismatched == 0 && oddMismatched == 0 && memcpyOk &&
              st.bytes_written >= total && st.bytes_read >= total;
    std::printf(
        "{\"ok\": %s, \"bytes\": %llu, \"tensors\": %zu, "
        "\"largest_tensor\": %llu, \"mismatched_tensors\": %zu, "
        "\"odd_sizes\": {\"tensors\": %zu, \"mismatched\": %zu}, "
        "\"waits\": {\"wait\": %u, \"wait_stream\": %u, \"wait_event\": %u}, "
        "\"memcpy_h2d_bw\": %.0f, \"memcpy_d2h_bw\": %.0f, "
        "\"offload_bw\": %.0f, \"prefetch_bw\": %.0f, "
        "\"bytes_written\": %llu, \"bytes_read\": %llu, \"staged_bytes\": "
        "%llu, \"staging_wait_seconds\": %.3f}\n",
        ok ? "true" : "false", (unsigned long long)total, count,
        (unsigned long long)*std::max_element(sizes.begin(), sizes.end()),
        mismatched, std::size(oddSizes), oddMismatched, waits[0], waits[1],
        waits[2], h2d, d2h, offload, prefetch,
        (unsigned long long)st.bytes_written, (unsigned long long)st.bytes_read,
        (unsigned long long)st.staged_bytes, st.staging_wait_seconds);
    ssdrt_context_destroy(ctx);
    return ok ? 0 : 1;
  } catch (const Error &e) {
    std::fprintf(stderr, "ssdrt-gpucheck: %s\n", e.what());
    return 1;
  }
}
