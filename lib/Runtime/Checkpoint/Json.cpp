//===- Json.cpp - Strict JSON for checkpoint manifests --------------------===//
//
// A pull reader over a string_view with an explicit depth bound (the tree
// parser is built on it), and a writer that escapes every control character.
// See Json.h for the accepted language.
//
//===----------------------------------------------------------------------===//
#include "ssd/Runtime/Checkpoint/Json.h"
#include "ssd/Runtime/Status.h"

#include <array>
#include <cerrno>
#include <charconv>

namespace ssd::rt::ckpt {

JsonValue JsonValue::boolean(bool value) {
  JsonValue v;
  v.valueKind = Kind::Bool;
  v.boolValue = value;
  return v;
}

JsonValue JsonValue::integer(uint64_t magnitude, bool negative) {
  JsonValue v;
  v.valueKind = Kind::Integer;
  v.intMagnitude = magnitude;
  v.intNegative = negative && magnitude != 0;
  return v;
}

JsonValue JsonValue::string(std::string value) {
  JsonValue v;
  v.valueKind = Kind::String;
  v.text = std::move(value);
  return v;
}

JsonValue JsonValue::array() {
  JsonValue v;
  v.valueKind = Kind::Array;
  return v;
}

JsonValue JsonValue::object() {
  JsonValue v;
  v.valueKind = Kind::Object;
  return v;
}

const char *JsonValue::kindName(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "boolean";
  case Kind::Integer:
    return "integer";
  case Kind::String:
    return "string";
  case Kind::Array:
    return "array";
  case Kind::Object:
    return "object";
  }
  return "?";
}

const JsonValue *JsonValue::find(std::string_view key) const {
  for (const auto &[name, value] : fields)
    if (name == key)
      return &value;
  return nullptr;
}

JsonValue &JsonValue::push(JsonValue value) {
  elements.push_back(std::move(value));
  return elements.back();
}

JsonValue &JsonValue::set(std::string key, JsonValue value) {
  fields.emplace_back(std::move(key), std::move(value));
  return fields.back().second;
}

JsonReader::JsonReader(std::string_view text, const std::string &origin,
                       unsigned maxDepth)
    : text(text), origin(origin), maxDepth(maxDepth) {}

void JsonReader::error(const std::string &cause) {
  fail(EINVAL,
       origin + ": invalid JSON at byte " + std::to_string(pos) + ": " + cause);
}

namespace {

constexpr char kHexDigits[] = "0123456789abcdef";

/// `s` as a JSON string, control characters escaped.
void writeString(std::string &out, std::string_view s) {
  out += '"';
  // Runs of characters that need no escape are appended whole (manifests
  // hold tens of thousands of names and checksums).
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = s[i];
    if (c != '"' && c != '\\' && c >= 0x20)
      continue;
    out.append(s.substr(run, i - run));
    run = i + 1;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else {
      out += "\\u00";
      out += kHexDigits[c >> 4];
      out += kHexDigits[c & 15];
    }
  }
  out.append(s.substr(run));
  out += '"';
}

// A message is text, which a C caller reads up to its first NUL: bytes of
// the document other than printable ASCII are named by their value.

bool isPrintable(char c) { return c >= 0x20 && c < 0x7f; }

std::string byteValue(char c) {
  unsigned char b = c;
  return std::string("byte 0x") + kHexDigits[b >> 4] + kHexDigits[b & 15];
}

std::string unexpected(char c) {
  return isPrintable(c) ? std::string("unexpected character '") + c + "'"
                        : "unexpected " + byteValue(c);
}

} // namespace

void JsonReader::duplicateKey(size_t keyPos, std::string_view key) {
  pos = keyPos;
  std::string quoted;
  writeString(quoted, key); // its own escapes, should it have any
  error("duplicate key " + quoted);
}

void JsonReader::skipSpace() {
  while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                               text[pos] == '\n' || text[pos] == '\r'))
    ++pos;
}

void JsonReader::expectWord(std::string_view word) {
  if (text.substr(pos, word.size()) != word)
    error("expected '" + std::string(word) + "'");
  pos += word.size();
}

JsonValue::Kind JsonReader::peek() {
  skipSpace();
  if (pos == text.size())
    error("unexpected end of input");
  char c = text[pos];
  switch (c) {
  case '{':
    return JsonValue::Kind::Object;
  case '[':
    return JsonValue::Kind::Array;
  case '"':
    return JsonValue::Kind::String;
  case 't':
  case 'f':
    return JsonValue::Kind::Bool;
  case 'n':
    return JsonValue::Kind::Null;
  default:
    if (c == '-' || (c >= '0' && c <= '9'))
      return JsonValue::Kind::Integer;
    error(unexpected(c));
  }
}

