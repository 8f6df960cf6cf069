/*===- ssdckpt.h - C API of the checkpoint library -----------------*- C -*-===*
 *
 * Sharded, elastic, checksummed checkpoints for callers outside C++ (the
 * Python package through ctypes or its torch extension, compiled steps).
 *
 * A save by ranks that share only the file system: every rank calls
 * ssdckpt_save_begin, adds its shards with ssdckpt_save_add, and calls
 * ssdckpt_save_commit, which returns once the step is committed (the ranks
 * meet in the checkpoint's directory; rank 0 commits). A save whose caller
 * gathers the records itself (e.g. with torch.distributed): one process
 * calls ssdckpt_begin; every rank opens a writer on the returned directory,
 * adds its shards, and finishes, which yields its record as text; the
 * committing rank gathers all records and calls ssdckpt_commit.
 *
 * A load: ssdckpt_reader_open on ssdckpt_latest's answer, then one
 * ssdckpt_reader_load per box the rank owns now.
 *
 * Conventions: every function returning int returns 0 on success or a
 * negative errno, and then ssdckpt_last_error() returns this thread's message
 * naming the cause (file, offset, length, tensor, chunk). No C++ exception
 * crosses this interface. dtype codes are ssdrt.h's SSDRT_DTYPE_* (the F8
 * types are not supported in checkpoints). Saves, writers and readers are not
 * thread-safe; distinct ones may be used from distinct threads.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SSD_RUNTIME_CHECKPOINT_SSDCKPT_H
#define SSD_RUNTIME_CHECKPOINT_SSDCKPT_H

#include "ssd/Runtime/ssdrt.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ssdckpt_save ssdckpt_save;
typedef struct ssdckpt_writer ssdckpt_writer;
typedef struct ssdckpt_reader ssdckpt_reader;

/** The message of this thread's last failure ("" if none). */
SSDRT_API const char *ssdckpt_last_error(void);

/** Frees text returned by this API (records). */
SSDRT_API void ssdckpt_free(char *text);

/**
 * ssdckpt_save_begin - join the save of checkpoint `step` under `root` as
 * rank `rank` of `world_size`, each rank a process of its own. Rank 0
 * creates the directory (as ssdckpt_begin) and, with other ranks, marks it
 * begun; any other rank waits at most `timeout_ms` milliseconds for that
 * mark. Then opens this rank's data file. `keep` is the retention rank 0
 * applies after the commit (0: keep all).
 * Returns 0 and *out; -EINVAL for a rank outside world_size; on rank 0
 * -EEXIST if that step is committed and `latest` names it or a later step;
 * on other ranks -ETIMEDOUT when rank 0 did not begin in time; -ESTALE when
 * rank 0 began the directory again meanwhile; another -errno on I/O errors.
 */
SSDRT_API int ssdckpt_save_begin(const char *root, uint64_t step, uint32_t rank,
                                 uint32_t world_size, uint64_t timeout_ms,
                                 unsigned keep, ssdckpt_save **out);

/**
 * ssdckpt_save_begin_record - begin rank `rank`'s part of checkpoint `step`
 * in a directory of its own, root/step-<12 digits> (as ssdckpt_begin: an
 * uncommitted leftover is removed), meeting no other rank: for ranks that
 * share no file system (several nodes) and commit elsewhere, e.g. in an
 * object store. Add and set state as with ssdckpt_save_begin; then
 * ssdckpt_save_finish returns the rank's record instead of committing, and
 * the caller assembles the manifest from every rank's record
 * (ssdckpt_assemble_manifest). Returns as ssdckpt_begin.
 */
SSDRT_API int ssdckpt_save_begin_record(const char *root, uint64_t step,
                                        uint32_t rank, ssdckpt_save **out);

