#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <fstream>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zip/zip_writer.hpp"
#include "zanj/error.hpp"
#include "array/member_reader.hpp"

using namespace zanj;
using namespace zanj::array;
using test::open_corpus;

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
    try {
      read_npy_member_header(a, *a.find("long_list.jsonl"));
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.member() == "long_list.jsonl");
      CHECK(e.archive() == a.name());
      CHECK(e.reason() == "member 'long_list.jsonl': " + e.detail());
    }
  }

  TEST_CASE("a large member decoded on a second thread reads as on one, errors included") {
    // 7 MB of indented JSON: over the size from which the decoding runs beside the minifier.
    std::string text = "[\n";
    for (int i = 0; i < 250000; ++i) text += "  {\"k\": " + std::to_string(i) + ", \"s\": \"a  b\"},\n";
    text += "  0\n]\n";
    test::TempDir dir;
    const std::string path = dir / "big.zanj";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    {
      zip::ZipWriter w(fd, path);
      w.add_member("__zanj__.json", text);
      w.finish();
    }
    ::close(fd);
    const auto read = [&](const std::string& file, bool alone, std::uint64_t& decoded) {
      const Archive a(file);
      const ZipEntry& e = *a.find("__zanj__.json");
      REQUIRE(e.method == 8);
      return read_json_text(a, e, UINT64_MAX, &decoded, alone);
    };
    std::uint64_t one = 0, two = 0;
    const json::JsonText serial = read(path, false, one);
    const json::JsonText beside = read(path, true, two);
    CHECK(one == text.size());
    CHECK(two == one);
    CHECK(serial.minified);
    CHECK(serial.bytes.size() + 6 * 250000 <= text.size());  // each line's five spaces and newline gone
    CHECK(beside.bytes == serial.bytes);
    CHECK(beside.minified == serial.minified);
    // A byte changed in the compressed data: the same error both ways, from the decoding thread.
    std::string bytes = zanj::test::read_file(path);
    bytes[bytes.size() / 2] = static_cast<char>(bytes[bytes.size() / 2] ^ 0x55);
    const std::string broken = dir / "broken.zanj";
    std::ofstream(broken, std::ios::binary) << bytes;
    std::string serial_error, beside_error;
    try {
      (void)read(broken, false, one);
    } catch (const Error& e) {
      serial_error = e.what();
    }
    try {
      (void)read(broken, true, two);
    } catch (const Error& e) {
      beside_error = e.what();
    }
    CHECK_FALSE(serial_error.empty());
    CHECK(beside_error == serial_error);
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

  TEST_CASE("JsonlLineSplitter: lines across chunk boundaries, a last line, stopping") {
    const std::string text = "ab\n\ncdef\ng";
    for (std::size_t chunk = 1; chunk <= text.size(); ++chunk) {
      std::vector<std::string> lines;
      JsonlLineSplitter splitter(
          [&](std::uint64_t i, std::string_view line) {
            CHECK(i == lines.size());
            lines.emplace_back(line);
            return true;
          },
          100, "t", 1000);
      for (std::size_t at = 0; at < text.size(); at += chunk)
        CHECK(splitter.feed(std::string_view(text).substr(at, chunk)));
      CHECK(splitter.finish());
      CHECK(lines == std::vector<std::string>{"ab", "", "cdef", "g"});
      CHECK(splitter.lines() == 4);
    }
    int seen = 0;
    JsonlLineSplitter stopper([&](std::uint64_t, std::string_view) { return ++seen < 2; }, 100, "t", 1000);
    CHECK_FALSE(stopper.feed("1\n2\n3\n"));
    CHECK_FALSE(stopper.feed("4\n"));
    CHECK_FALSE(stopper.finish());
    CHECK(seen == 2);
    JsonlLineSplitter bounded([](std::uint64_t, std::string_view) { return true; }, 3, "what", 1000);
    CHECK(bounded.feed("123\n12"));
    CHECK_THROWS_WITH_AS(bounded.feed("34"),
                         "what: line 2 is longer than 3 bytes, the limit (raise with --max-jsonl-line-bytes)", Error);
  }

  TEST_CASE("NpyHeaderCollector: the header from any chunking, the data left over") {
    const std::string header = make_npy_header(parse_descr("<i2"), false, {5});
    const std::string member = header + std::string(10, '\x01');
    for (std::size_t chunk : {1, 5, 11, 12, 13, 200}) {
      NpyHeaderCollector collector;
      std::uint64_t data = 0;
      for (std::size_t at = 0; at < member.size(); at += chunk) {
        const std::string_view piece = std::string_view(member).substr(at, chunk);
        data += piece.size() - collector.feed(piece);
      }
      collector.finish();
      REQUIRE(collector.header());
      CHECK(collector.header()->shape == std::vector<std::uint64_t>{5});
      CHECK(data == 10);
    }
    NpyHeaderCollector short_member;
    short_member.feed(header.substr(0, 30));
    CHECK_THROWS_WITH_AS(short_member.finish(), doctest::Contains("ends inside its header"), Error);
    NpyHeaderCollector tiny;
    tiny.feed("\x93NUM");
    CHECK_THROWS_AS(tiny.finish(), Error);
    NpyHeaderCollector limited(NpyLimits{16});
    CHECK_THROWS_WITH_AS(limited.feed(header), doctest::Contains("exceeds the limit"), Error);
    NpyHeaderCollector bad;
    CHECK_THROWS_WITH_AS(bad.feed("not an npy member at all"), doctest::Contains("bad magic"), Error);
  }

  TEST_CASE("line length is bounded") {
    ResourceLimits limits;
    limits.max_jsonl_line_bytes = 10;
    const Archive a(test::corpus("dataframe.zanj"), OpenOptions{limits, {}});
    CHECK_THROWS_WITH_AS(
        for_each_jsonl_line(a, *a.find("table.jsonl"), [](std::uint64_t, std::string_view) { return true; }),
        doctest::Contains("longer than 10 bytes"), Error);
    limits = ResourceLimits{};
    limits.max_jsonl_rows = 2;  // the archive's limit on lines, as --max-jsonl-rows sets it
    const Archive b(test::corpus("dataframe.zanj"), OpenOptions{limits, {}});
    CHECK_THROWS_WITH_AS(
        for_each_jsonl_line(b, *b.find("table.jsonl"), [](std::uint64_t, std::string_view) { return true; }),
        doctest::Contains("exceeds the limit of 2"), Error);
  }

  TEST_CASE("NpyHeaderCollector: try_feed and end_problem say why instead of throwing") {
    const std::string header = make_npy_header(parse_descr("<i2"), false, {5});
    NpyHeaderCollector collector;
    const base::Result<std::size_t> used = collector.try_feed(header + "data");
    REQUIRE(used.ok());
    CHECK(*used == header.size());
    CHECK_FALSE(collector.end_problem());
    NpyHeaderCollector bad;
    const base::Result<std::size_t> refused = bad.try_feed("not an npy member at all");
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.why() == "bad npy header: not a .npy member (bad magic)");
    NpyHeaderCollector short_member;
    REQUIRE(short_member.try_feed(header.substr(0, 30)).ok());
    CHECK(short_member.end_problem() == "bad npy header: the member ends inside its header");
    NpyHeaderCollector tiny;
    REQUIRE(tiny.try_feed("\x93NUM").ok());
    CHECK(tiny.end_problem() == "bad npy header: truncated before the version");
  }

  TEST_CASE("JsonlLineSplitter: try_feed and try_finish say why instead of throwing") {
    std::vector<std::string> lines;
    JsonlLineSplitter splitter(
        [&](std::uint64_t, std::string_view line) {
          lines.emplace_back(line);
          return true;
        },
        4, "rows", 2);
    const base::Result<bool> fed = splitter.try_feed("ab\ncd");
    REQUIRE(fed.ok());
    CHECK(*fed);
    const base::Result<bool> finished = splitter.try_finish();
    REQUIRE(finished.ok());
    CHECK(lines == std::vector<std::string>{"ab", "cd"});
    JsonlLineSplitter long_line([](std::uint64_t, std::string_view) { return true; }, 3, "rows", 10);
    const base::Result<bool> too_long = long_line.try_feed("abcd\n");
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.why() == "rows: line 1 is longer than 3 bytes, the limit (raise with --max-jsonl-line-bytes)");
    JsonlLineSplitter few_rows([](std::uint64_t, std::string_view) { return true; }, 10, "rows", 1);
    REQUIRE(few_rows.try_feed("a\n").ok());
    REQUIRE(few_rows.try_feed("b").ok());
    const base::Result<bool> too_many = few_rows.try_finish();
    REQUIRE_FALSE(too_many.ok());
    CHECK(too_many.why() == "rows: the number of lines exceeds the limit of 1 (raise with --max-jsonl-rows)");
  }
}
