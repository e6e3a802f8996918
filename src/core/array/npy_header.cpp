#include "array/npy_header.hpp"

#include <cstring>

#include "zanj/error.hpp"

namespace zanj::array {
namespace {

constexpr std::string_view npy_magic{"\x93NUMPY", 6};
constexpr std::size_t version_end = 8;   // magic + major + minor
constexpr std::size_t array_align = 64;  // numpy aligns data so it can be mmapped
// numpy leaves room after the dict so the growth axis can be rewritten in
// place with up to this many digits; we reproduce it to match its bytes.
constexpr std::size_t growth_axis_max_digits = 21;
constexpr std::size_t max_dims = 64;  // numpy 2's NPY_MAXDIMS

base::Failure npy_failure(const std::string& why) { return base::Failure{"bad npy header: " + why}; }

std::uint64_t read_le(std::string_view bytes, std::size_t offset, std::size_t width) {
  std::uint64_t value = 0;
  for (std::size_t i = width; i-- > 0;) {
    value = (value << 8) | static_cast<unsigned char>(bytes[offset + i]);
  }
  return value;
}

void write_le(std::string& out, std::uint64_t value, std::size_t width) {
  for (std::size_t i = 0; i < width; ++i) out += static_cast<char>((value >> (8 * i)) & 0xff);
}

// Version 1.0 stores the dict length in 2 bytes, 2.0 and 3.0 in 4. 3.0 only
// changes the dict's encoding (UTF-8 instead of latin-1), which is moot for
// us: every token we accept is ASCII.
base::Result<std::size_t> length_width(std::string_view bytes) {
  if (bytes.size() < version_end) return npy_failure("truncated before the version");
  if (bytes.substr(0, npy_magic.size()) != npy_magic) return npy_failure("not a .npy member (bad magic)");
  auto major = static_cast<unsigned char>(bytes[6]);
  auto minor = static_cast<unsigned char>(bytes[7]);
  if (minor != 0 || major < 1 || major > 3) {
    return npy_failure("unsupported version " + std::to_string(major) + "." + std::to_string(minor));
  }
  return std::size_t{major == 1 ? 2u : 4u};
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// A recursive-descent reader for the dict literal numpy writes:
//   {'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }
// It accepts either quote style, any whitespace and optional trailing
// commas, and nothing else: no escapes, no expressions, no other types.
// Each step returns false once it has failed; failure() then says why.
class DictParser {
 public:
  explicit DictParser(std::string_view text) : text_(text) {}

  bool parse(NpyHeader& out) {
    skip_ws();
    if (!expect('{', "the header dict to start with '{'")) return false;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    skip_ws();
    while (!consume('}')) {
      std::string_view key;
      if (!parse_string(key)) return false;
      skip_ws();
      if (!expect(':', "':' after a key")) return false;
      skip_ws();
      if (key == "descr") {
        if (!mark_seen(seen_descr, key) || !parse_descr_value(out.dtype)) return false;
      } else if (key == "fortran_order") {
        if (!mark_seen(seen_order, key) || !parse_bool(out.fortran_order)) return false;
      } else if (key == "shape") {
        if (!mark_seen(seen_shape, key) || !parse_shape(out.shape)) return false;
      } else {
        return fail("unknown key '" + std::string(key) + "'");
      }
      skip_ws();
      if (consume(',')) {
        skip_ws();
      } else if (peek() != '}') {
        return fail("expected ',' or '}' after a value");
      }
    }
    skip_ws();
    if (pos_ != text_.size()) return fail("unexpected text after the header dict");
    if (!seen_descr) return fail("missing key 'descr'");
    if (!seen_order) return fail("missing key 'fortran_order'");
    if (!seen_shape) return fail("missing key 'shape'");
    return true;
  }

  /// Why parse() returned false.
  base::Failure failure() const { return failure_; }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  base::Failure failure_;

  bool fail(const std::string& why) {
    failure_ = npy_failure(why);
    return false;
  }

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skip_ws() {
    while (pos_ < text_.size() && is_space(text_[pos_])) ++pos_;
  }

  bool consume(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }

  bool expect(char c, const char* what) { return consume(c) || fail(std::string("expected ") + what); }

  bool mark_seen(bool& seen, std::string_view key) {
    if (seen) return fail("duplicate key '" + std::string(key) + "'");
    seen = true;
    return true;
  }

  bool parse_string(std::string_view& out) {
    char quote = peek();
    if (quote != '\'' && quote != '"') return fail("expected a quoted string");
    std::size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote) {
      char c = text_[pos_];
      if (c == '\\' || c == '\n') return fail("escapes and line breaks are not allowed in strings");
      ++pos_;
    }
    if (pos_ >= text_.size()) return fail("unterminated string");
    out = text_.substr(start, pos_++ - start);
    return true;
  }

  bool parse_descr_value(Dtype& out) {
    if (peek() == '[') return fail("structured dtypes are not supported");
    std::string_view descr;
    if (!parse_string(descr)) return false;
    base::Result<Dtype> dtype = read_descr(descr);
    if (!dtype) {
      failure_ = base::Failure{dtype.why()};  // read_descr's own words, as parse_descr threw them
      return false;
    }
    out = *dtype;
    return true;
  }

  bool parse_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  bool parse_bool(bool& out) {
    for (const bool value : {true, false}) {
      if (parse_word(value ? "True" : "False")) {
        out = value;
        return true;
      }
    }
    return fail("fortran_order must be True or False");
  }

  // A tuple: "()", "(5,)", "(3, 4)", "(3, 4,)". "(5)" is an int in Python,
  // not a tuple, so numpy rejects it and so do we.
  bool parse_shape(std::vector<std::uint64_t>& dims) {
    if (!expect('(', "shape to be a tuple")) return false;
    dims.clear();
    bool trailing_comma = false;
    skip_ws();
    while (!consume(')')) {
      if (dims.size() >= max_dims) return fail("too many dimensions");
      std::uint64_t dim = 0;
      if (!parse_dim(dim)) return false;
      dims.push_back(dim);
      skip_ws();
      trailing_comma = consume(',');
      skip_ws();
      if (!trailing_comma && peek() != ')') return fail("expected ',' or ')' in shape");
    }
    if (dims.size() == 1 && !trailing_comma) return fail("shape (n) is not a tuple; write (n,)");
    return true;
  }

  bool parse_dim(std::uint64_t& value) {
    if (peek() == '-') return fail("negative dimension in shape");
    if (peek() < '0' || peek() > '9') return fail("shape dimensions must be integers");
    std::size_t start = pos_;
    value = 0;
    while (peek() >= '0' && peek() <= '9') {
      auto digit = static_cast<std::uint64_t>(peek() - '0');
      if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, digit, &value)) {
        return fail("shape dimension too large");
      }
      ++pos_;
    }
    if (pos_ - start > 1 && text_[start] == '0') return fail("leading zero in shape dimension");
    char next = peek();
    if (next == '.' || next == 'e' || next == 'E' || next == 'x' || next == '_' || next == 'j') {
      return fail("shape dimensions must be plain integers");
    }
    return true;
  }
};