/**
 * ssdckpt_save_finish - finish (fsync) the data file of a save begun by
 * ssdckpt_save_begin_record and return its record in *record (free with
 * ssdckpt_free). Returns 0; -EINVAL for a save of ssdckpt_save_begin (commit
 * it) or one already finished; another -errno on I/O errors.
 */
SSDRT_API int ssdckpt_save_finish(ssdckpt_save *save, char **record);

/**
 * ssdckpt_assemble_manifest - the manifest text of the records of all
 * `world_size` ranks (records[r] from rank r), assembled and validated as
 * ssdckpt_commit does before it writes (messages start with `origin`), in
 * *manifest (free with ssdckpt_free), for callers that commit it elsewhere.
 * Returns 0; -EINVAL for inconsistent records.
 */
SSDRT_API int ssdckpt_assemble_manifest(const char *origin,
                                        const char *const *records,
                                        uint32_t world_size, char **manifest);

/**
 * ssdckpt_save_dir - the directory of the checkpoint being saved
 * (root/step-<12 digits>), valid until ssdckpt_save_close.
 */
SSDRT_API const char *ssdckpt_save_dir(const ssdckpt_save *save);

/**
 * ssdckpt_save_add - ssdckpt_writer_add into this rank's data file.
 * Returns as ssdckpt_writer_add; -EINVAL after ssdckpt_save_commit.
 */
SSDRT_API int ssdckpt_save_add(ssdckpt_save *save, const char *name, int dtype,
                               int ndim, const uint64_t *shape,
                               const uint64_t *offsets, const uint64_t *sizes,
                               const void *data);

/** One box to save: the arguments of ssdckpt_save_add. */
typedef struct ssdckpt_chunk {
  const char *name;
  int dtype;
  int ndim;
  const uint64_t *shape;
  const uint64_t *offsets;
  const uint64_t *sizes;
  const void *data;
} ssdckpt_chunk;

/**
 * ssdckpt_save_add_many - ssdckpt_save_add of `count` boxes in one call, in
 * order, for callers with many small tensors (one call instead of one per
 * tensor; the writer packs their chunks back to back, each at a multiple of
 * 4096 bytes, into its staging buffers and writes those whole). Names,
 * dtype codes and dimensions of every chunk are checked before any is
 * added. A chunk refused later (a box outside its shape) or a failed write
 * stops the call: the chunks before it are added, and the message starts
 * with "chunk I of COUNT" and names the tensor, or the data file, offset
 * and length of the failed write. Returns as ssdckpt_save_add.
 */
SSDRT_API int ssdckpt_save_add_many(ssdckpt_save *save,
                                    const ssdckpt_chunk *chunks, size_t count);

/**
 * ssdckpt_save_add_file - ssdckpt_writer_add_file into this rank's data
 * file. Returns as ssdckpt_writer_add_file; -EINVAL after
 * ssdckpt_save_commit.
 */
SSDRT_API int ssdckpt_save_add_file(ssdckpt_save *save, const char *name,
                                    int dtype, int ndim, const uint64_t *shape,
                                    const uint64_t *offsets,
                                    const uint64_t *sizes, const char *path,
                                    uint64_t file_offset);

/** ssdckpt_save_set_state - ssdckpt_writer_set_state for this rank. */
SSDRT_API int ssdckpt_save_set_state(ssdckpt_save *save, const void *rng,
                                     size_t rng_bytes,
                                     uint64_t data_loader_position);

/**
 * ssdckpt_save_set_state_tree - record the manifest's state tree (rank 0
 * only; the commit refuses one from another rank): `json`, one JSON value
 * in the manifest's strict language (integers only, no deeper than a
 * manifest holds it), which the manifest carries as its member `state_tree`
 * (format version 2) under its checksum.
 * Returns 0; -EINVAL naming the byte offset and cause for text that is not
 * JSON or nests deeper than a manifest may (ssdckpt_check_state_tree).
 */
SSDRT_API int ssdckpt_save_set_state_tree(ssdckpt_save *save, const char *json);

