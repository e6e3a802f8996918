#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <numeric>

#include "npy_archive.hpp"
#include "test_support.hpp"
#include "array/array_reader.hpp"
#include "zanj/error.hpp"
#include "array/member_reader.hpp"
#include "object/zanj_file_access.hpp"
#include "json/json_parse.hpp"
#include "object/tree_json.hpp"

using namespace zanj;
using namespace zanj::array;
using namespace zanj::test;

namespace {

std::string all_values(const ArrayValues& values, const Selection& selection, std::size_t* calls = nullptr) {
  std::string out;
  values.stream(selection, [&](std::string_view chunk) {
    CHECK(chunk.size() % reader_of(values).dtype().itemsize == 0);  // whole elements only
    if (calls) ++*calls;
    out.append(chunk);
    return true;
  });
  return out;
}

template <typename T>
std::vector<T> as(const std::string& bytes) {
  std::vector<T> v(bytes.size() / sizeof(T));
  std::memcpy(v.data(), bytes.data(), bytes.size());
  return v;
}

/// An external array node for `member` (its dtype and shape as the node declares them).
Json reference_json(const std::string& member, const std::string& dtype, const std::string& shape) {
  return json::parse_json(R"({"__muutils_format__": "numpy.ndarray:external", "$ref": ")" + member +
                              R"(", "dtype": ")" + dtype + R"(", "shape": )" + shape + "}",
                          "t");
}
}  // namespace

