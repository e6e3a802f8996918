#include <doctest/doctest.h>

#include <filesystem>

#include "array/npy_header.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "zanj/export.hpp"
#include "zanj_fixture.hpp"

using namespace zanj;
using zanj::test::TempDir;
namespace fs = std::filesystem;

namespace {

ZanjFile fixture() { return ZanjFile(Archive::from_memory(zanj::test::fixture_zip(), "t.zanj")); }

}  // namespace

TEST_SUITE("export") {
  TEST_CASE("format by extension or name") {
    const auto chosen = [](const std::string& out, std::string_view name) {
      ExportSettings s;
      choose_export_format(s, out, name);
      return export_format_name(s);
    };
    CHECK(chosen("a.npz", "") == "npz");
    CHECK(chosen("a.safetensors", "") == "safetensors");
    CHECK(chosen("a", "") == "dir");
    CHECK(chosen("a.npz", "dir") == "dir");
    CHECK(chosen("a.tar.zst", "") == "paxr+zstd");
    CHECK(chosen("a.tgz", "") == "paxr+gzip");
    CHECK(chosen("a", "cpio+xz") == "cpio+xz");
    CHECK_THROWS_AS(chosen("a", "no such/format"), Error);
  }

  TEST_CASE("tar: the directory layout, streamed") {
    TempDir tmp;
    const ZanjFile z = fixture();
    ExportSettings settings;
    choose_export_format(settings, tmp / "x.tar", "");
    const ExportSummary s = export_object(z, "", tmp / "x.tar", settings);
    CHECK(s.files == 6);
    const std::string tar = zanj::test::read_file(tmp / "x.tar");
    CHECK(tar.size() % 512 == 0);
    CHECK(tar.find("small.npy") != std::string::npos);
    CHECK(tar.find(zanj::test::fixture_npy()) != std::string::npos);
    ExportSettings bad;
    choose_export_format(bad, tmp / "y", "nosuchformat");
    CHECK_THROWS_AS(export_object(z, "", tmp / "y", bad), Error);
    CHECK_FALSE(fs::exists(tmp / "y"));
  }

  TEST_CASE("npz: external members verbatim, inline arrays as numpy.save writes them") {
    TempDir tmp;
    const ZanjFile z = fixture();
    const ExportSummary s = export_object(z, "", tmp / "x.npz", {});
    CHECK(s.arrays == 2);
    const Archive npz(tmp / "x.npz");
    REQUIRE(npz.entries().size() == 2);
    CHECK(npz.entries()[0].name == "arr.npy");
    CHECK(npz.entries()[0].method == 0);
    CHECK(npz.read_all(npz.entries()[0], 1 << 20) == zanj::test::fixture_npy());
    const std::string small = npz.read_all(*npz.find("small.npy"), 1 << 20);
    CHECK(small == array::make_npy_header(array::parse_descr("<i2"), false, {2}) + std::string("\x01\x00\x02\x00", 4));
  }

  TEST_CASE("safetensors: values after the header, metadata holds the object") {
    TempDir tmp;
    const ZanjFile z = fixture();
    ExportSettings settings;
    settings.format = ExportFormat::safetensors;
    export_object(z, "small", tmp / "x.safetensors", settings);
    const std::string bytes = zanj::test::read_file(tmp / "x.safetensors");
    CHECK(bytes.substr(bytes.size() - 4) == std::string("\x01\x00\x02\x00", 4));
    CHECK(bytes.find("\"I16\"") != std::string::npos);
    CHECK(bytes.find("__zanj__.json") != std::string::npos);
  }

  TEST_CASE("directory: the extract layout with every array a file") {
    TempDir tmp;
    const ZanjFile z = fixture();
    ExportSettings settings;
    settings.format = ExportFormat::directory;
    const ExportSummary s = export_object(z, "", tmp / "d", settings);
    CHECK(s.files == 6);  // two JSON members, two arrays, two jsonl members
    for (const char* name : {"__zanj__.json", "__zanj_meta__.json", "arr.npy", "small.npy", "lst.jsonl", "tab.jsonl"})
      CHECK_MESSAGE(fs::exists(tmp / ("d/" + std::string(name))), name);
    CHECK(zanj::test::read_file(tmp / "d/__zanj__.json").find("\"small.npy\"") != std::string::npos);
    CHECK_THROWS_WITH_AS(export_object(z, "", tmp / "d", settings), doctest::Contains("already exists"), Error);
  }

  TEST_CASE("a refused export leaves nothing") {
    TempDir tmp;
    const ZanjFile z = fixture();
    CHECK_THROWS_AS(export_object(z, "missing", tmp / "x.npz", {}), Error);
    CHECK(tmp.empty());
  }
}
