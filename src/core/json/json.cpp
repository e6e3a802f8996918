// The Json value model's accessors and its writer (Python-compatible output).
#include <charconv>
#include <cmath>
#include <cstdio>

#include "zanj/json.hpp"

#include "zanj/error.hpp"
#include "base/utf8.hpp"
#include "zanj/format.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "json/json_writer.hpp"

namespace zanj {

bool Json::is_number() const noexcept { return json::json_type_is_number(type()); }

bool Json::is_integer() const noexcept {
  return type() == Type::integer || type() == Type::unsigned_integer || type() == Type::big_integer;
}

double Json::to_double() const {
  switch (type()) {
    case Type::integer:
      return static_cast<double>(as_int64());
    case Type::unsigned_integer:
      return static_cast<double>(as_uint64());
    case Type::big_integer:
      return std::strtod(as_big_integer().digits.c_str(), nullptr);
    case Type::real:
      return as_real();
    case Type::boolean:
      return as_bool() ? 1.0 : 0.0;
    default:
      return std::nan("");
  }
}

// These three are noexcept: std::get_if, where as_...() (std::get) could throw.
bool Json::get_uint64(std::uint64_t& out) const noexcept {
  if (const auto* u = std::get_if<std::uint64_t>(&v_)) {
    out = *u;
    return true;
  }
  if (const auto* i = std::get_if<std::int64_t>(&v_); i && *i >= 0) {
    out = static_cast<std::uint64_t>(*i);
    return true;
  }
  return false;
}

const Json* Json::find(std::string_view key) const noexcept {
  const auto* object = std::get_if<JsonObject>(&v_);
  if (!object) return nullptr;
  for (const auto& [k, v] : *object)
    if (k == key) return &v;
  return nullptr;
}

std::string_view Json::string_at(std::string_view key) const noexcept {
  const Json* v = find(key);
  const auto* s = v ? std::get_if<std::string>(&v->v_) : nullptr;
  return s ? std::string_view(*s) : std::string_view();
}

std::string_view json::json_type_name(Json::Type type) noexcept {
  switch (type) {
    case Json::Type::null:
      return "null";
    case Json::Type::boolean:
      return "bool";
    case Json::Type::string:
      return "string";
    case Json::Type::array:
      return "array";
    case Json::Type::object:
      return "object";
    default:
      return "number";
  }
}

std::string_view Json::type_name() const noexcept { return json::json_type_name(type()); }

namespace {

/// JSON's two-character escape for `cp` (what Python's json writes), or null where it has none.
const char* short_escape(std::uint32_t cp) {
  switch (cp) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '\b':
      return "\\b";
    case '\f':
      return "\\f";
    default:
      return nullptr;
  }
}

}  // namespace

void write_json_string(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  auto escape_unit = [&](std::uint32_t unit) {  // \uXXXX
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4) out += hex[(unit >> shift) & 15];
  };
  out += '"';
  std::uint32_t cp = 0;
  while (!text.empty()) {
    const auto c = static_cast<unsigned char>(text[0]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {  // plain ASCII, by far the most text
      out += static_cast<char>(c);
      text.remove_prefix(1);
      continue;
    }
    std::size_t len = base::utf8_sequence(text, cp);
    if (len == 0) {
      // A lone surrogate, as the parser keeps "\ud800" (WTF-8: ED A0..BF 80..BF), goes back
      // out as the same escape; any other byte that is not UTF-8 as U+DC00+byte, Python's
      // surrogateescape (zanj(1), docs/man/zanj.md, "OUTPUT OF ARCHIVE DATA").
      if (c == 0xED && text.size() >= 3 && (static_cast<unsigned char>(text[1]) & 0xE0) == 0xA0 &&
          (static_cast<unsigned char>(text[2]) & 0xC0) == 0x80) {
        escape_unit(0xD000u | ((static_cast<unsigned>(text[1]) & 0x3Fu) << 6) |
                    (static_cast<unsigned>(text[2]) & 0x3Fu));
        len = 3;
      } else {
        escape_unit(0xDC00u | c);
        len = 1;
      }
    } else if (const char* escape = short_escape(cp)) {
      out += escape;
    } else if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) {  // C0, DEL, C1: never raw on a terminal
      escape_unit(cp);
    } else {
      out.append(text.substr(0, len));
    }
    text.remove_prefix(len);
  }
  out += '"';
}

