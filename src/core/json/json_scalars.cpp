// Scalars of a JSON document with Python's meaning (json_builder.hpp): numbers as json.loads
// reads them (int of any length up to 4,300 digits, float correctly rounded, 1e400 as inf,
// NaN and Infinity), strings decoded with lone surrogates kept. simdjson has already checked
// the text's UTF-8 and its control characters in strings; what it leaves to the caller (a
// token's grammar, escapes) is checked here.
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "zanj/error.hpp"
#include "base/byte_words.hpp"
#include "base/hex_digit.hpp"
#include "base/unicode.hpp"
#include "json/json_builder.hpp"

namespace zanj::json {
namespace {

/// Python's int(str) refuses more digits than this (sys.int_info.default_max_str_digits).
constexpr std::size_t kMaxIntDigits = 4300;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool token_is(const char* first, const char* last, std::string_view word) {
  return static_cast<std::size_t>(last - first) == word.size() && std::memcmp(first, word.data(), word.size()) == 0;
}

/// Python's float(text): correctly rounded, overflow to +-inf, underflow to 0. `text` is
/// already known to match the number grammar.
double python_float(const char* first, const char* last) {
  double value = 0;
  const auto [ptr, ec] = std::from_chars(first, last, value);
  if (ec == std::errc() && ptr == last) return value;
  // Out of range: beyond 1e308 or below 1e-324, and the decimal order of the first nonzero
  // digit says which (no strtod: it would depend on the C locale).
  const bool negative = *first == '-';
  const char* p = first + (negative ? 1 : 0);
  std::int64_t order = 0;
  if (*p != '0') {
    while (p < last && *p >= '0' && *p <= '9') ++p, ++order;
  } else {
    ++p;
    if (p < last && *p == '.')
      for (++p; p < last && *p == '0'; ++p) --order;
  }
  while (p < last && *p != 'e' && *p != 'E') ++p;
  if (p < last) {
    ++p;
    const bool exp_negative = *p == '-';
    if (*p == '-' || *p == '+') ++p;
    std::int64_t exponent = 0;
    for (; p < last; ++p) exponent = std::min<std::int64_t>(exponent * 10 + (*p - '0'), std::int64_t{1} << 40);
    order += exp_negative ? -exponent : exponent;
  }
  const double magnitude = order > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return negative ? -magnitude : magnitude;
}

/// -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? : Python's NUMBER_RE, which must fill the token.
BareScalar read_number(const char* first, const char* last) {
  BareScalar out;
  const auto fail = [&](const char* at, std::string_view why) {
    out.error_at = at;
    out.error = why;
    return out;
  };
  const char* p = first;
  const bool negative = *p == '-';
  if (negative) ++p;
  const char* digits = p;
  if (p >= last || !is_digit(*p)) return fail(first, "expecting value");
  if (*p == '0') {
    ++p;
  } else {
    while (p < last && is_digit(*p)) ++p;
  }
  const char* int_end = p;
  bool is_float = false;
  if (p + 1 < last && *p == '.' && is_digit(p[1])) {
    is_float = true;
    p += 2;
    while (p < last && is_digit(*p)) ++p;
  }
  if (p < last && (*p == 'e' || *p == 'E')) {
    const char* q = p + 1;
    if (q < last && (*q == '+' || *q == '-')) ++q;
    if (q < last && is_digit(*q)) {
      is_float = true;
      while (q < last && is_digit(*q)) ++q;
      p = q;
    }
  }
  if (p != last) return fail(p, "extra data");  // as in "1.", "01" or "1x": Python stops there
  if (is_float) return BareScalar::real(python_float(first, last));
  const std::size_t n = static_cast<std::size_t>(int_end - digits);
  if (n > kMaxIntDigits) {
    out.digits = n;
    return fail(first, "an integer of too many digits");
  }
  const auto big = [&] {  // the sign and the digits, which the caller finds at `first`
    out.node.type_code = static_cast<std::uint8_t>(Json::Type::big_integer);
    out.node.size = static_cast<std::uint32_t>(int_end - first);
    return out;
  };
  std::uint64_t magnitude = 0;
  if (n <= 19) {  // below 10^19 < 2^64: no overflow to check for, digit by digit
    for (const char* d = digits; d < int_end; ++d) magnitude = magnitude * 10 + static_cast<std::uint64_t>(*d - '0');
  } else {
    for (const char* d = digits; d < int_end; ++d) {
      const auto digit = static_cast<std::uint64_t>(*d - '0');
      if (magnitude > (UINT64_MAX - digit) / 10) return big();
      magnitude = magnitude * 10 + digit;
    }
  }
  if (!negative) {
    if (magnitude <= static_cast<std::uint64_t>(INT64_MAX))
      return BareScalar::integer(static_cast<std::int64_t>(magnitude));
    out.node.type_code = static_cast<std::uint8_t>(Json::Type::unsigned_integer);
    out.node.u = magnitude;
    return out;
  }
  if (magnitude <= static_cast<std::uint64_t>(INT64_MAX))
    return BareScalar::integer(-static_cast<std::int64_t>(magnitude));
  if (magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1) return BareScalar::integer(INT64_MIN);
  return big();
}

}  // namespace

BareScalar BareScalar::real(double d) {
  BareScalar out;
  out.node.type_code = static_cast<std::uint8_t>(Json::Type::real);
  out.node.d = d;
  return out;
}

BareScalar BareScalar::integer(std::int64_t i) {
  BareScalar out;
  out.node.type_code = static_cast<std::uint8_t>(Json::Type::integer);
  out.node.i = i;
  return out;
}

BareScalar read_bare_scalar(const char* first, const char* last) {
  BareScalar out;
  out.error_at = first;
  out.error = "expecting value";
  if (first >= last) return out;
  const auto literal = [&](std::string_view word, Json::Type type, std::uint64_t bits) {
    if (!token_is(first, last, word)) return false;
    out = BareScalar{};
    out.node.type_code = static_cast<std::uint8_t>(type);
    out.node.u = bits;
    return true;
  };
  switch (*first) {
    case 'n':
      if (literal("null", Json::Type::null, 0)) return out;
      break;
    case 't':
      if (literal("true", Json::Type::boolean, 1)) return out;
      break;
    case 'f':
      if (literal("false", Json::Type::boolean, 0)) return out;
      break;
    case 'N':
      if (token_is(first, last, "NaN")) return BareScalar::real(std::numeric_limits<double>::quiet_NaN());
      break;
    case 'I':
      if (token_is(first, last, "Infinity")) return BareScalar::real(std::numeric_limits<double>::infinity());
      break;
    case '-':
      if (token_is(first, last, "-Infinity")) return BareScalar::real(-std::numeric_limits<double>::infinity());
      return read_number(first, last);
    default:
      if (is_digit(*first)) return read_number(first, last);
  }
  return out;
}

std::uint32_t JsonDocumentBuilder::scalar(const char* first, const char* last) {
  if (first < last && *first == '"') {
    const char* end = nullptr;
    const std::uint32_t node = string_at(first + 1, end);
    if (end != last) error("extra data", end);
    return node;
  }
  BareScalar s = read_bare_scalar(first, last);
  if (s.error_at) {
    if (s.digits)
      error("an integer of " + std::to_string(s.digits) + " digits exceeds Python's limit of " +
                std::to_string(kMaxIntDigits),
            s.error_at);
    error(std::string(s.error), s.error_at);
  }
  if (s.node.type() == Json::Type::big_integer) s.node.offset = offset_of(first);
  const std::uint32_t i = add_node(s.node.type());
  node(i) = s.node;
  return i;
}

const char* JsonDocumentBuilder::string_run_end(const char* p, const char* end) {
  // Eight bytes a step, then the last few.
  while (end - p >= 8) {
    const std::uint64_t w = base::words::load(p);
    const std::uint64_t stops =
        base::words::bytes_equal(w, '"') | base::words::bytes_equal(w, '\\') | base::words::bytes_below(w, 0x20);
    if (stops) return p + base::words::first_marked(stops);
    p += 8;
  }
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20) break;
    ++p;
  }
  return p;
}

