#pragma once
// The C++ type behind each dtype, chosen once per chunk of values so that the formatters'
// per-element loops are plain templated code (no per-element dispatch or virtual calls).
#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "array/dtype.hpp"

namespace zanj::array {

/// A float16 element, kept as its bits (see float16.hpp).
struct Half {
  std::uint16_t bits;
};
/// A numpy 'S' element (raw bytes, NUL-padded) and a 'U' element (UTF-32 code units).
struct ByteString {};
struct UnicodeString {};

template <typename T>
struct Tag {
  using type = T;
};

/// Read one little-endian element of a fixed-size numeric type.
template <typename T>
inline T load_element(const char* p) {
  if constexpr (std::is_same_v<T, bool>) {
    return *p != 0;
  } else {
    T value;
    std::memcpy(&value, p, sizeof value);
    return value;
  }
}

/// Call fn(Tag<T>{}) with the element type of `dtype`: bool, std::int8_t ... std::uint64_t,
/// Half, float, double, std::complex<float>, std::complex<double>, ByteString, UnicodeString.
template <typename Fn>
decltype(auto) visit_element_type(const Dtype& dtype, Fn&& fn) {
  const auto size = dtype.itemsize;
  switch (dtype.kind) {
    case DtypeKind::boolean:
      return fn(Tag<bool>{});
    case DtypeKind::signed_int:
      if (size == 1) return fn(Tag<std::int8_t>{});
      if (size == 2) return fn(Tag<std::int16_t>{});
      if (size == 4) return fn(Tag<std::int32_t>{});
      return fn(Tag<std::int64_t>{});
    case DtypeKind::unsigned_int:
      if (size == 1) return fn(Tag<std::uint8_t>{});
      if (size == 2) return fn(Tag<std::uint16_t>{});
      if (size == 4) return fn(Tag<std::uint32_t>{});
      return fn(Tag<std::uint64_t>{});
    case DtypeKind::floating:
      if (size == 2) return fn(Tag<Half>{});
      if (size == 4) return fn(Tag<float>{});
      return fn(Tag<double>{});
    case DtypeKind::complex:
      if (size == 8) return fn(Tag<std::complex<float>>{});
      return fn(Tag<std::complex<double>>{});
    case DtypeKind::bytes:
      return fn(Tag<ByteString>{});
    case DtypeKind::unicode:
      break;
  }
  return fn(Tag<UnicodeString>{});
}

}  // namespace zanj::array
