#include "array/element_numbers.hpp"

#include <type_traits>

#include "array/element_types.hpp"
#include "array/float16.hpp"

namespace zanj::array {
namespace {

template <typename T>
Number decode(const char* p) {
  const T v = load_element<T>(p);
  if constexpr (std::is_same_v<T, Half>) {
    return Number::from_real(half_to_float(v.bits));
  } else if constexpr (std::is_same_v<T, bool>) {
    return Number::from_integer(v ? 1 : 0);
  } else if constexpr (std::is_integral_v<T>) {
    return Number::from_integer(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    return Number::from_real(v);
  } else {
    return Number::from_complex({v.real(), v.imag()});
  }
}

}  // namespace

bool is_numeric(const Dtype& dtype) { return dtype.kind != DtypeKind::bytes && dtype.kind != DtypeKind::unicode; }

NumberDecoder number_decoder(const Dtype& dtype) {
  return visit_element_type(dtype, [](auto tag) -> NumberDecoder {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, ByteString> || std::is_same_v<T, UnicodeString>) {
      return nullptr;
    } else {
      return &decode<T>;
    }
  });
}

}  // namespace zanj::array