uint64_t JsonReader::integer(bool &negative) {
  if (peek() != JsonValue::Kind::Integer)
    error("expected an integer");
  negative = false;
  if (text[pos] == '-') {
    negative = true;
    ++pos;
  }
  size_t start = pos;
  uint64_t value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    unsigned digit = text[pos] - '0';
    if (value > (UINT64_MAX - digit) / 10)
      error("integer does not fit in 64 bits");
    value = value * 10 + digit;
    ++pos;
  }
  if (pos == start)
    error("expected a digit");
  if (text[start] == '0' && pos - start > 1)
    error("leading zeros are not allowed");
  if (pos < text.size() &&
      (text[pos] == '.' || text[pos] == 'e' || text[pos] == 'E'))
    error("only integers are accepted");
  negative = negative && value != 0;
  return value;
}

unsigned JsonReader::hexQuad() {
  if (text.size() - pos < 4)
    error("truncated \\u escape");
  unsigned value = 0;
  for (int i = 0; i < 4; ++i, ++pos) {
    char h = text[pos];
    value <<= 4;
    if (h >= '0' && h <= '9')
      value |= h - '0';
    else if (h >= 'a' && h <= 'f')
      value |= h - 'a' + 10;
    else if (h >= 'A' && h <= 'F')
      value |= h - 'A' + 10;
    else
      error("bad hex digit in \\u escape");
  }
  return value;
}

namespace {

void appendUtf8(std::string &out, unsigned cp) {
  if (cp < 0x80) {
    out += char(cp);
  } else if (cp < 0x800) {
    out += char(0xC0 | (cp >> 6));
    out += char(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += char(0xE0 | (cp >> 12));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  } else {
    out += char(0xF0 | (cp >> 18));
    out += char(0x80 | ((cp >> 12) & 0x3F));
    out += char(0x80 | ((cp >> 6) & 0x3F));
    out += char(0x80 | (cp & 0x3F));
  }
}

/// The bytes a string holds as they are: ASCII but controls, '"' and '\\'
/// (one load a byte, not three comparisons). Bytes from 0x80 start a UTF-8
/// sequence, which is checked.
constexpr auto kPlain = [] {
  std::array<bool, 256> plain{};
  for (unsigned c = 0x20; c < 0x80; ++c)
    plain[c] = c != '"' && c != '\\';
  return plain;
}();

} // namespace

size_t utf8SequenceLength(std::string_view s, size_t i) {
  unsigned char lead = s[i];
  size_t length;
  unsigned char low = 0x80, high = 0xBF; // the second byte's range
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0)
      low = 0xA0; // overlong
    else if (lead == 0xED)
      high = 0x9F; // a surrogate
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0)
      low = 0x90; // overlong
    else if (lead == 0xF4)
      high = 0x8F; // past U+10FFFF
  } else {
    return 0;
  }
  if (s.size() - i < length)
    return 0;
  for (size_t k = 1; k < length; ++k) {
    unsigned char c = s[i + k];
    if (c < (k == 1 ? low : 0x80) || c > (k == 1 ? high : 0xBF))
      return 0;
  }
  return length;
}

bool isUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    if (static_cast<unsigned char>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t length = utf8SequenceLength(s, i);
    if (!length)
      return false;
    i += length;
  }
  return true;
}

size_t JsonReader::utf8Sequence() {
  size_t length = utf8SequenceLength(text, pos);
  if (!length)
    error("invalid UTF-8 at " + byteValue(text[pos]));
  return length;
}

