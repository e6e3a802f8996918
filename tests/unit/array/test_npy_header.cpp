// .npy header parsing (what numpy and hand-writers produce, and what must be
// refused) and writing (byte-for-byte what numpy.save writes).
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/error.hpp"
#include "array/npy_header.hpp"

using namespace std::literals;
using Shape = std::vector<std::uint64_t>;

namespace {

// Wrap a dict in a prefix for `version`, padded so the data is 64-aligned.
std::string wrap(std::string dict, int major = 1) {
  std::size_t width = major == 1 ? 2 : 4;
  std::size_t prefix = 8 + width;
  dict.append(63 - (prefix + dict.size()) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY"s;
  out += static_cast<char>(major);
  out += '\0';
  for (std::size_t i = 0; i < width; ++i) out += static_cast<char>((dict.size() >> (8 * i)) & 0xff);
  return out + dict;
}

std::string spaces(std::size_t n) { return std::string(n, ' '); }

// First 128 bytes of real members from /work/shared/corpus, written out whole.
const std::string real_f4_fortran =  // dtypes.zanj f4_fortran.npy
    "\x93NUMPY\x01\x00v\x00"s + "{'descr': '<f4', 'fortran_order': True, 'shape': (20, 15), }" + spaces(57) + "\n";
const std::string real_c16 =  // dtypes.zanj c16.npy
    "\x93NUMPY\x01\x00v\x00"s + "{'descr': '<c16', 'fortran_order': False, 'shape': (300,), }" + spaces(57) + "\n";
const std::string real_big_array =  // basic.zanj big_array.npy
    "\x93NUMPY\x01\x00v\x00"s + "{'descr': '<f4', 'fortran_order': False, 'shape': (32, 16), }" + spaces(56) + "\n";
const std::string real_f8_3d =  // dtypes.zanj f8_3d.npy
    "\x93NUMPY\x01\x00v\x00"s + "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 8, 10), }" + spaces(54) + "\n";

zanj::array::NpyHeader parse(const std::string& bytes) { return zanj::array::parse_npy_header(bytes); }

void check_rejected(const std::string& bytes) { CHECK_THROWS_AS(zanj::array::parse_npy_header(bytes), zanj::Error); }

std::string dict_with(std::string_view descr, std::string_view order, std::string_view shape) {
  return "{'descr': " + std::string(descr) + ", 'fortran_order': " + std::string(order) +
         ", 'shape': " + std::string(shape) + ", }";
}

}  // namespace

TEST_SUITE("npy") {
  TEST_CASE("real headers from the corpus") {
    SUBCASE("Fortran-order float32") {
      REQUIRE(real_f4_fortran.size() == 128);
      auto h = parse(real_f4_fortran);
      CHECK(h.major == 1);
      CHECK(h.minor == 0);
      CHECK(h.dtype.descr() == "<f4");
      CHECK(h.fortran_order);
      CHECK(h.shape == Shape{20, 15});
      CHECK(h.data_offset == 128);
      CHECK(h.element_count() == 300);
      CHECK(h.data_bytes() == 1200);
      CHECK(zanj::array::npy_header_size(real_f4_fortran.substr(0, 12)) == 128);
    }
    SUBCASE("complex128, 1-d") {
      auto h = parse(real_c16);
      CHECK(h.dtype.numpy_name() == "complex128");
      CHECK_FALSE(h.fortran_order);
      CHECK(h.shape == Shape{300});
      CHECK(h.data_bytes() == 4800);
    }
    SUBCASE("3-d, with data bytes after the header") {
      auto h = parse(real_f8_3d + std::string(2560, '\0'));
      CHECK(h.shape == Shape{4, 8, 10});
      CHECK(h.data_offset == 128);
    }
  }

  TEST_CASE("versions") {
    std::string dict = dict_with("'<i8'", "False", "(7,)");
    for (int major : {1, 2, 3}) {
      CAPTURE(major);
      auto h = parse(wrap(dict, major));
      CHECK(h.major == major);
      CHECK(h.shape == Shape{7});
      CHECK(h.data_offset % 64 == 0);
      CHECK(h.data_offset == wrap(dict, major).size());
    }
  }

  TEST_CASE("shapes and literal variants") {
    SUBCASE("0-d") {
      auto h = parse(wrap(dict_with("'<f8'", "False", "()")));
      CHECK(h.shape.empty());
      CHECK(h.element_count() == 1);
      CHECK(h.data_bytes() == 8);
    }
    SUBCASE("empty arrays, even with huge other dimensions") {
      CHECK(parse(wrap(dict_with("'<f8'", "False", "(0, 5)"))).element_count() == 0);
      CHECK(parse(wrap(dict_with("'<f8'", "False", "(18446744073709551615, 0)"))).data_bytes() == 0);
    }
    SUBCASE("whitespace, quotes, trailing commas, key order") {
      for (std::string dict : {
               "{\"descr\":\"<f4\",\"fortran_order\":False,\"shape\":(3,4)}"s,
               "{ 'shape' : ( 3 , 4 , ) , 'fortran_order' : False , 'descr' : '<f4' , }"s,
               "\t{'descr':\t'<f4',\n 'fortran_order': False,\r\n 'shape': (3,\n4)\n}"s,
               "{'fortran_order': False, 'descr': \"<f4\", 'shape': (3, 4)}"s,
           }) {
        CAPTURE(dict);
        auto h = parse(wrap(dict));
        CHECK(h.shape == Shape{3, 4});
        CHECK(h.dtype.descr() == "<f4");
      }
    }
    SUBCASE("dimensions near the uint64 limit") {
      auto h = parse(wrap(dict_with("'|u1'", "False", "(18446744073709551000,)")));
      CHECK(h.shape == Shape{18446744073709551000u});
    }
    SUBCASE("big-endian and string types") {
      CHECK(parse(wrap(dict_with("'>f8'", "True", "(2, 2)"))).dtype.needs_byteswap());
      CHECK(parse(wrap(dict_with("'<U7'", "False", "(3,)"))).data_bytes() == 84);
      CHECK(parse(wrap(dict_with("'|S3'", "False", "(3,)"))).data_bytes() == 9);
    }
  }

  TEST_CASE("prefix rejections") {
    std::string good = wrap(dict_with("'<f4'", "False", "(3,)"));
    SUBCASE("bad magic") {
      std::string bad = good;
      bad[1] = 'n';
      check_rejected(bad);
      check_rejected("PK\x03\x04 not an npy at all"s);
    }
    SUBCASE("bad version") {
      for (auto [major, minor] : {std::pair{0, 0}, {4, 0}, {1, 1}, {2, 5}, {255, 0}}) {
        std::string bad = good;
        bad[6] = static_cast<char>(major);
        bad[7] = static_cast<char>(minor);
        check_rejected(bad);
      }
    }
    SUBCASE("truncated anywhere") {
      for (std::size_t n = 0; n < good.size(); ++n) {
        CAPTURE(n);
        check_rejected(good.substr(0, n));
      }
      CHECK_THROWS_AS(zanj::array::npy_header_size(good.substr(0, 9)), zanj::Error);
      CHECK_THROWS_AS(zanj::array::npy_header_size(wrap("{}", 2).substr(0, 11)), zanj::Error);
    }
    SUBCASE("oversized header") {
      std::string big = wrap(dict_with("'<f4'", "False", "(3,)") + spaces(10000), 2);
      CHECK_THROWS_AS(zanj::array::npy_header_size(big), zanj::Error);
      check_rejected(big);
      CHECK(zanj::array::parse_npy_header(big, zanj::NpyLimits{20000}).shape == Shape{3});
      std::string huge_len = "\x93NUMPY\x02\x00\xff\xff\xff\xff"s;
      CHECK_THROWS_AS(zanj::array::npy_header_size(huge_len), zanj::Error);
    }
    SUBCASE("missing newline") {
      std::string bad = good;
      bad.back() = ' ';
      check_rejected(bad);
      check_rejected("\x93NUMPY\x01\x00\x00\x00"s);  // empty header
    }
  }

  TEST_CASE("dict rejections") {
    auto rejected_dict = [](const std::string& dict) {
      CAPTURE(dict);
      check_rejected(wrap(dict));
    };
    SUBCASE("keys") {
      rejected_dict("{'descr': '<f4', 'fortran_order': False}");
      rejected_dict("{'descr': '<f4', 'shape': (3,)}");
      rejected_dict("{'fortran_order': False, 'shape': (3,)}");
      rejected_dict("{}");
      rejected_dict(dict_with("'<f4'", "False", "(3,)") + ", 'shape': (3,)}");
      rejected_dict("{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}");
      rejected_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'extra': 1}");
      rejected_dict("{descr: '<f4', 'fortran_order': False, 'shape': (3,)}");
    }
    SUBCASE("descr") {
      rejected_dict(dict_with("'|O'", "False", "(3,)"));
      rejected_dict(dict_with("[('a', '<f4'), ('b', '<i8')]", "False", "(3,)"));
      rejected_dict(dict_with("'|V8'", "False", "(3,)"));
      rejected_dict(dict_with("'<f4", "False", "(3,)"));
      rejected_dict(dict_with("'<f\\x34'", "False", "(3,)"));
      rejected_dict(dict_with("<f4", "False", "(3,)"));
    }
    SUBCASE("fortran_order") {
      rejected_dict(dict_with("'<f4'", "false", "(3,)"));
      rejected_dict(dict_with("'<f4'", "0", "(3,)"));
      rejected_dict(dict_with("'<f4'", "'False'", "(3,)"));
      rejected_dict(dict_with("'<f4'", "Falsey", "(3,)"));
    }
    SUBCASE("shape") {
      for (const char* shape :
           {"(-1,)", "(3.0,)", "(3, -4)", "(1e3,)", "(0x10,)", "(3)", "[3]", "(,)", "(3,,)", "(3 4)", "(05,)",
            "(1_000,)", "(3,", "3", "(18446744073709551616,)", "(99999999999999999999999,)"}) {
        rejected_dict(dict_with("'<f4'", "False", shape));
      }
    }
    SUBCASE("overflowing size") {
      rejected_dict(dict_with("'<f4'", "False", "(4294967296, 4294967296)"));
      rejected_dict(dict_with("'<f4'", "False", "(4611686018427387904,)"));  // * 4 bytes
      rejected_dict(dict_with("'|u1'", "False", "(18446744073709551615, 2)"));
      rejected_dict(dict_with("'|u1'", "False", "(18446744073709551615,)") + " ");  // + offset
    }
    SUBCASE("structure") {
      rejected_dict("'descr': '<f4', 'fortran_order': False, 'shape': (3,)}");
      rejected_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)");
      rejected_dict("{'descr': '<f4' 'fortran_order': False, 'shape': (3,)}");
      rejected_dict("{'descr' '<f4', 'fortran_order': False, 'shape': (3,)}");
      rejected_dict("{'descr': '<f4',, 'fortran_order': False, 'shape': (3,)}");
      rejected_dict(dict_with("'<f4'", "False", "(3,)") + " junk");
      rejected_dict(dict_with("'<f4'", "False", "(3,)") + "}");
      rejected_dict("{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::string(65, '1') + ")}");
    }
    SUBCASE("too many dimensions") {
      std::string dims;
      for (int i = 0; i < 65; ++i) dims += "1, ";
      rejected_dict(dict_with("'<f4'", "False", "(" + dims + ")"));
    }
  }

  TEST_CASE("make_npy_header") {
    using zanj::array::make_npy_header;
    using zanj::array::parse_descr;
    SUBCASE("matches numpy's bytes exactly") {
      CHECK(make_npy_header(parse_descr("<f4"), false, {32, 16}) == real_big_array);
      CHECK(make_npy_header(parse_descr("<f4"), true, {20, 15}) == real_f4_fortran);
      CHECK(make_npy_header(parse_descr("<c16"), false, {300}) == real_c16);
      CHECK(make_npy_header(parse_descr("<f8"), false, {4, 8, 10}) == real_f8_3d);
    }
    SUBCASE("0-d has no growth spaces") {
      std::string h = make_npy_header(parse_descr("<f8"), false, {});
      CHECK(h ==
            "\x93NUMPY\x01\x00v\x00"s + "{'descr': '<f8', 'fortran_order': False, 'shape': (), }" + spaces(62) + "\n");
    }
    SUBCASE("round trips through the parser, aligned") {
      for (const char* descr : {"|b1", "|i1", ">i8", "<u2", "<f2", ">c8", "<U7", "|S3"}) {
        for (const Shape& shape :
             {Shape{}, Shape{5}, Shape{3, 4}, Shape{0, 18446744073709551615u}, Shape{1, 2, 3, 4, 5, 6, 7, 8}}) {
          for (bool fortran : {false, true}) {
            CAPTURE(descr);
            std::string bytes = make_npy_header(parse_descr(descr), fortran, shape);
            auto h = zanj::array::parse_npy_header(bytes);
            CHECK(h.data_offset == bytes.size());
            CHECK(h.data_offset % 64 == 0);
            CHECK(h.dtype == parse_descr(descr));
            CHECK(h.fortran_order == fortran);
            CHECK(h.shape == shape);
          }
        }
      }
    }
    SUBCASE("switches to version 2.0 when the dict outgrows 65535 bytes") {
      Shape many(4000, 18446744073709551615u);
      many.push_back(0);
      std::string bytes = make_npy_header(parse_descr("<f4"), false, many);
      CHECK(bytes[6] == 2);
      CHECK(bytes.size() % 64 == 0);
      CHECK(zanj::array::npy_header_size(bytes, zanj::NpyLimits{1 << 20}) == bytes.size());
      CHECK(bytes.back() == '\n');
      // numpy itself cannot hold more than 64 dimensions, so neither do we
      CHECK_THROWS_WITH_AS(zanj::array::parse_npy_header(bytes, zanj::NpyLimits{1 << 20}),
                           doctest::Contains("too many dimensions"), zanj::Error);
    }
  }
}

