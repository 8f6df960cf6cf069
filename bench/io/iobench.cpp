//===- iobench.cpp - Sequential throughput of the runtime's I/O engines ---===//
//
// Reads or writes one file sequentially in blocks of --bs bytes with --qd
// blocks in flight, through the io_uring engine or the thread-pool engine
// (both with O_DIRECT, registered buffers and files, one raw operation per
// block, as fio does), or through a naive buffered loop (what fairscale's SSD
// offload did: write through the page cache, then fsync; read cold). Prints
// one JSON line. `bench/io/run` runs it next to fio on the same file.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"
#include "ssd/Runtime/ssdrt.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <vector>

using namespace ssd::rt;

namespace {

struct Args {
  std::string file, engine = "io_uring", rw = "read";
  uint64_t size = 1ull << 30, bs = 1 << 20;
  unsigned qd = 32;
};

uint64_t parseBytes(const char *s) {
  char *end;
  double v = std::strtod(s, &end);
  switch (*end) {
  case 'k':
  case 'K':
    v *= 1024;
    break;
  case 'm':
  case 'M':
    v *= 1024 * 1024;
    break;
  case 'g':
  case 'G':
    v *= 1024.0 * 1024 * 1024;
    break;
  default:
    break;
  }
  return static_cast<uint64_t>(v);
}

Args parse(int argc, char **argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i];
    const char *v = argv[i + 1];
    if (k == "--file")
      a.file = v;
    else if (k == "--engine")
      a.engine = v;
    else if (k == "--rw")
      a.rw = v;
    else if (k == "--size")
      a.size = parseBytes(v);
    else if (k == "--bs")
      a.bs = parseBytes(v);
    else if (k == "--qd")
      a.qd = unsigned(std::atoi(v));
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      std::exit(2);
    }
  }
  if (a.file.empty() || a.bs == 0 || a.bs % 4096 || a.qd == 0) {
    std::fprintf(
        stderr,
        "usage: ssdrt-iobench --file F [--engine io_uring|threads|"
        "store|naive] [--rw read|write] [--size N] [--bs N] [--qd N]\n");
    std::exit(2);
  }
  a.size = a.size / a.bs * a.bs;
  return a;
}

char *mapBuffers(uint64_t bytes) {
  void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
  if (p == MAP_FAILED)
    fail(errno, "mmap of " + std::to_string(bytes) + " bytes failed");
  std::memset(p, 0x5a, bytes);
  return static_cast<char *>(p);
}

/// Keeps `qd` blocks in flight through the engine until the file is done.
double runEngine(const Args &a, bool writing) {
  int fd = ::open(a.file.c_str(), (writing ? O_WRONLY : O_RDONLY) | O_DIRECT);
  if (fd < 0)
    fail(errno, "open " + a.file + ": " + errnoText(errno));
  std::string note;
  auto backend = makeBackend(a.engine == "threads" ? EngineKind::Threads
                                                   : EngineKind::IoUring,
                             a.qd, note);
  unsigned slots = a.qd;
  char *buffers = mapBuffers(uint64_t(slots) * a.bs);
  std::vector<iovec> iovs;
  for (unsigned i = 0; i < slots; ++i)
    iovs.push_back({buffers + uint64_t(i) * a.bs, a.bs});
  bool fixedBufs = backend->registerBuffers(iovs) == 0;
  int fixedFile = backend->registerFile(fd);
  IoEngine engine(std::move(backend), {a.bs, 8});

  const uint64_t blocks = a.size / a.bs;
  std::atomic<uint64_t> next{0}, done{0};
  std::atomic<int> error{0};
  std::mutex m;
  std::condition_variable finished;

  // Each slot resubmits itself from its completion callback, so exactly
  // `slots` blocks are in flight until the end, like fio's iodepth.
  std::function<void(unsigned)> issue = [&](unsigned slot) {
    uint64_t block = next++;
    if (block >= blocks)
      return;
    IoRequest q;
    q.kind = writing ? IoOpKind::Write : IoOpKind::Read;
    q.fd = fd;
    q.fixedFile = fixedFile >= 0 ? fixedFile : -1;
    q.buf = iovs[slot].iov_base;
    q.len = a.bs;
    q.offset = block * a.bs;
    q.bufIndex = fixedBufs ? int(slot) : -1;
    engine.submit(q, [&, slot](const IoResult &r) {
      if (!r.ok())
        error = r.errnum;
      if (++done == blocks) {
        std::lock_guard<std::mutex> lock(m);
        finished.notify_all();
      } else {
        issue(slot);
      }
    });
  };
  auto start = std::chrono::steady_clock::now();
  for (unsigned s = 0; s < slots; ++s)
    issue(s);
  {
    std::unique_lock<std::mutex> lock(m);
    finished.wait(lock, [&] { return done == blocks; });
  }
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  if (error)
    fail(error, "transfer failed: " + errnoText(error));
  if (fixedFile >= 0)
    engine.backend().unregisterFile(fixedFile);
  munmap(buffers, uint64_t(slots) * a.bs);
  ::close(fd);
  return secs;
}

