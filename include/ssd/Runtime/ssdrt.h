/*===- ssdrt.h - C API of the ssd-opt runtime ----------------------*- C -*-===*
 *
 * The runtime's only public ABI, called by lowered MLIR (func.call @ssdrt_*
 * with pointers and 64-bit integers) and by the Python package. Plain C:
 * opaque context pointer, 64-bit handle ids, void* memory, integer sizes.
 *
 * Conventions for every function returning int: 0 on success, or a negative
 * errno on failure, in which case ssdrt_last_error() returns a message naming
 * the cause and, for I/O, the file, offset and length. No C++ exception
 * crosses this interface. Functions taking a context are thread-safe.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SSD_RUNTIME_SSDRT_H
#define SSD_RUNTIME_SSDRT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SSDRT_API __attribute__((visibility("default")))
#else
#define SSDRT_API
#endif

/** An open runtime: I/O engine, data files, staging pool, device streams. */
typedef struct ssdrt_context ssdrt_context;
/** A tensor or buffer id; 0 is never a valid id. Ids are never reused. */
typedef uint64_t ssdrt_handle;
/** Told that the runtime no longer uses memory it was lent (on_release). */
typedef void (*ssdrt_release_fn)(void *arg);

/* Element types (ssdrt_handle_create, ssdrt_buffer_add): SSDRT_DTYPE_F32,
 * _F16, _BF16, _F64, _I8, _U8, _I16, _I32, _I64, _BOOL, _F8E4M3, _F8E5M2,
 * with the codes of the one table, DTypes.def. */
enum {
#define SSD_DTYPE(C_NAME, CXX_NAME, CODE, ...) SSDRT_DTYPE_##C_NAME = CODE,
#include "ssd/Runtime/DTypes.def"
#undef SSD_DTYPE
};

/* Where a handle's memory lives. */
enum { SSDRT_MEM_HOST = 0, SSDRT_MEM_DEVICE = 1 };

/* Handle states (ssdrt_handle_state). */
enum {
  SSDRT_STATE_RESIDENT = 0, /* in memory only, or memory newer than disk */
  SSDRT_STATE_ON_DISK = 1,  /* on disk only; memory released */
  SSDRT_STATE_WRITING = 2,  /* offload in flight */
  SSDRT_STATE_READING = 3,  /* prefetch in flight */
  SSDRT_STATE_BOTH = 4      /* in memory with an identical copy on disk */
};

/* ssdrt_options.flags */
enum {
  SSDRT_OPT_NO_SYNC = 1u << 0,   /* skip fdatasync after offloads (scratch) */
  SSDRT_OPT_NO_DIRECT = 1u << 1, /* do not use O_DIRECT */
  SSDRT_OPT_HOST_ONLY = 1u << 2  /* never open a CUDA device */
};

/* ssdrt_handle_offload flags */
enum {
  SSDRT_OFFLOAD_KEEP = 1u << 0 /* keep memory: end in SSDRT_STATE_BOTH */
};

/** Context options; fill with ssdrt_options_init, then change fields. */
typedef struct ssdrt_options {
  const char *directory;  /* data file directory (created); default "." */
  const char *engine;     /* "auto" (default), "io_uring" or "threads" */
  uint32_t queue_depth;   /* I/O operations in flight; default 32 */
  uint32_t flags;         /* SSDRT_OPT_* */
  uint64_t staging_bytes; /* pinned staging capacity; default 64 MiB */
  uint64_t chunk_bytes;   /* staging chunk / largest transfer; default 4 MiB */
  uint64_t file_bytes;    /* largest data file before a new one; 64 GiB */
  int32_t device;         /* CUDA device ordinal; default 0 */
  uint32_t workers;       /* transfer threads; default 2 */
} ssdrt_options;

/** Bytes moved, operations and time spent waiting (ssdrt_stats). */
typedef struct ssdrt_stats_t {
  uint64_t bytes_read, bytes_written;
  uint64_t read_ops, write_ops, sync_ops;
  uint64_t offloads, prefetches, failures;
  uint64_t staged_bytes;
  double wait_seconds;         /* callers blocked in ssdrt_*_wait */
  double staging_wait_seconds; /* transfers blocked on a full staging pool */
} ssdrt_stats_t;

/**
 * ssdrt_last_error - message of the last failure on the calling thread.
 *
 * Returns a NUL-terminated string owned by the runtime, valid until the next
 * failing ssdrt_* call on this thread; "" if no call on this thread has
 * failed. Successful calls leave it unchanged.
 */
