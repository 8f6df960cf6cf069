//===- ConvertTest.cpp - Resharding and safetensors interchange -----------===//
//
// Resharding 4 -> 3 reads each stored byte once (no more than the targets
// need) and keeps the data and the global data-loader position; a
// safetensors file written by hand to the published layout imports and
// exports back byte for byte; malformed safetensors headers are refused.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Convert.h"
#include "CheckpointTestUtil.h"
#include "ssd/Runtime/Status.h"

#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using namespace ssd::rt::ckpt::test;
using ::testing::HasSubstr;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

void writeFile(const std::string &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

/// A safetensors file as the format's documentation lays it out.
std::string safetensorsBytes(const std::string &header,
                             const std::string &data) {
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i)
    out[i] = char(uint64_t(header.size()) >> (8 * i));
  return out + header + data;
}

TEST(Reshard, FourToThreeReadsNoMoreThanTheTargetsNeed) {
  TempDir tmp;
  auto engine = makeCheckpointEngine(8);
  Manifest saved = savePattern(*engine, tmp.path() + "/src", 4, 4);
  uint64_t stored = 0;
  for (const TensorEntry &t : saved.tensors)
    for (const Chunk &c : t.chunks)
      stored += (c.length + 4095) / 4096 * 4096;
  ConversionResult result = reshardCheckpoint(
      *engine, readLatest(tmp.path() + "/src"), tmp.path() + "/dst", 3);
  EXPECT_EQ(result.bytesRead, stored);
  EXPECT_EQ(result.manifest.worldSize, 3u);
  EXPECT_EQ(result.manifest.step, 4u);
  std::string dir = readLatest(tmp.path() + "/dst");
  for (unsigned ranks : {1u, 3u, 7u})
    EXPECT_EQ(patternLoadFailures(*engine, dir, 4, ranks, 1), "");
  CheckpointReader reader(*engine, dir);
  uint64_t position = 0;
  for (uint32_t rank = 0; rank < 3; ++rank)
    position += reader.resumeState(rank, 3).dataLoaderPosition;
  EXPECT_EQ(position, 400u + 401u + 402u + 403u);
}

TEST(Safetensors, ImportsAndExportsTheReferenceLayout) {
  TempDir tmp;
  auto engine = makeCheckpointEngine(8);
  // Two rows of three F32 and one I64 scalar, as the reference writer
  // would lay them out (compact header, space padded to 8 bytes).
  std::string header =
      R"({"__metadata__":{"step":"12"},)"
      R"("a":{"dtype":"F32","shape":[2,3],"data_offsets":[0,24]},)"
      R"("s":{"dtype":"I64","shape":[],"data_offsets":[24,32]}})";
  header.append((8 - header.size() % 8) % 8, ' ');
  std::string data;
  for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f})
    data.append(reinterpret_cast<const char *>(&v), 4);
  int64_t scalar = -7;
  data.append(reinterpret_cast<const char *>(&scalar), 8);
  std::string file = tmp.path() + "/in.safetensors";
  writeFile(file, safetensorsBytes(header, data));

  ConversionResult imported =
      importSafetensors(*engine, file, tmp.path() + "/ck", 3, std::nullopt);
  EXPECT_EQ(imported.manifest.step, 12u);
  EXPECT_EQ(imported.manifest.worldSize, 3u);
  CheckpointReader reader(*engine, readLatest(tmp.path() + "/ck"));
  float column[2];
  LoadRequest r{"a", DType::F32, {2, 3}, {0, 1}, {2, 1}, column};
  reader.load({&r, 1});
  EXPECT_EQ(column[0], 2.f);
  EXPECT_EQ(column[1], 5.f);

  std::string out = tmp.path() + "/out.safetensors";
  exportSafetensors(*engine, reader.directory(), out);
  SafetensorsHeader back = readSafetensorsHeader(out);
  ASSERT_EQ(back.tensors.size(), 2u);
  EXPECT_EQ(back.tensors[0].name, "a");
  EXPECT_EQ(back.tensors[1].shape, std::vector<uint64_t>{});
  EXPECT_EQ(back.dataOffset % 8, 0u);
  EXPECT_EQ(readFile(out).substr(back.dataOffset), data);
}

TEST(Safetensors, RefusesMalformedFiles) {
  TempDir tmp;
  std::string file = tmp.path() + "/bad.safetensors";
  auto errorOf = [&](const std::string &bytes) -> std::string {
    writeFile(file, bytes);
    try {
      readSafetensorsHeader(file);
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  };
  EXPECT_THAT(errorOf("abc"), HasSubstr("shorter than its 8-byte header"));
  EXPECT_THAT(errorOf(std::string("\xff\xff\xff\xff\0\0\0\0{}", 10)),
              HasSubstr("exceeds the file"));
  EXPECT_THAT(errorOf(safetensorsBytes(
                  R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,4]}})",
                  "12345678")),
              HasSubstr("do not hold 8 bytes"));
  EXPECT_THAT(errorOf(safetensorsBytes(
                  R"({"a":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}})",
                  "12345678")),
              HasSubstr("unsupported dtype C64"));
  EXPECT_THAT(errorOf(safetensorsBytes(
                  R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]},)"
                  R"("b":{"dtype":"U8","shape":[4],"data_offsets":[2,6]}})",
                  "12345678")),
              HasSubstr("overlap"));
  EXPECT_THAT(errorOf(safetensorsBytes("[1]", "")),
              HasSubstr("not a JSON object"));
}

} // namespace
