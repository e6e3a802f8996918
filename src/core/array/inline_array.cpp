#include "array/inline_array.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "array/byte_codec.hpp"
#include "zanj/error.hpp"
#include "array/float16.hpp"
#include "zanj/array.hpp"
#include "array/value_bytes.hpp"

namespace zanj::array {
namespace {

template <typename T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));  // the host is little-endian (checked in value_bytes.hpp)
  out.append(bytes, sizeof(T));
}

/// Encodes JSON values of list-mode data as elements of one dtype, appending them to `out`.
class ElementEncoder {
 public:
  explicit ElementEncoder(const Dtype& dtype) : dtype_(dtype) {}

  /// `where` names the element in messages ("data[1][2]").
  void encode(JsonView v, const std::string& where, std::string& out) const {
    switch (dtype_.kind) {
      case DtypeKind::boolean:
        if (!v.is_bool()) fail(where, v, "true or false");
        out += static_cast<char>(v.as_bool() ? 1 : 0);
        return;
      case DtypeKind::signed_int:
        return encode_signed(v, where, out);
      case DtypeKind::unsigned_int:
        return encode_unsigned(v, where, out);
      case DtypeKind::floating:
        return encode_real(number(v, where), out);
      case DtypeKind::complex:
        return encode_complex(v, where, out);
      case DtypeKind::unicode:
        return encode_unicode(v, where, out);
      case DtypeKind::bytes:
        return encode_bytes(v, where, out);
    }
  }

 private:
  [[noreturn]] void fail(const std::string& where, JsonView v, const std::string& wanted) const {
    std::string text = to_json(v);
    if (text.size() > 40) text = text.substr(0, 37) + "...";
    throw Error(where + " is " + text + ", not " + wanted + " (dtype " + dtype_.numpy_name() + ")");
  }

  double number(JsonView v, const std::string& where) const {
    if (!v.is_number()) fail(where, v, "a number");
    return v.to_double();
  }

  void encode_signed(JsonView v, const std::string& where, std::string& out) const {
    const int bits = static_cast<int>(dtype_.itemsize * 8);
    const std::int64_t lo = bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t{1} << (bits - 1));
    const std::int64_t hi = bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t{1} << (bits - 1)) - 1;
    if (v.type() != Json::Type::integer || v.as_int64() < lo || v.as_int64() > hi)
      fail(where, v, "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    const auto u = static_cast<std::uint64_t>(v.as_int64());
    for (std::uint32_t b = 0; b < dtype_.itemsize; ++b) out += static_cast<char>((u >> (8 * b)) & 0xFF);
  }

  void encode_unsigned(JsonView v, const std::string& where, std::string& out) const {
    const int bits = static_cast<int>(dtype_.itemsize * 8);
    const std::uint64_t hi = bits == 64 ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t{1} << bits) - 1;
    std::uint64_t u = 0;
    if (!v.get_uint64(u) || u > hi) fail(where, v, "an integer in [0, " + std::to_string(hi) + "]");
    for (std::uint32_t b = 0; b < dtype_.itemsize; ++b) out += static_cast<char>((u >> (8 * b)) & 0xFF);
  }

  void encode_real(double value, std::string& out) const { encode_float(value, dtype_.itemsize, out); }

  static void encode_float(double value, std::uint32_t size, std::string& out) {
    if (size == 2) put(out, double_to_half(value));
    if (size == 4) put(out, double_to_float(value));
    if (size == 8) put(out, value);
  }

  void encode_complex(JsonView v, const std::string& where, std::string& out) const {
    // [re, im] as the reference writes complex values; a plain number is a real value.
    double re = 0, im = 0;
    if (v.is_array() && v.size() == 2 && v[0].is_number() && v[1].is_number()) {
      re = v[0].to_double();
      im = v[1].to_double();
    } else if (v.is_number()) {
      re = v.to_double();
    } else {
      fail(where, v, "a number or [re, im]");
    }
    encode_float(re, dtype_.itemsize / 2, out);
    encode_float(im, dtype_.itemsize / 2, out);
  }

  void encode_unicode(JsonView v, const std::string& where, std::string& out) const {
    if (!v.is_string()) fail(where, v, "a string");
    const std::size_t start = out.size();
    append_utf32le(out, v.as_string());
    if (out.size() - start > dtype_.itemsize)
      fail(where, v, "a string of at most " + std::to_string(dtype_.itemsize / 4) + " characters");
    out.append(dtype_.itemsize - (out.size() - start), '\0');
  }

  void encode_bytes(JsonView v, const std::string& where, std::string& out) const {
    // Byte strings are shown as Latin-1 text (see byte_codec.hpp); read them back the same way.
    if (!v.is_string()) fail(where, v, "a string");
    std::string bytes;
    std::string utf32;
    append_utf32le(utf32, v.as_string());
    for (std::size_t i = 0; i < utf32.size(); i += 4) {
      if (utf32[i + 1] != '\0' || utf32[i + 2] != '\0' || utf32[i + 3] != '\0')
        fail(where, v, "a string of bytes (Latin-1)");
      bytes += utf32[i];
    }
    if (bytes.size() > dtype_.itemsize)
      fail(where, v, "a string of at most " + std::to_string(dtype_.itemsize) + " bytes");
    out += bytes;
    out.append(dtype_.itemsize - bytes.size(), '\0');
  }

  Dtype dtype_;
};