/**
 * ssdckpt_check_state_tree - whether `json` may be a manifest's state tree,
 * checked exactly as ssdckpt_save_set_state_tree checks it, for callers that
 * refuse bad values before anything is written. Returns 0 or -EINVAL.
 */
SSDRT_API int ssdckpt_check_state_tree(const char *json);

/**
 * ssdckpt_save_commit - finish this rank's data file (fsync) and commit its
 * part of the step. Rank 0 waits for every other rank's record, checks their
 * data files, and commits the step (as ssdckpt_commit); any other rank
 * publishes its record and waits for that commit. Either waits at most the
 * timeout given to ssdckpt_save_begin.
 * Returns 0 once the step is committed; -ETIMEDOUT naming the ranks that did
 * not come (or, on other ranks, saying rank 0 did not commit); -ESTALE when
 * rank 0 began the directory again under this rank; -EINVAL for
 * inconsistent records or data files; another -errno on I/O errors. The
 * save must still be closed; a second commit returns -EINVAL.
 */
SSDRT_API int ssdckpt_save_commit(ssdckpt_save *save);

/** Closes a save; an uncommitted one leaves its directory uncommitted. */
SSDRT_API void ssdckpt_save_close(ssdckpt_save *save);

/**
 * ssdckpt_begin - create the directory of checkpoint `step` under `root`.
 * Writes its NUL-terminated path into dir[0..dir_size).
 * Returns 0; -EEXIST if that step is committed and `latest` names it or a
 * later step; -ERANGE if dir_size is too small; another -errno on I/O errors.
 */
SSDRT_API int ssdckpt_begin(const char *root, uint64_t step, char *dir,
                            size_t dir_size);

/**
 * ssdckpt_writer_open - start rank `rank`'s data file in `dir`.
 * Returns 0 and *out, or -errno (-ENOENT if dir does not exist).
 */
SSDRT_API int ssdckpt_writer_open(const char *dir, uint32_t rank, uint64_t step,
                                  ssdckpt_writer **out);

/**
 * ssdckpt_writer_add - add the box [offsets, offsets + sizes) of tensor
 * `name` (global shape `shape`, `ndim` dimensions), whose bytes `data` holds
 * row-major. The bytes are copied before returning.
 * Returns 0; -EINVAL for a bad dtype or a box outside the shape; -ENOSPC or
 * another -errno when a write of the data file failed.
 */
SSDRT_API int ssdckpt_writer_add(ssdckpt_writer *writer, const char *name,
                                 int dtype, int ndim, const uint64_t *shape,
                                 const uint64_t *offsets, const uint64_t *sizes,
                                 const void *data);

/**
 * ssdckpt_writer_add_file - ssdckpt_writer_add of a box whose bytes are not
 * in memory but in the file `path`: the elements x dtype size bytes at
 * `file_offset`, row-major (a tensor kept on SSD). They are copied file to
 * file through one buffer of 8 MiB, in pieces each saved as a chunk of its
 * own, so the copy needs no memory beyond it, whatever the box's size.
 * Returns 0; -EINVAL for a bad dtype or a box outside the shape; -ENODATA
 * when `path` ends before the region does; -ENOENT, -EACCES... when `path`
 * cannot be opened; another -errno when a read of `path` or a write of the
 * data file failed. The message names the file, offset and cause.
 */
SSDRT_API int ssdckpt_writer_add_file(ssdckpt_writer *writer, const char *name,
                                      int dtype, int ndim,
                                      const uint64_t *shape,
                                      const uint64_t *offsets,
                                      const uint64_t *sizes, const char *path,
                                      uint64_t file_offset);

/**
 * ssdckpt_writer_set_state - record this rank's generator state (opaque
 * bytes) and data-loader position. Returns 0 or -EINVAL.
 */
SSDRT_API int ssdckpt_writer_set_state(ssdckpt_writer *writer, const void *rng,
                                       size_t rng_bytes,
                                       uint64_t data_loader_position);

