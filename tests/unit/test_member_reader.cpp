#include <doctest/doctest.h>

#include <cmath>

#include "zanj/error.hpp"
#include "zanj/member_reader.hpp"

#ifndef ZANJ_TEST_CORPUS
#define ZANJ_TEST_CORPUS "tests/corpus"
#endif

using namespace zanj;

namespace {
Archive open_corpus(const std::string& name) { return Archive(std::string(ZANJ_TEST_CORPUS) + "/" + name); }
}  // namespace

TEST_SUITE("member_reader") {
  TEST_CASE("npy headers of real members") {
    Archive a = open_corpus("dtypes.zanj");
    const NpyHeader f = read_npy_member_header(a, *a.find("f4_fortran.npy"));
    CHECK(f.fortran_order);
    CHECK(f.shape == std::vector<std::uint64_t>{20, 15});
    CHECK(f.dtype.descr() == "<f4");
    CHECK(f.data_offset + f.data_bytes() == a.find("f4_fortran.npy")->uncompressed_size);
    Archive b = open_corpus("malformed/npy_shape_mismatch.zanj");
    const NpyHeader m = read_npy_member_header(b, *b.find("big_array.npy"));
    CHECK(m.shape != std::vector<std::uint64_t>{32, 16});
  }

  TEST_CASE("a member that is not npy is an Error naming it") {
    Archive a = open_corpus("basic.zanj");
    CHECK_THROWS_WITH_AS(read_npy_member_header(a, *a.find("long_list.jsonl")),
                         doctest::Contains("member 'long_list.jsonl'"), Error);
  }

  TEST_CASE("jsonl lines stream in order") {
    Archive a = open_corpus("basic.zanj");
    std::uint64_t count = 0;
    for_each_jsonl_value(a, *a.find("long_list.jsonl"), [&](std::uint64_t i, const Json& v) {
      CHECK(v.as_int64() == static_cast<std::int64_t>(i));
      ++count;
      return true;
    });
    CHECK(count == 300);
  }

  TEST_CASE("jsonl rows with NaN, and stopping early") {
    Archive a = open_corpus("nan_values.zanj");
    std::vector<Json> rows;
    for_each_jsonl_value(a, *a.find("table.jsonl"), [&](std::uint64_t, const Json& v) {
      rows.push_back(v);
      return true;
    });
    REQUIRE(rows.size() == 3);
    CHECK(std::isnan(rows[1].find("x")->as_real()));
    CHECK(rows[1].find("y")->is_null());
    int seen = 0;
    for_each_jsonl_line(a, *a.find("table.jsonl"), [&](std::uint64_t, std::string_view) { return ++seen < 2; });
    CHECK(seen == 2);
  }

  TEST_CASE("line length is bounded") {
    Archive a = open_corpus("dataframe.zanj");
    CHECK_THROWS_WITH_AS(
        for_each_jsonl_line(a, *a.find("table.jsonl"), [](std::uint64_t, std::string_view) { return true; }, 10),
        doctest::Contains("longer than 10 bytes"), Error);
  }
}

TEST_SUITE("member_reader") {
  TEST_CASE("for_each_line splits any chunk stream, lines across chunk borders included") {
    const std::vector<std::string> chunks{"a\nbb", "b\n", "\nlast"};
    std::vector<std::string> lines;
    for_each_line([&](const ChunkSink& sink) {
      for (const auto& c : chunks) sink(c);
    }, "stream", [&](std::uint64_t index, std::string_view line) {
      CHECK(index == lines.size());
      lines.emplace_back(line);
      return true;
    });
    CHECK(lines == std::vector<std::string>{"a", "bbb", "", "last"});
    CHECK_THROWS_WITH_AS(for_each_line([&](const ChunkSink& sink) { sink("toolong\n"); }, "stream",
                                       [](std::uint64_t, std::string_view) { return true; }, 3),
                         doctest::Contains("stream: line 1 is longer than 3 bytes"), Error);
  }
}
