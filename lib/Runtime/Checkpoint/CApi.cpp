//===- CApi.cpp - C API of the checkpoint library -------------------------===//
//
// Each entry point runs its body under `guard`, which turns every exception
// into a negative errno and a thread-local message, so none crosses into C.
// All saves, writers and readers share one process-wide I/O engine,
// created on first use.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Checkpoint.h"
#include "ssd/Runtime/Checkpoint/FileRegion.h"
#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/Checkpoint/ssdckpt.h"
#include "ssd/Runtime/IoEngine.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <span>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;

struct ssdckpt_save {
  /// A save whose ranks meet in the directory (ssdckpt_save_begin), or
  std::unique_ptr<RankSave> save;
  /// one that writes only this rank's data file and record, in a directory
  /// of its own (ssdckpt_save_begin_record).
  std::string dir;
  std::unique_ptr<RankWriter> writer;
};

struct ssdckpt_writer {
  std::unique_ptr<RankWriter> writer;
};

struct ssdckpt_reader {
  std::unique_ptr<CheckpointReader> reader;
};

namespace {

thread_local std::string lastError;

template <typename Body> int guard(Body &&body) {
  return guardCApi(lastError, body);
}

IoEngine &sharedEngine() {
  static std::once_flag once;
  static std::unique_ptr<IoEngine> engine;
  std::call_once(once, [] { engine = makeCheckpointEngine(); });
  return *engine;
}

void require(const void *pointer, const char *name) {
  if (!pointer)
    fail(EINVAL, std::string("null ") + name);
}

/// The DType of dtype code `code`, which checkpoints must hold (DTypes.def).
DType dtypeFromCode(int code) {
  const DTypeInfo *info = findDType(code);
  if (!info || !info->inCheckpoints)
    fail(EINVAL, "dtype code " + std::to_string(code) +
                     " is not supported in checkpoints");
  return info->dtype;
}

int codeFromDType(DType dtype) { return int(dtype); }

/// What ssdckpt_reader_tensor(s) tell of tensor `t`: its name, dtype code
/// and number of dimensions (where the pointer is not null) and, when
/// `shape` is not null, its shape.
void describeTensor(const TensorEntry &t, const char **name, int *dtype,
                    int *ndim, uint64_t *shape) {
  if (name)
    *name = t.name.c_str();
  if (dtype)
    *dtype = codeFromDType(t.dtype);
  if (ndim)
    *ndim = int(t.shape.size());
  if (shape)
    std::copy(t.shape.begin(), t.shape.end(), shape);
}

std::span<const uint64_t> dims(const uint64_t *values, int ndim,
                               const char *name) {
  if (ndim < 0 || ndim > 32)
    fail(EINVAL, "ndim " + std::to_string(ndim) + " is outside [0, 32]");
  if (ndim > 0)
    require(values, name);
  return {values, size_t(ndim)};
}

/// Runs `body` for chunk `index` of a batch of `count`; an error it throws
/// is thrown again with "chunk INDEX of COUNT: " before its message.
template <typename Body> void inChunk(size_t index, size_t count, Body &&body) {
  try {
    body();
  } catch (const Error &e) {
    fail(e.errnum, "chunk " + std::to_string(index) + " of " +
                       std::to_string(count) + ": " + e.what());
  }
}

/// The rank's writer of either kind of save.
RankWriter &writerOf(ssdckpt_save *save) {
  require(save, "save");
  if (save->save)
    return save->save->writer();
  if (!save->writer)
    fail(EINVAL, "the record of " + save->dir + " is already finished");
  return *save->writer;
}

/// The body of ssdckpt_writer_add and ssdckpt_save_add.
void addChunk(RankWriter &writer, const char *name, int dtype, int ndim,
              const uint64_t *shape, const uint64_t *offsets,
              const uint64_t *sizes, const void *data) {
  require(name, "name");
  writer.addChunk(name, dtypeFromCode(dtype), dims(shape, ndim, "shape"),
                  dims(offsets, ndim, "offsets"), dims(sizes, ndim, "sizes"),
                  data);
}

/// The body of ssdckpt_writer_add_file and ssdckpt_save_add_file.
void addChunkFromFile(RankWriter &writer, const char *name, int dtype, int ndim,
                      const uint64_t *shape, const uint64_t *offsets,
                      const uint64_t *sizes, const char *path,
                      uint64_t fileOffset) {
  require(name, "name");
  require(path, "path");
  addChunksFromFile(writer, name, dtypeFromCode(dtype),
                    dims(shape, ndim, "shape"), dims(offsets, ndim, "offsets"),
                    dims(sizes, ndim, "sizes"), path, fileOffset);
}

/// The body of ssdckpt_writer_set_state and ssdckpt_save_set_state.
void setRankState(RankWriter &writer, const void *rng, size_t rngBytes,
                  uint64_t dataLoaderPosition) {
  if (rngBytes)
    require(rng, "rng");
  writer.setRankState(std::string(static_cast<const char *>(rng), rngBytes),
                      dataLoaderPosition);
}

/// Hands `text` to the caller as malloc'd memory (freed by ssdckpt_free).
char *mallocCopy(const std::string &text) {
  char *copy = static_cast<char *>(std::malloc(text.size() + 1));
  if (!copy)
    throw std::bad_alloc();
  std::memcpy(copy, text.c_str(), text.size() + 1);
  return copy;
}

void copyOut(const std::string &text, char *out, size_t size) {
  require(out, "output buffer");
  if (text.size() + 1 > size)
    fail(ERANGE,
         "a buffer of " + std::to_string(size) + " bytes cannot hold " + text);
  std::memcpy(out, text.c_str(), text.size() + 1);
}

/// The LoadRequests of C requests (their pointers checked).
std::vector<LoadRequest> loadRequests(const ssdckpt_request *requests,
                                      size_t count) {
  if (count)
    require(requests, "requests");
  std::vector<LoadRequest> all;
  all.reserve(count);
  for (const ssdckpt_request &r : std::span(requests, count)) {
    require(r.name, "name");
    auto s = dims(r.shape, r.ndim, "shape");
    auto o = dims(r.offsets, r.ndim, "offsets");
    auto z = dims(r.sizes, r.ndim, "sizes");
    all.push_back({r.name,
                   dtypeFromCode(r.dtype),
                   {s.begin(), s.end()},
                   {o.begin(), o.end()},
                   {z.begin(), z.end()},
                   r.dest});
  }
  return all;
}

/// {"files": [{"rank", "file", "bytes"}...], "reads": [{"file", "offset",
/// "length"}...]}: the data files of `reader` and the ranges `reads` of them.
JsonValue planJson(const CheckpointReader &reader,
                   const std::vector<ReadRange> &reads) {
  JsonValue plan = JsonValue::object();
  JsonValue files = JsonValue::array();
  for (const RankState &rank : reader.manifest().ranks) {
    JsonValue f = JsonValue::object();
    f.set("rank", JsonValue::integer(rank.rank));
    f.set("file", JsonValue::string(rank.file));
    f.set("bytes", JsonValue::integer(rank.fileBytes));
    files.push(std::move(f));
  }
  JsonValue ranges = JsonValue::array();
  for (const ReadRange &r : reads) {
    JsonValue range = JsonValue::object();
    range.set("file", JsonValue::string(r.file));
    range.set("offset", JsonValue::integer(r.offset));
    range.set("length", JsonValue::integer(r.length));
    ranges.push(std::move(range));
  }
  plan.set("files", std::move(files));
  plan.set("reads", std::move(ranges));
  return plan;
}

// The rank records of a commit, parsed, each named by its rank on error.
std::vector<RankRecord> parseRecords(const char *const *records,
                                     uint32_t world_size) {
  std::vector<RankRecord> parsed;
  for (uint32_t rank = 0; rank < world_size; ++rank) {
    require(records[rank], "record");
    parsed.push_back(parseRankRecord(records[rank],
                                     "record of rank " + std::to_string(rank)));
  }
  return parsed;
}

} // namespace

