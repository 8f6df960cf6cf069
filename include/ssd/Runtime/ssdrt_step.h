/*===- ssdrt_step.h - The lowering ABI of compiled steps -------*- C -*-===*
 *
 * What a step compiled by ssd-lower-to-runtime calls: the C ABI of
 * libssdrt-step (lib/Runtime/LoweredStep.cpp), a library over libssdrt
 * (ssdrt.h) and the checkpoint library (ssdckpt.h). RuntimeSymbols.h lists
 * the same names for the lowering.
 *
 *===----------------------------------------------------------------------===*/
#ifndef SSD_RUNTIME_SSDRT_STEP_H
#define SSD_RUNTIME_SSDRT_STEP_H

#include "ssd/Runtime/ssdrt.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The lowering ABI: what a step compiled by ssd-lower-to-runtime calls,
 * defined by the library libssdrt-step (on top of libssdrt). All
 * arguments are plain integers (a tensor's buffer address and byte count, a
 * handle id), so compiled code needs no descriptors. The functions share one
 * host-only context per process, opened on first use in $SSDRT_SCRATCH_DIR
 * (else $TMPDIR, else /tmp). They return nothing: any failure prints the
 * runtime's message (file, offset, length, cause) to stderr and aborts the
 * process, since compiled code cannot recover and must not compute on bytes
 * that never arrived.
 */

/*
 * Handle ownership. Every lowered function brackets its body with
 * ssdrt_lower_step_begin and ssdrt_lower_step_end, which open and close a
 * frame of handles. A handle belongs to the frame that created it (by
 * ssdrt_lower_offload), or to the caller when no lowered function is active.
 * A handle passed as an argument moves into the callee's frame
 * (ssdrt_lower_adopt, at the callee's entry); a handle returned moves to the
 * caller's (ssdrt_lower_keep, at the return); ssdrt_lower_step_end frees
 * what is left in the frame. So state kept on SSD between steps is passed
 * in, consumed, and the step's result is the caller's to pass to the next
 * step. A caller outside compiled code frees what it owns with
 * ssdrt_lower_free.
 */

/** ssdrt_lower_step_begin - open the frame of a lowered function. */
SSDRT_API void ssdrt_lower_step_begin(void);

/**
 * ssdrt_lower_adopt - move handle ID, a handle argument, from whoever owns it
 * into the current frame. Aborts if ID is not live.
 */
SSDRT_API void ssdrt_lower_adopt(int64_t id);

/**
 * ssdrt_lower_keep - move handle ID, a handle result, from the current frame
 * to the caller's (or to the code outside every lowered function).
 */
SSDRT_API void ssdrt_lower_keep(int64_t id);

/**
 * ssdrt_lower_free - free handle ID, which the code outside every lowered
 * function owns (a handle result of the outermost step). Aborts otherwise.
 */
SSDRT_API void ssdrt_lower_free(int64_t id);

/**
 * ssdrt_lower_group_begin, ssdrt_lower_group_end - bracket the offloads or
 * prefetches of one multi-tensor ssd.offload or ssd.prefetch: they start at
 * the end, together, as one group transfer (ssdrt_handles_offload,
 * ssdrt_handles_prefetch). Groups do not nest.
 */
SSDRT_API void ssdrt_lower_group_begin(void);
SSDRT_API void ssdrt_lower_group_end(void);

/**
 * ssdrt_lower_offload - start writing BYTES at ADDRESS (the caller's buffer,
 * which must stay alive and unchanged until ssdrt_lower_release) and return
 * the new handle's id. Lowering of ssd.offload.
 */
SSDRT_API int64_t ssdrt_lower_offload(int64_t address, int64_t bytes);

/**
 * ssdrt_lower_release - wait until handle ID's write is durable, then drop
 * its reference to ADDRESS (its buffer; a mismatch aborts). The caller may
 * free the buffer afterwards. Lowering of ssd.release.
 */
SSDRT_API void ssdrt_lower_release(int64_t id, int64_t address);

