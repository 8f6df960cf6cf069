//===- ManifestFuzzer.cpp - libFuzzer target for the manifest parser ------===//
//
// Feeds arbitrary bytes to the JSON reader and the manifest parser. The
// only acceptable outcomes are a manifest or an `ssd::rt::Error`; a crash,
// a sanitizer report, another exception type, or a manifest that does not
// survive its own serialisation is a bug.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Manifest.h"
#include "ssd/Runtime/Status.h"

#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  using namespace ssd::rt::ckpt;
  std::string_view text(reinterpret_cast<const char *>(data), size);
  try {
    Manifest m = parseManifest(text, "fuzz");
    // What parses must serialise to text that parses to the same text.
    std::string once = serializeManifest(m);
    if (serializeManifest(parseManifest(once, "fuzz-again")) != once)
      std::abort();
  } catch (const ssd::rt::Error &) {
  }
  return 0;
}