std::uint32_t JsonDocumentBuilder::string_at(const char* first, const char*& end) {
  const char* p = first;
  std::string* out = nullptr;  // the arena, once an escape was met
  std::size_t arena_start = 0;
  for (;;) {
    const char* run = p;
    p = string_run_end(p, end_);
    if (out) out->append(run, p);
    if (p >= end_) error("unterminated string", first - 1);
    if (*p == '"') break;
    if (*p != '\\') error("invalid control character in a string", p);
    if (!out) {
      out = &doc_.arena_;
      arena_start = out->size();
      out->append(first, p);
    }
    read_escape(*out, p, end_);
  }
  end = p + 1;
  const std::size_t size = out ? out->size() - arena_start : static_cast<std::size_t>(p - first);
  if (size > UINT32_MAX) error("a string of 4 GiB or more", first - 1);
  if (!out) return add_text(Json::Type::string, first, p);
  const std::uint32_t i = add_node(Json::Type::string);
  node(i).in_arena = true;
  node(i).offset = arena_start;
  node(i).size = static_cast<std::uint32_t>(size);
  return i;
}

std::uint32_t JsonDocumentBuilder::read_hex4(const char*& p, const char* end) const {
  if (end - p < 4) error("invalid \\uXXXX escape", p);
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    const int h = base::hex_digit_value(p[i]);
    if (h < 0) error("invalid \\uXXXX escape", p);
    v = (v << 4) | static_cast<std::uint32_t>(h);
  }
  p += 4;
  return v;
}

void JsonDocumentBuilder::read_escape(std::string& out, const char*& p, const char* end) const {
  ++p;  // the backslash
  if (p >= end) error("unterminated string", p);
  const char e = *p++;
  switch (e) {
    case '"':
      out += '"';
      return;
    case '\\':
      out += '\\';
      return;
    case '/':
      out += '/';
      return;
    case 'b':
      out += '\b';
      return;
    case 'f':
      out += '\f';
      return;
    case 'n':
      out += '\n';
      return;
    case 'r':
      out += '\r';
      return;
    case 't':
      out += '\t';
      return;
    case 'u':
      break;
    default:
      error("invalid \\escape", p - 2);
  }
  std::uint32_t cp = read_hex4(p, end);
  // A high surrogate followed by an escaped low one is one character; anything else leaves
  // the surrogate alone (Python keeps it in the str).
  if (cp >= 0xD800 && cp < 0xDC00 && end - p >= 6 && p[0] == '\\' && p[1] == 'u') {
    const char* low_at = p + 2;
    const std::uint32_t low = read_hex4(low_at, end);
    if (low >= 0xDC00 && low < 0xE000) {
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      p = low_at;
    }
  }
  base::append_utf8(out, cp);  // surrogates too: generalized UTF-8
}

}  // namespace zanj::json