TEST_SUITE("array_values") {
  TEST_CASE("a Fortran-order member comes out in C order, from memory or from a spool file") {
    ZanjFile z(kCorpus + "/dtypes.zanj");
    const Node f4 = classify(z.root().find("f4_fortran"));
    const ArrayNode& node = *f4.array;
    const ZipEntry& entry = *z.archive().find("f4_fortran.npy");
    const NpyHeader header = read_npy_member_header(z.archive(), entry);
    const std::string stored = z.archive().read_all(entry, 1 << 20).substr(header.data_offset);
    std::string expected;  // element (i, j) of a Fortran (20, 15) array is at i + 20 j
    for (std::size_t i = 0; i < 20; ++i)
      for (std::size_t j = 0; j < 15; ++j) expected.append(stored, (i + 20 * j) * 4, 4);

    const ArrayValues in_memory(z.archive(), node, "f4_fortran");
    CHECK(in_memory.fortran_order());
    CHECK(all_values(in_memory, select_all({20, 15})) == expected);
    ArrayReadOptions spool;
    spool.max_in_memory_bytes = 0;
    const ArrayValues spooled(z.archive(), node, "f4_fortran", spool);
    CHECK(all_values(spooled, select_all({20, 15})) == expected);
    const Selection row = select(parse_slice("[-1, ::-7]"), {20, 15});
    const std::string want = expected.substr((19 * 15 + 14) * 4, 4) + expected.substr((19 * 15 + 7) * 4, 4) +
                             expected.substr((19 * 15 + 0) * 4, 4);
    CHECK(all_values(in_memory, row) == want);
    CHECK(all_values(spooled, row) == want);
  }

  TEST_CASE("big-endian members are swapped, in C and Fortran order") {
    std::vector<double> values(12);
    std::iota(values.begin(), values.end(), 0.0);
    std::vector<std::int32_t> fortran{0, 3, 1, 4, 2, 5};  // the (2, 3) array [[0 1 2] [3 4 5]]
    Archive a = memory_archive({{"c.npy", npy_member(">f8", false, {3, 4}, swapped(bytes_of(values), 8))},
                                {"f.npy", npy_member(">i4", true, {2, 3}, swapped(bytes_of(fortran), 4))}});
    const Json c = reference_json("c.npy", ">f8", "[3, 4]");
    const ArrayValues cv(a, *object::classify(c).array, "c");
    CHECK(reader_of(cv).stored_dtype().order == ByteOrder::big);
    CHECK(reader_of(cv).dtype().order == ByteOrder::little);
    CHECK(as<double>(all_values(cv, select_all({3, 4}))) == values);
    CHECK(as<double>(all_values(cv, select(parse_slice("[::-1, 1]"), {3, 4}))) == std::vector<double>{9, 5, 1});
    CHECK(as<double>(all_values(cv, select(parse_slice("[1:, 2:]"), {3, 4}))) == std::vector<double>{6, 7, 10, 11});
    const Json f = reference_json("f.npy", ">i4", "[2, 3]");
    const ArrayValues fv(a, *object::classify(f).array, "f");
    CHECK(as<std::int32_t>(all_values(fv, select_all({2, 3}))) == std::vector<std::int32_t>{0, 1, 2, 3, 4, 5});
    CHECK(as<std::int32_t>(all_values(fv, select(parse_slice("[:, 1]"), {2, 3}))) == std::vector<std::int32_t>{1, 4});
  }

  TEST_CASE("chunks hold whole elements, and the sink can stop the reading") {
    const std::string text = std::string("ab\0\0\0\0\0\0\0\0\0\0", 12) + std::string("cde\0\0\0\0\0\0\0\0\0", 12);
    std::string data;
    for (int i = 0; i < 50; ++i) data += text;  // 100 elements of <U3
    Archive a = memory_archive({{"u.npy", npy_member("<U3", false, {100}, data)}});
    const Json node = reference_json("u.npy", "<U3", "[100]");
    ArrayReadOptions small;
    small.chunk_bytes = 5;  // smaller than one element: each chunk is one element
    const ArrayValues v(a, *object::classify(node).array, "u", small);
    std::size_t calls = 0;
    CHECK(all_values(v, select_all({100}), &calls) == data);
    CHECK(calls == 100);
    calls = 0;
    v.stream(select_all({100}), [&](std::string_view) { return ++calls < 3; });
    CHECK(calls == 3);
  }

  TEST_CASE("progress follows the member's inflated bytes, in order or gathered") {
    ZanjFile z(kCorpus + "/stored.zanj");  // data: int64 0..999, an 8,128-byte member
    const Node data = classify(z.root().find("data"));
    const ArrayNode& node = *data.array;
    const std::uint64_t size = z.archive().find(node.member)->uncompressed_size;
    for (const char* slice : {"[:]", "[::-1]"}) {
      CAPTURE(slice);
      std::vector<std::uint64_t> seen;
      ArrayReadOptions options;
      options.progress = [&](std::uint64_t done, std::uint64_t total) {
        CHECK(total == size);
        seen.push_back(done);
      };
      const ArrayValues v(z.archive(), node, "data", options);
      seen.clear();  // the header read in the constructor does not count
      all_values(v, select(parse_slice(slice), {1000}));
      REQUIRE_FALSE(seen.empty());
      CHECK(std::is_sorted(seen.begin(), seen.end()));
      CHECK(seen.back() == size);
    }
  }

  TEST_CASE("reversed and strided selections of a C-order member") {
    ZanjFile z(kCorpus + "/stored.zanj");  // data: int64 0..999
    const Node data = classify(z.root().find("data"));
    const ArrayNode& node = *data.array;
    ArrayReadOptions spool;
    spool.max_in_memory_bytes = 0;
    for (const ArrayReadOptions& options : {ArrayReadOptions{}, spool}) {
      const ArrayValues v(z.archive(), node, "data", options);
      const auto reversed = as<std::int64_t>(all_values(v, select(parse_slice("[::-250]"), {1000})));
      CHECK(reversed == std::vector<std::int64_t>{999, 749, 499, 249});
      const auto forward = as<std::int64_t>(all_values(v, select(parse_slice("[5:20:5]"), {1000})));
      CHECK(forward == std::vector<std::int64_t>{5, 10, 15});
      CHECK(all_values(v, select(parse_slice("[7:7]"), {1000})).empty());
    }
  }

  TEST_CASE("inline arrays read like external ones") {
    ZanjFile z(kCorpus + "/inline_hex.zanj");
    const ArrayValues v(z.archive(), *classify(z.root().find("a")).array, "a");
    CHECK_FALSE(v.external());
    CHECK(as<float>(all_values(v, select_all({10}))) == std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    CHECK(as<float>(all_values(v, select(parse_slice("[::-4]"), {10}))) == std::vector<float>{9, 5, 1});
  }

  TEST_CASE("a node that disagrees with its member, or a broken member, is an Error") {
    std::vector<float> four{1, 2, 3, 4};
    Archive a = memory_archive({{"x.npy", npy_member("<f4", false, {4}, bytes_of(four))},
                                {"short.npy", npy_member("<f4", false, {8}, bytes_of(four))},
                                {"text.npy", "not an npy member"}});
    auto open = [&](const Json& j) { return ArrayValues(a, *object::classify(j).array, "p"); };
    CHECK_NOTHROW(open(reference_json("x.npy", "float32", "[4]")));
    CHECK_THROWS_WITH_AS(open(reference_json("x.npy", "float64", "[4]")), doctest::Contains("holds <f4"), Error);
    CHECK_THROWS_WITH_AS(open(reference_json("x.npy", "float32", "[2, 2]")), doctest::Contains("has shape [4]"), Error);
    CHECK_THROWS_WITH_AS(open(reference_json("y.npy", "float32", "[4]")), doctest::Contains("not in the archive"),
                         Error);
    CHECK_THROWS_WITH_AS(open(reference_json("short.npy", "float32", "[8]")), doctest::Contains("too short"), Error);
    CHECK_THROWS_WITH_AS(open(reference_json("text.npy", "float32", "[4]")), doctest::Contains("text.npy"), Error);
    const Json bad_inline = json::parse_json(
        R"({"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [1], "shape": [2], "dtype": "int8"})", "t");
    CHECK_THROWS_WITH_AS(open(bad_inline), doctest::Contains("test.zanj: array 'p': data should be a list of 2"),
                         Error);
  }

  TEST_CASE("an array's errors carry the archive, the object path and the member as fields") {
    std::vector<float> four{1, 2, 3, 4};
    Archive a = memory_archive(
        {{"short.npy", npy_member("<f4", false, {8}, bytes_of(four))}, {"text.npy", "not an npy member"}});
    auto error_of = [&](const Json& j) -> Error {
      try {
        ArrayValues(a, *object::classify(j).array, "state_dict/w");
      } catch (const Error& e) {
        return e;
      }
      FAIL("no error");
      return Error("");
    };
    const Error missing = error_of(reference_json("y.npy", "float32", "[4]"));
    CHECK(missing.archive() == "test.zanj");
    CHECK(missing.object_path() == "state_dict/w");
    CHECK(missing.member() == "y.npy");
    // Said once: the archive is not repeated before the array.
    CHECK(std::string(missing.what()) ==
          "test.zanj: array 'state_dict/w': refers to member 'y.npy', which is not in the archive");
    const Error short_member = error_of(reference_json("short.npy", "float32", "[8]"));
    CHECK(short_member.member() == "short.npy");
    CHECK(short_member.detail().rfind("member 'short.npy' is too short", 0) == 0);
    const Error bad_header = error_of(reference_json("text.npy", "float32", "[4]"));
    // From the npy header reader, which names the archive and the member: passed on as it is.
    CHECK(bad_header.member() == "text.npy");
    CHECK(bad_header.object_path() == "");
    CHECK(std::string(bad_header.what()).rfind("test.zanj: member 'text.npy': ", 0) == 0);
  }

  TEST_CASE("corrupt member data stops the stream with an Error") {
    ZanjFile z(kCorpus + "/malformed/bad_crc.zanj");
    const ArrayValues v(z.archive(), *classify(z.root().find("big_array")).array, "big_array");
    CHECK_THROWS_WITH_AS(all_values(v, select_all(v.shape())), doctest::Contains("CRC-32"), Error);
  }
}