SSDRT_API const char *ssdrt_last_error(void);

/**
 * ssdrt_options_init - fill OPTIONS with the defaults.
 */
SSDRT_API void ssdrt_options_init(ssdrt_options *options);

/**
 * ssdrt_context_create - open a runtime context.
 *
 * OPTIONS may be NULL for the defaults. SSDRT_IO_ENGINE=threads|io_uring in
 * the environment overrides engine "auto". The engine in use is logged once to
 * stderr (SSDRT_LOG=off silences the runtime).
 *
 * Returns 0 and stores the context in *OUT, or:
 *   -EINVAL  bad option (unknown engine, queue depth outside 1..4096,
 *            staging below two chunks);
 *   -ENOTDIR, -EACCES, ...  the directory cannot be used;
 *   -ENOMEM  staging memory cannot be mapped;
 *   any other -errno from io_uring_queue_init when engine is "io_uring".
 */
SSDRT_API int ssdrt_context_create(const ssdrt_options *options,
                                   ssdrt_context **out);

/**
 * ssdrt_context_destroy - wait for transfers in flight, free all memory the
 * runtime allocated, close and delete the data files. NULL is ignored.
 */
SSDRT_API void ssdrt_context_destroy(ssdrt_context *ctx);

/**
 * ssdrt_context_reserve - allocate on disk now (fallocate) the space that
 * COUNT offloads of SIZES[i] bytes each will write, so that none of them
 * fails for a full disk: extents of handles offloaded after this call, up
 * to that many bytes in all and in any order of offloads and frees, need
 * no new blocks of the file system. Space reserved and not used stays with
 * CTX's data files for later offloads (until CTX is destroyed). A caller
 * that must not fail half way (a training step) reserves before it starts.
 * On a file system without fallocate nothing is reserved (logged once).
 *
 * Returns 0, or:
 *   -ENOSPC  the disk has no room: the message names the data file, the
 *            offset and the length that could not be allocated;
 *   -EINVAL  SIZES is NULL with COUNT > 0;  other -errno from fallocate.
 */
SSDRT_API int ssdrt_context_reserve(ssdrt_context *ctx, const uint64_t *sizes,
                                    size_t count);

/**
 * ssdrt_engine_name - "io_uring" or "threads": the engine CTX runs on.
 */
SSDRT_API const char *ssdrt_engine_name(ssdrt_context *ctx);

/**
 * ssdrt_device_available - 1 when CTX drives a CUDA device, 0 host-only.
 */
SSDRT_API int ssdrt_device_available(ssdrt_context *ctx);

/**
 * ssdrt_handle_create - register a tensor.
 *
 * DTYPE is an SSDRT_DTYPE_*, SHAPE has NDIM dimensions (NDIM 0 is a scalar),
 * MEM_KIND an SSDRT_MEM_*. MEMORY is the tensor's bytes (the caller keeps
 * ownership and must keep it alive while the handle is resident), or NULL to
 * let the runtime allocate it (contents undefined). The new handle is
 * SSDRT_STATE_RESIDENT.
 *
 * Returns 0 and stores the id in *OUT, or:
 *   -EINVAL  unknown dtype or memory kind, negative dimension, MEMORY not
 *            aligned to the element size, or MEMORY of the wrong kind;
 *   -EOVERFLOW  the size does not fit 64 bits;
 *   -ENODEV  SSDRT_MEM_DEVICE without a device;
 *   -ENOMEM  allocation failed.
 */
SSDRT_API int ssdrt_handle_create(ssdrt_context *ctx, int32_t dtype,
                                  int32_t ndim, const int64_t *shape,
                                  int32_t mem_kind, void *memory,
                                  ssdrt_handle *out);

/**
 * ssdrt_handle_on_release - hand memory back to its owner when the runtime
 * is done with it.
 *
 * H (a handle or buffer created with caller MEMORY, resident, with no
 * operation pending) keeps that memory in use until FN(ARG) is called,
 * exactly once: when an offload without SSDRT_OFFLOAD_KEEP is done (before
 * its wait returns), or at ssdrt_handle_release, ssdrt_handle_free or
 * ssdrt_context_destroy, whichever comes first. After a failed offload the
 * memory holds the only copy and stays H's. So a caller can lend memory it
 * must keep alive (a framework's tensor) and forget it: FN drops it. FN runs
 * on a runtime thread or in the call that releases the memory, never under
 * a lock of the runtime; it must not wait for operations of CTX.
 *
 * Returns 0, or -EINVAL when H holds memory the runtime allocated, -EBUSY
 * when H is not resident or has an operation pending, -EBADF.
 */
