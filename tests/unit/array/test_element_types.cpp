#include <doctest/doctest.h>

#include <string>

#include "array/element_types.hpp"

using namespace zanj;
using namespace zanj::array;

namespace {
std::string type_of(const char* descr) {
  return visit_element_type(parse_descr(descr), [](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, bool>)
      return "bool";
    else if constexpr (std::is_same_v<T, Half>)
      return "half";
    else if constexpr (std::is_same_v<T, ByteString>)
      return "bytes";
    else if constexpr (std::is_same_v<T, UnicodeString>)
      return "unicode";
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      return "complex64";
    else if constexpr (std::is_same_v<T, std::complex<double>>)
      return "complex128";
    else if constexpr (std::is_floating_point_v<T>)
      return "float" + std::to_string(sizeof(T) * 8);
    else
      return (std::is_signed_v<T> ? "int" : "uint") + std::to_string(sizeof(T) * 8);
  });
}
}  // namespace

TEST_SUITE("element_types") {
  TEST_CASE("each dtype maps to its C++ type") {
    CHECK(type_of("|b1") == "bool");
    CHECK(type_of("|i1") == "int8");
    CHECK(type_of("<i2") == "int16");
    CHECK(type_of(">i4") == "int32");
    CHECK(type_of("<i8") == "int64");
    CHECK(type_of("|u1") == "uint8");
    CHECK(type_of("<u2") == "uint16");
    CHECK(type_of("<u4") == "uint32");
    CHECK(type_of("<u8") == "uint64");
    CHECK(type_of("<f2") == "half");
    CHECK(type_of("<f4") == "float32");
    CHECK(type_of("<f8") == "float64");
    CHECK(type_of("<c8") == "complex64");
    CHECK(type_of("<c16") == "complex128");
    CHECK(type_of("|S5") == "bytes");
    CHECK(type_of("<U5") == "unicode");
  }

  TEST_CASE("elements load from little-endian bytes") {
    const char bytes[] = {1, 0, 0, 0, 0, 0, (char)0xf0, 0x3f};
    CHECK(load_element<std::int32_t>(bytes) == 1);
    CHECK(load_element<double>(bytes) == 1.0000000000000002);  // 0x3ff0000000000001
    CHECK(load_element<bool>(bytes));
    CHECK_FALSE(load_element<bool>(bytes + 1));
  }
}