/// One handle of `size` bytes through ssdrt_handle_offload/prefetch. The
/// file is the store's own data file in the directory of --file.
double runStore(const Args &a, bool writing) {
  std::string dir = a.file.substr(0, a.file.rfind('/') + 1) + "store";
  ssdrt_options o;
  ssdrt_options_init(&o);
  o.directory = dir.c_str();
  o.engine = "io_uring";
  o.queue_depth = a.qd;
  o.chunk_bytes = a.bs;
  o.staging_bytes = 2 * a.bs;
  o.flags = SSDRT_OPT_NO_SYNC | SSDRT_OPT_HOST_ONLY;
  ssdrt_context *ctx;
  auto check = [](int rc, const char *what) {
    if (rc)
      fail(-rc, std::string(what) + ": " + ssdrt_last_error());
  };
  check(ssdrt_context_create(&o, &ctx), "context");
  char *mem = mapBuffers(a.size);
  const int64_t shape[] = {int64_t(a.size)};
  ssdrt_handle h;
  check(ssdrt_handle_create(ctx, SSDRT_DTYPE_U8, 1, shape, SSDRT_MEM_HOST, mem,
                            &h),
        "create");
  // Reads need the data on disk first; that write is not timed.
  if (!writing) {
    check(ssdrt_handle_offload(ctx, h, 0), "offload");
    check(ssdrt_handle_wait(ctx, h), "wait");
  }
  auto start = std::chrono::steady_clock::now();
  check(writing ? ssdrt_handle_offload(ctx, h, 0)
                : ssdrt_handle_prefetch(ctx, h, mem),
        "transfer");
  check(ssdrt_handle_wait(ctx, h), "wait");
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  ssdrt_context_destroy(ctx);
  ::rmdir(dir.c_str());
  munmap(mem, a.size);
  return secs;
}

/// Buffered write loop plus fsync, or a cold buffered read loop.
double runNaive(const Args &a, bool writing) {
  int fd = ::open(a.file.c_str(), writing ? O_WRONLY : O_RDONLY);
  if (fd < 0)
    fail(errno, "open " + a.file + ": " + errnoText(errno));
  // Start cold: drop the file's cached pages.
  ::fdatasync(fd);
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  char *buf = mapBuffers(a.bs);
  auto start = std::chrono::steady_clock::now();
  for (uint64_t off = 0; off < a.size;) {
    ssize_t r =
        writing ? ::pwrite(fd, buf, a.bs, off) : ::pread(fd, buf, a.bs, off);
    if (r < 0 && errno == EINTR)
      continue;
    if (r <= 0)
      fail(r ? errno : EIO, "naive transfer failed");
    off += uint64_t(r);
  }
  if (writing)
    ::fsync(fd);
  double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  munmap(buf, a.bs);
  ::close(fd);
  return secs;
}

} // namespace

int main(int argc, char **argv) {
  Args a = parse(argc, argv);
  bool writing = a.rw == "write";
  try {
    double secs = a.engine == "naive"   ? runNaive(a, writing)
                  : a.engine == "store" ? runStore(a, writing)
                                        : runEngine(a, writing);
    std::printf("{\"engine\": \"%s\", \"rw\": \"%s\", \"bs\": %llu, "
                "\"qd\": %u, \"bytes\": %llu, \"seconds\": %.6f, "
                "\"bw_bytes\": %.0f}\n",
                a.engine.c_str(), a.rw.c_str(), (unsigned long long)a.bs, a.qd,
                (unsigned long long)a.size, secs, a.size / secs);
  } catch (const Error &e) {
    std::fprintf(stderr, "ssdrt-iobench: %s\n", e.what());
    return 1;
  }
  return 0;
}