SSDRT_API int ssdrt_handle_on_release(ssdrt_context *ctx, ssdrt_handle h,
                                      ssdrt_release_fn fn, void *arg);

/**
 * ssdrt_handle_offload - start writing H to its file extent.
 *
 * Returns at once; the transfer runs in the background. Unless FLAGS has
 * SSDRT_OFFLOAD_KEEP, the memory is released (freed if the runtime allocated
 * it, handed back otherwise) once the data is durable (fdatasync), and the
 * handle ends SSDRT_STATE_ON_DISK; with KEEP it ends SSDRT_STATE_BOTH. From
 * BOTH nothing is written. The operation must be waited for
 * (ssdrt_handle_wait) before the next one on H.
 *
 * Returns 0, or:
 *   -EBUSY   the previous operation on H was not waited for;
 *   -EBADF   H was freed;  -EINVAL  H is unknown or a buffer member.
 * I/O errors are reported by the wait.
 */
SSDRT_API int ssdrt_handle_offload(ssdrt_context *ctx, ssdrt_handle h,
                                   uint32_t flags);

/**
 * ssdrt_handle_offload_stream - ssdrt_handle_offload of device memory that
 * work queued on the CUstream STREAM (the caller's compute stream; NULL is
 * the default stream) produces: an event recorded on STREAM now is waited
 * for by the runtime's copy stream before its first copy, so the caller need
 * not synchronize. For host memory STREAM is ignored.
 * Returns what ssdrt_handle_offload returns, or -EIO when the event cannot
 * be recorded.
 */
SSDRT_API int ssdrt_handle_offload_stream(ssdrt_context *ctx, ssdrt_handle h,
                                          uint32_t flags, void *stream);

/**
 * ssdrt_handle_prefetch - start reading H back into memory.
 *
 * DST is the memory to read into (of H's memory kind, aligned to its
 * elements), or NULL to let the runtime allocate it. A resident handle needs
 * no read; the operation then completes at once (DST must be NULL or its
 * current memory). H is SSDRT_STATE_READING until the read completes, then
 * SSDRT_STATE_BOTH. Must be waited for before the next operation.
 *
 * Returns 0, or -EBUSY, -EBADF, -EINVAL as for offload, -ENOMEM.
 */
SSDRT_API int ssdrt_handle_prefetch(ssdrt_context *ctx, ssdrt_handle h,
                                    void *dst);

/**
 * ssdrt_handle_prefetch_range - start reading bytes [OFFSET, OFFSET + BYTES)
 * of H's tensor on disk into DST (the caller's memory, of H's memory kind).
 * H keeps its state and memory: it must be SSDRT_STATE_ON_DISK or
 * SSDRT_STATE_BOTH, and the read is one operation on H, waited for with
 * ssdrt_handle_wait before the next. A step that uses only a part of a
 * released tensor reads back that part alone this way.
 *
 * Returns 0, or -EINVAL for a range outside the tensor, a handle not on
 * disk or a missing destination, -EBUSY, -EBADF as for prefetch. A failed
 * read (named with file, offset and cause) is reported by the wait.
 */
SSDRT_API int ssdrt_handle_prefetch_range(ssdrt_context *ctx, ssdrt_handle h,
                                          void *dst, uint64_t offset,
                                          uint64_t bytes);

/**
 * ssdrt_handle_prefetch_stream - ssdrt_handle_prefetch into device memory
 * that work queued on the CUstream STREAM may still use (memory a caching
 * allocator just handed out): the runtime's copies into DST start after the
 * work queued on STREAM before this call. Finish it with
 * ssdrt_handle_wait_stream on the stream that reads the tensor. For host
 * memory STREAM is ignored.
 * Returns what ssdrt_handle_prefetch returns, or -EIO.
 */
SSDRT_API int ssdrt_handle_prefetch_stream(ssdrt_context *ctx, ssdrt_handle h,
                                           void *dst, void *stream);

