//===- gpucheck.cpp - Device round trips through the whole pipeline -------===//
//
// For a machine with a GPU (run by bench/gpu/runtime_check.sh): offloads
// device tensors through the C API (device -> pinned staging -> disk) and
// prefetches them back (disk -> staging -> device, chunk i+1 read while chunk
// i is copied), checks every byte, exercises wait, wait_event and
// wait_stream, and compares the pipeline's bandwidth with a plain pinned
// cuMemcpy. Exits 77 (skipped) without a GPU, 1 on any mismatch or error.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Device.h"
#include "ssd/Runtime/Status.h"
#include "ssd/Runtime/ssdrt.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

void pattern(std::vector<unsigned char> &v, unsigned seed) {
  uint32_t x = seed * 2654435761u + 7;
  for (auto &b : v) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    b = static_cast<unsigned char>(x);
  }
}

} // namespace

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : ".";
  uint64_t big = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : (1ull << 30);
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
    bool ok = true;

    // Correctness: odd sizes, each wait flavour.
    const uint64_t sizes[] = {1, 4095, (1 << 20) + 13, 40ull << 20};
    for (unsigned i = 0; i < 4; ++i) {
      uint64_t n = sizes[i];
      std::vector<unsigned char> host(n), back(n);
      pattern(host, i + 1);
      void *d = dev.allocate(n);
      dev.copyToDevice(d, host.data(), n, compute);
      dev.synchronizeStream(compute);
      const int64_t shape[] = {int64_t(n)};
      ssdrt_handle h;
      CHECK(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, shape, SSDRT_MEM_DEVICE,
                                d, &h));
      CHECK(ssdrt_handle_offload(ctx, h, 0));
      CHECK(ssdrt_handle_wait(ctx, h));
      dev.release(d); // offload without KEEP handed the memory back
      CHECK(ssdrt_handle_prefetch(ctx, h, nullptr));
      if (i % 3 == 0) {
        CHECK(ssdrt_handle_wait(ctx, h));
      } else if (i % 3 == 1) {
        CHECK(ssdrt_handle_wait_stream(ctx, h, compute));
      } else {
        void *event = nullptr;
        CHECK(ssdrt_handle_wait_event(ctx, h, &event));
        if (event)
          dev.streamWait(compute, event);
      }
      void *data;
      CHECK(ssdrt_handle_data(ctx, h, &data));
      dev.copyToHost(back.data(), data, n, compute);
      dev.synchronizeStream(compute);
      bool same = host == back;
      ok &= same;
      std::printf("# round trip %llu bytes: %s\n", (unsigned long long)n,
                  same ? "ok" : "MISMATCH");
      CHECK(ssdrt_handle_free(ctx, h));
    }

    // Bandwidth: plain pinned cuMemcpy, then the pipeline on `big` bytes.
    void *pinned = mmap(nullptr, big, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (pinned == MAP_FAILED || !dev.registerHost(pinned, big))
      fail(ENOMEM, "cannot pin the reference buffer");
    std::memset(pinned, 0x3c, big);
    void *d = dev.allocate(big);
    double t0 = now();
    dev.copyToDevice(d, pinned, big, compute);
    dev.synchronizeStream(compute);
    double h2d = big / (now() - t0);
    t0 = now();
    dev.copyToHost(pinned, d, big, compute);
    dev.synchronizeStream(compute);
    double d2h = big / (now() - t0);

    const int64_t shape[] = {int64_t(big)};
    ssdrt_handle h;
    CHECK(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, shape, SSDRT_MEM_DEVICE,
                              d, &h));
    t0 = now();
    CHECK(ssdrt_handle_offload(ctx, h, 0));
    CHECK(ssdrt_handle_wait(ctx, h));
    double offload = big / (now() - t0);
    t0 = now();
    CHECK(ssdrt_handle_prefetch(ctx, h, d));
    CHECK(ssdrt_handle_wait(ctx, h));
    double prefetch = big / (now() - t0);
    std::vector<unsigned char> check(1 << 20);
    dev.copyToHost(check.data(), static_cast<char *>(d) + big - check.size(),
                   check.size(), compute);
    dev.synchronizeStream(compute);
    for (unsigned char c : check)
      ok &= c == 0x3c;
    CHECK(ssdrt_handle_free(ctx, h));
    dev.release(d);
    dev.unregisterHost(pinned);
    munmap(pinned, big);
    dev.destroyStream(compute);

    ssdrt_stats_t st;
    CHECK(ssdrt_stats(ctx, &st));
    std::printf("{\"ok\": %s, \"bytes\": %llu, \"memcpy_h2d_bw\": %.0f, "
                "\"memcpy_d2h_bw\": %.0f, \"offload_bw\": %.0f, "
                "\"prefetch_bw\": %.0f, \"staging_wait_seconds\": %.3f}\n",
                ok ? "true" : "false", (unsigned long long)big, h2d, d2h,
                offload, prefetch, st.staging_wait_seconds);
    ssdrt_context_destroy(ctx);
    return ok ? 0 : 1;
  } catch (const Error &e) {
    std::fprintf(stderr, "ssdrt-gpucheck: %s\n", e.what());
    return 1;
  }
}
