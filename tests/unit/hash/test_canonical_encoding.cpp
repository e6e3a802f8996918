// The canonical encoding's pieces, byte for byte as docs/hash.md writes them.
#include <doctest/doctest.h>

#include <cstring>

#include "hash/canonical_encoding.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"

using namespace zanj;
using namespace zanj::hash;

namespace {
std::string encode(const char* json) {
  const Json value = json::parse_json(json, "test");
  return scalar_encoding(json::view_of(value));
}
std::string bytes(std::initializer_list<int> b) {
  std::string out;
  for (int x : b) out += static_cast<char>(x);
  return out;
}
}  // namespace

TEST_SUITE("hash canonical encoding") {
  TEST_CASE("integers and texts are little-endian and length-prefixed") {
    std::string out;
    append_u64(out, 0x0102);
    CHECK(out == bytes({2, 1, 0, 0, 0, 0, 0, 0}));
    out.clear();
    append_text(out, "ab");
    CHECK(out == bytes({2, 0, 0, 0, 0, 0, 0, 0, 'a', 'b'}));
  }

  TEST_CASE("scalars: a tag, then the typed value") {
    CHECK(encode("null") == "n");
    CHECK(encode("true") == "t");
    CHECK(encode("false") == "f");
    CHECK(encode("-12") == "i-12");
    CHECK(encode("18446744073709551615") == "i18446744073709551615");
    CHECK(encode("123456789012345678901234567890") == "i123456789012345678901234567890");
    CHECK(encode("\"h\\u00e9\"") == "sh\xc3\xa9");
    CHECK(encode("1.0") == "r" + bytes({0, 0, 0, 0, 0, 0, 0xf0, 0x3f}));
    CHECK(encode("NaN") == "r" + bytes({0, 0, 0, 0, 0, 0, 0xf8, 0x7f}));
    CHECK(encode("-Infinity") == "r" + bytes({0, 0, 0, 0, 0, 0, 0xf0, 0xff}));
    CHECK(encode("1") != encode("1.0"));  // an int and a float are different values
  }

  TEST_CASE("every NaN of an array becomes the one quiet NaN of its width") {
    std::string f32 = bytes({0x01, 0x00, 0x80, 0xff, 0, 0, 0x80, 0x3f});  // a negative signalling NaN, then 1.0
    CHECK(canonicalize_elements(array::Dtype{array::DtypeKind::floating, 4, array::ByteOrder::little}, f32));
    CHECK(f32 == bytes({0, 0, 0xc0, 0x7f, 0, 0, 0x80, 0x3f}));
    CHECK_FALSE(canonicalize_elements(array::Dtype{array::DtypeKind::floating, 4, array::ByteOrder::little}, f32));
    std::string c8 = bytes({0, 0, 0x80, 0x3f, 1, 0, 0xc0, 0x7f});  // 1 + NaN j (a payload)
    CHECK(canonicalize_elements(array::Dtype{array::DtypeKind::complex, 8, array::ByteOrder::little}, c8));
    CHECK(c8 == bytes({0, 0, 0x80, 0x3f, 0, 0, 0xc0, 0x7f}));
    std::string f16 = bytes({0x01, 0x7c});
    CHECK(canonicalize_elements(array::Dtype{array::DtypeKind::floating, 2, array::ByteOrder::little}, f16));
    CHECK(f16 == bytes({0x00, 0x7e}));
    std::string inf16 = bytes({0x00, 0x7c});
    CHECK_FALSE(canonicalize_elements(array::Dtype{array::DtypeKind::floating, 2, array::ByteOrder::little}, inf16));
    std::string ints = bytes({0xff, 0xff, 0xff, 0xff});
    CHECK_FALSE(canonicalize_elements(array::Dtype{array::DtypeKind::signed_int, 4, array::ByteOrder::little}, ints));
  }

  TEST_CASE("a bool stored as any nonzero byte is the 01 numpy loads") {
    // np.frombuffer(b'\x02\x00\xff\x01', dtype=bool) is [True, False, True, True].
    std::string bools = bytes({0x02, 0x00, 0xff, 0x01});
    CHECK(canonicalize_elements(array::Dtype{array::DtypeKind::boolean, 1, array::ByteOrder::none}, bools));
    CHECK(bools == bytes({0x01, 0x00, 0x01, 0x01}));
    CHECK_FALSE(canonicalize_elements(array::Dtype{array::DtypeKind::boolean, 1, array::ByteOrder::none}, bools));
  }
}