/**
 * ssdrt_handles_offload - start the offload of COUNT handles as one transfer.
 *
 * Each of HANDLES (handles or buffers, none twice) behaves as if offloaded
 * with ssdrt_handle_offload and is waited for on its own, but their writes
 * are submitted together and made durable by one fdatasync per data file:
 * a group of small tensors costs about one device latency, not one each.
 * Either every member starts or, on an error, none does.
 *
 * Returns 0, or the errors of ssdrt_handle_offload for the first member
 * that cannot start (-EINVAL also for a member named twice).
 */
SSDRT_API int ssdrt_handles_offload(ssdrt_context *ctx,
                                    const ssdrt_handle *handles, size_t count,
                                    uint32_t flags);

/**
 * ssdrt_handles_prefetch - start reading COUNT handles back as one transfer.
 *
 * Like ssdrt_handle_prefetch for each member, with DSTS NULL (the runtime
 * allocates all memory) or COUNT destinations (each may be NULL); the reads
 * are submitted together. Either every member starts or none does.
 *
 * Returns 0, or the errors of ssdrt_handle_prefetch.
 */
SSDRT_API int ssdrt_handles_prefetch(ssdrt_context *ctx,
                                     const ssdrt_handle *handles,
                                     void *const *dsts, size_t count);

/**
 * ssdrt_handle_wait - block until the last offload or prefetch of H is done.
 *
 * For a device prefetch this also waits for the host-to-device copy.
 *
 * Returns 0, or:
 *   -EINVAL  nothing to wait for (no operation since the last wait: waiting
 *            twice is an error);
 *   the operation's -errno (-EIO, -ENOSPC, -EFBIG, -ENODATA for a file
 *   truncated underneath, -ENOENT for a file removed underneath, ...), with
 *   ssdrt_last_error() naming the file, offset, length and cause. After a
 *   failed offload H is SSDRT_STATE_RESIDENT with its memory intact; after a
 *   failed prefetch it is SSDRT_STATE_ON_DISK.
 */
SSDRT_API int ssdrt_handle_wait(ssdrt_context *ctx, ssdrt_handle h);

/**
 * ssdrt_handle_wait_event - like ssdrt_handle_wait, but for a device
 * prefetch return in *EVENT the CUevent that completes when the data is on
 * the device instead of waiting for it (the host waits for the disk read
 * only). *EVENT is NULL when nothing is left to wait for. The event stays
 * valid until the next operation on H.
 */
SSDRT_API int ssdrt_handle_wait_event(ssdrt_context *ctx, ssdrt_handle h,
                                      void **event);

/**
 * ssdrt_handle_wait_stream - like ssdrt_handle_wait_event, then make the
 * CUstream STREAM (the caller's compute stream) wait for the event with
 * cuStreamWaitEvent, so that compute waits only at the use.
 */
SSDRT_API int ssdrt_handle_wait_stream(ssdrt_context *ctx, ssdrt_handle h,
                                       void *stream);

/**
 * ssdrt_handle_mark_dirty - declare that H's memory was modified, so the
 * copy on disk is stale (SSDRT_STATE_BOTH becomes SSDRT_STATE_RESIDENT).
 * Returns 0, or -EINVAL when H is not resident.
 */
SSDRT_API int ssdrt_handle_mark_dirty(ssdrt_context *ctx, ssdrt_handle h);

/**
 * ssdrt_handle_release - free H's memory now that its bytes are on disk.
 *
 * The lowering of ssd.release: after an offload with SSDRT_OFFLOAD_KEEP has
 * been waited for, H is SSDRT_STATE_BOTH; release drops the memory (freed if
 * the runtime allocated it, handed back otherwise) without I/O and H becomes
 * SSDRT_STATE_ON_DISK. Releasing an on-disk handle does nothing. There is
 * no operation to wait for afterwards.
 * Returns 0, or -EBUSY when an operation on H was not waited for, -EINVAL
 * when H has no copy on disk (SSDRT_STATE_RESIDENT), -EBADF.
 */
SSDRT_API int ssdrt_handle_release(ssdrt_context *ctx, ssdrt_handle h);

/**
 * ssdrt_handle_free - drop H: its runtime-allocated memory and its extent
 * (which later handles reuse). Freeing a buffer frees its members. Using H
 * afterwards fails with -EBADF.
 * Returns 0, or -EBUSY with a transfer in flight (wait first), -EBADF.
 */
SSDRT_API int ssdrt_handle_free(ssdrt_context *ctx, ssdrt_handle h);

/**
 * ssdrt_handle_state - store H's SSDRT_STATE_* in *STATE.
 */
SSDRT_API int ssdrt_handle_state(ssdrt_context *ctx, ssdrt_handle h,
                                 int32_t *state);

