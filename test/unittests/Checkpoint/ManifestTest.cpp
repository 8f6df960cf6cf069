//===- ManifestTest.cpp - Manifest and JSON parsing -----------------------===//
//
// The strict JSON subset, the manifest's round trip through its text form,
// and every semantic check that keeps a hostile manifest from steering the
// reader: unsafe paths, overlapping or missing chunks, bad lengths,
// checksum counts, extents past the file, and versions from the future;
// version 2's state tree (strict JSON under the manifest's checksum, only in
// version 2 on, only from rank 0).
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Manifest.h"
#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/Status.h"

#include <cerrno>
#include <ctime>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <iterator>
#include <type_traits>

using namespace ssd::rt;
using namespace ssd::rt::ckpt;
using ::testing::HasSubstr;

namespace {

/// The message of the error `parse` throws ("" when it returns).
template <typename Parse>
std::string thrownMessage(Parse &&parse, int *errnum = nullptr) {
  try {
    parse();
  } catch (const Error &e) {
    if (errnum)
      *errnum = e.errnum;
    return e.what();
  }
  return "";
}

/// The error message of parsing `text` as a manifest ("" when it parses).
std::string manifestError(const std::string &text, int *errnum = nullptr) {
  return thrownMessage([&] { parseManifest(text, "m.json"); }, errnum);
}

std::string jsonError(const std::string &text) {
  return thrownMessage([&] { parseJson(text, "j"); });
}

/// A valid two-rank manifest of one [4, 2] F32 tensor split by rows.
Manifest twoRankManifest() {
  Manifest m;
  m.step = 7;
  m.worldSize = 2;
  m.checksumBlockBytes = 4096;
  m.ranks = {{0, "rank-00000.data", 4096, "ab", 3},
             {1, "rank-00001.data", 4096, "", 4}};
  m.tensors = {{"w",
                DType::F32,
                {4, 2},
                {{{0, 0}, {2, 2}, "rank-00000.data", 0, 16, {1}},
                 {{2, 0}, {2, 2}, "rank-00001.data", 0, 16, {2}}}}};
  return m;
}

std::string readWholeFileForTest(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::string withChange(void (*change)(Manifest &)) {
  Manifest m = twoRankManifest();
  change(m);
  // Serialise without validating so that the parser sees the bad manifest.
  return serializeManifest(m);
}

TEST(Json, AcceptsTheStrictSubset) {
  JsonValue v =
      parseJson(R"( {"a": [1, -2, "x\u00e9\n", true, null], "b": {}} )", "j");
  ASSERT_EQ(v.kind(), JsonValue::Kind::Object);
  const JsonValue *a = v.find("a");
  ASSERT_TRUE(a);
  EXPECT_EQ(a->items()[1].magnitude(), 2u);
  EXPECT_TRUE(a->items()[1].isNegative());
  EXPECT_EQ(a->items()[2].asString(), "x\xc3\xa9\n");
  EXPECT_EQ(parseJson(writeJson(v), "j").find("a")->items().size(), 5u);
  EXPECT_EQ(parseJson("18446744073709551615", "j").magnitude(), UINT64_MAX);
}

TEST(Json, RejectsWithTheOffset) {
  EXPECT_THAT(jsonError(R"({"a": 1, "a": 2})"), HasSubstr("duplicate key"));
  EXPECT_THAT(jsonError("[1.5]"), HasSubstr("only integers"));
  EXPECT_THAT(jsonError("18446744073709551616"), HasSubstr("64 bits"));
  EXPECT_THAT(jsonError("[1,]"), HasSubstr("at byte 3"));
  EXPECT_THAT(jsonError("{} x"), HasSubstr("after the JSON document"));
  EXPECT_THAT(jsonError("\"\\ud800\""), HasSubstr("surrogate"));
  EXPECT_THAT(jsonError(std::string(100, '[')), HasSubstr("nesting deeper"));
  EXPECT_THAT(jsonError("\"a\tb\""), HasSubstr("control character"));
  EXPECT_THAT(jsonError("01"), HasSubstr("leading zeros"));
}

TEST(Json, DuplicateKeysAreFoundWhateverTheirSpelling) {
  // A key with escapes is compared by its decoded text, against the keys
  // of its own object only, at any depth.
  EXPECT_THAT(jsonError(R"({"\u0061": 1, "a": 2})"),
              HasSubstr("at byte 14: duplicate key \"a\""));
  EXPECT_THAT(jsonError(R"({"a": 1, "\u0061": 2})"),
              HasSubstr("duplicate key \"a\""));
  EXPECT_THAT(jsonError(R"({"\u0061b": {"\u0061b": {}}, "x": [{"ab": 1}],
                           "ab": 2})"),
              HasSubstr("duplicate key \"ab\""));
  EXPECT_EQ(jsonError(R"([{"a": 1}, {"a": 2}, {"b": {"a": 3}, "a": 4}])"), "");
}

TEST(Json, ReaderTakesValuesInDocumentOrder) {
  JsonReader reader(R"( {"n": -3, "s": "a\"b", "l": [1, {"x": null}]} )", "r");
  reader.beginObject();
  std::string_view key;
  ASSERT_TRUE(reader.nextKey(key));
  EXPECT_EQ(key, "n");
  bool negative = false;
  EXPECT_EQ(reader.integer(negative), 3u);
  EXPECT_TRUE(negative);
  ASSERT_TRUE(reader.nextKey(key));
  EXPECT_EQ(reader.string(), "a\"b");
  ASSERT_TRUE(reader.nextKey(key));
  EXPECT_EQ(key, "l");
  EXPECT_EQ(reader.peek(), JsonValue::Kind::Array);
  reader.beginArray();
  ASSERT_TRUE(reader.nextItem());
  EXPECT_EQ(reader.integer(negative), 1u);
  ASSERT_TRUE(reader.nextItem());
  EXPECT_EQ(reader.value().find("x")->kind(), JsonValue::Kind::Null);
  EXPECT_FALSE(reader.nextItem());
  EXPECT_FALSE(reader.nextKey(key));
  reader.end();
  // Asking for another kind than the next value's is a syntax error.
  JsonReader wrong("[\"1\"]", "w");
  wrong.beginArray();
  ASSERT_TRUE(wrong.nextItem());
  EXPECT_THAT(thrownMessage([&] { wrong.integer(negative); }),
              HasSubstr("w: invalid JSON at byte 1: expected an integer"));
}

