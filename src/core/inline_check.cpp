#include "zanj/inline_check.hpp"

#include <algorithm>

#include "zanj/dtype.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

std::string shape_text(const std::vector<std::uint64_t>& shape) {
  std::string out = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + std::to_string(shape[i]);
  return out + "]";
}

bool all_numbers(const Json& value) {
  const JsonArray& items = value.as_array();
  return std::all_of(items.begin(), items.end(), [](const Json& j) { return j.is_number(); });
}

/// A leaf of list data: a scalar of the dtype's family. What the serializer makes of the
/// Python objects tolist() returns is lenient on purpose: a complex may be a [re, im] pair
/// (or whatever its fallback handler wrote), bytes may be a list of byte values.
bool is_leaf(const Json& value, const Dtype& dtype) {
  switch (dtype.kind) {
    case DtypeKind::complex:
      return !value.is_array() || (value.as_array().size() == 2 && all_numbers(value));
    case DtypeKind::bytes: return value.is_string() || (value.is_array() && all_numbers(value));
    case DtypeKind::unicode: return value.is_string();
    default: return value.is_number() || value.is_bool();
  }
}

/// Nested list data against shape[dim...]; `where` is the index path so far ("data[1][0]").
std::optional<std::string> check_nesting(const Json& data, const std::vector<std::uint64_t>& shape,
                                         std::size_t dim, const Dtype& dtype, std::string& where) {
  if (dim == shape.size()) {
    if (is_leaf(data, dtype)) return std::nullopt;
    return where + " is a " + std::string(data.type_name()) + ", not a " + dtype.numpy_name() + " element";
  }
  if (!data.is_array())
    return where + " is a " + std::string(data.type_name()) + " where shape " + shape_text(shape) +
           " wants a list of " + std::to_string(shape[dim]);
  const JsonArray& items = data.as_array();
  if (items.size() != shape[dim])
    return where + " has " + std::to_string(items.size()) + " elements where shape " + shape_text(shape) +
           " wants " + std::to_string(shape[dim]);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::size_t saved = where.size();
    where += "[" + std::to_string(i) + "]";
    if (auto problem = check_nesting(items[i], shape, dim + 1, dtype, where)) return problem;
    where.resize(saved);
  }
  return std::nullopt;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool is_b64_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

std::optional<std::string> check_hex(const std::string& text, std::uint64_t want_bytes) {
  for (const char c : text)
    if (hex_value(c) < 0) return std::string("hex data contains a character that is not a hex digit");
  if (text.size() % 2 != 0 || text.size() / 2 != want_bytes)
    return "hex data has " + std::to_string(text.size()) + " digits where shape and dtype want " +
           std::to_string(want_bytes * 2);
  return std::nullopt;
}

/// Python's base64.b64decode (validate=False) would skip junk; the reference writes none.
std::optional<std::string> check_b64(const std::string& text, std::uint64_t want_bytes) {
  if (text.size() % 4 != 0) return "base64 data length " + std::to_string(text.size()) + " is not a multiple of 4";
  std::size_t padding = 0;
  while (padding < 2 && padding < text.size() && text[text.size() - 1 - padding] == '=') ++padding;
  for (std::size_t i = 0; i + padding < text.size(); ++i)
    if (!is_b64_char(text[i])) return std::string("base64 data contains a character outside the base64 alphabet");
  const std::uint64_t decoded = text.size() / 4 * 3 - padding;
  if (decoded != want_bytes)
    return "base64 data decodes to " + std::to_string(decoded) + " bytes where shape and dtype want " +
           std::to_string(want_bytes);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> check_inline_array(const ArrayNode& array) {
  if (array.external()) return std::nullopt;
  Dtype dtype;
  try {
    dtype = parse_dtype_name(array.dtype);
  } catch (const Error& e) {
    return std::string(e.what());
  }
  if (!array.has_shape) return std::string("no shape (a list of non-negative integers)");
  const auto count = array.element_count();
  std::uint64_t bytes = 0;
  if (!count || __builtin_mul_overflow(*count, dtype.itemsize, &bytes))
    return "shape " + shape_text(array.shape) + " is too large";
  if (array.n_elements && *array.n_elements != *count)
    return "n_elements " + std::to_string(*array.n_elements) + " disagrees with shape " + shape_text(array.shape);
  if (!array.data) return std::string("no data");
  const Json& data = *array.data;
  std::string where = "data";
  switch (array.encoding) {
    case ArrayEncoding::zero_dim:
      if (!array.shape.empty()) return "a zero_dim array with shape " + shape_text(array.shape);
      return check_nesting(data, array.shape, 0, dtype, where);
    case ArrayEncoding::list: return check_nesting(data, array.shape, 0, dtype, where);
    case ArrayEncoding::hex:
      if (!data.is_string()) return std::string("hex data is not a string");
      return check_hex(data.as_string(), bytes);
    case ArrayEncoding::b64:
      if (!data.is_string()) return std::string("base64 data is not a string");
      return check_b64(data.as_string(), bytes);
    case ArrayEncoding::external: break;
  }
  return std::nullopt;
}

}  // namespace zanj