std::string shape_repr(const std::vector<std::uint64_t>& shape) {
  if (shape.empty()) return "()";
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + (shape.size() == 1 ? ",)" : ")");
}

}  // namespace

base::Result<std::uint64_t> NpyHeader::checked_element_count() const {
  std::uint64_t count = 1;
  for (std::uint64_t dim : shape) {
    if (dim == 0) return std::uint64_t{0};  // an empty array is empty whatever the other dims
  }
  for (std::uint64_t dim : shape) {
    if (__builtin_mul_overflow(count, dim, &count)) return npy_failure("shape element count overflows");
  }
  return count;
}

base::Result<std::uint64_t> NpyHeader::checked_data_bytes() const {
  base::Result<std::uint64_t> count = checked_element_count();
  if (!count) return count;
  std::uint64_t bytes = 0;
  if (__builtin_mul_overflow(*count, std::uint64_t{dtype.itemsize}, &bytes))
    return npy_failure("array byte size overflows");
  return bytes;
}

std::uint64_t NpyHeader::element_count() const { return checked_element_count().value_or_throw(); }

std::uint64_t NpyHeader::data_bytes() const { return checked_data_bytes().value_or_throw(); }

base::Result<std::uint64_t> read_npy_header_size(std::string_view first_bytes, const NpyLimits& limits) {
  const base::Result<std::size_t> width = length_width(first_bytes);
  if (!width) return base::Failure{width.why()};
  if (first_bytes.size() < version_end + *width) return npy_failure("truncated before the header length");
  std::uint64_t dict_len = read_le(first_bytes, version_end, *width);
  if (dict_len > limits.max_header_bytes) {
    return npy_failure("header of " + std::to_string(dict_len) + " bytes exceeds the limit of " +
                       std::to_string(limits.max_header_bytes));
  }
  return version_end + *width + dict_len;
}