TEST(Json, ObjectsOfManyKeysAreCheckedForDuplicatesInTime) {
  // A safetensors header or a state tree may hold many thousands of keys:
  // the duplicate check may not compare each key with every one before it
  // (100,000 keys: 5 * 10^9 comparisons, seconds per parse), whatever the
  // keys' spelling, and still names the duplicate's own offset.
  constexpr size_t kKeys = 100000;
  std::string text = "{";
  for (size_t i = 0; i < kKeys; ++i)
    text += (i ? ", \"k" : "\"k") + std::to_string(i) + "\": 0";
  std::clock_t start = std::clock();
  EXPECT_EQ(parseJson(text + "}", "j").members().size(), kKeys);
  // "k1" among the first keys, "k77777" among the later ones, escaped.
  for (std::string again : {"k\\u0031", "k7777\\u0037"})
    EXPECT_THAT(jsonError(text + ", \"" + again + "\": 1}"),
                HasSubstr("at byte " + std::to_string(text.size() + 2) +
                          ": duplicate key"));
  EXPECT_LT(double(std::clock() - start) / CLOCKS_PER_SEC, 5.0);
  // The next object at the same depth starts its keys afresh, views of
  // escaped keys included.
  std::string many = "{";
  for (int i = 0; i < 40; ++i)
    many += (i ? ", \"\\u006b" : "\"\\u006b") + std::to_string(i) + "\": 0";
  many += "}";
  EXPECT_EQ(parseJson("[" + many + ", " + many + ", {\"k1\": 0}]", "j")
                .items()[1]
                .members()
                .size(),
            40u);
}