/** ssdckpt_writer_set_state_tree - ssdckpt_save_set_state_tree for a writer. */
SSDRT_API int ssdckpt_writer_set_state_tree(ssdckpt_writer *writer,
                                            const char *json);

/**
 * ssdckpt_writer_finish - write what is buffered, fsync, and return this
 * rank's record in *record (free with ssdckpt_free).
 * Returns 0 or -errno. The writer must still be closed.
 */
SSDRT_API int ssdckpt_writer_finish(ssdckpt_writer *writer, char **record);

/** Closes a writer; an unfinished one leaves the save uncommitted. */
SSDRT_API void ssdckpt_writer_close(ssdckpt_writer *writer);

/**
 * ssdckpt_commit - commit `dir` from the records of all `world_size` ranks
 * (records[r] from rank r), move root/latest to it, and keep the newest
 * `keep` checkpoints (0: keep all).
 * Returns 0; -EINVAL for inconsistent records (step, dtype or shape
 * mismatch, overlapping or missing chunks); -errno on I/O errors.
 */
SSDRT_API int ssdckpt_commit(const char *root, const char *dir,
                             const char *const *records, uint32_t world_size,
                             unsigned keep);

/** Removes an uncommitted checkpoint directory. Returns 0 or -errno. */
SSDRT_API int ssdckpt_abort(const char *dir);

/**
 * ssdckpt_latest - the committed checkpoint root/latest names, written into
 * dir[0..dir_size). Returns 0; -ENOENT when none; -EINVAL for a bad pointer.
 */
SSDRT_API int ssdckpt_latest(const char *root, char *dir, size_t dir_size);

/** Keeps the newest `keep` (>= 1) checkpoints. Returns 0 or -errno. */
SSDRT_API int ssdckpt_gc(const char *root, unsigned keep);

/**
 * ssdckpt_reader_open - open the committed checkpoint `dir`, validating its
 * manifest. Returns 0 and *out; -ENOENT if uncommitted; -EINVAL for a
 * malformed manifest; -EPROTONOSUPPORT for a newer format version.
 */
SSDRT_API int ssdckpt_reader_open(const char *dir, ssdckpt_reader **out);

/**
 * ssdckpt_reader_load - fill `dest` (row-major) with the box [offsets,
 * offsets + sizes) of tensor `name`, whose dtype and global shape must
 * match the checkpoint. Reads only the blocks the box overlaps and verifies
 * their checksums. Returns 0; -ENOENT for an unknown tensor or missing
 * file; -EINVAL for a mismatch; -EBADMSG for a checksum mismatch; -ENODATA
 * for a truncated file.
 */
SSDRT_API int ssdckpt_reader_load(ssdckpt_reader *reader, const char *name,
                                  int dtype, int ndim, const uint64_t *shape,
                                  const uint64_t *offsets,
                                  const uint64_t *sizes, void *dest);

/**
 * ssdckpt_reader_load_file - ssdckpt_reader_load into a file instead of
 * memory: the box's bytes, row-major, are written to the existing file
 * `path` from `file_offset` on (a tensor kept on SSD). The box is loaded in
 * pieces through one buffer of 8 MiB, so memory stays bounded whatever its
 * size. Everything is checked before the first write. The bytes go through
 * the page cache and are not synced.
 * Returns as ssdckpt_reader_load, and -ENOENT, -EACCES... when `path`
 * cannot be opened, -ENOSPC or another -errno when a write of it failed
 * (the message names the file, offset and cause).
 */
SSDRT_API int ssdckpt_reader_load_file(ssdckpt_reader *reader, const char *name,
                                       int dtype, int ndim,
                                       const uint64_t *shape,
                                       const uint64_t *offsets,
                                       const uint64_t *sizes, const char *path,
                                       uint64_t file_offset);

