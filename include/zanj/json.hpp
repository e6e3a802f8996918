#pragma once
// The JSON value model every command works on, and its parser (json_parse.cpp), which reads
// exactly what Python 3.11's json.loads(bytes) reads (FORMAT.md): the bare NaN / Infinity /
// -Infinity tokens, integers of any size up to 4,300 digits, 1e400 as inf, lone surrogate
// escapes, a leading BOM, and duplicate keys with the last value winning.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace zanj {

class Json;
class OutputBuffer;
using JsonArray = std::vector<Json>;
/// Objects keep their keys in file order (what users saw when they saved).
using JsonObject = std::vector<std::pair<std::string, Json>>;

/// An integer too large for 64 bits, kept as its decimal text.
struct BigInt {
  std::string digits;
  bool operator==(const BigInt&) const = default;
};

class Json {
 public:
  enum class Type { null, boolean, integer, unsigned_integer, big_integer, real, string, array, object };

  Json() = default;
  Json(std::nullptr_t) {}
  Json(bool b) : v_(b) {}
  Json(std::int64_t i) : v_(i) {}
  Json(int i) : v_(std::int64_t{i}) {}
  Json(std::uint64_t u) : v_(u) {}
  Json(double d) : v_(d) {}
  Json(BigInt b) : v_(std::move(b)) {}
  Json(std::string s) : v_(std::move(s)) {}
  Json(const char* s) : v_(std::string(s)) {}
  Json(JsonArray a) : v_(std::move(a)) {}
  Json(JsonObject o) : v_(std::move(o)) {}

  Type type() const noexcept { return static_cast<Type>(v_.index()); }
  bool is_null() const noexcept { return type() == Type::null; }
  bool is_bool() const noexcept { return type() == Type::boolean; }
  bool is_number() const noexcept;
  bool is_integer() const noexcept;  ///< int64, uint64 or big integer
  bool is_string() const noexcept { return type() == Type::string; }
  bool is_array() const noexcept { return type() == Type::array; }
  bool is_object() const noexcept { return type() == Type::object; }

  bool as_bool() const { return std::get<bool>(v_); }
  const std::string& as_string() const { return std::get<std::string>(v_); }
  const JsonArray& as_array() const { return std::get<JsonArray>(v_); }
  JsonArray& as_array() { return std::get<JsonArray>(v_); }
  const JsonObject& as_object() const { return std::get<JsonObject>(v_); }
  JsonObject& as_object() { return std::get<JsonObject>(v_); }
  const BigInt& as_big_integer() const { return std::get<BigInt>(v_); }
  std::int64_t as_int64() const { return std::get<std::int64_t>(v_); }
  std::uint64_t as_uint64() const { return std::get<std::uint64_t>(v_); }
  double as_real() const { return std::get<double>(v_); }
  /// Any number as a double (big integers approximately).
  double to_double() const;
  /// A non-negative integer that fits 64 bits, or false.
  bool get_uint64(std::uint64_t& out) const noexcept;

  /// Object member by key (first match), or nullptr; nullptr when not an object.
  const Json* find(std::string_view key) const noexcept;
  /// String member by key, or an empty view when absent or not a string.
  std::string_view string_at(std::string_view key) const noexcept;

  /// "object", "array", "string", "number", "bool" or "null".
  std::string_view type_name() const noexcept;

  bool operator==(const Json&) const = default;

 private:
  std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, BigInt, double, std::string,
               JsonArray, JsonObject>
      v_{nullptr};
};

/// What a JSON document parsed now may hold: --max-json-values as the command line set it
/// (limits.hpp's reader_limits()) less the values of documents that stay loaded meanwhile
/// (HeldJsonValues). A .jsonl line read while an archive's trees are loaded gets what they left,
/// so everything in memory at once stays within the one limit.
std::uint64_t default_max_json_values();

/// Values in a tree: the root, every element and every member (what parse_json counted).
std::uint64_t count_json_values(const Json& value);

/// Counts `values` as held by loaded documents until destroyed (ZanjFile's root and meta).
class HeldJsonValues {
 public:
  HeldJsonValues() = default;
  explicit HeldJsonValues(std::uint64_t values);
  HeldJsonValues(HeldJsonValues&& other) noexcept : values_(std::exchange(other.values_, 0)) {}
  HeldJsonValues& operator=(HeldJsonValues&& other) noexcept;
  HeldJsonValues(const HeldJsonValues&) = delete;
  HeldJsonValues& operator=(const HeldJsonValues&) = delete;
  ~HeldJsonValues();

 private:
  std::uint64_t values_ = 0;
};

/// What a document may make the parser spend. The value count (every element, member and the
/// root) is checked by a first structural pass, before anything is allocated for the tree.
struct JsonLimits {
  std::size_t max_depth = 1024;
  std::uint64_t max_values = default_max_json_values();
};

/// What Python's json accepts silently but is worth a warning: filled by parse_json when asked.
struct JsonParseNotes {
  bool bom = false;                   ///< a byte-order mark was skipped
  std::string_view encoding = "utf-8";  ///< as Python's json.detect_encoding names it
  std::uint64_t duplicate_keys = 0;   ///< keys repeating an earlier key of the same object
  std::vector<std::string> first_duplicate;  ///< path segments to the first repeated key
  std::uint64_t values = 0;           ///< values in the document (root, elements and members)
};

/// Parse a complete JSON document from bytes, as Python's json.loads(bytes) does: the
/// encoding is detected (UTF-8, UTF-8 with BOM, UTF-16 and UTF-32 by BOM or NUL pattern),
/// surrogates are accepted ('surrogatepass'), and strings keep them as 3-byte sequences
/// (generalized UTF-8) that write_json prints back as backslash-u escapes. Duplicate keys keep
/// their first position and take the last value, like a Python dict. `what` names the
/// document in error messages (a member name). Throws zanj::Error on invalid JSON, or when
/// nesting exceeds max_depth or the value count max_values.
Json parse_json(std::string_view text, std::string_view what, const JsonLimits& limits = {},
                JsonParseNotes* notes = nullptr);

/// How to print JSON.
struct JsonStyle {
  int indent = 0;  ///< 0: compact on one line (", " and ": " separators like Python's json)
  char indent_char = ' ';  ///< '\t' with indent 1 gives the reference's indent="\t"
};
/// Append `value` to `out`. Floats are printed in the shortest form that round-trips,
/// NaN and infinities as Python writes them (NaN, Infinity, -Infinity).
void write_json(std::string& out, const Json& value, const JsonStyle& style = {});
std::string to_json(const Json& value, const JsonStyle& style = {});
/// The same into an OutputBuffer, flushed as it fills: the text is never held whole.
void write_json(OutputBuffer& out, const Json& value, const JsonStyle& style = {});
/// Append a JSON string literal (quotes and escapes) for UTF-8 text. Surrogates held as
/// 3-byte sequences (lone surrogate escapes the parser read) are written as backslash-u escapes (\\udc80).
void write_json_string(std::string& out, std::string_view text);
/// Append a double as Python's json.dumps would print it (repr, NaN/Infinity tokens).
void write_json_double(std::string& out, double value);
/// Same for a float32 value: shortest form that round-trips at single precision.
void write_json_float(std::string& out, float value);

/// An array shape as JSON, a list of integers: [32, 16], [] for 0-d.
Json shape_json(const std::vector<std::uint64_t>& shape);
/// An array shape as text, as Python prints a list: "[32, 16]", "[]" for 0-d.
std::string shape_text(const std::vector<std::uint64_t>& shape);

}  // namespace zanj