/// Walks list-mode data level by level, checking each list's length against the shape.
void decode_nested(JsonView v, const std::vector<std::uint64_t>& shape, std::size_t axis, std::string& where,
                   const ElementEncoder& encoder, std::string& out) {
  if (axis == shape.size()) return encoder.encode(v, where, out);
  if (!v.is_array() || v.size() != shape[axis])
    throw Error(where + " should be a list of " + std::to_string(shape[axis]) + " elements (axis " +
                std::to_string(axis) + " of shape " + shape_text(shape) + "), found " +
                (v.is_array() ? "a list of " + std::to_string(v.size()) : std::string(v.type_name())));
  const std::size_t saved = where.size();
  for (std::size_t i = 0; i < v.size(); ++i) {
    where += "[" + std::to_string(i) + "]";
    decode_nested(v[i], shape, axis + 1, where, encoder, out);
    where.resize(saved);
  }
}

}  // namespace

float double_to_float(double value) {
  constexpr double max = std::numeric_limits<float>::max();
  // Halfway between FLT_MAX and 2^128: at or past it a float64 -> float32 cast gives infinity.
  const double overflow = std::ldexp(1.0, 128) - std::ldexp(1.0, 103);
  if (std::isnan(value))
    return std::copysign(std::numeric_limits<float>::quiet_NaN(), static_cast<float>(std::signbit(value) ? -1 : 1));
  if (std::fabs(value) >= overflow)
    return value > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
  if (std::fabs(value) > max) return value > 0 ? std::numeric_limits<float>::max() : -std::numeric_limits<float>::max();
  return static_cast<float>(value);
}

DecodedArray decode_inline_array(const ArrayNode& node) {
  if (node.external()) throw Error("internal: decode_inline_array called on an external array");
  DecodedArray out;
  out.dtype = parse_dtype_name(node.dtype);
  if (!node.has_shape) throw Error("the array has no valid \"shape\" (a list of non-negative integers)");
  out.shape = node.shape;
  if (node.encoding == ArrayEncoding::zero_dim && !out.shape.empty())
    throw Error("a zero_dim array has shape " + shape_text(out.shape) + ", not []");
  const auto count = node.element_count();
  std::uint64_t bytes = 0;
  if (!count || __builtin_mul_overflow(*count, std::uint64_t{out.dtype.itemsize}, &bytes))
    throw Error("the array's shape " + shape_text(out.shape) + " is too large");
  if (node.n_elements && *node.n_elements != *count)
    throw Error("\"n_elements\" is " + std::to_string(*node.n_elements) + " but shape " + shape_text(out.shape) +
                " holds " + std::to_string(*count));
  if (!node.data) throw Error("the inline array has no \"data\"");

  if (node.encoding == ArrayEncoding::hex || node.encoding == ArrayEncoding::b64) {
    const bool hex = node.encoding == ArrayEncoding::hex;
    if (!node.data.is_string()) throw Error(std::string(hex ? "hex" : "base64") + " \"data\" is not a string");
    const std::string_view text = node.data.as_string();
    // Check the length before decoding: no allocation for a shape the text cannot fill.
    const std::uint64_t text_bytes = hex ? text.size() / 2 : text.size() / 4 * 3;
    if (text_bytes < bytes || text_bytes > bytes + 2)
      throw Error(std::string(hex ? "hex" : "base64") + " \"data\" holds about " + std::to_string(text_bytes) +
                  " bytes but shape " + shape_text(out.shape) + " of " + out.dtype.numpy_name() + " needs " +
                  std::to_string(bytes));
    out.values = hex ? decode_hex(text) : decode_base64(text);
    if (out.values.size() != bytes)
      throw Error(std::string(hex ? "hex" : "base64") + " \"data\" holds " + std::to_string(out.values.size()) +
                  " bytes but shape " + shape_text(out.shape) + " of " + out.dtype.numpy_name() + " needs " +
                  std::to_string(bytes));
    swap_to_little_endian(out.values, out.dtype);
    return out;
  }
  // list or zero_dim: JSON values, encoded directly little-endian.
  const ElementEncoder encoder(out.dtype);
  std::string where = "data";
  decode_nested(node.data, out.shape, 0, where, encoder, out.values);
  return out;
}

base::Result<DecodedArray> read_inline_array(const ArrayNode& node) {
  try {
    return decode_inline_array(node);
  } catch (const Error& e) {  // boundary: the decoder stops deep in nested lists by throwing; a value here, once
    return base::Failure{e.what()};
  }
}

}  // namespace zanj::array