extern "C" {

const char *ssdckpt_last_error(void) { return lastError.c_str(); }

void ssdckpt_free(char *text) { std::free(text); }

int ssdckpt_save_begin(const char *root, uint64_t step, uint32_t rank,
                       uint32_t world_size, uint64_t timeout_ms, unsigned keep,
                       ssdckpt_save **out) {
  return guard([&] {
    require(root, "root");
    require(out, "save pointer");
    RankSaveOptions options;
    options.timeout = std::chrono::milliseconds(std::min<uint64_t>(
        timeout_ms, std::chrono::milliseconds::max().count()));
    options.commit.keep = keep;
    auto s = std::make_unique<ssdckpt_save>();
    s->save = std::make_unique<RankSave>(sharedEngine(), root, step, rank,
                                         world_size, options);
    *out = s.release();
  });
}

int ssdckpt_save_begin_record(const char *root, uint64_t step, uint32_t rank,
                              ssdckpt_save **out) {
  return guard([&] {
    require(root, "root");
    require(out, "save pointer");
    auto s = std::make_unique<ssdckpt_save>();
    s->dir = beginCheckpoint(root, step);
    s->writer =
        std::make_unique<RankWriter>(sharedEngine(), s->dir, rank, step);
    *out = s.release();
  });
}

int ssdckpt_save_finish(ssdckpt_save *save, char **record) {
  return guard([&] {
    require(save, "save");
    require(record, "record pointer");
    if (save->save)
      fail(EINVAL, "a save begun by ssdckpt_save_begin is committed by "
                   "ssdckpt_save_commit");
    RankRecord finished = writerOf(save).finish();
    save->writer.reset();
    *record = mallocCopy(serializeRankRecord(finished));
  });
}

int ssdckpt_assemble_manifest(const char *origin, const char *const *records,
                              uint32_t world_size, char **manifest) {
  return guard([&] {
    require(origin, "origin");
    require(records, "records");
    require(manifest, "manifest pointer");
    std::vector<RankRecord> parsed = parseRecords(records, world_size);
    *manifest = mallocCopy(serializeManifest(assembleManifest(
        std::move(parsed), kDefaultChecksumBlockBytes, origin)));
  });
}

const char *ssdckpt_save_dir(const ssdckpt_save *save) {
  if (!save)
    return "";
  return save->save ? save->save->directory().c_str() : save->dir.c_str();
}

int ssdckpt_save_add(ssdckpt_save *save, const char *name, int dtype, int ndim,
                     const uint64_t *shape, const uint64_t *offsets,
                     const uint64_t *sizes, const void *data) {
  return guard([&] {
    addChunk(writerOf(save), name, dtype, ndim, shape, offsets, sizes, data);
  });
}

int ssdckpt_save_add_many(ssdckpt_save *save, const ssdckpt_chunk *chunks,
                          size_t count) {
  return guard([&] {
    require(save, "save");
    if (count)
      require(chunks, "chunks");
    std::span<const ssdckpt_chunk> all(chunks, count);
    for (size_t i = 0; i < count; ++i)
      inChunk(i, count, [&] {
        const ssdckpt_chunk &c = all[i];
        require(c.name, "name");
        dtypeFromCode(c.dtype);
        dims(c.shape, c.ndim, "shape");
        dims(c.offsets, c.ndim, "offsets");
        dims(c.sizes, c.ndim, "sizes");
      });
    RankWriter &writer = writerOf(save);
    for (size_t i = 0; i < count; ++i)
      inChunk(i, count, [&] {
        const ssdckpt_chunk &c = all[i];
        addChunk(writer, c.name, c.dtype, c.ndim, c.shape, c.offsets, c.sizes,
                 c.data);
      });
  });
}

int ssdckpt_save_add_file(ssdckpt_save *save, const char *name, int dtype,
                          int ndim, const uint64_t *shape,
                          const uint64_t *offsets, const uint64_t *sizes,
                          const char *path, uint64_t file_offset) {
  return guard([&] {
    addChunkFromFile(writerOf(save), name, dtype, ndim, shape, offsets, sizes,
                     path, file_offset);
  });
}

int ssdckpt_save_set_state(ssdckpt_save *save, const void *rng,
                           size_t rng_bytes, uint64_t data_loader_position) {
  return guard([&] {
    setRankState(writerOf(save), rng, rng_bytes, data_loader_position);
  });
}

int ssdckpt_save_set_state_tree(ssdckpt_save *save, const char *json) {
  return guard([&] {
    require(save, "save");
    require(json, "json");
    writerOf(save).setStateTree(parseStateTree(json, "the state tree"));
  });
}

int ssdckpt_check_state_tree(const char *json) {
  return guard([&] {
    require(json, "json");
    parseStateTree(json, "the state tree");
  });
}

int ssdckpt_save_commit(ssdckpt_save *save) {
  return guard([&] {
    require(save, "save");
    if (!save->save)
      fail(EINVAL, "a save begun by ssdckpt_save_begin_record is finished by "
                   "ssdckpt_save_finish, which returns its record");
    save->save->commit();
  });
}

void ssdckpt_save_close(ssdckpt_save *save) { delete save; }

int ssdckpt_begin(const char *root, uint64_t step, char *dir, size_t dir_size) {
  return guard([&] {
    require(root, "root");
    copyOut(beginCheckpoint(root, step), dir, dir_size);
  });
}

int ssdckpt_writer_open(const char *dir, uint32_t rank, uint64_t step,
                        ssdckpt_writer **out) {
  return guard([&] {
    require(dir, "dir");
    require(out, "writer pointer");
    auto w = std::make_unique<ssdckpt_writer>();
    w->writer = std::make_unique<RankWriter>(sharedEngine(), dir, rank, step);
    *out = w.release();
  });
}

int ssdckpt_writer_add(ssdckpt_writer *writer, const char *name, int dtype,
                       int ndim, const uint64_t *shape, const uint64_t *offsets,
                       const uint64_t *sizes, const void *data) {
  return guard([&] {
    require(writer, "writer");
    addChunk(*writer->writer, name, dtype, ndim, shape, offsets, sizes, data);
  });
}

int ssdckpt_writer_add_file(ssdckpt_writer *writer, const char *name, int dtype,
                            int ndim, const uint64_t *shape,
                            const uint64_t *offsets, const uint64_t *sizes,
                            const char *path, uint64_t file_offset) {
  return guard([&] {
    require(writer, "writer");
    addChunkFromFile(*writer->writer, name, dtype, ndim, shape, offsets, sizes,
                     path, file_offset);
  });
}

int ssdckpt_writer_set_state(ssdckpt_writer *writer, const void *rng,
                             size_t rng_bytes, uint64_t data_loader_position) {
  return guard([&] {
    require(writer, "writer");
    setRankState(*writer->writer, rng, rng_bytes, data_loader_position);
  });
}

int ssdckpt_writer_set_state_tree(ssdckpt_writer *writer, const char *json) {
  return guard([&] {
    require(writer, "writer");
    require(json, "json");
    writer->writer->setStateTree(parseStateTree(json, "the state tree"));
  });
}

int ssdckpt_writer_finish(ssdckpt_writer *writer, char **record) {
  return guard([&] {
    require(writer, "writer");
    require(record, "record pointer");
    *record = mallocCopy(serializeRankRecord(writer->writer->finish()));
  });
}

void ssdckpt_writer_close(ssdckpt_writer *writer) { delete writer; }

int ssdckpt_commit(const char *root, const char *dir,
                   const char *const *records, uint32_t world_size,
                   unsigned keep) {
  return guard([&] {
    require(root, "root");
    require(dir, "dir");
    require(records, "records");
    std::vector<RankRecord> parsed = parseRecords(records, world_size);
    CommitOptions options;
    options.keep = keep;
    commitCheckpoint(root, dir, std::move(parsed), options);
  });
}

int ssdckpt_abort(const char *dir) {
  return guard([&] {
    require(dir, "dir");
    abortCheckpoint(dir);
  });
}

int ssdckpt_latest(const char *root, char *dir, size_t dir_size) {
  return guard([&] {
    require(root, "root");
    copyOut(readLatest(root), dir, dir_size);
  });
}

int ssdckpt_gc(const char *root, unsigned keep) {
  return guard([&] {
    require(root, "root");
    collectGarbage(root, keep);
  });
}

int ssdckpt_reader_open(const char *dir, ssdckpt_reader **out) {
  return guard([&] {
    require(dir, "dir");
    require(out, "reader pointer");
    auto r = std::make_unique<ssdckpt_reader>();
    r->reader = std::make_unique<CheckpointReader>(sharedEngine(), dir);
    *out = r.release();
  });
}

int ssdckpt_reader_load(ssdckpt_reader *reader, const char *name, int dtype,
                        int ndim, const uint64_t *shape,
                        const uint64_t *offsets, const uint64_t *sizes,
                        void *dest) {
  ssdckpt_request request{name, dtype, ndim, shape, offsets, sizes, dest};
  return ssdckpt_reader_load_many(reader, &request, 1);
}

int ssdckpt_reader_load_file(ssdckpt_reader *reader, const char *name,
                             int dtype, int ndim, const uint64_t *shape,
                             const uint64_t *offsets, const uint64_t *sizes,
                             const char *path, uint64_t file_offset) {
  return guard([&] {
    require(reader, "reader");
    require(name, "name");
    require(path, "path");
    auto s = dims(shape, ndim, "shape");
    auto o = dims(offsets, ndim, "offsets");
    auto z = dims(sizes, ndim, "sizes");
    loadIntoFile(*reader->reader,
                 {name,
                  dtypeFromCode(dtype),
                  {s.begin(), s.end()},
                  {o.begin(), o.end()},
                  {z.begin(), z.end()},
                  nullptr},
                 path, file_offset);
  });
}

int ssdckpt_reader_load_many(ssdckpt_reader *reader,
                             const ssdckpt_request *requests, size_t count) {
  return guard([&] {
    require(reader, "reader");
    reader->reader->load(loadRequests(requests, count));
  });
}

int ssdckpt_reader_plan(ssdckpt_reader *reader, const ssdckpt_request *requests,
                        size_t count, char **json) {
  return guard([&] {
    require(reader, "reader");
    require(json, "json pointer");
    *json = mallocCopy(writeJson(
        planJson(*reader->reader,
                 reader->reader->planReads(loadRequests(requests, count)))));
  });
}

int ssdckpt_reader_plan_verify(ssdckpt_reader *reader, const char *file,
                               char **json) {
  return guard([&] {
    require(reader, "reader");
    require(json, "json pointer");
    std::string name = file ? file : "";
    if (file && !reader->reader->manifest().findFile(name))
      fail(ENOENT, "checkpoint " + reader->reader->directory() +
                       " has no data file \"" + name + "\"");
    *json = mallocCopy(writeJson(
        planJson(*reader->reader,
                 reader->reader->planVerifyReads(file ? &name : nullptr))));
  });
}

int ssdckpt_reader_verify_file(ssdckpt_reader *reader, const char *file) {
  return guard([&] {
    require(reader, "reader");
    require(file, "file");
    reader->reader->verifyFile(file);
  });
}

int ssdckpt_reader_verify(ssdckpt_reader *reader) {
  return guard([&] {
    require(reader, "reader");
    reader->reader->verifyAll();
  });
}

int ssdckpt_reader_resume_state(ssdckpt_reader *reader, uint32_t rank,
                                uint32_t world_size, uint64_t *step, void *rng,
                                size_t rng_capacity, size_t *rng_bytes,
                                int *rng_restored,
                                uint64_t *data_loader_position,
                                int *position_is_global) {
  return guard([&] {
    require(reader, "reader");
    ResumeState state = reader->reader->resumeState(rank, world_size);
    if (step)
      *step = state.step;
    if (rng_restored)
      *rng_restored = state.rngRestored;
    if (data_loader_position)
      *data_loader_position = state.dataLoaderPosition;
    if (position_is_global)
      *position_is_global = state.positionIsGlobal;
    if (rng_bytes)
      *rng_bytes = state.rng.size();
    if (state.rng.size() > rng_capacity)
      fail(ERANGE, "the generator state of rank " + std::to_string(rank) +
                       " needs " + std::to_string(state.rng.size()) +
                       " bytes, the buffer holds " +
                       std::to_string(rng_capacity));
    if (!state.rng.empty())
      std::memcpy(rng, state.rng.data(), state.rng.size());
  });
}

void ssdckpt_reader_close(ssdckpt_reader *reader) { delete reader; }

int ssdckpt_copy_regions(const ssdckpt_copy_region *regions, size_t count,
                         unsigned threads) {
  return guard([&] {
    if (count)
      require(regions, "regions");
    std::span<const ssdckpt_copy_region> all(regions, count);
    uint64_t total = 0;
    for (const ssdckpt_copy_region &r : all)
      total += r.bytes;
    if (threads == 0)
      threads = std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
    // Below a few MiB a thread costs more than it copies.
    constexpr uint64_t kBytesPerThread = 4 << 20;
    threads = unsigned(std::min<uint64_t>(
        threads, std::max<uint64_t>(1, total / kBytesPerThread)));
    // Share t is the bytes [t * total / threads, (t + 1) * total / threads)
    // of the regions laid end to end.
    auto copyShare = [&](unsigned t) {
      uint64_t begin = total * t / threads, end = total * (t + 1) / threads;
      uint64_t at = 0; // where the current region starts, end to end
      for (const ssdckpt_copy_region &r : all) {
        uint64_t lo = std::max(begin, at), hi = std::min(end, at + r.bytes);
        if (lo < hi)
          std::memcpy(static_cast<char *>(r.dest) + (lo - at),
                      static_cast<const char *>(r.src) + (lo - at), hi - lo);
        at += r.bytes;
        if (at >= end)
          break;
      }
    };
    std::vector<std::thread> helpers;
    unsigned started = 1;
    try {
      for (; started < threads; ++started)
        helpers.emplace_back(copyShare, started);
    } catch (const std::system_error &) {
      // No more threads: this one copies the shares they would have.
    }
    for (unsigned t = started; t < threads; ++t)
      copyShare(t);
    copyShare(0);
    for (std::thread &h : helpers)
      h.join();
  });
}

int ssdckpt_dtype_info(int dtype, const char **name, size_t *bytes) {
  return guard([&] {
    DType d = dtypeFromCode(dtype);
    if (name)
      *name = dtypeName(d);
    if (bytes)
      *bytes = dtypeSize(d);
  });
}

int ssdckpt_reader_info(const ssdckpt_reader *reader, uint64_t *step,
                        uint32_t *world_size, uint32_t *version,
                        size_t *num_tensors) {
  return guard([&] {
    require(reader, "reader");
    const Manifest &m = reader->reader->manifest();
    if (step)
      *step = m.step;
    if (world_size)
      *world_size = m.worldSize;
    if (version)
      *version = m.version;
    if (num_tensors)
      *num_tensors = m.tensors.size();
  });
}

int ssdckpt_reader_state_tree(const ssdckpt_reader *reader, char **json) {
  return guard([&] {
    require(reader, "reader");
    require(json, "json pointer");
    const Manifest &m = reader->reader->manifest();
    if (!m.stateTree)
      fail(ENOENT, reader->reader->directory() + "/" + kManifestName +
                       " has no state tree (format version " +
                       std::to_string(m.version) + ")");
    *json = mallocCopy(writeJson(*m.stateTree));
  });
}

int ssdckpt_reader_tensor(const ssdckpt_reader *reader, size_t index,
                          const char **name, int *dtype, int *ndim,
                          uint64_t *shape, size_t shape_capacity) {
  return guard([&] {
    require(reader, "reader");
    const Manifest &m = reader->reader->manifest();
    if (index >= m.tensors.size())
      fail(EINVAL, "tensor index " + std::to_string(index) +
                       " is outside the checkpoint's " +
                       std::to_string(m.tensors.size()) + " tensors");
    const TensorEntry &t = m.tensors[index];
    bool fits = t.shape.size() <= shape_capacity;
    describeTensor(t, name, dtype, ndim, fits ? shape : nullptr);
    if (!fits)
      fail(ERANGE, "tensor " + t.name + " has " +
                       std::to_string(t.shape.size()) +
                       " dimensions, the buffer holds " +
                       std::to_string(shape_capacity));
    if (!t.shape.empty())
      require(shape, "shape");
  });
}

int ssdckpt_reader_tensors(const ssdckpt_reader *reader, size_t count,
                           const char **names, int *dtypes, int *ndims,
                           uint64_t *dims, size_t dims_capacity,
                           size_t *dims_needed) {
  return guard([&] {
    require(reader, "reader");
    const Manifest &m = reader->reader->manifest();
    if (count != m.tensors.size())
      fail(EINVAL, "the checkpoint has " + std::to_string(m.tensors.size()) +
                       " tensors, the arrays hold " + std::to_string(count));
    size_t needed = 0;
    for (const TensorEntry &t : m.tensors)
      needed += t.shape.size();
    if (dims_needed)
      *dims_needed = needed;
    if (needed > dims_capacity)
      fail(ERANGE, "the shapes of " + std::to_string(count) + " tensors take " +
                       std::to_string(needed) +
                       " dimensions, the buffer holds " +
                       std::to_string(dims_capacity));
    if (count) {
      require(names, "names");
      require(dtypes, "dtypes");
      require(ndims, "ndims");
    }
    if (needed)
      require(dims, "dims");
    size_t at = 0;
    for (size_t i = 0; i < count; ++i) {
      const TensorEntry &t = m.tensors[i];
      describeTensor(t, names + i, dtypes + i, ndims + i, dims + at);
      at += t.shape.size();
    }
  });
}

int ssdckpt_list(const char *root, char **json) {
  return guard([&] {
    require(root, "root");
    require(json, "json pointer");
    JsonValue all = JsonValue::array();
    for (const CheckpointListing &c : listCheckpoints(root)) {
      JsonValue entry = JsonValue::object();
      entry.set("name", JsonValue::string(c.name));
      entry.set("step", JsonValue::integer(c.step));
      entry.set("committed", JsonValue::boolean(c.committed));
      entry.set("latest", JsonValue::boolean(c.latest));
      entry.set("bytes", JsonValue::integer(c.bytes));
      all.push(std::move(entry));
    }
    *json = mallocCopy(writeJson(all));
  });
}

} // extern "C"