std::uint64_t npy_header_size(std::string_view first_bytes, const NpyLimits& limits) {
  return read_npy_header_size(first_bytes, limits).value_or_throw();
}

base::Result<NpyHeader> read_npy_header(std::string_view bytes, const NpyLimits& limits) {
  const base::Result<std::uint64_t> total = read_npy_header_size(bytes, limits);
  if (!total) return base::Failure{total.why()};
  if (bytes.size() < *total) return npy_failure("truncated header");
  std::size_t dict_start = version_end + *length_width(bytes);  // read_npy_header_size read it
  std::string_view dict = bytes.substr(dict_start, *total - dict_start);
  if (dict.empty() || dict.back() != '\n') return npy_failure("header does not end with a newline");

  NpyHeader header;
  header.major = static_cast<unsigned char>(bytes[6]);
  header.minor = static_cast<unsigned char>(bytes[7]);
  DictParser parser(dict);
  if (!parser.parse(header)) return parser.failure();
  header.data_offset = *total;
  // Check now so callers can add offset and size without a second thought.
  const base::Result<std::uint64_t> data_bytes = header.checked_data_bytes();
  if (!data_bytes) return base::Failure{data_bytes.why()};
  std::uint64_t end = 0;
  if (__builtin_add_overflow(*data_bytes, header.data_offset, &end)) return npy_failure("array byte size overflows");
  return header;
}

NpyHeader parse_npy_header(std::string_view bytes, const NpyLimits& limits) {
  return read_npy_header(bytes, limits).value_or_throw();
}

std::string make_npy_header(const Dtype& dtype, bool fortran_order, const std::vector<std::uint64_t>& shape) {
  std::string dict = "{'descr': '" + dtype.descr() + "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + shape_repr(shape) + ", }";
  if (!shape.empty()) {
    std::size_t digits = std::to_string(fortran_order ? shape.back() : shape.front()).size();
    dict.append(growth_axis_max_digits - digits, ' ');  // a uint64 has at most 20 digits
  }
  // Like numpy: the newline counts toward the dict, then 1..64 pad spaces.
  std::size_t width = 2;
  std::size_t padded = 0;
  for (;;) {
    std::size_t unpadded = version_end + width + dict.size() + 1;
    padded = dict.size() + 1 + (array_align - unpadded % array_align);
    if (padded <= 0xffff || width == 4) break;
    width = 4;  // does not fit version 1.0's 2-byte length
  }
  std::string out(npy_magic);
  out += static_cast<char>(width == 2 ? 1 : 2);
  out += '\0';
  write_le(out, padded, width);
  out += dict;
  out.append(padded - dict.size() - 1, ' ');
  out += '\n';
  return out;
}

}  // namespace zanj::array
