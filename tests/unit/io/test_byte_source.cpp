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
