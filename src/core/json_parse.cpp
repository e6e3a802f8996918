// JSON parsing with simdjson, plus the non-standard tokens Python writes.
//
// Python's json module writes float NaN/inf as bare NaN, Infinity, -Infinity and ints of any
// size; simdjson rejects all of these. Rather than slow every parse down with a second parser,
// the fast path hands the text to simdjson untouched; only when the text contains such a token
// (or simdjson reports a number it cannot hold) does a pre-pass rewrite each offending token,
// outside strings only, into a string sentinel. The sentinel strings are mapped back to numbers
// while converting to our Json model; a count check proves no user string was mistaken for one.
#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>

#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj {
namespace {

/// Numbers that simdjson cannot represent, moved out of the text by the pre-pass.
struct Sentinels {
  std::string prefix;           ///< decoded prefix of every sentinel string
  std::vector<Json> values;     ///< value of sentinel #i
  std::vector<bool> used;
  std::size_t uses = 0;
  bool clash = false;           ///< a user string looked like a sentinel: retry with a new prefix
};

bool has_python_tokens(std::string_view text) {
  return text.find("NaN") != std::string_view::npos ||
         text.find("Infinity") != std::string_view::npos;
}

bool is_number_char(char c) {
  return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/// True when `token` is an integer literal that does not fit int64 or uint64.
bool is_big_integer(std::string_view token) {
  if (token.find_first_of(".eE") != std::string_view::npos || token.size() < 19) return false;
  const char* first = token.data();
  const char* last = first + token.size();
  if (token.front() == '-') {
    std::int64_t v;
    return std::from_chars(first, last, v).ec == std::errc::result_out_of_range;
  }
  std::uint64_t u;
  return std::from_chars(first, last, u).ec == std::errc::result_out_of_range;
}

/// Rewrite bare NaN/Infinity/-Infinity and big integers into sentinel strings.
std::string rewrite_tokens(std::string_view text, std::string_view nonce, Sentinels& s) {
  std::string out;
  out.reserve(text.size() + 64);
  auto emit = [&](Json value) {
    out += "\"\\u0001zanj:";
    out += nonce;
    out += ':';
    out += std::to_string(s.values.size());
    out += '"';
    s.values.push_back(std::move(value));
  };
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const char c = text[i];
    if (c == '"') {  // copy a whole string literal, escapes included
      std::size_t j = i + 1;
      while (j < n && text[j] != '"') j += (text[j] == '\\') ? 2 : 1;
      j = std::min(j + 1, n);
      out.append(text.substr(i, j - i));
      i = j;
    } else if (text.compare(i, 3, "NaN") == 0) {
      emit(std::numeric_limits<double>::quiet_NaN());
      i += 3;
    } else if (text.compare(i, 8, "Infinity") == 0) {
      emit(std::numeric_limits<double>::infinity());
      i += 8;
    } else if (text.compare(i, 9, "-Infinity") == 0) {
      emit(-std::numeric_limits<double>::infinity());
      i += 9;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      std::size_t j = i + 1;
      while (j < n && is_number_char(text[j])) ++j;
      std::string_view token = text.substr(i, j - i);
      if (is_big_integer(token)) {
        emit(BigInt{std::string(token)});
      } else {
        out.append(token);
      }
      i = j;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

class Converter {
 public:
  Converter(Sentinels* sentinels, std::size_t max_depth) : s_(sentinels), max_depth_(max_depth) {}

  Json convert(simdjson::dom::element e, std::size_t depth) {
    using T = simdjson::dom::element_type;
    if (depth > max_depth_) throw Error("JSON nesting deeper than " + std::to_string(max_depth_));
    switch (e.type()) {
      case T::ARRAY: {
        JsonArray arr;
        simdjson::dom::array a = e.get_array().value_unsafe();
        arr.reserve(a.size());
        for (simdjson::dom::element child : a) arr.push_back(convert(child, depth + 1));
        return Json(std::move(arr));
      }
      case T::OBJECT: {
        JsonObject obj;
        simdjson::dom::object o = e.get_object().value_unsafe();
        obj.reserve(o.size());
        for (auto field : o) obj.emplace_back(std::string(field.key), convert(field.value, depth + 1));
        return Json(std::move(obj));
      }
      case T::INT64: return Json(e.get_int64().value_unsafe());
      case T::UINT64: return Json(e.get_uint64().value_unsafe());
      case T::DOUBLE: return Json(e.get_double().value_unsafe());
      case T::BOOL: return Json(e.get_bool().value_unsafe());
      case T::NULL_VALUE: return Json(nullptr);
      case T::STRING: return string_or_sentinel(e.get_string().value_unsafe());
    }
    return Json(nullptr);
  }

 private:
  Json string_or_sentinel(std::string_view str) {
    if (s_ && str.size() > s_->prefix.size() && str.compare(0, s_->prefix.size(), s_->prefix) == 0) {
      std::size_t index = 0;
      const char* first = str.data() + s_->prefix.size();
      auto [ptr, ec] = std::from_chars(first, str.data() + str.size(), index);
      if (ec == std::errc() && ptr == str.data() + str.size() && index < s_->values.size()) {
        if (s_->used[index]) s_->clash = true;
        s_->used[index] = true;
        ++s_->uses;
        return s_->values[index];
      }
    }
    return Json(std::string(str));
  }

  Sentinels* s_;
  std::size_t max_depth_;
};

std::string parse_failure(std::string_view what, simdjson::error_code code) {
  return std::string(what) + ": invalid JSON (" + simdjson::error_message(code) + ")";
}

}  // namespace

Json parse_json(std::string_view text, std::string_view what, const JsonLimits& limits) {
  simdjson::dom::parser parser;
  // simdjson bounds nesting itself; the +1 lets our own check produce the clearer message.
  if (parser.allocate(std::max<std::size_t>(text.size() + 1024, 4096), limits.max_depth + 1) != simdjson::SUCCESS)
    throw Error(std::string(what) + ": too large to parse");
  if (!has_python_tokens(text)) {
    simdjson::padded_string padded(text);
    auto doc = parser.parse(padded);
    if (!doc.error()) return Converter(nullptr, limits.max_depth).convert(doc.value_unsafe(), 0);
    if (doc.error() != simdjson::NUMBER_ERROR)
      throw Error(parse_failure(what, doc.error()));
  }
  // Slow path: Python's tokens (or a big integer) are present. A hostile document could
  // contain a string equal to a sentinel; each retry uses a different nonce.
  for (int attempt = 0; attempt < 16; ++attempt) {
    Sentinels s;
    const std::string nonce = std::to_string(text.size()) + "-" + std::to_string(attempt);
    s.prefix = "\x01zanj:" + nonce + ":";
    simdjson::padded_string padded(rewrite_tokens(text, nonce, s));
    s.used.assign(s.values.size(), false);
    auto doc = parser.parse(padded);
    if (doc.error()) throw Error(parse_failure(what, doc.error()));
    Json result = Converter(&s, limits.max_depth).convert(doc.value_unsafe(), 0);
    if (s.clash) continue;
    if (s.uses != s.values.size())  // e.g. `{NaN: 1}`: a bare token where a key belongs
      throw Error(std::string(what) + ": invalid JSON (NaN or Infinity outside a value)");
    return result;
  }
  throw Error(std::string(what) + ": invalid JSON (strings imitate NaN placeholders)");
}

}  // namespace zanj
