#include <doctest/doctest.h>

#include <filesystem>
#include <limits>
#include <string>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "io/byte_source.hpp"
#include "zanj/error.hpp"

using zanj::Error;
using zanj::Exit;
using zanj::io::FileSource;
using zanj::io::MemorySource;
using zanj::test::exit_of;
using zanj::test::TempDir;

TEST_CASE("MemorySource reads exactly and refuses reads past the end") {
  const MemorySource src("hello world");
  CHECK(src.size() == 11);
  std::string buf(5, '\0');
  src.read_at(6, buf.data(), 5);
  CHECK(buf == "world");
  src.read_at(11, nullptr, 0);  // an empty read at the very end is fine
  CHECK_THROWS_WITH_AS(src.read_at(7, buf.data(), 5), doctest::Contains("unexpected end of file"), Error);
  CHECK_THROWS_AS(src.read_at(std::numeric_limits<std::uint64_t>::max(), buf.data(), 2), Error);
  CHECK(exit_of([&] { src.read_at(12, buf.data(), 0); }) == Exit::invalid);
}

TEST_CASE("MemorySource read_some returns what is there") {
  const MemorySource src("abcdef");
  char buf[8] = {};
  CHECK(src.read_some(4, buf, 8) == 2);
  CHECK(std::string(buf, 2) == "ef");
  CHECK(src.read_some(6, buf, 8) == 0);
  CHECK(src.read_some(100, buf, 8) == 0);
  CHECK(src.read_some(std::numeric_limits<std::uint64_t>::max(), buf, 8) == 0);
  const MemorySource empty("");
  CHECK(empty.size() == 0);
  CHECK(empty.read_some(0, buf, 1) == 0);
}

TEST_CASE("FileSource reads a regular file") {
  std::string content;
  for (int i = 0; i < 100000; ++i) content.push_back(static_cast<char>(i * 7));
  const TempDir tmp;
  zanj::test::write_file(tmp / "file.bin", content);
  const FileSource src(tmp / "file.bin");
  CHECK(src.size() == content.size());
  std::string buf(1000, '\0');
  src.read_at(50000, buf.data(), buf.size());
  CHECK(buf == content.substr(50000, 1000));
  CHECK(src.read_some(content.size() - 10, buf.data(), buf.size()) == 10);
  CHECK(src.read_some(content.size(), buf.data(), buf.size()) == 0);
  CHECK_THROWS_WITH_AS(src.read_at(content.size() - 10, buf.data(), 11), doctest::Contains("unexpected end of file"),
                       Error);
}

TEST_CASE("FileSource refuses missing paths and non-regular files with a usage error") {
  const std::string missing = "/nonexistent/zanj/file.zanj";
  CHECK_THROWS_WITH_AS(FileSource{missing}, doctest::Contains((missing + ": ").c_str()), Error);
  CHECK(exit_of([&] { FileSource{missing}; }) == Exit::usage);
  const std::string dir = std::filesystem::temp_directory_path().string();
  CHECK_THROWS_WITH_AS(FileSource{dir}, doctest::Contains("not a regular file"), Error);
  CHECK(exit_of([&] { FileSource{dir}; }) == Exit::usage);
  CHECK(exit_of([] { FileSource{"/dev/null"}; }) == Exit::usage);
}

TEST_CASE("ReadWindow serves small forward reads from one read ahead, and large or bad ones from the source") {
  std::string content;
  for (int i = 0; i < 300000; ++i) content.push_back(static_cast<char>(i * 13 + i / 7));
  const MemorySource src(content);
  const zanj::io::ReadWindow window(src, 64 << 10);
  CHECK(window.size() == content.size());
  // 2,000 pieces of 100 bytes, forward, with gaps: each the source's bytes.
  std::string buf(100, '\0');
  bool same = true;
  for (std::uint64_t at = 0; at + 100 <= 300000; at += 150) {
    window.read_at(at, buf.data(), buf.size());
    same = same && buf == content.substr(at, 100);
  }
  CHECK(same);
  // The window grows from a page to 64 KiB: a few dozen reads of the source, not 2,000.
  CHECK(window.source_reads() < 40);
  // read_some: what is there, from the window or the source.
  CHECK(window.read_some(content.size() - 10, buf.data(), 100) == 10);
  CHECK(buf.substr(0, 10) == content.substr(content.size() - 10));
  CHECK(window.read_some(content.size(), buf.data(), 100) == 0);
  // Backwards, and a read larger than half the window: still the source's bytes.
  window.read_at(5, buf.data(), 100);
  CHECK(buf == content.substr(5, 100));
  std::string large(40000, '\0');
  const std::uint64_t before = window.source_reads();
  window.read_at(1000, large.data(), large.size());
  CHECK(large == content.substr(1000, 40000));
  CHECK(window.source_reads() == before + 1);
  // Past the end: the source's own error.
  CHECK_THROWS_WITH_AS(window.read_at(content.size() - 10, buf.data(), 11), doctest::Contains("unexpected end of file"),
                       Error);
  window.read_at(content.size(), nullptr, 0);
}

TEST_CASE("ReadWindow reads pieces out of order a page at a time") {
  std::string content(1 << 20, 'x');
  for (std::size_t i = 0; i < content.size(); i += 4096) content[i] = static_cast<char>('a' + i / 4096 % 26);
  const MemorySource src(content);
  const zanj::io::ReadWindow window(src);
  char c = 0;
  // Backwards through the file: every read a miss, each refilling a page, not the whole window.
  for (std::size_t page = 255; page > 0; --page) {
    window.read_at(page * 4096, &c, 1);
    CHECK(c == content[page * 4096]);
  }
  CHECK(window.source_reads() == 255);
}
