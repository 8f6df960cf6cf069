//===- manifest_bench.cpp - parseManifest, two libraries side by side -----===//
//
//   ssd-checkpoint-manifest-bench MANIFEST ROUNDS LIBRARY...
//
// Parses the manifest file MANIFEST with the parseManifest of each checkpoint
// library given (e.g. an older revision's libssdrt-checkpoint.so and this
// build's), the libraries taking turns, ROUNDS times each, and prints each
// library's thread CPU seconds per parse (each round's, then the median).
// The libraries are opened with RTLD_LOCAL so that each one's parser calls
// its own code; side by side in one process, a loaded machine slows both
// alike, and thread CPU leaves out the time other processes take.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Manifest.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <dlfcn.h>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace ssd::rt::ckpt;

namespace {

using ParseFn = Manifest (*)(std::string_view, const std::string &);

double threadSeconds() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s MANIFEST ROUNDS LIBRARY...\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  int rounds = std::atoi(argv[2]);
  // The mangled name of parseManifest, as the library exports it.
  const char *symbol = "_ZN3ssd2rt4ckpt13parseManifestESt17basic_string_"
                       "viewIcSt11char_traitsIcEERKNSt7__cxx1112basic_"
                       "stringIcS4_SaIcEEE";
  std::vector<ParseFn> parsers;
  for (int i = 3; i < argc; ++i) {
    void *library = dlopen(argv[i], RTLD_NOW | RTLD_LOCAL);
    void *parse = library ? dlsym(library, symbol) : nullptr;
    if (!parse) {
      std::fprintf(stderr, "%s: %s\n", argv[i], dlerror());
      return 1;
    }
    parsers.push_back(reinterpret_cast<ParseFn>(parse));
  }
  std::vector<std::vector<double>> times(parsers.size());
  size_t tensors = 0;
  try {
    for (int round = 0; round < rounds; ++round)
      for (size_t i = 0; i < parsers.size(); ++i) {
        double start = threadSeconds();
        Manifest m = parsers[i](text, argv[1]);
        times[i].push_back(threadSeconds() - start);
        tensors = m.tensors.size();
      }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  std::printf("%s: %zu bytes, %zu tensors\n", argv[1], text.size(), tensors);
  for (size_t i = 0; i < parsers.size(); ++i) {
    std::printf("%s:", argv[3 + i]);
    for (double t : times[i])
      std::printf(" %.4f", t);
    std::printf(" | median %.4f s\n", median(times[i]));
  }
  return 0;
}