TEST_CASE("read_npy_header and read_npy_header_size: the value, or the reason parse_npy_header throws") {
  const std::string good = wrap("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }");
  const zanj::base::Result<std::uint64_t> size = zanj::array::read_npy_header_size(good);
  REQUIRE(size.ok());
  CHECK(*size == good.size());
  const zanj::base::Result<zanj::array::NpyHeader> header = zanj::array::read_npy_header(good);
  REQUIRE(header.ok());
  CHECK(header->shape == Shape{3, 4});
  CHECK(header->data_offset == good.size());

  const zanj::base::Result<std::uint64_t> no_magic = zanj::array::read_npy_header_size("not an npy member");
  REQUIRE_FALSE(no_magic.ok());
  CHECK(no_magic.why() == "bad npy header: not a .npy member (bad magic)");
  const zanj::base::Result<zanj::array::NpyHeader> bad_shape =
      zanj::array::read_npy_header(wrap("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }"));
  REQUIRE_FALSE(bad_shape.ok());
  CHECK(bad_shape.why() == "bad npy header: shape (n) is not a tuple; write (n,)");
  const zanj::base::Result<zanj::array::NpyHeader> bad_descr =
      zanj::array::read_npy_header(wrap("{'descr': '<q4', 'fortran_order': False, 'shape': (), }"));
  REQUIRE_FALSE(bad_descr.ok());
  CHECK_THROWS_WITH_AS(zanj::array::parse_descr("<q4"), bad_descr.why().c_str(), zanj::Error);  // the descr's own words
  CHECK_THROWS_WITH_AS(zanj::array::parse_npy_header(wrap("{'descr': '<f4', 'fortran_order': False, 'shape': (3), }")),
                       "bad npy header: shape (n) is not a tuple; write (n,)", zanj::Error);
}

