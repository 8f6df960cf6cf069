//===- Manifest.cpp - The checkpoint manifest and its validation ----------===//
//
// Conversion between `Manifest` and its JSON form, the semantic checks that
// make a parsed manifest safe to act on, and the chunk grid index.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Manifest.h"

#include "BoxIndex.h"
#include "Hash.h"
#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/Status.h"

#include <algorithm>
#include <cerrno>
#include <exception>
#include <functional>
#include <unordered_map>
#include <unordered_set>

namespace ssd::rt::ckpt {

namespace {

/// A tensor's grid may have at most this many cells per chunk (plus a
/// constant), which bounds the index's memory by the manifest's size. Row,
/// column and block splits have one cell per chunk.
constexpr uint64_t kMaxCellsPerChunk = 16;
constexpr uint64_t kMaxCellsSlack = 64;
constexpr size_t kMaxRank = 32;

} // namespace

const char *dtypeName(DType dtype) { return dtypeInfo(dtype).safetensorsName; }

std::optional<DType> parseDType(std::string_view name) {
  const DTypeInfo *info = findDTypeBySafetensorsName(name);
  if (!info || !info->inCheckpoints)
    return std::nullopt;
  return info->dtype;
}

unsigned dtypeSize(DType dtype) { return dtypeInfo(dtype).bytes; }

uint64_t volume(std::span<const uint64_t> sizes) {
  uint64_t n = 1;
  for (uint64_t s : sizes) {
    if (s != 0 && n > UINT64_MAX / s)
      fail(EOVERFLOW, "tensor volume exceeds 2^64 elements");
    n *= s;
  }
  return n;
}

bool isPlainFileName(std::string_view name) {
  if (name.empty() || name.size() > 255 || name[0] == '.')
    return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
          (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
      return false;
  return true;
}

const RankState *Manifest::findFile(std::string_view file) const {
  for (const RankState &r : ranks)
    if (r.file == file)
      return &r;
  return nullptr;
}

uint64_t Manifest::tensorBytes() const {
  uint64_t total = 0;
  for (const TensorEntry &t : tensors)
    for (const Chunk &c : t.chunks)
      total += c.length;
  return total;
}

//===----------------------------------------------------------------------===//
// Chunk grid
//===----------------------------------------------------------------------===//

namespace {

std::string boxText(std::span<const uint64_t> offsets,
                    std::span<const uint64_t> sizes) {
  std::string s = "[";
  for (size_t d = 0; d < offsets.size(); ++d) {
    s += d ? ", " : "";
    s += std::to_string(offsets[d]) + ":" +
         std::to_string(offsets[d] + sizes[d]);
  }
  return s + "]";
}

/// Index of `value` in the sorted `cuts` (which contain it).
size_t cutIndex(const std::vector<uint64_t> &cuts, uint64_t value) {
  return std::lower_bound(cuts.begin(), cuts.end(), value) - cuts.begin();
}

/// Visits every cell index of the cell box [lo, hi) of a grid whose cell
/// counts per dimension are `extent`, in row-major order.
template <typename Visit>
void forEachCell(const std::vector<size_t> &lo, const std::vector<size_t> &hi,
                 const std::vector<size_t> &extent, Visit &&visit) {
  forEachBoxIndex(lo, hi, [&](const std::vector<size_t> &at) {
    size_t cell = 0;
    for (size_t d = 0; d < at.size(); ++d)
      cell = cell * extent[d] + at[d];
    visit(cell);
  });
}

/// Whether `tensor`'s chunks split its rows in order: each chunk whole in
/// every other dimension and not empty, the first at row 0, each starting
/// where the one before ends, the last ending with the tensor. Such chunks
/// tile the tensor exactly once (a Shard(0) save's layout, ranks in order).
bool splitsRowsInOrder(const TensorEntry &tensor) {
  if (tensor.shape.empty() || volume(tensor.shape) == 0)
    return false;
  uint64_t row = 0;
  for (const Chunk &chunk : tensor.chunks) {
    if (chunk.offsets[0] != row || chunk.sizes[0] == 0)
      return false;
    for (size_t d = 1; d < tensor.shape.size(); ++d)
      if (chunk.offsets[d] != 0 || chunk.sizes[d] != tensor.shape[d])
        return false;
    row += chunk.sizes[0];
  }
  return row == tensor.shape[0];
}

} // namespace

ChunkGrid::ChunkGrid(const TensorEntry &tensor, const std::string &origin) {
  if (splitsRowsInOrder(tensor)) {
    // No grid to build or check: the chunks' row ends say which overlap.
    rowEnds.reserve(tensor.chunks.size());
    for (const Chunk &chunk : tensor.chunks)
      rowEnds.push_back(chunk.offsets[0] + chunk.sizes[0]);
    return;
  }
  size_t rank = tensor.shape.size();
  cuts.resize(rank);
  for (size_t d = 0; d < rank; ++d) {
    std::vector<uint64_t> &c = cuts[d];
    c.push_back(0);
    c.push_back(tensor.shape[d]);
    for (const Chunk &chunk : tensor.chunks) {
      c.push_back(chunk.offsets[d]);
      c.push_back(chunk.offsets[d] + chunk.sizes[d]);
    }
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  std::vector<size_t> extent(rank);
  uint64_t cells = 1;
  uint64_t maxCells = kMaxCellsPerChunk * tensor.chunks.size() + kMaxCellsSlack;
  for (size_t d = 0; d < rank; ++d) {
    extent[d] = cuts[d].size() - 1;
    cells *= extent[d];
    if (cells > maxCells)
      fail(EINVAL, origin + ": tensor \"" + tensor.name +
                       "\": chunk layout too fragmented (its " +
                       std::to_string(tensor.chunks.size()) +
                       " chunks cut it into more than " +
                       std::to_string(maxCells) + " grid cells)");
  }
  if (volume(tensor.shape) == 0)
    cells = 0;
  cellChunk.assign(cells, UINT32_MAX);
  std::vector<size_t> lo(rank), hi(rank);
  for (size_t i = 0; i < tensor.chunks.size(); ++i) {
    const Chunk &chunk = tensor.chunks[i];
    for (size_t d = 0; d < rank; ++d) {
      lo[d] = cutIndex(cuts[d], chunk.offsets[d]);
      hi[d] = cutIndex(cuts[d], chunk.offsets[d] + chunk.sizes[d]);
    }
    if (cells == 0)
      continue;
    forEachCell(lo, hi, extent, [&](size_t cell) {
      uint32_t other = cellChunk[cell];
      if (other != UINT32_MAX) {
        const Chunk &o = tensor.chunks[other];
        fail(EINVAL, origin + ": tensor \"" + tensor.name + "\": chunk " +
                         std::to_string(i) + " " +
                         boxText(chunk.offsets, chunk.sizes) +
                         " overlaps chunk " + std::to_string(other) + " " +
                         boxText(o.offsets, o.sizes));
      }
      cellChunk[cell] = uint32_t(i);
    });
  }
  for (size_t cell = 0; cell < cellChunk.size(); ++cell) {
    if (cellChunk[cell] != UINT32_MAX)
      continue;
    std::vector<uint64_t> offsets(rank), sizes(rank);
    size_t rest = cell;
    for (size_t d = rank; d-- > 0;) {
      size_t k = rest % extent[d];
      rest /= extent[d];
      offsets[d] = cuts[d][k];
      sizes[d] = cuts[d][k + 1] - cuts[d][k];
    }
    fail(EINVAL, origin + ": tensor \"" + tensor.name + "\": region " +
                     boxText(offsets, sizes) + " is not covered by any chunk");
  }
}

void ChunkGrid::forEachOverlap(std::span<const uint64_t> offsets,
                               std::span<const uint64_t> sizes,
                               const std::function<void(size_t)> &visit) const {
  if (!rowEnds.empty()) {
    if (volume(sizes) == 0)
      return;
    // The first chunk ending after the box's first row, up to the last one
    // starting before its end.
    uint64_t end = offsets[0] + sizes[0];
    size_t k = std::upper_bound(rowEnds.begin(), rowEnds.end(), offsets[0]) -
               rowEnds.begin();
    for (; k < rowEnds.size() && (k == 0 ? 0 : rowEnds[k - 1]) < end; ++k)
      visit(k);
    return;
  }
  if (cellChunk.empty())
    return;
  size_t rank = cuts.size();
  std::vector<size_t> lo(rank), hi(rank), extent(rank);
  for (size_t d = 0; d < rank; ++d) {
    const std::vector<uint64_t> &c = cuts[d];
    extent[d] = c.size() - 1;
    // The cell containing the first index, up to the cell after the last.
    lo[d] = std::upper_bound(c.begin(), c.end(), offsets[d]) - c.begin() - 1;
    hi[d] =
        std::lower_bound(c.begin(), c.end(), offsets[d] + sizes[d]) - c.begin();
  }
  // One chunk may cover several cells of an irregular layout; report it once.
  uint32_t previous = UINT32_MAX;
  std::unordered_set<uint32_t> seen;
  forEachCell(lo, hi, extent, [&](size_t cell) {
    uint32_t chunk = cellChunk[cell];
    if (chunk == previous)
      return;
    previous = chunk;
    if (seen.insert(chunk).second)
      visit(chunk);
  });
}

//===----------------------------------------------------------------------===//
// JSON form
//===----------------------------------------------------------------------===//

namespace {

/// Builds an object's path, only for an error message (a manifest has tens
/// of thousands of chunks and no errors).
using PathFn = std::function<std::string()>;

/// Reads typed fields out of a JSON object, naming the field path in errors:
/// the manifest's and the rank record's few top-level members, read from
/// their tree (their many items are read by MemberReader below).
class FieldReader {
public:
  FieldReader(const JsonValue &object, std::string path,
              const std::string &origin)
      : object(object), path(std::move(path)), origin(origin) {
    if (object.kind() != JsonValue::Kind::Object)
      error(this->path, "expected an object, found " +
                            std::string(JsonValue::kindName(object.kind())));
  }

  [[noreturn]] void error(const std::string &where,
                          const std::string &cause) const {
    fail(EINVAL, origin + ": " + where + ": " + cause);
  }

  std::string at(std::string_view key) const {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  const JsonValue &get(std::string_view key, JsonValue::Kind kind) const {
    const JsonValue *v = object.find(key);
    if (!v)
      error(at(key), "missing");
    if (v->kind() != kind)
      error(at(key), std::string("expected ") + JsonValue::kindName(kind) +
                         ", found " + JsonValue::kindName(v->kind()));
    return *v;
  }

  uint64_t unsignedInt(std::string_view key, uint64_t max = UINT64_MAX) const {
    const JsonValue &v = get(key, JsonValue::Kind::Integer);
    if (v.isNegative() || v.magnitude() > max)
      error(at(key), "value out of range [0, " + std::to_string(max) + "]");
    return v.magnitude();
  }

  const std::string &string(std::string_view key) const {
    return get(key, JsonValue::Kind::String).asString();
  }

  const JsonValue &object;
  std::string path;
  const std::string &origin;
};

std::string hex64(uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, v >>= 4)
    s[i] = digits[v & 15];
  return s;
}

int hexDigit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  return -1;
}

std::optional<uint64_t> parseHex64(std::string_view s) {
  if (s.size() != 16)
    return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    int d = hexDigit(c);
    if (d < 0)
      return std::nullopt;
    v = v << 4 | unsigned(d);
  }
  return v;
}

std::string bytesToHex(const std::string &bytes) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  s.reserve(bytes.size() * 2);
  for (unsigned char b : bytes) {
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

std::optional<std::string> hexToBytes(const std::string &hex) {
  if (hex.size() % 2)
    return std::nullopt;
  std::string out;
  out.reserve(hex.size() / 2);
  for (size_t i = 0; i < hex.size(); i += 2) {
    int hi = hexDigit(hex[i]), lo = hexDigit(hex[i + 1]);
    if (hi < 0 || lo < 0)
      return std::nullopt;
    out += char(hi << 4 | lo);
  }
  return out;
}

void writeUnsigneds(JsonWriter &w, const std::vector<uint64_t> &values) {
  w.beginArray(true);
  for (uint64_t v : values)
    w.integer(v);
  w.endArray();
}

/// Reads one object of the manifest's items (a tensor, a chunk, a rank
/// record's piece) straight from the JSON reader into its structure, members
/// in document order. Problems are kept, not thrown: the document's syntax
/// is read to its end first and its errors come first. Of an object's
/// problems the one named is that of its first field in `names` order, a
/// field never seen being "missing": the order in which the object's fields
/// are checked whatever order the text has them in.
class MemberReader {
public:
  MemberReader(JsonReader &json, std::span<const std::string_view> names,
               PathFn path, const std::string &origin)
      : json(json), names(names), path(std::move(path)), origin(origin) {}

  /// Enters the object; when the next value is something else, that is the
  /// problem, the value is skipped and there is nothing to read.
  bool begin() {
    JsonValue::Kind kind = json.peek();
    if (kind == JsonValue::Kind::Object) {
      json.beginObject();
      return true;
    }
    objectProblem = origin + ": " + path() + ": expected an object, found " +
                    JsonValue::kindName(kind);
    json.value();
    return false;
  }

  /// The next member of a field in `names` (its index), other members being
  /// read and dropped; false at the object's end.
  bool next(size_t &field) {
    std::string_view key;
    while (json.nextKey(key)) {
      for (field = 0; field < names.size(); ++field)
        if (names[field] == key) {
          seen |= 1u << field;
          return true;
        }
      json.value();
    }
    return false;
  }

  std::string at(size_t field) const {
    std::string base = path();
    return base.empty() ? std::string(names[field])
                        : base + "." + std::string(names[field]);
  }

  /// Keeps `message` as the problem of `field` (its first one).
  void problem(size_t field, std::string message) {
    for (const auto &[other, text] : problems)
      if (other == field)
        return;
    problems.emplace_back(field, std::move(message));
  }

  void cause(size_t field, const std::string &cause) {
    problem(field, origin + ": " + at(field) + ": " + cause);
  }

  /// Whether the member's value is of `kind`; if not, that is the field's
  /// problem and the value is skipped.
  bool is(size_t field, JsonValue::Kind kind) {
    JsonValue::Kind found = json.peek();
    if (found == kind)
      return true;
    cause(field, std::string("expected ") + JsonValue::kindName(kind) +
                     ", found " + JsonValue::kindName(found));
    json.value();
    return false;
  }

  uint64_t unsignedInt(size_t field, uint64_t max = UINT64_MAX) {
    if (!is(field, JsonValue::Kind::Integer))
      return 0;
    bool negative;
    uint64_t value = json.integer(negative);
    if (negative || value > max)
      cause(field, "value out of range [0, " + std::to_string(max) + "]");
    return value;
  }

  std::string_view string(size_t field) {
    return is(field, JsonValue::Kind::String) ? json.string()
                                              : std::string_view();
  }

  std::vector<uint64_t> unsignedList(size_t field) {
    if (!is(field, JsonValue::Kind::Array))
      return {};
    json.beginArray();
    // Gathered first, so that the list is allocated once, at its size.
    uint64_t values[kMaxRank];
    size_t count = 0;
    bool bad = false;
    while (json.nextItem()) {
      if (json.peek() != JsonValue::Kind::Integer) {
        bad = true;
        json.value();
        if (count < kMaxRank) // never read uninitialised below
          values[count] = 0;
      } else {
        bool negative;
        uint64_t value = json.integer(negative);
        bad = bad || negative;
        if (count < kMaxRank)
          values[count] = value;
      }
      ++count;
    }
    if (count > kMaxRank)
      cause(field, "more than " + std::to_string(kMaxRank) + " entries");
    else if (bad)
      cause(field, "expected non-negative integers");
    return std::vector<uint64_t>(values, values + std::min(count, kMaxRank));
  }

  DType dtype(size_t field) {
    if (!is(field, JsonValue::Kind::String))
      return DType::F32;
    std::string_view name = json.string();
    std::optional<DType> dtype = parseDType(name);
    if (!dtype)
      cause(field, "unknown dtype \"" + std::string(name) + "\"");
    return dtype.value_or(DType::F32);
  }

  /// The object's first problem in field order, "" when it has none.
  std::string firstProblem() const {
    if (!objectProblem.empty())
      return objectProblem;
    for (size_t field = 0; field < names.size(); ++field) {
      if (!(seen >> field & 1))
        return origin + ": " + at(field) + ": missing";
      for (const auto &[other, text] : problems)
        if (other == field)
          return text;
    }
    return "";
  }

  JsonReader &json;

private:
  std::span<const std::string_view> names;
  PathFn path;
  const std::string &origin;
  uint32_t seen = 0;
  std::string objectProblem;
  std::vector<std::pair<size_t, std::string>> problems;
};

constexpr std::string_view kChunkFields[] = {"offsets",     "sizes",  "file",
                                             "file_offset", "length", "xxh3"};
enum ChunkField { Offsets, Sizes, File, FileOffset, Length, Xxh3 };

/// The chunk at `path()`; its first problem, if any, in `problem`.
Chunk readChunk(JsonReader &json, PathFn path, const std::string &origin,
                std::string &problem) {
  MemberReader c(json, kChunkFields, std::move(path), origin);
  Chunk chunk;
  if (c.begin()) {
    size_t field;
    while (c.next(field)) {
      switch (ChunkField(field)) {
      case Offsets:
        chunk.offsets = c.unsignedList(field);
        break;
      case Sizes:
        chunk.sizes = c.unsignedList(field);
        break;
      case File:
        chunk.file = c.string(field);
        break;
      case FileOffset:
        chunk.fileOffset = c.unsignedInt(field);
        break;
      case Length:
        chunk.length = c.unsignedInt(field);
        break;
      case Xxh3: {
        if (!c.is(field, JsonValue::Kind::Array))
          break;
        json.beginArray();
        bool bad = false;
        while (json.nextItem()) {
          std::optional<uint64_t> sum;
          if (json.peek() == JsonValue::Kind::String)
            sum = parseHex64(json.string());
          else
            json.value();
          if (sum)
            chunk.checksums.push_back(*sum);
          bad = bad || !sum;
        }
        if (bad)
          c.cause(field, "expected 16 lowercase hex digits per block");
        break;
      }
      }
    }
  }
  problem = c.firstProblem();
  return chunk;
}

void writeChunk(JsonWriter &w, const Chunk &c) {
  w.beginObject();
  w.key("offsets");
  writeUnsigneds(w, c.offsets);
  w.key("sizes");
  writeUnsigneds(w, c.sizes);
  w.key("file");
  w.string(c.file);
  w.key("file_offset");
  w.integer(c.fileOffset);
  w.key("length");
  w.integer(c.length);
  w.key("xxh3");
  w.beginArray(true);
  for (uint64_t s : c.checksums)
    w.string(hex64(s));
  w.endArray();
  w.endObject();
}

/// The "name", "dtype" and "shape" members that a manifest's tensor entry
/// and a rank record's piece both begin with.
void writeTensorHeader(JsonWriter &w, const std::string &name, DType dtype,
                       const std::vector<uint64_t> &shape) {
  w.key("name");
  w.string(name);
  w.key("dtype");
  w.string(dtypeName(dtype));
  w.key("shape");
  writeUnsigneds(w, shape);
}

RankState readRankState(const FieldReader &r) {
  RankState state;
  state.rank = uint32_t(r.unsignedInt("rank", UINT32_MAX));
  state.file = r.string("file");
  state.fileBytes = r.unsignedInt("file_bytes");
  auto rng = hexToBytes(r.string("rng"));
  if (!rng)
    r.error(r.at("rng"), "expected lowercase hex bytes");
  state.rng = std::move(*rng);
  state.dataLoaderPosition = r.unsignedInt("data_loader_position");
  return state;
}

void writeRankState(JsonWriter &w, const RankState &r) {
  w.beginObject();
  w.key("rank");
  w.integer(r.rank);
  w.key("file");
  w.string(r.file);
  w.key("file_bytes");
  w.integer(r.fileBytes);
  w.key("rng");
  w.string(bytesToHex(r.rng));
  w.key("data_loader_position");
  w.integer(r.dataLoaderPosition);
  w.endObject();
}

constexpr std::string_view kTensorFields[] = {"name", "dtype", "shape",
                                              "chunks"};
constexpr std::string_view kPieceFields[] = {"name", "dtype", "shape", "chunk"};
/// The fields a tensor entry and a piece begin with; the last one differs.
enum ItemField { Name, Dtype, Shape, Chunks };

/// Manifest entry `tensors[index]`; its first problem in `problem`.
/// `chunkCount` is the previous tensor's number of chunks, a guess at this
/// one's (the tensors of one save are split alike), and becomes this one's.
TensorEntry readTensor(JsonReader &json, size_t index,
                       const std::string &origin, std::string &problem,
                       size_t &chunkCount) {
  auto path = [index] { return "tensors[" + std::to_string(index) + "]"; };
  MemberReader t(json, kTensorFields, path, origin);
  TensorEntry entry;
  if (t.begin()) {
    size_t field;
    while (t.next(field)) {
      switch (ItemField(field)) {
      case Name:
        entry.name = t.string(field);
        break;
      case Dtype:
        entry.dtype = t.dtype(field);
        break;
      case Shape:
        entry.shape = t.unsignedList(field);
        break;
      case Chunks: {
        if (!t.is(field, JsonValue::Kind::Array))
          break;
        json.beginArray();
        entry.chunks.reserve(chunkCount);
        std::string chunkProblem;
        for (size_t j = 0; json.nextItem(); ++j) {
          auto chunkPath = [index, j] {
            return "tensors[" + std::to_string(index) + "].chunks[" +
                   std::to_string(j) + "]";
          };
          entry.chunks.push_back(
              readChunk(json, chunkPath, origin, chunkProblem));
          if (!chunkProblem.empty())
            t.problem(field, std::move(chunkProblem));
        }
        chunkCount = entry.chunks.size();
        break;
      }
      }
    }
  }
  problem = t.firstProblem();
  return entry;
}

/// Rank record entry `pieces[index]`; its first problem in `problem`.
RankRecord::Piece readPiece(JsonReader &json, size_t index,
                            const std::string &origin, std::string &problem) {
  auto path = [index] { return "pieces[" + std::to_string(index) + "]"; };
  MemberReader p(json, kPieceFields, path, origin);
  RankRecord::Piece piece;
  if (p.begin()) {
    size_t field;
    while (p.next(field)) {
      switch (ItemField(field)) {
      case Name:
        piece.tensor = p.string(field);
        break;
      case Dtype:
        piece.dtype = p.dtype(field);
        break;
      case Shape:
        piece.shape = p.unsignedList(field);
        break;
      case Chunks: {
        if (!p.is(field, JsonValue::Kind::Object))
          break;
        std::string chunkProblem;
        piece.chunk = readChunk(
            json, [path] { return path() + ".chunk"; }, origin, chunkProblem);
        if (!chunkProblem.empty())
          p.problem(field, std::move(chunkProblem));
        break;
      }
      }
    }
  }
  problem = p.firstProblem();
  return piece;
}

} // namespace

namespace {

/// The members of the manifest without its own checksum, into the open
/// top-level object of `w`.
void writeManifestMembers(JsonWriter &w, const Manifest &m) {
  w.key("format");
  w.string("ssd-checkpoint");
  w.key("version");
  w.integer(m.version);
  w.key("step");
  w.integer(m.step);
  w.key("world_size");
  w.integer(m.worldSize);
  w.key("checksum");
  w.string("xxh3-64");
  w.key("checksum_block_bytes");
  w.integer(m.checksumBlockBytes);
  w.key("ranks");
  w.beginArray(false);
  for (const RankState &r : m.ranks)
    writeRankState(w, r);
  w.endArray();
  w.key("tensors");
  w.beginArray(false);
  for (const TensorEntry &t : m.tensors) {
    w.beginObject();
    writeTensorHeader(w, t.name, t.dtype, t.shape);
    w.key("chunks");
    w.beginArray(false);
    for (const Chunk &c : t.chunks)
      writeChunk(w, c);
    w.endArray();
    w.endObject();
  }
  w.endArray();
  if (m.stateTree) {
    w.key("state_tree");
    w.value(*m.stateTree);
  }
}

/// XXH3-64 of the canonical text of everything the manifest records but its
/// checksum: `members`, the text of the open top-level object up to its
/// checksum member, closed as JsonWriter closes it.
uint64_t bodyChecksum(std::string_view members) {
  constexpr std::string_view close = "\n}\n";
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  XXH3_64bits_reset(&state);
  XXH3_64bits_update(&state, members.data(), members.size());
  XXH3_64bits_update(&state, close.data(), close.size());
  return XXH3_64bits_digest(&state);
}

/// What the manifest's text takes, about: reserved before writing it, so
/// that 10 MB of text is not copied as it grows.
size_t manifestTextEstimate(const Manifest &m) {
  size_t bytes = 4096;
  for (const TensorEntry &t : m.tensors)
    bytes += 128 + 256 * t.chunks.size();
  return bytes;
}

/// XXH3-64 of the canonical text of everything the manifest records, so
/// that a change the validation cannot see (a step, a generator state, a
/// data-loader position) is still detected.
uint64_t manifestChecksum(const Manifest &m) {
  JsonWriter w;
  w.reserve(manifestTextEstimate(m));
  w.beginObject();
  writeManifestMembers(w, m);
  return bodyChecksum(w.text());
}

/// parseJson of a document whose root member `key` is an array of many
/// items (a manifest's tensors, a rank record's pieces): each is read into
/// `items` by `read(reader, index, problem)` straight from the text as the
/// parser reaches it, never as a tree of JSON values. The first item's
/// problem is kept in `error` (the later items are still read, for their
/// syntax), for the caller to raise where it would have read the items
/// itself, after the checks that come before.
template <typename T, typename Read>
JsonValue parseWithItems(std::string_view text, const std::string &origin,
                         std::string_view key, std::vector<T> &items,
                         std::exception_ptr &error, Read read) {
  std::string problem;
  JsonItemSink sink = [&](JsonReader &reader, size_t index) {
    if (error) {
      reader.value();
      return;
    }
    items.push_back(read(reader, index, problem));
    if (!problem.empty())
      error = std::make_exception_ptr(Error(EINVAL, problem));
  };
  return parseJsonStreaming(text, origin, key, sink);
}

/// Whether `text` is exactly what serializeManifest wrote with checksum
/// `expected`: its last member is the checksum, and the text without that
/// member hashes to it. Then the canonical text is `text` itself (it parses
/// to the manifest it was written from), and writing it again to hash it
/// can be skipped; any other text is checked by writing it again.
bool hasWrittenChecksum(std::string_view text, uint64_t expected) {
  constexpr std::string_view member = ",\n \"manifest_xxh3\": \"";
  constexpr std::string_view close = "\"\n}\n";
  constexpr size_t tail = member.size() + 16 + close.size();
  if (text.size() < tail || !text.ends_with(close) ||
      text.substr(text.size() - tail, member.size()) != member)
    return false;
  return bodyChecksum(text.substr(0, text.size() - tail)) == expected;
}

} // namespace

Manifest parseManifest(std::string_view text, const std::string &origin) {
  std::vector<TensorEntry> tensors;
  std::exception_ptr tensorError;
  size_t chunkCount = 0;
  JsonValue root = parseWithItems(
      text, origin, "tensors", tensors, tensorError,
      [&](JsonReader &reader, size_t index, std::string &problem) {
        return readTensor(reader, index, origin, problem, chunkCount);
      });
  FieldReader top(root, "", origin);
  if (top.string("format") != "ssd-checkpoint")
    top.error("format", "expected \"ssd-checkpoint\"");
  Manifest m;
  uint64_t version = top.unsignedInt("version");
  if (version > kFormatVersion)
    fail(EPROTONOSUPPORT,
         origin + ": format version " + std::to_string(version) +
             " is newer than this reader supports (" +
             std::to_string(kFormatVersion) + "); upgrade ssd-opt");
  if (version == 0)
    top.error("version", "version 0 does not exist");
  m.version = uint32_t(version);
  m.step = top.unsignedInt("step");
  m.worldSize = uint32_t(top.unsignedInt("world_size", 1u << 20));
  if (top.string("checksum") != "xxh3-64")
    top.error("checksum", "expected \"xxh3-64\"");
  m.checksumBlockBytes = top.unsignedInt("checksum_block_bytes");

  const JsonValue &ranks = top.get("ranks", JsonValue::Kind::Array);
  for (size_t i = 0; i < ranks.items().size(); ++i) {
    FieldReader r(ranks.items()[i], "ranks[" + std::to_string(i) + "]", origin);
    m.ranks.push_back(readRankState(r));
  }

  // Read while the document was parsed; the first error is raised here,
  // after every check above, as if the tensors were read now.
  top.get("tensors", JsonValue::Kind::Array);
  if (tensorError)
    std::rethrow_exception(tensorError);
  m.tensors = std::move(tensors);
  // An older version has no such member: a key it does not know, ignored.
  if (JsonValue *tree = root.find("state_tree");
      tree && m.version >= kStateTreeVersion)
    m.stateTree = std::move(*tree);
  validateManifest(m, origin);
  // Optional (absent from manifests written before it existed); checked
  // after validation so that structural errors keep their precise message.
  if (const JsonValue *sum = root.find("manifest_xxh3")) {
    std::optional<uint64_t> expected;
    if (sum->kind() == JsonValue::Kind::String)
      expected = parseHex64(sum->asString());
    if (!expected)
      top.error("manifest_xxh3", "expected 16 lowercase hex digits");
    if (!hasWrittenChecksum(text, *expected) &&
        *expected != manifestChecksum(m))
      fail(EBADMSG, origin + ": manifest_xxh3: checksum mismatch: the "
                             "manifest was modified after it was written");
  }
  return m;
}

namespace {

/// Whether `t` is saved as one chunk of the whole tensor: its grid would be
/// one cell, covered once.
bool coversWhole(const TensorEntry &t) {
  if (t.chunks.size() != 1)
    return false;
  const Chunk &c = t.chunks[0];
  return c.sizes == t.shape &&
         std::all_of(c.offsets.begin(), c.offsets.end(),
                     [](uint64_t offset) { return offset == 0; });
}

} // namespace

const char *tensorNameFault(std::string_view name) {
  if (name.empty())
    return "empty tensor name";
  // The C API hands names out as C strings: "a\u0000x" would read as "a".
  if (name.find('\0') != std::string_view::npos)
    return "a tensor name holds a NUL";
  if (!isUtf8(name))
    return "a tensor name is not UTF-8";
  return nullptr;
}

void validateManifest(const Manifest &m, const std::string &origin) {
  auto bad = [&](const std::string &where, const std::string &cause) {
    fail(EINVAL, origin + ": " + where + ": " + cause);
  };
  if (m.worldSize == 0)
    bad("world_size", "must be at least 1");
  if (m.stateTree && m.version < kStateTreeVersion)
    bad("state_tree", "needs format version " +
                          std::to_string(kStateTreeVersion) + " (found " +
                          std::to_string(m.version) + ")");
  uint64_t block = m.checksumBlockBytes;
  if (block < kIoAlignment || block > (1ull << 30) || (block & (block - 1)))
    bad("checksum_block_bytes",
        "must be a power of two between 4096 and 2^30, found " +
            std::to_string(block));
  if (m.ranks.size() != m.worldSize)
    bad("ranks", "expected one entry per rank (" + std::to_string(m.worldSize) +
                     "), found " + std::to_string(m.ranks.size()));
  std::unordered_set<std::string> files;
  for (size_t i = 0; i < m.ranks.size(); ++i) {
    const RankState &r = m.ranks[i];
    std::string where = "ranks[" + std::to_string(i) + "]";
    if (r.rank != i)
      bad(where + ".rank", "expected " + std::to_string(i) + ", found " +
                               std::to_string(r.rank));
    if (!isPlainFileName(r.file))
      bad(where + ".file", "\"" + r.file +
                               "\" is not a plain file name inside the "
                               "checkpoint (no paths, no leading '.')");
    if (r.file == kManifestName || r.file == temporaryFileName(kManifestName))
      bad(where + ".file", "data file may not be named " + r.file);
    if (r.fileBytes % kIoAlignment)
      bad(where + ".file_bytes",
          "must be a multiple of 4096 (data files are padded), found " +
              std::to_string(r.fileBytes));
    if (!files.insert(r.file).second)
      bad(where + ".file", "\"" + r.file + "\" is used by two ranks");
  }
  // Views of the names: no copy of each, and one table of the right size.
  std::unordered_set<std::string_view> names;
  names.reserve(m.tensors.size());
  for (size_t i = 0; i < m.tensors.size(); ++i) {
    const TensorEntry &t = m.tensors[i];
    // Built only for a message: a manifest may hold thousands of tensors.
    auto where = [&] { return "tensors[" + std::to_string(i) + "]"; };
    if (const char *fault = tensorNameFault(t.name))
      bad(where() + ".name", fault);
    if (!names.insert(t.name).second)
      bad(where() + ".name", "duplicate tensor \"" + t.name + "\"");
    if (t.shape.size() > kMaxRank)
      bad(where() + ".shape",
          "more than " + std::to_string(kMaxRank) + " dimensions");
    uint64_t elements = volume(t.shape);
    if (elements > UINT64_MAX / 8)
      bad(where() + ".shape", "tensor too large");
    for (size_t j = 0; j < t.chunks.size(); ++j) {
      const Chunk &c = t.chunks[j];
      auto cw = [&] { return where() + ".chunks[" + std::to_string(j) + "]"; };
      if (c.offsets.size() != t.shape.size() ||
          c.sizes.size() != t.shape.size())
        bad(cw(), "offsets and sizes must have " +
                      std::to_string(t.shape.size()) +
                      " entries like the shape");
      for (size_t d = 0; d < t.shape.size(); ++d)
        if (c.offsets[d] > t.shape[d] || c.sizes[d] > t.shape[d] - c.offsets[d])
          bad(cw(), "box " + boxText(c.offsets, c.sizes) +
                        " lies outside the tensor's shape in dimension " +
                        std::to_string(d));
      uint64_t bytes = volume(c.sizes) * dtypeSize(t.dtype);
      if (c.length != bytes)
        bad(cw() + ".length", "expected " + std::to_string(bytes) +
                                  " bytes for the box, found " +
                                  std::to_string(c.length));
      const RankState *file = m.findFile(c.file);
      if (!file)
        bad(cw() + ".file",
            "\"" + c.file + "\" is not a data file of any rank");
      if (c.fileOffset > file->fileBytes ||
          c.length > file->fileBytes - c.fileOffset)
        bad(cw(), "bytes [" + std::to_string(c.fileOffset) + ", +" +
                      std::to_string(c.length) + ") lie past the end of " +
                      c.file + " (" + std::to_string(file->fileBytes) +
                      " bytes)");
      uint64_t blocks = (c.length + block - 1) / block;
      if (c.checksums.size() != blocks)
        bad(cw() + ".xxh3", "expected " + std::to_string(blocks) +
                                " block checksums, found " +
                                std::to_string(c.checksums.size()));
    }
    // One chunk of the whole tensor covers it once; other layouts are
    // checked by building their grid.
    if (!coversWhole(t))
      ChunkGrid(t, origin);
  }
}

std::string serializeManifest(const Manifest &m) {
  // The members are written once; the body manifestChecksum hashes is
  // their text closed, the manifest the same with its checksum appended.
  JsonWriter w;
  w.reserve(manifestTextEstimate(m));
  w.beginObject();
  writeManifestMembers(w, m);
  uint64_t checksum = bodyChecksum(w.text());
  w.key("manifest_xxh3");
  w.string(hex64(checksum));
  w.endObject();
  return std::move(w).finish();
}

std::string serializeRankRecord(const RankRecord &record) {
  JsonWriter w;
  w.reserve(4096 + 320 * record.pieces.size()); // as manifestTextEstimate
  w.beginObject();
  w.key("step");
  w.integer(record.step);
  w.key("state");
  writeRankState(w, record.state);
  w.key("pieces");
  w.beginArray(false);
  for (const RankRecord::Piece &p : record.pieces) {
    w.beginObject();
    writeTensorHeader(w, p.tensor, p.dtype, p.shape);
    w.key("chunk");
    writeChunk(w, p.chunk);
    w.endObject();
  }
  w.endArray();
  if (record.stateTree) {
    w.key("state_tree");
    w.value(*record.stateTree);
  }
  w.endObject();
  return std::move(w).finish();
}

RankRecord parseRankRecord(std::string_view text, const std::string &origin) {
  RankRecord record;
  std::exception_ptr pieceError;
  JsonValue root = parseWithItems(
      text, origin, "pieces", record.pieces, pieceError,
      [&](JsonReader &reader, size_t index, std::string &problem) {
        return readPiece(reader, index, origin, problem);
      });
  FieldReader top(root, "", origin);
  record.step = top.unsignedInt("step");
  record.state = readRankState(
      FieldReader(top.get("state", JsonValue::Kind::Object), "state", origin));
  top.get("pieces", JsonValue::Kind::Array);
  if (pieceError)
    std::rethrow_exception(pieceError);
  if (JsonValue *tree = root.find("state_tree"))
    record.stateTree = std::move(*tree);
  return record;
}

JsonValue parseStateTree(std::string_view text, const std::string &origin) {
  // The manifest's top-level object holds it: one level less.
  return parseJson(text, origin, kMaxJsonDepth - 1);
}

Manifest assembleManifest(std::vector<RankRecord> records,
                          uint64_t checksumBlockBytes,
                          const std::string &origin) {
  if (records.empty())
    fail(EINVAL, origin + ": nothing to commit (no rank records)");
  Manifest m;
  m.step = records[0].step;
  m.worldSize = uint32_t(records.size());
  m.checksumBlockBytes = checksumBlockBytes;
  m.stateTree = std::move(records[0].stateTree);
  // Keyed by views of the records' names (the records outlive the
  // assembly), sized for the first record's pieces: no name copied, and
  // no tree of nodes to walk for each of the other ranks' pieces.
  std::unordered_map<std::string_view, size_t> tensorIndex;
  tensorIndex.reserve(records[0].pieces.size());
  for (size_t rank = 0; rank < records.size(); ++rank) {
    RankRecord &record = records[rank];
    if (record.state.rank != rank)
      fail(EINVAL, origin + ": record " + std::to_string(rank) +
                       " comes from rank " + std::to_string(record.state.rank));
    if (record.step != m.step)
      fail(EINVAL, origin + ": step mismatch across ranks: rank 0 saved step " +
                       std::to_string(m.step) + ", rank " +
                       std::to_string(rank) + " step " +
                       std::to_string(record.step));
    if (rank > 0 && record.stateTree)
      fail(EINVAL, origin + ": rank " + std::to_string(rank) +
                       " recorded a state tree; only rank 0 records it");
    m.ranks.push_back(record.state);
    for (RankRecord::Piece &piece : record.pieces) {
      auto [it, inserted] = tensorIndex.emplace(piece.tensor, m.tensors.size());
      if (inserted)
        m.tensors.push_back({piece.tensor, piece.dtype, piece.shape, {}});
      TensorEntry &t = m.tensors[it->second];
      if (t.dtype != piece.dtype || t.shape != piece.shape)
        fail(EINVAL, origin + ": rank " + std::to_string(rank) +
                         " saved tensor \"" + t.name +
                         "\" with a different dtype or shape than an "
                         "earlier rank");
      t.chunks.push_back(std::move(piece.chunk));
    }
  }
  validateManifest(m, origin);
  return m;
}

} // namespace ssd::rt::ckpt