/** One box to load: the arguments of ssdckpt_reader_load. */
typedef struct ssdckpt_request {
  const char *name;
  int dtype;
  int ndim;
  const uint64_t *shape;
  const uint64_t *offsets;
  const uint64_t *sizes;
  void *dest;
} ssdckpt_request;

/**
 * ssdckpt_reader_load_many - ssdckpt_reader_load of `count` boxes in one
 * call: the reader plans them together, reads each needed checksum block
 * once and keeps its I/O engine's queue full, which many small tensors need.
 * Every request is checked before any byte is read. Returns as
 * ssdckpt_reader_load.
 */
SSDRT_API int ssdckpt_reader_load_many(ssdckpt_reader *reader,
                                       const ssdckpt_request *requests,
                                       size_t count);

/** Verifies every checksum. Returns 0 or -EBADMSG (every block named). */
SSDRT_API int ssdckpt_reader_verify(ssdckpt_reader *reader);

/**
 * ssdckpt_reader_verify_file - ssdckpt_reader_verify of the chunks stored in
 * data file `file` (a plain name of the manifest's `ranks`), which must also
 * be as long as the manifest records. Returns 0; -ENOENT for a file the
 * manifest does not name or that is missing; -ENODATA when it is truncated;
 * -EBADMSG (every block named).
 */
SSDRT_API int ssdckpt_reader_verify_file(ssdckpt_reader *reader,
                                         const char *file);

/**
 * ssdckpt_reader_plan - the byte ranges of the data files that
 * ssdckpt_reader_load_many(reader, requests, count) would read, every
 * request checked as it checks them, nothing read; for callers that fetch
 * those bytes from elsewhere (an object store) into local files of the
 * recorded sizes and then load from them, which verifies every block. JSON
 * text in *json (free with ssdckpt_free):
 *   {"files": [{"rank": 0, "file": "rank-00000.data", "bytes": 8192}, ...],
 *    "reads": [{"file": "rank-00000.data", "offset": 0, "length": 4096}, ...]}
 * with `files` in rank order and `reads` sorted by file and offset,
 * overlapping or adjacent ranges merged. Returns as ssdckpt_reader_load_many.
 */
SSDRT_API int ssdckpt_reader_plan(ssdckpt_reader *reader,
                                  const ssdckpt_request *requests, size_t count,
                                  char **json);

/**
 * ssdckpt_reader_plan_verify - as ssdckpt_reader_plan, the ranges that
 * ssdckpt_reader_verify reads, or with `file` non-null those that
 * ssdckpt_reader_verify_file(reader, file) reads (-ENOENT for a file the
 * manifest does not name).
 */
SSDRT_API int ssdckpt_reader_plan_verify(ssdckpt_reader *reader,
                                         const char *file, char **json);

/**
 * ssdckpt_reader_resume_state - non-tensor state for rank `rank` of a run
 * resuming on `world_size` ranks (docs/checkpoint-format.md). Any output
 * pointer may be null. The generator state is copied into rng[0..capacity)
 * and its size stored in *rng_bytes; *rng_restored is 0 when this rank must
 * seed itself. Returns 0; -EINVAL for a rank outside world_size; -ERANGE
 * when the state does not fit (then *rng_bytes holds the size needed).
 */
SSDRT_API int ssdckpt_reader_resume_state(ssdckpt_reader *reader, uint32_t rank,
                                          uint32_t world_size, uint64_t *step,
                                          void *rng, size_t rng_capacity,
                                          size_t *rng_bytes, int *rng_restored,
                                          uint64_t *data_loader_position,
                                          int *position_is_global);

SSDRT_API void ssdckpt_reader_close(ssdckpt_reader *reader);

/** One region for ssdckpt_copy_regions: `bytes` from `src` to `dest`. */
typedef struct ssdckpt_copy_region {
  void *dest;
  const void *src;
  uint64_t bytes;
} ssdckpt_copy_region;