std::string_view JsonReader::readString() {
  size_t start = ++pos; // past the opening quote
  // Most strings (names, file names, checksums) have no escape: their view
  // is the text's own.
  while (pos < text.size()) {
    unsigned char c = text[pos];
    if (kPlain[c]) {
      ++pos;
      continue;
    }
    if (c >= 0x80) {
      pos += utf8Sequence();
      continue;
    }
    if (c == '"')
      return text.substr(start, pos++ - start);
    break; // an escape or a control character
  }
  decoded.assign(text.substr(start, pos - start));
  while (true) {
    if (pos == text.size())
      error("unterminated string");
    // An error names the offending character's offset, or its escape's.
    unsigned char c = text[pos];
    if (c < 0x20)
      error("control character in string");
    ++pos;
    if (c == '"')
      return decoded;
    if (c >= 0x80) {
      --pos;
      size_t length = utf8Sequence();
      decoded.append(text.substr(pos, length));
      pos += length;
      continue;
    }
    if (c != '\\') {
      decoded += char(c);
      continue;
    }
    size_t escape = pos - 1;
    if (pos == text.size())
      error("unterminated escape");
    char e = text[pos++];
    switch (e) {
    case '"':
    case '\\':
    case '/':
      decoded += e;
      break;
    case 'b':
      decoded += '\b';
      break;
    case 'f':
      decoded += '\f';
      break;
    case 'n':
      decoded += '\n';
      break;
    case 'r':
      decoded += '\r';
      break;
    case 't':
      decoded += '\t';
      break;
    case 'u': {
      unsigned cp = hexQuad();
      if (cp >= 0xDC00 && cp <= 0xDFFF) {
        pos = escape;
        error("unpaired low surrogate");
      }
      if (cp >= 0xD800 && cp <= 0xDBFF) {
        if (text.substr(pos, 2) != "\\u")
          error("unpaired high surrogate");
        size_t lowEscape = pos;
        pos += 2;
        unsigned low = hexQuad();
        if (low < 0xDC00 || low > 0xDFFF) {
          pos = lowEscape;
          error("bad low surrogate");
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      appendUtf8(decoded, cp);
      break;
    }
    default:
      pos = escape;
      error(isPrintable(e) ? std::string("unknown escape '\\") + e + "'"
                           : "unknown escape " + byteValue(e));
    }
  }
}

std::string_view JsonReader::string() {
  if (peek() != JsonValue::Kind::String)
    error("expected a string");
  return readString();
}

void JsonReader::enter(bool object) {
  if (peek() != (object ? JsonValue::Kind::Object : JsonValue::Kind::Array))
    error(object ? "expected an object" : "expected an array");
  if (depth + 1 > maxDepth)
    error("nesting deeper than " + std::to_string(maxDepth));
  ++pos;
  if (depth == levels.size())
    levels.emplace_back();
  Level &level = levels[depth++];
  level.object = object;
  level.first = true;
  level.keys.clear();
  level.manyKeys.reset();
  level.escapedKeys.clear();
}

bool JsonReader::next(bool object) {
  if (depth == 0)
    error(object ? "not inside an object" : "not inside an array");
  Level &level = levels[depth - 1];
  // Without this, a member asked for inside an array (or an item inside an
  // object) would read on with the other container's separators.
  if (level.object != object)
    error(object ? "a key asked for inside an array"
                 : "an item asked for inside an object");
  char close = object ? '}' : ']';
  skipSpace();
  if (level.first) {
    level.first = false;
    if (pos < text.size() && text[pos] == close) {
      ++pos;
      --depth;
      return false;
    }
    return true;
  }
  if (pos == text.size())
    error(object ? "unterminated object" : "unterminated array");
  char c = text[pos++];
  if (c == close) {
    --depth;
    return false;
  }
  if (c != ',')
    error(object ? "expected ',' or '}' in object"
                 : "expected ',' or ']' in array");
  return true;
}

void JsonReader::beginObject() { enter(true); }

void JsonReader::beginArray() { enter(false); }

bool JsonReader::nextItem() { return next(false); }

bool JsonReader::nextKey(std::string_view &key) {
  if (!next(true))
    return false;
  skipSpace();
  if (pos == text.size() || text[pos] != '"')
    error("expected a string key");
  size_t keyPos = pos;
  key = readString();
  Level &level = levels[depth - 1];
  if (!level.manyKeys) {
    for (std::string_view other : level.keys)
      if (other == key)
        duplicateKey(keyPos, key);
  } else if (level.manyKeys->contains(key)) {
    duplicateKey(keyPos, key);
  }
  if (key.data() == decoded.data())
    key = level.escapedKeys.emplace_back(key);
  if (level.keys.size() < kScannedKeys) {
    level.keys.push_back(key);
  } else {
    if (!level.manyKeys)
      level.manyKeys = std::make_unique<std::set<std::string_view>>(
          level.keys.begin(), level.keys.end());
    level.manyKeys->insert(key);
  }
  skipSpace();
  if (pos == text.size() || text[pos] != ':')
    error("expected ':' after key");
  ++pos;
  return true;
}

JsonValue JsonReader::value() {
  switch (peek()) {
  case JsonValue::Kind::Object: {
    JsonValue object = JsonValue::object();
    beginObject();
    std::string_view key;
    while (nextKey(key)) {
      std::string name(key);
      object.set(std::move(name), value());
    }
    return object;
  }
  case JsonValue::Kind::Array: {
    JsonValue array = JsonValue::array();
    beginArray();
    while (nextItem())
      array.push(value());
    return array;
  }
  case JsonValue::Kind::String:
    return JsonValue::string(std::string(readString()));
  case JsonValue::Kind::Bool:
    if (text[pos] == 't') {
      expectWord("true");
      return JsonValue::boolean(true);
    }
    expectWord("false");
    return JsonValue::boolean(false);
  case JsonValue::Kind::Null:
    expectWord("null");
    return JsonValue();
  case JsonValue::Kind::Integer:
    break;
  }
  bool negative;
  uint64_t magnitude = integer(negative);
  return JsonValue::integer(magnitude, negative);
}

void JsonReader::end() {
  if (depth > 0)
    error(levels[depth - 1].object ? "unterminated object"
                                   : "unterminated array");
  skipSpace();
  if (pos != text.size())
    error("unexpected text after the JSON document");
}

namespace {

bool isScalar(const JsonValue &v) {
  return v.kind() != JsonValue::Kind::Array &&
         v.kind() != JsonValue::Kind::Object;
}

void writeValue(JsonWriter &w, const JsonValue &v) {
  switch (v.kind()) {
  case JsonValue::Kind::Null:
    w.null();
    return;
  case JsonValue::Kind::Bool:
    w.boolean(v.asBool());
    return;
  case JsonValue::Kind::Integer:
    w.integer(v.magnitude(), v.isNegative());
    return;
  case JsonValue::Kind::String:
    w.string(v.asString());
    return;
  case JsonValue::Kind::Array: {
    bool scalars = true;
    for (const JsonValue &item : v.items())
      scalars = scalars && isScalar(item);
    w.beginArray(scalars);
    for (const JsonValue &item : v.items())
      writeValue(w, item);
    w.endArray();
    return;
  }
  case JsonValue::Kind::Object:
    w.beginObject();
    for (const auto &[key, member] : v.members()) {
      w.key(key);
      writeValue(w, member);
    }
    w.endObject();
    return;
  }
}

} // namespace

JsonValue parseJson(std::string_view text, const std::string &origin,
                    unsigned maxDepth) {
  JsonReader reader(text, origin, maxDepth);
  JsonValue value = reader.value();
  reader.end();
  return value;
}

JsonValue parseJsonStreaming(std::string_view text, const std::string &origin,
                             std::string_view streamKey,
                             const JsonItemSink &sink, unsigned maxDepth) {
  JsonReader reader(text, origin, maxDepth);
  if (reader.peek() != JsonValue::Kind::Object) {
    JsonValue value = reader.value();
    reader.end();
    return value;
  }
  JsonValue root = JsonValue::object();
  reader.beginObject();
  std::string_view key;
  while (reader.nextKey(key)) {
    std::string name(key);
    if (name == streamKey && reader.peek() == JsonValue::Kind::Array) {
      reader.beginArray();
      for (size_t index = 0; reader.nextItem(); ++index)
        sink(reader, index);
      root.set(std::move(name), JsonValue::array());
    } else {
      root.set(std::move(name), reader.value());
    }
  }
  reader.end();
  return root;
}

std::string writeJson(const JsonValue &value) {
  JsonWriter w;
  w.value(value);
  return std::move(w).finish();
}

void JsonWriter::value(const JsonValue &value) { writeValue(*this, value); }

void JsonWriter::beforeValue() {
  if (levels.empty() || levels.back().object)
    return; // the document itself, or a member after its key
  Level &level = levels.back();
  if (level.count > 0)
    out += level.scalars ? ", " : ",";
  if (!level.scalars)
    out.append(1, '\n').append(levels.size(), ' ');
  ++level.count;
}

void JsonWriter::beginObject() {
  beforeValue();
  out += '{';
  levels.push_back({true, false, 0});
}

void JsonWriter::key(std::string_view name) {
  Level &level = levels.back();
  out += level.count++ ? ",\n" : "\n";
  out.append(levels.size(), ' ');
  writeString(out, name);
  out += ": ";
}

void JsonWriter::endObject() {
  if (levels.back().count > 0)
    out.append(1, '\n').append(levels.size() - 1, ' ');
  levels.pop_back();
  out += '}';
}

void JsonWriter::beginArray(bool scalars) {
  beforeValue();
  out += '[';
  levels.push_back({false, scalars, 0});
}

void JsonWriter::endArray() {
  if (!levels.back().scalars && levels.back().count > 0)
    out.append(1, '\n').append(levels.size() - 1, ' ');
  levels.pop_back();
  out += ']';
}

void JsonWriter::null() {
  beforeValue();
  out += "null";
}

void JsonWriter::boolean(bool value) {
  beforeValue();
  out += value ? "true" : "false";
}

void JsonWriter::integer(uint64_t magnitude, bool negative) {
  beforeValue();
  if (negative)
    out += '-';
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof(digits), magnitude);
  out.append(digits, end);
}

void JsonWriter::string(std::string_view value) {
  beforeValue();
  writeString(out, value);
}

std::string JsonWriter::finish() && {
  out += '\n';
  return std::move(out);
}

} // namespace ssd::rt::ckpt