TEST(Json, ReaderEndsOnlyAfterTheDocumentsLastContainer) {
  // A caller that stops reading inside a container does not take a
  // truncated document for a whole one; one that asks for a member or an
  // item outside any container is told so.
  JsonReader truncated("[1", "r");
  truncated.beginArray();
  ASSERT_TRUE(truncated.nextItem());
  bool negative;
  EXPECT_EQ(truncated.integer(negative), 1u);
  EXPECT_THAT(thrownMessage([&] { truncated.end(); }),
              HasSubstr("r: invalid JSON at byte 2: unterminated array"));
  JsonReader outside("1", "o");
  EXPECT_THAT(thrownMessage([&] { outside.nextItem(); }),
              HasSubstr("o: invalid JSON at byte 0: not inside an array"));
  // Nor one that asks for a member inside an array, or an item inside an
  // object: before, the reader went on with the other container's
  // separators and failed later, at another byte, naming them.
  JsonReader object("{\"a\": 1}", "k");
  object.beginObject();
  EXPECT_THAT(thrownMessage([&] { object.nextItem(); }),
              HasSubstr("k: invalid JSON at byte 1: an item asked for inside "
                        "an object"));
  JsonReader array("[\"a\"]", "a");
  array.beginArray();
  std::string_view key;
  EXPECT_THAT(thrownMessage([&] { array.nextKey(key); }),
              HasSubstr("a: invalid JSON at byte 1: a key asked for inside "
                        "an array"));
  // Its key views may be of its own storage: a copy would view the
  // original's.
  static_assert(!std::is_copy_constructible_v<JsonReader>);
}

TEST(Json, NamesAnUnprintableByteByItsValue) {
  // An error message is text a C caller reads up to its first NUL.
  EXPECT_THAT(jsonError(std::string("[\0]", 3)),
              HasSubstr("at byte 1: unexpected byte 0x00"));
  EXPECT_THAT(jsonError("[\xff]"), HasSubstr("unexpected byte 0xff"));
  EXPECT_THAT(jsonError("[x]"), HasSubstr("unexpected character 'x'"));
  EXPECT_THAT(jsonError(std::string("\"\\\0\"", 4)),
              HasSubstr("unknown escape byte 0x00"));
  EXPECT_THAT(jsonError("\"\\q\""), HasSubstr("unknown escape '\\q'"));
  EXPECT_THAT(jsonError(R"({"a\u0000": 1, "a\u0000": 2})"),
              HasSubstr("duplicate key \"a\\u0000\""));
}

TEST(Json, AStringsErrorNamesTheOffendingByte) {
  // The offset of the character itself, or of the escape it begins.
  EXPECT_THAT(jsonError("[\"a\tb\"]"),
              HasSubstr("at byte 3: control character in string"));
  EXPECT_THAT(jsonError("[\"a\\qb\"]"), HasSubstr("at byte 3: unknown escape"));
  EXPECT_THAT(jsonError("[\"\\u00x1\"]"),
              HasSubstr("at byte 6: bad hex digit"));
  EXPECT_THAT(jsonError("[\"a\\udc00\"]"),
              HasSubstr("at byte 3: unpaired low surrogate"));
  EXPECT_THAT(jsonError("[\"\\ud800\\u0041\"]"),
              HasSubstr("at byte 8: bad low surrogate"));
  EXPECT_THAT(jsonError("[\"\\ud800x\"]"),
              HasSubstr("at byte 8: unpaired high surrogate"));
}