/**
 * ssdckpt_copy_regions - copies every region of regions[0..count) (no two
 * overlapping) on `threads` threads (0: one per online CPU, at most 8; fewer
 * when there are less than 4 MiB for each), each taking an equal share of the
 * bytes, regions split where the shares meet.
 * An asynchronous save's snapshot of thousands of small tensors into its
 * staging memory is then one call (ctypes releases the GIL for it), not one
 * per tensor. Returns 0; -EINVAL when `regions` is null and `count` is not 0.
 */
SSDRT_API int ssdckpt_copy_regions(const ssdckpt_copy_region *regions,
                                   size_t count, unsigned threads);

/**
 * ssdckpt_dtype_info - the manifest's name ("F32", "BF16", ...) and the
 * element size in bytes of dtype code `dtype` (SSDRT_DTYPE_*); either output
 * may be null. The one table of the dtypes checkpoints hold, for callers
 * that map their own dtypes onto the codes. Returns 0; -EINVAL for a code
 * checkpoints do not support.
 */
SSDRT_API int ssdckpt_dtype_info(int dtype, const char **name, size_t *bytes);

/**
 * ssdckpt_reader_info - what the manifest of an open checkpoint says: its
 * step, the number of saving ranks, the format version and the number of
 * tensors. Any output pointer may be null. Returns 0 or -EINVAL.
 */
SSDRT_API int ssdckpt_reader_info(const ssdckpt_reader *reader, uint64_t *step,
                                  uint32_t *world_size, uint32_t *version,
                                  size_t *num_tensors);

/**
 * ssdckpt_reader_state_tree - the manifest's state tree as JSON text in
 * *json (free with ssdckpt_free). Returns 0;
 * -ENOENT when the manifest has none (format version 1, or a writer that
 * recorded none).
 */
SSDRT_API int ssdckpt_reader_state_tree(const ssdckpt_reader *reader,
                                        char **json);

/**
 * ssdckpt_reader_tensor - tensor `index` (manifest order, below
 * num_tensors): its name (valid until the reader is closed), dtype code,
 * number of dimensions, and global shape in shape[0..shape_capacity). Any
 * output pointer may be null. Returns 0; -EINVAL for an index out of range;
 * -ERANGE when the shape does not fit (*ndim is set).
 */
SSDRT_API int ssdckpt_reader_tensor(const ssdckpt_reader *reader, size_t index,
                                    const char **name, int *dtype, int *ndim,
                                    uint64_t *shape, size_t shape_capacity);

/**
 * ssdckpt_reader_tensors - ssdckpt_reader_tensor of every tensor in one
 * call, for callers that look at thousands: `count` must be num_tensors
 * (ssdckpt_reader_info); names[i] (valid until the reader is closed),
 * dtypes[i] and ndims[i] describe tensor i, and the shapes lie one after
 * another in dims[0..dims_capacity). *dims_needed (when not null) receives
 * the number of entries all shapes take. Returns 0; -EINVAL when `count`
 * is not the number of tensors; -ERANGE when the shapes do not fit in
 * `dims` (only *dims_needed is written then).
 */
SSDRT_API int ssdckpt_reader_tensors(const ssdckpt_reader *reader, size_t count,
                                     const char **names, int *dtypes,
                                     int *ndims, uint64_t *dims,
                                     size_t dims_capacity, size_t *dims_needed);

/**
 * ssdckpt_list - the checkpoint directories under `root` ordered by step, as
 * JSON text in *json (free with ssdckpt_free): an array of objects with
 * "name", "step", "committed", "latest" and "bytes" (of all files in the
 * directory), as `ssd-ckpt ls` prints them. Returns 0 or -errno (-ENOENT
 * when root does not exist).
 */
SSDRT_API int ssdckpt_list(const char *root, char **json);

#ifdef __cplusplus
}
#endif

#endif /* SSD_RUNTIME_CHECKPOINT_SSDCKPT_H */
