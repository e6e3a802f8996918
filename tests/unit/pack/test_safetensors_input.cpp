#include <doctest/doctest.h>

#include "pack/safetensors_input.hpp"

using namespace zanj;
using namespace zanj::pack;

namespace {

/// A safetensors file: the length prefix of `header`, `header`, then `data`.
std::string safetensors_file(const std::string& header, const std::string& data, std::uint64_t declared = 0) {
  std::uint64_t n = declared ? declared : header.size();
  std::string out;
  for (int i = 0; i < 8; ++i) out += static_cast<char>((n >> (8 * i)) & 0xFF);
  return out + header + data;
}

base::Result<SafetensorsContents> read(const std::string& header, const std::string& data, std::uint64_t declared = 0) {
  return read_safetensors(io::MemorySource(safetensors_file(header, data, declared)));
}

}  // namespace

TEST_SUITE("safetensors_input") {
  TEST_CASE("tensors in the order of their data, metadata kept, padding allowed") {
    const auto r = read(
        R"({"b":{"dtype":"I8","shape":[3],"data_offsets":[8,11]},"__metadata__":{"format":"pt","k":"v"},)"
        R"("a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"e":{"dtype":"F64","shape":[0,5],"data_offsets":[11,11]}}   )",
        std::string(11, 'x'));
    REQUIRE(r.ok());
    REQUIRE(r->tensors.size() == 3);
    CHECK(r->tensors[0].name == "a");
    CHECK(r->tensors[0].dtype.descr() == "<f4");
    CHECK(r->tensors[1].name == "b");
    CHECK(r->tensors[1].bytes == 3);
    CHECK(r->tensors[1].shape == std::vector<std::uint64_t>{3});
    CHECK(r->tensors[2].name == "e");  // empty: it ends where it begins, after b
    CHECK(r->tensors[2].bytes == 0);
    REQUIRE(r->metadata.size() == 2);
    CHECK(r->metadata[0].first == "format");
    CHECK(r->metadata[1].second == "v");
  }

  TEST_CASE("offsets are counted from the end of the header") {
    const std::string header = R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]}})";
    const auto r = read(header, "xy");
    REQUIRE(r.ok());
    CHECK(r->tensors[0].offset == 8 + header.size());
  }

  TEST_CASE("dtypes: numpy's, and those numpy lacks refused by name") {
    CHECK(safetensors_numpy_dtype("BOOL")->descr() == "|b1");
    CHECK(safetensors_numpy_dtype("U64")->descr() == "<u8");
    CHECK(safetensors_numpy_dtype("F16")->descr() == "<f2");
    CHECK(safetensors_numpy_dtype("BF16").why().find("BF16 has no numpy dtype") != std::string::npos);
    CHECK(safetensors_numpy_dtype("F8_E4M3").why().find("F8_E4M3") != std::string::npos);
    CHECK(safetensors_numpy_dtype("f32").why().find("unknown dtype") != std::string::npos);
    const auto r = read(R"({"w":{"dtype":"BF16","shape":[1],"data_offsets":[0,2]}})", "xx");
    CHECK(r.why().find("BF16") != std::string::npos);
  }

  TEST_CASE("hostile headers are refused with a reason") {
    const auto why = [](const std::string& header, const std::string& data, std::uint64_t declared = 0) {
      const auto r = read(header, data, declared);
      REQUIRE_FALSE(r.ok());
      return r.why();
    };
    CHECK(read_safetensors(io::MemorySource("abc")).why().find("too short") != std::string::npos);
    CHECK(why("{}", "", 1000).find("past the end") != std::string::npos);
    CHECK(why("{}", "", ~std::uint64_t{0}).find("past the end") != std::string::npos);
    CHECK(why("[]", "").find("start with '{'") != std::string::npos);
    CHECK(why("{\"a\":", "").find("the header") != std::string::npos);  // bad JSON
    CHECK(why(R"({"a":[]})", "").find("not an object") != std::string::npos);
    CHECK(why(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1],"x":1}})", "x").find("exactly") !=
          std::string::npos);
    CHECK(why(R"({"a":{"dtype":"U8","shape":[-1],"data_offsets":[0,1]}})", "x").find("not a size") !=
          std::string::npos);
    CHECK(why(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[1,0]}})", "x").find("ends before") !=
          std::string::npos);
    // Overlapping: b reuses a's bytes.
    CHECK(
        why(R"({"a":{"dtype":"U8","shape":[2],"data_offsets":[0,2]},"b":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})",
            "xy")
            .find("overlaps") != std::string::npos);
    // A gap, and bytes past the last tensor.
    CHECK(why(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[1,2]}})", "xy").find("gap") != std::string::npos);
    CHECK(why(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "xyz").find("belong to no tensor") !=
          std::string::npos);
    // Past the end of the file.
    CHECK(why(R"({"a":{"dtype":"U8","shape":[4],"data_offsets":[0,4]}})", "xy").find("past the end") !=
          std::string::npos);
    // A huge declared shape: the product overflows, or disagrees with the offsets.
    CHECK(why(R"({"a":{"dtype":"F64","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", "12345678")
              .find("too large") != std::string::npos);
    CHECK(why(R"({"a":{"dtype":"F64","shape":[1000],"data_offsets":[0,8]}})", "12345678").find("needs 8000 bytes") !=
          std::string::npos);
    CHECK(
        why(R"({"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]},"a":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})",
            "x")
            .find("twice") != std::string::npos);
    CHECK(why(R"({"__metadata__":{"k":1}})", "").find("not a string") != std::string::npos);
    CHECK(why(R"({"":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "x").find("empty name") != std::string::npos);
    CHECK(why(R"({"a\u0001":{"dtype":"U8","shape":[1],"data_offsets":[0,1]}})", "x").find("control") !=
          std::string::npos);
  }

  TEST_CASE("the header is bounded before it is read") {
    SafetensorsLimits limits;
    limits.max_header_bytes = 16;
    const std::string header = R"({"__metadata__":{"format":"pt"}})";
    const auto r = read_safetensors(io::MemorySource(safetensors_file(header, "")), limits);
    REQUIRE_FALSE(r.ok());
    CHECK(r.why().find("more than the 16 allowed") != std::string::npos);
  }

  TEST_CASE("sniffing: a length that fits, then '{'") {
    CHECK(looks_like_safetensors(io::MemorySource(safetensors_file("{}", ""))));
    CHECK_FALSE(looks_like_safetensors(io::MemorySource(safetensors_file("{}", "", 100))));
    CHECK_FALSE(looks_like_safetensors(io::MemorySource("{\"a\":   {}}")));
  }
}
