#include "hash/canonical_encoding.hpp"

#include <cmath>
#include <cstring>

#include "zanj/error.hpp"

namespace zanj::hash {
namespace {

constexpr std::uint64_t kNan64 = 0x7ff8000000000000ULL;
constexpr std::uint32_t kNan32 = 0x7fc00000U;
constexpr std::uint16_t kNan16 = 0x7e00U;

/// Rewrites the NaNs among `count` numbers of `Bits` (an unsigned of the float's width):
/// exponent all ones and a fraction that is not zero.
template <class Bits>
bool rewrite_nans(char* data, std::size_t count, Bits exponent_mask, Bits fraction_mask, Bits canonical) {
  bool changed = false;
  for (std::size_t i = 0; i < count; ++i) {
    Bits v;
    std::memcpy(&v, data + i * sizeof(Bits), sizeof(Bits));
    if ((v & exponent_mask) == exponent_mask && (v & fraction_mask) != 0 && v != canonical) {
      std::memcpy(data + i * sizeof(Bits), &canonical, sizeof(Bits));
      changed = true;
    }
  }
  return changed;
}

}  // namespace

void append_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out += static_cast<char>((v >> (8 * i)) & 0xff);
}

void append_text(std::string& out, std::string_view text) {
  append_u64(out, text.size());
  out.append(text);
}

std::string scalar_encoding(JsonView scalar) {
  std::string out;
  switch (scalar.type()) {
    case Json::Type::null:
      return std::string(1, kNullTag);
    case Json::Type::boolean:
      return std::string(1, scalar.as_bool() ? kTrueTag : kFalseTag);
    case Json::Type::integer:
      return kIntegerTag + std::to_string(scalar.as_int64());
    case Json::Type::unsigned_integer:
      return kIntegerTag + std::to_string(scalar.as_uint64());
    case Json::Type::big_integer:
      return kIntegerTag + std::string(scalar.big_integer_digits());
    case Json::Type::real: {
      const double value = scalar.as_real();
      std::uint64_t bits = kNan64;
      if (!std::isnan(value)) std::memcpy(&bits, &value, sizeof bits);
      out += kRealTag;
      append_u64(out, bits);
      return out;
    }
    case Json::Type::string:
      return kStringTag + std::string(scalar.as_string());
    default:
      throw Error("scalar_encoding: not a scalar", Exit::usage);
  }
}

bool has_elements_to_canonicalize(const array::Dtype& dtype) {
  return dtype.kind == array::DtypeKind::boolean || dtype.kind == array::DtypeKind::floating ||
         dtype.kind == array::DtypeKind::complex;
}

bool canonicalize_elements(const array::Dtype& dtype, std::string& elements) {
  if (!has_elements_to_canonicalize(dtype)) return false;
  if (dtype.kind == array::DtypeKind::boolean) {
    bool changed = false;
    for (char& byte : elements) {
      if (byte != 0 && byte != 1) {
        byte = 1;
        changed = true;
      }
    }
    return changed;
  }
  const std::size_t width = dtype.kind == array::DtypeKind::complex ? dtype.itemsize / 2 : dtype.itemsize;
  if (width == 0) return false;
  const std::size_t count = elements.size() / width;
  char* data = elements.data();
  switch (width) {
    case 2:
      return rewrite_nans<std::uint16_t>(data, count, 0x7c00U, 0x03ffU, kNan16);
    case 4:
      return rewrite_nans<std::uint32_t>(data, count, 0x7f800000U, 0x007fffffU, kNan32);
    case 8:
      return rewrite_nans<std::uint64_t>(data, count, 0x7ff0000000000000ULL, 0x000fffffffffffffULL, kNan64);
    default:
      return false;
  }
}

}  // namespace zanj::hash