/**
 * ssdrt_handle_pending - store in *PENDING 1 when an offload or prefetch of
 * H was started and not yet waited for (a wait is due), else 0. With the
 * state this tells which: SSDRT_STATE_READING or SSDRT_STATE_BOTH after a
 * prefetch, any other state after an offload.
 */
SSDRT_API int ssdrt_handle_pending(ssdrt_context *ctx, ssdrt_handle h,
                                   int32_t *pending);

/**
 * ssdrt_handle_data - store H's memory in *DATA (NULL when on disk only).
 */
SSDRT_API int ssdrt_handle_data(ssdrt_context *ctx, ssdrt_handle h,
                                void **data);

/**
 * ssdrt_handle_bytes - store H's size in bytes in *BYTES.
 */
SSDRT_API int ssdrt_handle_bytes(ssdrt_context *ctx, ssdrt_handle h,
                                 uint64_t *bytes);

/**
 * ssdrt_handle_location - where H's bytes are on disk: the NUL-terminated
 * path of its data file is written into path[0..path_size), the offset of
 * its first byte in *OFFSET. They are H's bytes as offloaded, row-major as
 * its memory was; they are complete only once H's offload has been waited
 * for, and stay where they are until H is freed (a caller may read them or,
 * while H is on disk only with no operation pending, overwrite them in
 * place, e.g. to save or restore a checkpoint file to file).
 *
 * Returns 0, or:
 *   -ENODATA  H has no extent (never offloaded, or zero bytes);
 *   -ERANGE   path_size is too small for the path;
 *   -EBADF    H was freed;  -EINVAL  H is unknown or an output is NULL.
 */
SSDRT_API int ssdrt_handle_location(ssdrt_context *ctx, ssdrt_handle h,
                                    char *path, size_t path_size,
                                    uint64_t *offset);

/**
 * ssdrt_buffer_create - create a buffer: CAPACITY bytes of MEM_KIND memory
 * (MEMORY, or allocated when NULL) that moves as one extent. Members are
 * added with ssdrt_buffer_add; offload, prefetch, wait and free take the
 * buffer id (ssdrt_handle_* on the buffer id do the same).
 * Returns 0 and the id in *OUT, or -EINVAL, -ENODEV, -ENOMEM.
 */
SSDRT_API int ssdrt_buffer_create(ssdrt_context *ctx, uint64_t capacity,
                                  int32_t mem_kind, void *memory,
                                  ssdrt_handle *out);

/**
 * ssdrt_buffer_add - carve a tensor out of buffer B's memory (at the next
 * 256-byte boundary) and store its handle in *OUT. The member's data, state
 * and bytes can be queried; its transfers go through the buffer.
 * Returns 0, or -ENOSPC when B is full, -EBUSY once B has been offloaded,
 * -EINVAL for a bad dtype or shape, or when B is not a buffer.
 */
SSDRT_API int ssdrt_buffer_add(ssdrt_context *ctx, ssdrt_handle b,
                               int32_t dtype, int32_t ndim,
                               const int64_t *shape, ssdrt_handle *out);

/** ssdrt_buffer_offload - ssdrt_handle_offload for a buffer. */
SSDRT_API int ssdrt_buffer_offload(ssdrt_context *ctx, ssdrt_handle b,
                                   uint32_t flags);
/** ssdrt_buffer_prefetch - ssdrt_handle_prefetch for a buffer. */
SSDRT_API int ssdrt_buffer_prefetch(ssdrt_context *ctx, ssdrt_handle b,
                                    void *dst);
/** ssdrt_buffer_wait - ssdrt_handle_wait for a buffer. */
SSDRT_API int ssdrt_buffer_wait(ssdrt_context *ctx, ssdrt_handle b);
/** ssdrt_buffer_free - ssdrt_handle_free for a buffer and its members. */
SSDRT_API int ssdrt_buffer_free(ssdrt_context *ctx, ssdrt_handle b);

/**
 * ssdrt_stats - store CTX's counters in *OUT. Returns 0 or -EINVAL.
 */
SSDRT_API int ssdrt_stats(ssdrt_context *ctx, ssdrt_stats_t *out);

/* The lowering ABI of compiled steps (ssdrt_lower_*) is libssdrt-step's:
 * ssdrt_step.h. */

#ifdef __cplusplus
}
#endif

#endif /* SSD_RUNTIME_SSDRT_H */
