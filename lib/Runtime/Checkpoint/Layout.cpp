//===- Layout.cpp - The names of a checkpoint root's files ----------------===//
//
// Formatting and parsing of the names Layout.h declares.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Layout.h"

#include <cstdio>

namespace ssd::rt::ckpt {

namespace {

constexpr std::string_view kStepPrefix = "step-";
constexpr size_t kStepDigits = 12;

std::string rankFileName(uint32_t rank, const char *suffix) {
  char name[32];
  std::snprintf(name, sizeof(name), "rank-%05u.%s", rank, suffix);
  return name;
}

} // namespace

std::string checkpointDirName(uint64_t step) {
  char digits[32];
  std::snprintf(digits, sizeof(digits), "%0*llu", int(kStepDigits),
                static_cast<unsigned long long>(step));
  return std::string(kStepPrefix) + digits;
}

std::optional<uint64_t> stepOfCheckpointDirName(std::string_view name) {
  if (name.size() != kStepPrefix.size() + kStepDigits ||
      name.substr(0, kStepPrefix.size()) != kStepPrefix)
    return std::nullopt;
  uint64_t step = 0;
  for (char c : name.substr(kStepPrefix.size())) {
    if (c < '0' || c > '9')
      return std::nullopt;
    step = step * 10 + unsigned(c - '0');
  }
  return step;
}

std::string rankDataFileName(uint32_t rank) {
  return rankFileName(rank, "data");
}

std::string rankRecordFileName(uint32_t rank) {
  return rankFileName(rank, "record");
}

std::string temporaryFileName(std::string_view name) {
  return std::string(name) + ".tmp";
}

} // namespace ssd::rt::ckpt