TEST_CASE("checked_element_count and checked_data_bytes: the count, or that it overflows") {
  zanj::array::NpyHeader h;
  h.dtype = zanj::array::parse_descr("<f8");
  h.shape = {3, 4};
  REQUIRE(h.checked_element_count().ok());
  CHECK(*h.checked_element_count() == 12);
  CHECK(*h.checked_data_bytes() == 96);
  h.shape = {std::uint64_t{1} << 62, 0};
  CHECK(*h.checked_element_count() == 0);  // empty whatever the other dimensions
  h.shape = {std::uint64_t{1} << 62};
  CHECK(*h.checked_element_count() == std::uint64_t{1} << 62);
  const zanj::base::Result<std::uint64_t> bytes = h.checked_data_bytes();
  REQUIRE_FALSE(bytes.ok());
  CHECK(bytes.why() == "bad npy header: array byte size overflows");
  h.shape = {std::uint64_t{1} << 32, std::uint64_t{1} << 32};
  const zanj::base::Result<std::uint64_t> count = h.checked_element_count();
  REQUIRE_FALSE(count.ok());
  CHECK(count.why() == "bad npy header: shape element count overflows");
  CHECK_THROWS_WITH_AS(h.element_count(), "bad npy header: shape element count overflows", zanj::Error);
}