namespace {

/// Only the digits of a JSON integer (-?(0|[1-9][0-9]*)) may be printed as a number.
bool is_json_integer_text(std::string_view digits) {
  if (!digits.empty() && digits.front() == '-') digits.remove_prefix(1);
  if (digits.empty() || (digits.size() > 1 && digits.front() == '0')) return false;
  for (char c : digits)
    if (c < '0' || c > '9') return false;
  return true;
}

/// Python prints floats with a decimal point or exponent ("1.0", "1e+16"); to_chars does not.
void finish_float_text(std::string& out, std::size_t start) {
  if (out.find_first_of(".en", start) == std::string::npos) out += ".0";
}

bool write_non_finite(std::string& out, double value) {
  if (std::isnan(value)) {
    out += "NaN";
    return true;
  }
  if (std::isinf(value)) {
    out += value > 0 ? "Infinity" : "-Infinity";
    return true;
  }
  return false;
}

template <typename Float>
void write_shortest(std::string& out, Float value) {
  if (write_non_finite(out, static_cast<double>(value))) return;
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  const std::size_t start = out.size();
  out.append(buf, end);
  finish_float_text(out, start);
}

void write_indent(std::string& out, const JsonStyle& style, int level) {
  out += '\n';
  out.append(static_cast<std::size_t>(style.indent) * static_cast<std::size_t>(level), style.indent_char);
}

/// The `count` items of an array or object between `brackets`, separated as Python's json
/// does, one per line when indenting; `sink` may flush after each item.
template <typename WriteItem>
void write_items(std::string& out, const char (&brackets)[3], std::size_t count, const JsonStyle& style, int level,
                 OutputBuffer* sink, const WriteItem& write_item) {
  out += brackets[0];
  for (std::size_t i = 0; i < count; ++i) {
    if (i) out += style.indent ? "," : ", ";
    if (style.indent) write_indent(out, style, level + 1);
    write_item(i);
    if (sink) sink->flush_if_full();
  }
  if (style.indent && count != 0) write_indent(out, style, level);
  out += brackets[1];
}

void write_value(std::string& out, JsonView v, const JsonStyle& style, int level, OutputBuffer* sink,
                 const json::JsonRewriter* rewrite = nullptr);

/// write_value of a container's item, or of what `rewrite` puts in its place.
void write_rewritten(std::string& out, JsonView v, const JsonStyle& style, int level, OutputBuffer* sink,
                     const json::JsonRewriter& rewrite, std::optional<std::string_view> key) {
  const json::JsonRewrite r = rewrite(v, key);
  switch (r.action) {
    case json::JsonRewrite::Action::descend:
      return write_value(out, v, style, level, sink, &rewrite);
    case json::JsonRewrite::Action::keep:
      return write_value(out, v, style, level, sink);
    case json::JsonRewrite::Action::replace:
      return write_value(out, json::view_of(r.replacement), style, level, sink);
  }
}

// `sink`, when given, owns `out` (its text()) and may pass it on between elements, so a large
// document streams out instead of being held as text beside its tree. One writer for both
// kinds of value: a Json goes through its view. With `rewrite`, the items of `v` (not `v`
// itself, already asked about) go through it.
void write_value(std::string& out, JsonView v, const JsonStyle& style, int level, OutputBuffer* sink,
                 const json::JsonRewriter* rewrite) {
  using T = Json::Type;
  switch (v.type()) {
    case T::null:
      out += "null";
      break;
    case T::boolean:
      out += v.as_bool() ? "true" : "false";
      break;
    case T::integer:
      out += std::to_string(v.as_int64());
      break;
    case T::unsigned_integer:
      out += std::to_string(v.as_uint64());
      break;
    case T::big_integer: {
      // The parser keeps the text of integers beyond 64 bits; never echo text that is not one.
      const std::string_view digits = v.big_integer_digits();
      if (!is_json_integer_text(digits))
        throw Error("not a JSON integer: '" + terminal_safe(digits.substr(0, 40)) + "'");
      out += digits;
      break;
    }
    case T::real:
      write_json_double(out, v.as_real());
      break;
    case T::string:
      write_json_string(out, v.as_string());
      break;
    case T::array:
      write_items(out, "[]", v.size(), style, level, sink, [&](std::size_t i) {
        if (rewrite)
          write_rewritten(out, v[i], style, level + 1, sink, *rewrite, std::nullopt);
        else
          write_value(out, v[i], style, level + 1, sink);
      });
      break;
    case T::object:
      write_items(out, "{}", v.size(), style, level, sink, [&](std::size_t i) {
        const std::string_view key = v.key(i);
        write_json_string(out, key);
        out += ": ";
        if (rewrite)
          write_rewritten(out, v[i], style, level + 1, sink, *rewrite, key);
        else
          write_value(out, v[i], style, level + 1, sink);
      });
      break;
  }
}

}  // namespace

void write_json_double(std::string& out, double value) { write_shortest(out, value); }
void write_json_float(std::string& out, float value) { write_shortest(out, value); }

void write_json(std::string& out, const Json& value, const JsonStyle& style) {
  write_value(out, json::view_of(value), style, 0, nullptr);
}
void write_json(std::string& out, JsonView value, const JsonStyle& style) {
  write_value(out, value, style, 0, nullptr);
}
std::string to_json(JsonView value, const JsonStyle& style) {
  std::string out;
  write_json(out, value, style);
  return out;
}
void write_json(OutputBuffer& out, JsonView value, const JsonStyle& style) {
  write_value(out.text(), value, style, 0, &out);
}

void json::write_json_rewritten(OutputBuffer& out, JsonView value, const JsonStyle& style,
                                const JsonRewriter& rewrite) {
  write_rewritten(out.text(), value, style, 0, &out, rewrite, std::nullopt);
}

void json::write_json_nested(std::string& out, JsonView value, const JsonStyle& style, int level) {
  write_value(out, value, style, level, nullptr);
}

std::uint64_t json::count_json_values(const Json& value) {
  std::uint64_t n = 1;
  if (value.is_array())
    for (const Json& v : value.as_array()) n += json::count_json_values(v);
  else if (value.is_object())
    for (const auto& [key, v] : value.as_object()) n += json::count_json_values(v);
  return n;
}

void write_json(OutputBuffer& out, const Json& value, const JsonStyle& style) {
  write_value(out.text(), json::view_of(value), style, 0, &out);
}

std::string to_json(const Json& value, const JsonStyle& style) {
  std::string out;
  write_json(out, value, style);
  return out;
}

Json shape_json(const std::vector<std::uint64_t>& shape) {
  JsonArray out;
  out.reserve(shape.size());
  for (const auto d : shape) out.emplace_back(d);
  return Json(std::move(out));
}

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

}  // namespace zanj