/**
 * ssdrt_lower_prefetch - start reading handle ID into the caller's buffer at
 * ADDRESS (the handle's size). Lowering of ssd.prefetch.
 */
SSDRT_API void ssdrt_lower_prefetch(int64_t id, int64_t address);

/**
 * ssdrt_lower_prefetch_range - start reading BYTES bytes from byte OFFSET of
 * handle ID's tensor into the caller's buffer at ADDRESS, leaving the handle
 * on disk (ssdrt_handle_prefetch_range); ssdrt_lower_wait on ID awaits it.
 * Lowering of ssd.prefetch of an ssd.handle_part.
 */
SSDRT_API void ssdrt_lower_prefetch_range(int64_t id, int64_t address,
                                          int64_t offset, int64_t bytes);

/**
 * ssdrt_lower_wait - block until handle ID's read is complete. Waiting when
 * nothing is in flight aborts. Lowering of ssd.wait.
 */
SSDRT_API void ssdrt_lower_wait(int64_t id);

/**
 * ssdrt_lower_step_end - close the current frame: wait for anything still in
 * flight and free every handle it owns. With SSDRT_STATS=1 in the
 * environment, print the context's totals as one line on stdout:
 * "ssdrt-stats: bytes_written N bytes_read N offloads N prefetches N".
 */
SSDRT_API void ssdrt_lower_step_end(void);

/*
 * Checkpoints (the lowering of ssd.checkpoint_begin, ssd.save_shard and
 * ssd.checkpoint_commit), written with the checkpoint library (ssdckpt.h,
 * which libssdrt-step links) under the root $SSDRT_CHECKPOINT_DIR.
 * Steps are counted from $SSDRT_CHECKPOINT_STEP (0 when unset: the steps
 * taken before this process's first), one per ssdrt_lower_ckpt_begin.
 * With several ranks (one process each), rank 0 creates the directory, every
 * other rank writes its data file and publishes its record there as
 * rank-NNNNN.record, and rank 0 commits once all records are present,
 * waiting at most $SSDRT_CHECKPOINT_TIMEOUT seconds (300) and naming the
 * missing ranks otherwise. $SSDRT_CHECKPOINT_KEEP = K keeps the newest K.
 * Like the rest of this ABI, every failure aborts with the file and cause.
 */

/**
 * ssdrt_lower_ckpt_begin - count one step; when its number is a multiple of
 * EVERY, begin checkpoint step-<number> as rank RANK of WORLD_SIZE and return
 * its id, else return 0 (the saves and the commit then do nothing).
 */
SSDRT_API int64_t ssdrt_lower_ckpt_begin(int64_t rank, int64_t world_size,
                                         int64_t every);

/**
 * ssdrt_lower_ckpt_save - start writing, on a thread of the checkpoint's own,
 * the box of tensor KEY (a NUL-terminated name) that the row-major bytes at
 * ADDRESS hold. LAYOUT points to int64 words: dtype (SSDRT_DTYPE_*), rank
 * n, the global shape (n words), the box's offsets (n) and sizes (n). The
 * bytes must stay unchanged until ssdrt_lower_ckpt_wait. Returns the
 * shard's id (0 when CHECKPOINT is 0).
 */
SSDRT_API int64_t ssdrt_lower_ckpt_save(int64_t checkpoint, int64_t key,
                                        int64_t layout, int64_t address);

/**
 * ssdrt_lower_ckpt_wait - block until shard SHARD (saved from ADDRESS) is
 * written; aborts naming the tensor and the cause if it failed.
 */
SSDRT_API void ssdrt_lower_ckpt_wait(int64_t shard, int64_t address);

/**
 * ssdrt_lower_ckpt_commit - finish this rank's data file (fsync) and commit:
 * rank 0 gathers every rank's record, writes the manifest and moves
 * `latest`; another rank publishes its record for rank 0.
 */
SSDRT_API void ssdrt_lower_ckpt_commit(int64_t checkpoint);

#ifdef __cplusplus
}
#endif

#endif /* SSD_RUNTIME_SSDRT_STEP_H */