TEST(Json, StringsMustBeWellFormedUtf8) {
  // Kept as they are, escaped or not: two, three and four bytes.
  EXPECT_EQ(
      parseJson("\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"", "j").asString(),
      "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
  EXPECT_EQ(parseJson("\"\\n\xc3\xa9\"", "j").asString(), "\n\xc3\xa9");
  // The error names the sequence's first byte, on both paths of the reader.
  for (const char *bad : {"\xc0\xaf",         // overlong '/'
                          "\xe0\x80\xaf",     // overlong, three bytes
                          "\xed\xa0\x80",     // a surrogate
                          "\xf4\x90\x80\x80", // past U+10FFFF
                          "\xc3", "\x80", "\xff"}) {
    EXPECT_THAT(jsonError("[\"a" + std::string(bad) + "\"]"),
                HasSubstr("at byte 3: invalid UTF-8"))
        << bad;
    EXPECT_THAT(jsonError("[\"\\n" + std::string(bad) + "\"]"),
                HasSubstr("at byte 4: invalid UTF-8"))
        << bad;
  }
  EXPECT_TRUE(isUtf8("a\xc3\xa9"));
  EXPECT_FALSE(isUtf8("a\xc3"));
}

TEST(Json, WriterWritesWhatTheValueWriterWrites) {
  std::string text = R"({"a": [1, -2, "q\"\\\u0001", true, null, []], "b": {},
      "c": [{"d": [[1], {"e": 0}]}, []], "f": [[], {}]})";
  JsonValue v = parseJson(text, "j");
  JsonWriter w;
  w.beginObject();
  w.key("a");
  w.beginArray(false);
  w.integer(1);
  w.integer(2, true);
  w.string("q\"\\\x01");
  w.boolean(true);
  w.null();
  w.beginArray(true);
  w.endArray();
  w.endArray();
  w.key("b");
  w.beginObject();
  w.endObject();
  w.key("c");
  w.beginArray(false);
  w.beginObject();
  w.key("d");
  w.beginArray(false);
  w.beginArray(true);
  w.integer(1);
  w.endArray();
  w.beginObject();
  w.key("e");
  w.integer(0);
  w.endObject();
  w.endArray();
  w.endObject();
  w.beginArray(true);
  w.endArray();
  w.endArray();
  w.key("f");
  w.beginArray(false);
  w.beginArray(true);
  w.endArray();
  w.beginObject();
  w.endObject();
  w.endArray();
  w.endObject();
  std::string written = std::move(w).finish();
  EXPECT_EQ(written, writeJson(v));
  EXPECT_EQ(parseJson(written, "w").find("c")->items().size(), 2u);
}

// Manifests written before the streaming writer existed (the checked-in
// fixtures) come out of parse and serialise byte for byte (but the
// checksum member the oldest lack): the text every existing manifest_xxh3
// was computed over is the one the writer writes.
TEST(Manifest, FixturesReserializeByteForByte) {
  for (const char *relative :
       {"/v1/step-000000000003/manifest.json",
        "/python/ssd/step-000000000005/manifest.json",
        "/python/ssd-v2/step-000000000006/manifest.json"}) {
    std::string path = std::string(SSD_CHECKPOINT_FIXTURES) + relative;
    std::string text = readWholeFileForTest(path);
    ASSERT_FALSE(text.empty()) << path;
    std::string again = serializeManifest(parseManifest(text, path));
    if (text.find("\"manifest_xxh3\"") == std::string::npos) {
      // Written before manifests carried their checksum: the rest is equal.
      size_t at = again.find(",\n \"manifest_xxh3\": ");
      ASSERT_NE(at, std::string::npos);
      again.erase(at, again.find('\n', at + 2) - at);
    }
    EXPECT_EQ(again, text) << path;
  }
}

TEST(Manifest, RoundTripsThroughText) {
  Manifest m = twoRankManifest();
  Manifest back = parseManifest(serializeManifest(m), "m.json");
  EXPECT_EQ(back.step, 7u);
  EXPECT_EQ(back.ranks[0].rng, "ab");
  EXPECT_EQ(back.ranks[1].dataLoaderPosition, 4u);
  ASSERT_EQ(back.tensors.size(), 1u);
  EXPECT_EQ(back.tensors[0].chunks[1].offsets, (std::vector<uint64_t>{2, 0}));
  EXPECT_EQ(back.tensors[0].chunks[1].checksums, (std::vector<uint64_t>{2}));
  EXPECT_EQ(serializeManifest(back), serializeManifest(m));
}

