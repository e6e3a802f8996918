#pragma once
// JSON in the API, two ways:
// - Json is a VALUE: what callers build (JsonObject / JsonArray) and print (write_json, to_json),
//   e.g. the reports commands write. It owns its contents.
// - JsonView is a read-only HANDLE to a value inside a parsed document (an opened archive's
//   __zanj__.json and meta, and the nodes of its tree). It is small and copyable, valid while
//   the document's owner (the ZanjFile) lives, and says nothing about how the document is held,
//   so that representation can change without changing this API. copy() makes a Json of it.
// Documents are parsed as Python 3.11's json.loads(bytes) reads them (docs/format.md): the bare
// NaN / Infinity / -Infinity tokens, integers of any size up to 4,300 digits, 1e400 as inf,
// lone surrogate escapes, a leading BOM, and duplicate keys with the last value winning.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace zanj {

class Json;
class JsonDocument;
class JsonView;
class JsonViewIterator;
class JsonMembers;
class OutputBuffer;
struct PrivateAccess;
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
  std::variant<std::nullptr_t, bool, std::int64_t, std::uint64_t, BigInt, double, std::string, JsonArray, JsonObject>
      v_{nullptr};
};

/// A read-only handle to one value of a parsed document (see the top of this file). A default
/// (or not-found) view is invalid: it converts to false and answers like a JSON null.
class JsonView {
 public:
  using Type = Json::Type;

  JsonView() = default;
  explicit operator bool() const noexcept { return json_ != nullptr || doc_ != nullptr; }

  Type type() const noexcept;
  bool is_null() const noexcept { return type() == Type::null; }
  bool is_bool() const noexcept { return type() == Type::boolean; }
  bool is_number() const noexcept;
  bool is_integer() const noexcept;  ///< int64, uint64 or big integer
  bool is_string() const noexcept { return type() == Type::string; }
  bool is_array() const noexcept { return type() == Type::array; }
  bool is_object() const noexcept { return type() == Type::object; }

  /// The as_* accessors require the matching type (std::bad_variant_access otherwise).
  bool as_bool() const;
  std::string_view as_string() const;
  std::int64_t as_int64() const;
  std::uint64_t as_uint64() const;
  double as_real() const;
  std::string_view big_integer_digits() const;  ///< decimal text of an integer past 64 bits
  /// Any number as a double (big integers approximately), bools as 0 and 1, else NaN.
  double to_double() const;
  /// A non-negative integer that fits 64 bits, or false.
  bool get_uint64(std::uint64_t& out) const noexcept;
  /// "object", "array", "string", "number", "bool" or "null".
  std::string_view type_name() const noexcept;

  /// Object member by key (the first of equal keys); an invalid view when absent or when this
  /// is not an object.
  JsonView find(std::string_view key) const noexcept;
  /// String member by key, or an empty view when absent or not a string.
  std::string_view string_at(std::string_view key) const noexcept;

  /// Elements of an array, members of an object, else 0.
  std::size_t size() const noexcept;
  /// Element i of an array, or the value of member i of an object (i < size()).
  JsonView operator[](std::size_t i) const;
  /// The key of member i of an object (i < size()).
  std::string_view key(std::size_t i) const;

  /// Iterates an array's elements or an object's member values (in file order); members()
  /// gives an object's (key, value) pairs.
  JsonViewIterator begin() const;
  JsonViewIterator end() const;
  JsonMembers members() const;

  /// The value as a Json of its own (null for an invalid view).
  Json copy() const;
  /// Same value (deep comparison; an invalid view equals only another invalid view).
  bool operator==(const JsonView& other) const;

 private:
  friend struct PrivateAccess;
  static constexpr std::uint32_t kNotElement = UINT32_MAX;
  explicit JsonView(const Json* json) : json_(json) {}
  JsonView(const JsonDocument* doc, std::uint32_t node, std::uint32_t element = kNotElement)
      : doc_(doc), node_(node), element_(element) {}
  // Either a Json value (one built in memory), or node `node_` of a parsed document, or an
  // element of the packed array `node_` whose text starts at `element_` (json_document.hpp).
  const Json* json_ = nullptr;
  const JsonDocument* doc_ = nullptr;
  std::uint32_t node_ = 0;
  std::uint32_t element_ = kNotElement;
};

/// Walks a JsonView's elements (or an object's member values) by index.
class JsonViewIterator {
 public:
  using value_type = JsonView;
  using difference_type = std::ptrdiff_t;
  JsonViewIterator() = default;
  JsonViewIterator(JsonView parent, std::size_t i) : parent_(parent), i_(i) {}
  JsonView operator*() const { return parent_[i_]; }
  JsonViewIterator& operator++() {
    ++i_;
    return *this;
  }
  JsonViewIterator operator++(int) {
    JsonViewIterator old = *this;
    ++i_;
    return old;
  }
  bool operator==(const JsonViewIterator& o) const { return i_ == o.i_; }
  std::size_t index() const { return i_; }
  std::string_view key() const { return parent_.key(i_); }  ///< objects only

 private:
  JsonView parent_;
  std::size_t i_ = 0;
};

/// One member of an object: its key and its value.
struct JsonMember {
  std::string_view key;
  JsonView value;
};

/// An object's members, in file order, for range-for: `for (auto [key, value] : v.members())`.
class JsonMembers {
 public:
  class Iterator {
   public:
    using value_type = JsonMember;
    using difference_type = std::ptrdiff_t;
    Iterator() = default;
    explicit Iterator(JsonViewIterator at) : at_(at) {}
    JsonMember operator*() const { return JsonMember{at_.key(), *at_}; }
    Iterator& operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const Iterator& o) const { return at_ == o.at_; }

   private:
    JsonViewIterator at_;
  };
  explicit JsonMembers(JsonView object) : object_(object) {}
  Iterator begin() const { return Iterator(object_.begin()); }
  Iterator end() const { return Iterator(object_.end()); }

 private:
  JsonView object_;
};

inline JsonViewIterator JsonView::begin() const { return JsonViewIterator(*this, 0); }
inline JsonViewIterator JsonView::end() const { return JsonViewIterator(*this, size()); }
inline JsonMembers JsonView::members() const { return JsonMembers(*this); }

/// How to print JSON.
struct JsonStyle {
  int indent = 0;          ///< 0: compact on one line (", " and ": " separators like Python's json)
  char indent_char = ' ';  ///< '\t' with indent 1 gives the reference's indent="\t"
};
/// Append `value` to `out`. Floats are printed in the shortest form that round-trips,
/// NaN and infinities as Python writes them (NaN, Infinity, -Infinity).
void write_json(std::string& out, const Json& value, const JsonStyle& style = {});
std::string to_json(const Json& value, const JsonStyle& style = {});
/// The same into an OutputBuffer, flushed as it fills: the text is never held whole.
void write_json(OutputBuffer& out, const Json& value, const JsonStyle& style = {});
/// The same for a view into a document (an invalid view prints as null).
void write_json(std::string& out, JsonView value, const JsonStyle& style = {});
std::string to_json(JsonView value, const JsonStyle& style = {});
void write_json(OutputBuffer& out, JsonView value, const JsonStyle& style = {});
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
