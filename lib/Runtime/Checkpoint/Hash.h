//===- Hash.h - The checkpoint's XXH3 -----------------------------*- C++
//-*-===//
//
// The one place that says which XXH3 the checkpoint library calls: every
// file that hashes chunk or manifest bytes includes this, not <xxhash.h>.
//
//===----------------------------------------------------------------------===//

#ifndef SSD_RUNTIME_CHECKPOINT_HASH_H
#define SSD_RUNTIME_CHECKPOINT_HASH_H

// XXH3_state_t as a complete type, so that a state lives on the stack.
#ifndef XXH_STATIC_LINKING_ONLY
#define XXH_STATIC_LINKING_ONLY
#endif
#include <xxhash.h>
#if defined(__x86_64__) && __has_include(<xxh_x86dispatch.h>)
// libxxhash's XXH3 functions are its baseline (SSE2) build; this header
// renames them to the variants that pick AVX2 or AVX-512 at run time, which
// hash about twice as fast (the same hashes).
#include <xxh_x86dispatch.h>
#endif

#endif // SSD_RUNTIME_CHECKPOINT_HASH_H