TEST(Manifest, RejectsPathsOutsideTheCheckpoint) {
  for (const char *name :
       {"../rank-00000.data", "/etc/passwd", "a/b", ".hidden", ""}) {
    Manifest m = twoRankManifest();
    m.ranks[0].file = name;
    m.tensors[0].chunks[0].file = name;
    EXPECT_THAT(manifestError(serializeManifest(m)),
                HasSubstr("ranks[0].file: \"" + std::string(name) +
                          "\" is not a plain file name"))
        << name;
  }
  EXPECT_THAT(manifestError(withChange([](Manifest &m) {
                m.tensors[0].chunks[0].file = "other.data";
              })),
              HasSubstr("is not a data file of any rank"));
}

TEST(Manifest, RejectsOverlappingAndMissingChunks) {
  EXPECT_THAT(manifestError(withChange([](Manifest &m) {
                m.tensors[0].chunks[1].offsets = {1, 0};
              })),
              HasSubstr("tensor \"w\": chunk 1 [1:3, 0:2] overlaps chunk 0"));
  EXPECT_THAT(manifestError(withChange(
                  [](Manifest &m) { m.tensors[0].chunks.pop_back(); })),
              HasSubstr("region [2:4, 0:2] is not covered by any chunk"));
  EXPECT_THAT(manifestError(withChange([](Manifest &m) {
                m.tensors[0].chunks[1].offsets = {3, 0};
              })),
              HasSubstr("lies outside the tensor's shape in dimension 0"));
}

TEST(Manifest, RejectsLayoutsThatFragmentTheGrid) {
  // A staircase: row i split at column i + 1. It tiles the tensor, but its
  // 128 chunks cut it into 64 x 64 cells; the index refuses such layouts.
  TensorEntry stairs{"s", DType::U8, {64, 64}, {}};
  for (uint64_t i = 0; i < 64; ++i) {
    stairs.chunks.push_back({{i, 0}, {1, i + 1}, "f", 0, i + 1, {}});
    stairs.chunks.push_back({{i, i + 1}, {1, 63 - i}, "f", 0, 63 - i, {}});
  }
  try {
    ChunkGrid grid(stairs, "m.json");
    ADD_FAILURE() << "the staircase was accepted";
  } catch (const Error &e) {
    EXPECT_THAT(e.what(), HasSubstr("too fragmented (its 128 chunks cut it "
                                    "into more than 2112 grid cells)"));
  }
}

TEST(Manifest, RejectsInconsistentChunks) {
  EXPECT_THAT(manifestError(withChange(
                  [](Manifest &m) { m.tensors[0].chunks[0].length = 15; })),
              HasSubstr("chunks[0].length: expected 16 bytes"));
  EXPECT_THAT(manifestError(withChange([](Manifest &m) {
                m.tensors[0].chunks[0].checksums.clear();
              })),
              HasSubstr("expected 1 block checksums, found 0"));
  EXPECT_THAT(manifestError(withChange([](Manifest &m) {
                m.tensors[0].chunks[0].fileOffset = 4090;
              })),
              HasSubstr("lie past the end of rank-00000.data"));
  EXPECT_THAT(manifestError(
                  withChange([](Manifest &m) { m.ranks[1].fileBytes = 4000; })),
              HasSubstr("multiple of 4096"));
  EXPECT_THAT(manifestError(withChange(
                  [](Manifest &m) { m.tensors.push_back(m.tensors[0]); })),
              HasSubstr("duplicate tensor \"w\""));
  EXPECT_THAT(manifestError(withChange([](Manifest &m) {
                m.tensors[0].name = std::string("w\0x", 3);
              })),
              HasSubstr("tensors[0].name: a tensor name holds a NUL"));
  EXPECT_THAT(manifestError(
                  withChange([](Manifest &m) { m.tensors[0].name = "w\xff"; })),
              HasSubstr("invalid UTF-8"));
  EXPECT_THAT(manifestError(
                  withChange([](Manifest &m) { m.checksumBlockBytes = 5000; })),
              HasSubstr("checksum_block_bytes: must be a power of two"));
  EXPECT_THAT(manifestError(withChange([](Manifest &m) { m.worldSize = 3; })),
              HasSubstr("expected one entry per rank (3)"));
}

