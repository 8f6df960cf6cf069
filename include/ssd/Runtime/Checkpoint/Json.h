//===- Json.h - Strict JSON for checkpoint manifests ------------*- C++ -*-===//
//
// A small, strict JSON reader and writer for checkpoint manifests and
// safetensors headers. Strict because the manifest decides which bytes the
// reader touches: it accepts only RFC 8259's grammar (but a string's bytes
// outside escapes are taken as they are, not checked to be UTF-8), rejects
// duplicate keys, nesting deeper than 64, and numbers that are not exact
// 64-bit integers (a manifest never needs fractions), and every error names
// the byte offset where parsing stopped (in a string, that of the offending
// character or of the escape it begins). Parsing only builds values; it
// never runs code.
//
//===----------------------------------------------------------------------===//
#ifndef SSD_RUNTIME_CHECKPOINT_JSON_H
#define SSD_RUNTIME_CHECKPOINT_JSON_H

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ssd::rt::ckpt {

/// One JSON value. Objects keep their keys in document order.
class JsonValue {
public:
  enum class Kind { Null, Bool, Integer, String, Array, Object };

  JsonValue() = default;
  static JsonValue boolean(bool value);
  static JsonValue integer(uint64_t magnitude, bool negative = false);
  static JsonValue string(std::string value);
  static JsonValue array();
  static JsonValue object();

  Kind kind() const { return valueKind; }
  static const char *kindName(Kind kind);

  bool asBool() const { return boolValue; }
  /// The magnitude and sign of an integer.
  uint64_t magnitude() const { return intMagnitude; }
  bool isNegative() const { return intNegative; }
  const std::string &asString() const { return text; }
  const std::vector<JsonValue> &items() const { return elements; }
  const std::vector<std::pair<std::string, JsonValue>> &members() const {
    return fields;
  }
  /// The member named `key`, or null when absent.
  const JsonValue *find(std::string_view key) const;
  /// The same, to change it or move it out (a manifest's state tree).
  JsonValue *find(std::string_view key) {
    return const_cast<JsonValue *>(std::as_const(*this).find(key));
  }

  /// Appends to an array.
  JsonValue &push(JsonValue value);
  /// Appends a member to an object (the caller keeps keys unique).
  JsonValue &set(std::string key, JsonValue value);

private:
  Kind valueKind = Kind::Null;
  bool boolValue = false;
  bool intNegative = false;
  uint64_t intMagnitude = 0;
  std::string text;
  std::vector<JsonValue> elements;
  std::vector<std::pair<std::string, JsonValue>> fields;
};

/// The deepest nesting of arrays and objects a document may have.
constexpr unsigned kMaxJsonDepth = 64;

/// Parses `text` as one JSON document nested at most `maxDepth` deep. Throws
/// `ssd::rt::Error(EINVAL)` whose message starts with `origin` and names the
/// byte offset and the cause.
JsonValue parseJson(std::string_view text, const std::string &origin,
                    unsigned maxDepth = kMaxJsonDepth);

/// Reads one JSON document of the language parseJson accepts piece by piece,
/// in document order: the caller asks for what it expects next and takes
/// the values straight into its own structures, so that a manifest of tens
/// of thousands of chunks is read without a tree of values per chunk (that
/// tree's building and freeing was most of a checkpoint's open). Syntax is
/// checked as it is read, with parseJson's errors at the same byte offsets,
/// duplicate keys included; reading a value of another kind than the next
/// one (see peek) is a syntax error too.
class JsonReader {
public:
  JsonReader(std::string_view text, const std::string &origin,
             unsigned maxDepth = kMaxJsonDepth);
  /// Not copied: its levels' key views may be of their own storage.
  JsonReader(const JsonReader &) = delete;
  JsonReader &operator=(const JsonReader &) = delete;

  /// The kind of the next value (white space skipped).
  JsonValue::Kind peek();
  /// An object: beginObject(), then while nextKey(key) is true, one value.
  void beginObject();
  /// The next member's key, or false at the object's end. `key` stays
  /// valid until the next call that reads a string or key.
  bool nextKey(std::string_view &key);
  /// An array: beginArray(), then while nextItem() is true, one value.
  void beginArray();
  bool nextItem();
  /// The next value, a string (valid until the next string or key read).
  std::string_view string();
  /// The next value, an integer: its magnitude, and whether it is negative.
  uint64_t integer(bool &negative);
  /// The next value, whole.
  JsonValue value();
  /// Checks that the document's last container is closed and that nothing
  /// but white space follows it.
  void end();

private:
  [[noreturn]] void error(const std::string &cause);
  /// The error of `key`, at `keyPos`, seen before in its object.
  [[noreturn]] void duplicateKey(size_t keyPos, std::string_view key);
  void skipSpace();
  void expectWord(std::string_view word);
  unsigned hexQuad();
  /// The string at `pos` (its opening quote); escapes are decoded into
  /// `decoded`, otherwise the view is of the text itself.
  std::string_view readString();
  /// Enters a container at `pos` (its opening bracket).
  void enter(bool object);
  /// Past the separator before the next member or item, or the container's
  /// end (then false, and the container is left).
  bool next(bool object);

  struct Level {
    bool object;
    bool first;
    /// The object's keys so far, for the duplicate check: views of the
    /// text, or of `escapedKeys` for a key with escapes. `keys` holds the
    /// first kScannedKeys, scanned; past them `manyKeys` holds them all,
    /// so that an object of many keys (a safetensors header) is not
    /// checked in a number of comparisons that grows as their square.
    /// (A pointer: a level small enough that four fill a deque block.)
    std::vector<std::string_view> keys;
    std::unique_ptr<std::set<std::string_view>> manyKeys;
    std::deque<std::string> escapedKeys;
  };
  static constexpr size_t kScannedKeys = 16;
  std::string_view text;
  std::string origin; // a copy: callers pass temporaries
  unsigned maxDepth;
  size_t pos = 0;
  /// A deque, so that a level never moves when a deeper one is added: its
  /// `keys` may view its own `escapedKeys`, which a vector's reallocation
  /// would copy (std::deque's move may throw) and free.
  std::deque<Level> levels;
  size_t depth = 0;
  std::string decoded;
  /// The length of the well-formed UTF-8 sequence at `pos`; an error if none.
  size_t utf8Sequence();
};

/// The length of the well-formed UTF-8 sequence that starts with the byte
/// `s[i]` (0x80 or more), or 0 where it is not one: overlong, a surrogate,
/// past U+10FFFF or cut short.
size_t utf8SequenceLength(std::string_view s, size_t i);

/// Whether `s` is well-formed UTF-8, as the format's JSON must be.
bool isUtf8(std::string_view s);

/// Reads an item of a streamed array: exactly one value from `reader`.
using JsonItemSink = std::function<void(JsonReader &reader, size_t index)>;

/// parseJson, except that when the document is an object whose member
/// `streamKey` is an array, `sink` reads that array's items one by one, in
/// order, and they are not kept (the member holds an empty array). The same
/// language and errors: the whole document is parsed.
JsonValue parseJsonStreaming(std::string_view text, const std::string &origin,
                             std::string_view streamKey,
                             const JsonItemSink &sink,
                             unsigned maxDepth = kMaxJsonDepth);

/// Serialises `value`: objects and arrays of objects one member per line,
/// arrays of scalars on one line, so that manifests stay readable and diffable.
std::string writeJson(const JsonValue &value);

/// Writes the text writeJson would write for the same values without
/// building them first, for documents as large as the manifest of tens of
/// thousands of tensors: objects one member per line, indented one space a
/// level; arrays of scalars on one line ("[1, 2]"), other arrays one item a
/// line. Keys are the caller's to keep unique.
class JsonWriter {
public:
  void beginObject();
  /// The next member's key; its value follows.
  void key(std::string_view name);
  void endObject();
  /// `scalars`: every item will be a scalar (the array goes on one line).
  void beginArray(bool scalars);
  void endArray();
  void null();
  void boolean(bool value);
  void integer(uint64_t magnitude, bool negative = false);
  void string(std::string_view value);
  /// `value` whole, as writeJson lays it out.
  void value(const JsonValue &value);
  /// Room for `bytes` of text: a manifest of many tensors is not copied
  /// again and again as it grows.
  void reserve(size_t bytes) { out.reserve(bytes); }
  /// The text written so far.
  std::string_view text() const { return out; }
  /// The document, with its final newline (every container closed).
  std::string finish() &&;

private:
  /// The separator and indentation before a value inside an array.
  void beforeValue();
  struct Level {
    bool object;
    bool scalars;
    size_t count;
  };
  std::vector<Level> levels;
  std::string out;
};

} // namespace ssd::rt::ckpt

#endif // SSD_RUNTIME_CHECKPOINT_JSON_H
