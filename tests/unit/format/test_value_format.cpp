#include <doctest/doctest.h>

#include "array_fixture.hpp"
#include "zanj/error.hpp"
#include "array/npy_header.hpp"
#include "format/element_text.hpp"

using namespace zanj;
using namespace zanj::format;
using namespace zanj::test;

namespace {
std::string print(const InlineArray& a, ValueFormat format, const std::string& slice = "") {
  ArrayPrintOptions options;
  options.format = format;
  const Selection s = a.selection(slice);
  return printed([&](OutputBuffer& out) { print_array(*a.values, s, options, out); });
}
std::string as_json(const std::string& data, const std::string& dtype, const std::string& shape) {
  return print(InlineArray(data, dtype, shape), ValueFormat::json);
}
}  // namespace

TEST_SUITE("value_format") {
  TEST_CASE("JSON of every dtype") {
    CHECK(as_json("[true, false]", "bool", "[2]") == "[true, false]\n");
    CHECK(as_json("[-128, 127]", "int8", "[2]") == "[-128, 127]\n");
    CHECK(as_json("[-32768, 7]", "int16", "[2]") == "[-32768, 7]\n");
    CHECK(as_json("[-2147483648]", "int32", "[1]") == "[-2147483648]\n");
    CHECK(as_json("[-9223372036854775808]", "int64", "[1]") == "[-9223372036854775808]\n");
    CHECK(as_json("[255]", "uint8", "[1]") == "[255]\n");
    CHECK(as_json("[65535]", "uint16", "[1]") == "[65535]\n");
    CHECK(as_json("[4294967295]", "uint32", "[1]") == "[4294967295]\n");
    CHECK(as_json("[18446744073709551615]", "uint64", "[1]") == "[18446744073709551615]\n");
    CHECK(as_json("[0.1, 1, 65504, -0.0]", "float16", "[4]") == "[0.1, 1.0, 6.55e+04, -0.0]\n");
    CHECK(as_json("[0.1, 1e-45, 3.4028234663852886e38]", "float32", "[3]") == "[0.1, 1e-45, 3.4028235e+38]\n");
    CHECK(as_json("[0.1, NaN, Infinity, -Infinity, 1e300]", "float64", "[5]") ==
          "[0.1, NaN, Infinity, -Infinity, 1e+300]\n");
    CHECK(as_json("[[0.1, -2], [NaN, 0]]", "complex64", "[2]") == "[[0.1, -2.0], [NaN, 0.0]]\n");
    CHECK(as_json("[[0.1, -2]]", "complex128", "[1]") == "[[0.1, -2.0]]\n");
    CHECK(as_json(R"(["a\"b", "\u00e9", ""])", "<U3", "[3]") == "[\"a\\\"b\", \"\xc3\xa9\", \"\"]\n");
    CHECK(as_json(R"(["ab", "\u00ff"])", "|S2", "[2]") == "[\"ab\", \"\xc3\xbf\"]\n");
  }

  TEST_CASE("JSON nesting follows the selected shape") {
    const InlineArray a("[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]", "int64", "[2, 2, 2]");
    CHECK(print(a, ValueFormat::json) == "[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]\n");
    CHECK(print(a, ValueFormat::json, "[:, 1]") == "[[2, 3], [6, 7]]\n");
    CHECK(print(a, ValueFormat::json, "[1, 0, 1]") == "5\n");
    CHECK(print(a, ValueFormat::json, "[::-1, :, 0]") == "[[4, 6], [0, 2]]\n");
    CHECK(print(a, ValueFormat::json, "[:, 2:]") == "[[], []]\n");
    CHECK(print(a, ValueFormat::json, "[5:]") == "[]\n");
    CHECK(as_json("[]", "float32", "[0, 5]") == "[]\n");
    CHECK(as_json("[[], [], []]", "float32", "[3, 0]") == "[[], [], []]\n");
    CHECK(print(InlineArray("7", "int8", "[]", "zero_dim"), ValueFormat::json) == "7\n");
  }

  TEST_CASE("zero-size selections print like tolist(), bounded by the empty lists, never by a dimension") {
    const InlineArray a("[[[0, 1], [2, 3]], [[4, 5], [6, 7]]]", "int64", "[2, 2, 2]");
    CHECK(print(a, ValueFormat::json, "[:, :, 5:]") == "[[[], []], [[], []]]\n");
    CHECK(print(a, ValueFormat::json, "[:, 9:, :]") == "[[], []]\n");
    CHECK(print(a, ValueFormat::text, "[:, 9:, :]") == "[]\n");
    CHECK_NOTHROW(check_json_printable({0, std::uint64_t{1} << 62}));
    CHECK_NOTHROW(check_json_printable({1024, 1024, 0, 7}));           // exactly kMaxEmptyLists
    CHECK_NOTHROW(check_json_printable({std::uint64_t{1} << 62, 5}));  // not zero-size: nothing to refuse
    CHECK_THROWS_AS(check_json_printable({1024, 1025, 0}), Error);
    CHECK_THROWS_AS(check_json_printable({1000000000000000000, 0}), Error);
    CHECK_THROWS_AS(check_json_printable({std::uint64_t{1} << 40, std::uint64_t{1} << 40, 0}), Error);  // no overflow
  }

  TEST_CASE("CSV of 0-, 1- and 2-D selections") {
    const InlineArray a("[[1.5, 2], [3, NaN]]", "float64", "[2, 2]");
    CHECK(print(a, ValueFormat::csv) == "1.5,2.0\n3.0,NaN\n");
    CHECK(print(a, ValueFormat::csv, "[:, 0]") == "1.5\n3.0\n");
    CHECK(print(a, ValueFormat::csv, "[1, 1]") == "NaN\n");
    CHECK(print(InlineArray("[[1, -2], [0, 0.5]]", "complex128", "[2]"), ValueFormat::csv) ==
          "(1.0-2.0j)\n(0.0+0.5j)\n");
    CHECK(print(InlineArray(R"(["a,b", "q\"", "", "x"])", "<U4", "[4]"), ValueFormat::csv) ==
          "\"a,b\"\n\"q\"\"\"\n\"\"\nx\n");
    CHECK(print(InlineArray("[true]", "bool", "[1]"), ValueFormat::csv) == "true\n");
    const InlineArray cube("[[[1]]]", "int8", "[1, 1, 1]");
    CHECK_THROWS_WITH_AS(print(cube, ValueFormat::csv), doctest::Contains("3-D"), Error);
    CHECK(print(cube, ValueFormat::csv, "[0]") == "1\n");
  }

  TEST_CASE("npy and raw: C-order little-endian bytes of the selection") {
    const InlineArray a("\"0001000200030004\"", ">i2", "[2, 2]", "array_hex_meta");
    CHECK(print(a, ValueFormat::raw) == std::string("\x01\x00\x02\x00\x03\x00\x04\x00", 8));
    CHECK(print(a, ValueFormat::raw, "[:, 1]") == std::string("\x02\x00\x04\x00", 4));
    const std::string npy = print(a, ValueFormat::npy, "[::-1]");
    const array::NpyHeader h = array::parse_npy_header(npy);
    CHECK(h.dtype.descr() == "<i2");
    CHECK_FALSE(h.fortran_order);
    CHECK(h.shape == std::vector<std::uint64_t>{2, 2});
    CHECK(h.data_offset % 64 == 0);
    CHECK(npy.substr(h.data_offset) == std::string("\x03\x00\x04\x00\x01\x00\x02\x00", 8));
    const std::string scalar = print(a, ValueFormat::npy, "[0, 0]");
    CHECK(array::parse_npy_header(scalar).shape.empty());
    CHECK(scalar.size() == array::parse_npy_header(scalar).data_offset + 2);
  }

  TEST_CASE("single elements and CSV fields") {
    std::string out;
    const char half_one[] = {0x00, 0x3c};
    append_element_json(out, array::parse_descr("<f2"), half_one);
    CHECK(out == "1.0");
    out.clear();
    const char complex[] = {0, 0, (char)0x80, 0x3f, 0, 0, 0, (char)0xc0};
    append_element_csv(out, array::parse_descr("<c8"), complex);
    CHECK(out == "(1.0-2.0j)");
    out.clear();
    append_csv_field(out, "plain");
    append_csv_field(out, "two\nlines");
    CHECK(out == "plain\"two\nlines\"");
  }
}