TEST(Manifest, RankRecordsRoundTripThroughText) {
  RankRecord record;
  record.step = 11;
  record.state = {3, "rank-00003.data", 8192, std::string("\0\x01", 2), 17};
  record.pieces.push_back({"w",
                           DType::BF16,
                           {8, 4},
                           {{6, 0}, {2, 4}, "rank-00003.data", 4096, 16, {9}}});
  RankRecord back = parseRankRecord(serializeRankRecord(record), "record");
  EXPECT_EQ(back.step, 11u);
  EXPECT_EQ(back.state.rank, 3u);
  EXPECT_EQ(back.state.rng, std::string("\0\x01", 2));
  ASSERT_EQ(back.pieces.size(), 1u);
  EXPECT_EQ(back.pieces[0].dtype, DType::BF16);
  EXPECT_EQ(back.pieces[0].chunk.fileOffset, 4096u);
  EXPECT_EQ(serializeRankRecord(back), serializeRankRecord(record));
  try {
    parseRankRecord(R"({"step": 1, "state": {}, "pieces": []})", "record");
    ADD_FAILURE() << "an empty state parsed";
  } catch (const Error &e) {
    EXPECT_THAT(e.what(), HasSubstr("record: state.rank: missing"));
  }
}

TEST(Manifest, ChecksumIsOptionalButCheckedWhenPresent) {
  std::string text = serializeManifest(twoRankManifest());
  size_t at = text.find(",\n \"manifest_xxh3\"");
  ASSERT_NE(at, std::string::npos);
  std::string without = text.substr(0, at) + "\n}\n";
  EXPECT_EQ(manifestError(without), "");
  std::string edited = text;
  edited.replace(edited.find("\"step\": 7"), 9, "\"step\": 8");
  int errnum = 0;
  EXPECT_THAT(manifestError(edited, &errnum),
              HasSubstr("manifest_xxh3: checksum mismatch"));
  EXPECT_EQ(errnum, EBADMSG);
}

TEST(Manifest, ChecksumOfAManifestLaidOutAgain) {
  // The text as written is checked by hashing it; the same manifest laid
  // out otherwise (here: indented deeper) by writing its canonical text.
  std::string text = serializeManifest(twoRankManifest());
  std::string indented;
  for (char c : text)
    indented += c == '\n' ? std::string("\n  ") : std::string(1, c);
  EXPECT_EQ(manifestError(indented), "");
  EXPECT_EQ(serializeManifest(parseManifest(indented, "m.json")), text);
  std::string edited = indented;
  edited.replace(edited.find("\"step\": 7"), 9, "\"step\": 8");
  EXPECT_THAT(manifestError(edited), HasSubstr("checksum mismatch"));
  // A checksum member that is not the last one is not the written text.
  std::string moved = text;
  size_t at = moved.find(",\n \"manifest_xxh3\"");
  std::string member = moved.substr(at, moved.size() - 3 - at);
  moved.erase(at, member.size());
  moved.insert(moved.find(",\n \"world_size\""), member);
  EXPECT_EQ(manifestError(moved), "");
}

TEST(Manifest, ErrorsInATensorNameItsPathAfterTheChecksBeforeIt) {
  // The tensors are read as the parser reaches them: an error among them
  // still names the field, and still comes after the document's syntax and
  // the members the manifest lists before them.
  std::string text = serializeManifest(twoRankManifest());
  std::string bad = text;
  bad.replace(bad.rfind("\"length\": "), 8, "\"lengthx\"");
  EXPECT_THAT(manifestError(bad), HasSubstr("m.json: tensors[0].chunks[1]."
                                            "length: missing"));
  std::string future = bad;
  future.replace(future.find("\"version\": 2"), 12, "\"version\": 3");
  EXPECT_THAT(manifestError(future), HasSubstr("format version 3 is newer"));
  std::string broken = bad;
  broken.replace(broken.rfind('}'), 1, "]");
  EXPECT_THAT(manifestError(broken), HasSubstr("invalid JSON at byte"));
  std::string twice = text;
  twice.insert(twice.find(" \"manifest_xxh3\""), " \"tensors\": [],\n");
  EXPECT_THAT(manifestError(twice), HasSubstr("duplicate key \"tensors\""));
  EXPECT_THAT(manifestError(R"({"format": "ssd-checkpoint", "version": 2,
      "step": 1, "world_size": 1, "checksum": "xxh3-64",
      "checksum_block_bytes": 4096, "ranks": [], "tensors": {}})"),
              HasSubstr("tensors: expected array, found object"));
}

TEST(Manifest, AnItemsFirstProblemIsOfItsFirstFieldNotItsFirstMember) {
  // Items are read member by member in the text's order, yet the problem
  // named is the one of the field checked first (offsets before xxh3,
  // name before chunks), as if the item had been read whole.
  std::string text = serializeManifest(twoRankManifest());
  // Chunk 0 with a bad xxh3 written before a bad offsets.
  std::string bad = text;
  size_t offsets = bad.find("\"offsets\": [0, 0]");
  bad.replace(offsets, 17, "\"xxh3\": [7], \"offsets\": \"0\"");
  std::string sum = ",\n     \"xxh3\": [\"0000000000000001\"]";
  bad.erase(bad.find(sum, offsets), sum.size());
  EXPECT_THAT(manifestError(bad),
              HasSubstr("m.json: tensors[0].chunks[0].offsets: expected "
                        "array, found string"));
  std::string unnamed = text;
  unnamed.replace(unnamed.find("\"name\": \"w\""), 11, "\"nam\": \"w\"");
  unnamed.replace(unnamed.find("\"length\": 16"), 12, "\"length\": -1");
  EXPECT_THAT(manifestError(unnamed), HasSubstr("m.json: tensors[0].name: "
                                                "missing"));
}

TEST(Manifest, RejectsVersionsFromTheFuture) {
  std::string text = serializeManifest(twoRankManifest());
  text.replace(text.find("\"version\": 2"), 12, "\"version\": 3");
  int errnum = 0;
  EXPECT_THAT(manifestError(text, &errnum),
              HasSubstr("format version 3 is newer than this reader "
                        "supports (2)"));
  EXPECT_EQ(errnum, EPROTONOSUPPORT);
}

TEST(Manifest, NamesTheFieldOfATypeError) {
  std::string text = serializeManifest(twoRankManifest());
  text.replace(text.find("\"step\": 7"), 9, "\"step\": \"7\"");
  EXPECT_THAT(manifestError(text), HasSubstr("m.json: step: expected integer, "
                                             "found string"));
  EXPECT_THAT(manifestError("{}"), HasSubstr("format: missing"));
  EXPECT_THAT(manifestError("[]"), HasSubstr("expected an object"));
}

} // namespace

namespace {

std::string stateTreeError(const std::string &text) {
  return thrownMessage([&] { parseStateTree(text, "tree"); });
}

const char *kTree = R"({"format": "ssdopt.state_dict", "tree": {"dict": [
    ["lr", {"float": "0.001"}], ["n", {"value": -3}],
    ["big", {"int": "123456789012345678901234567890"}],
    ["name", {"value": "caf\u00e9"}], ["w", {"tensor": "w"}]]}})";

} // namespace

TEST(Manifest, StateTreeRoundTripsUnderTheChecksum) {
  Manifest m = twoRankManifest();
  m.stateTree = parseStateTree(kTree, "tree");
  std::string text = serializeManifest(m);
  EXPECT_THAT(text, HasSubstr("\"version\": 2"));
  EXPECT_THAT(text, HasSubstr("\"0.001\""));
  EXPECT_THAT(text, HasSubstr("caf\xc3\xa9"));
  Manifest back = parseManifest(text, "m.json");
  ASSERT_TRUE(back.stateTree);
  EXPECT_EQ(writeJson(*back.stateTree), writeJson(*m.stateTree));
  EXPECT_EQ(serializeManifest(back), text);
  // A value edited after the write is caught by the manifest's checksum.
  std::string edited = text;
  edited.replace(edited.find("0.001"), 5, "0.002");
  int errnum = 0;
  EXPECT_THAT(manifestError(edited, &errnum),
              HasSubstr("manifest_xxh3: checksum mismatch"));
  EXPECT_EQ(errnum, EBADMSG);
  // The manifest's language is the strict one, state tree included: a
  // version 1 reader parses a version 2 manifest and refuses its version.
  EXPECT_THAT(stateTreeError("[1.5]"), HasSubstr("only integers"));
}

TEST(Manifest, StateTreeNeedsVersionTwo) {
  Manifest m = twoRankManifest();
  m.version = 1;
  m.stateTree = JsonValue::integer(5);
  try {
    validateManifest(m, "m.json");
    ADD_FAILURE() << "a version 1 manifest with a state tree was accepted";
  } catch (const Error &e) {
    EXPECT_THAT(e.what(),
                HasSubstr("state_tree: needs format version 2 (found 1)"));
  }
  // In a version 1 manifest the member is a key version 1 does not know:
  // ignored, as version 1 readers ignore it (and outside its checksum).
  m.stateTree.reset();
  std::string text = serializeManifest(m);
  text.insert(text.find(" \"manifest_xxh3\""), " \"state_tree\": 5,\n");
  Manifest back = parseManifest(text, "m.json");
  EXPECT_EQ(back.version, 1u);
  EXPECT_FALSE(back.stateTree);
}

TEST(Manifest, StateTreeComesFromRankZeroOnly) {
  Manifest m = twoRankManifest();
  std::vector<RankRecord> records(2);
  for (uint32_t rank = 0; rank < 2; ++rank) {
    records[rank].step = 7;
    records[rank].state = m.ranks[rank];
    records[rank].pieces.push_back(
        {"w", DType::F32, {4, 2}, m.tensors[0].chunks[rank]});
  }
  records[0].stateTree = parseStateTree(kTree, "tree");
  // Through the rank record's text, as ranks in other processes send it.
  RankRecord sent = parseRankRecord(serializeRankRecord(records[0]), "r0");
  ASSERT_TRUE(sent.stateTree);
  EXPECT_EQ(writeJson(*sent.stateTree), writeJson(*records[0].stateTree));
  Manifest assembled = assembleManifest(records, 4096, "m.json");
  ASSERT_TRUE(assembled.stateTree);
  EXPECT_EQ(writeJson(*assembled.stateTree), writeJson(*records[0].stateTree));
  records[1].stateTree = JsonValue();
  try {
    assembleManifest(records, 4096, "m.json");
    ADD_FAILURE() << "a state tree from rank 1 was accepted";
  } catch (const Error &e) {
    EXPECT_THAT(e.what(),
                HasSubstr("rank 1 recorded a state tree; only rank 0"));
  }
}

TEST(Manifest, StateTreeNestsAsDeepAsTheManifestHoldsIt) {
  auto nested = [](unsigned depth) {
    return std::string(depth, '[') + std::string(depth, ']');
  };
  EXPECT_EQ(stateTreeError(nested(kMaxJsonDepth - 1)), "");
  EXPECT_THAT(stateTreeError(nested(kMaxJsonDepth)),
              HasSubstr("nesting deeper than 63"));
  // The deepest tree accepted still parses inside a manifest.
  Manifest m = twoRankManifest();
  m.stateTree = parseStateTree(nested(kMaxJsonDepth - 1), "tree");
  EXPECT_TRUE(parseManifest(serializeManifest(m), "m.json").stateTree);
}
