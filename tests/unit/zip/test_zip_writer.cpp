#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "io/byte_sink.hpp"
#include "zip/zip_writer.hpp"
#include "zip/archive_access.hpp"

using namespace zanj;
using namespace zanj::zip;
using zanj::test::member;
using zanj::test::TempDir;

namespace {

std::uint64_t le(const std::string& b, std::size_t at, int width) {
  std::uint64_t v = 0;
  for (int i = width; i-- > 0;) v = v << 8 | static_cast<unsigned char>(b[at + i]);
  return v;
}

/// Write members with `fill`, then return the file's path.
template <typename Fill>
std::string write_zip(const TempDir& dir, const ZipWriterOptions& options, Fill fill) {
  const std::string path = dir / "out.zip";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  REQUIRE(fd >= 0);
  {
    ZipWriter w(fd, path, options);
    fill(w);
    w.finish();
  }
  ::close(fd);
  return path;
}

/// An output that cannot seek, kept in memory: what an upload looks like to the writer.
class MemorySink final : public io::ByteSink {
 public:
  void write(std::string_view bytes) override {
    bytes_ += bytes;
    size_ += bytes.size();
  }
  OutputObject commit() override { return {}; }
  std::string bytes_;
};

}  // namespace

TEST_SUITE("zip_writer") {
  TEST_CASE("an output that cannot seek gets data descriptors, as zipfile writes to a stream") {
    TempDir dir;
    std::string big(3 << 20, '\0');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 7919) >> 5);
    for (ZipMethod method : {ZipMethod::deflate, ZipMethod::store}) {
      CAPTURE(static_cast<int>(method));
      MemorySink sink;
      ZipWriterOptions options{method, 6, 2};
      {
        ZipWriter w(sink, "mem.zip", options);
        w.add_member("__zanj_meta__.json", "{\"a\": 1}", {false, 0, DosDateTime::from_unix(1'700'000'000)});
        w.add_member("empty.jsonl", "");
        w.begin_member("big/array.npy", {true, 0, {}});
        for (std::size_t at = 0; at < big.size(); at += 100000) w.write(std::string_view(big).substr(at, 100000));
        w.end_member();
        w.finish();
        CHECK(w.bytes_written() == sink.size());
      }
      CHECK(sink.bytes_.size() == sink.size());
      const std::string path = dir / "mem.zip";
      zanj::test::write_file(path, sink.bytes_);
      Archive a(path);
      REQUIRE(a.entries().size() == 3);
      CHECK(member(a, "__zanj_meta__.json") == "{\"a\": 1}");
      CHECK(member(a, "empty.jsonl").empty());
      CHECK(member(a, "big/array.npy") == big);
      for (const ZipEntry& e : a.entries()) {
        CHECK((e.flags & 0x08) != 0);
        // Local header: CRC-32 and sizes left zero; the descriptor after the data holds them,
        // 8-byte sizes for the member opened with Zip64.
        const std::size_t at = e.local_header_offset;
        CHECK(le(sink.bytes_, at + 6, 2) == 0x08);
        CHECK(le(sink.bytes_, at + 14, 12) == 0);
        const std::size_t extra = le(sink.bytes_, at + 28, 2);
        const std::size_t descriptor = at + 30 + e.name.size() + extra + e.compressed_size;
        CHECK(le(sink.bytes_, descriptor, 4) == 0x08074b50);
        CHECK(le(sink.bytes_, descriptor + 4, 4) == e.crc32);
        const int width = extra ? 8 : 4;
        CHECK(le(sink.bytes_, descriptor + 8, width) == e.compressed_size);
        CHECK(le(sink.bytes_, descriptor + 8 + width, width) == e.uncompressed_size);
      }
    }
  }

  TEST_CASE("a file descriptor is patched in place, without data descriptors") {
    TempDir dir;
    const std::string by_fd = write_zip(dir, {}, [](ZipWriter& w) { w.add_member("x.npy", "data", {true, 0, {}}); });
    const std::string fd_bytes = zanj::test::read_file(by_fd);
    CHECK((le(fd_bytes, 6, 2) & 0x08) == 0);  // no data descriptor: the header was patched
    CHECK(le(fd_bytes, 14, 4) != 0);
  }

  TEST_CASE("members read back through our directory parser and libarchive") {
    TempDir dir;
    std::string big(3 << 20, '\0');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>((i * 7919) >> 5);
    for (ZipMethod method : {ZipMethod::deflate, ZipMethod::store}) {
      ZipWriterOptions options;
      options.method = method;
      options.threads = 2;
      const std::string path = write_zip(dir, options, [&](ZipWriter& w) {
        w.add_member("__zanj_meta__.json", "{\"a\": 1}", {false, 0, DosDateTime::from_unix(1'700'000'000)});
        w.add_member("empty.jsonl", "");
        w.begin_member("big/array.npy", {true, 0, {}});
        for (std::size_t at = 0; at < big.size(); at += 100000) w.write(std::string_view(big).substr(at, 100000));
        w.end_member();
      });
      Archive a(path);
      REQUIRE(a.entries().size() == 3);
      CHECK(member(a, "__zanj_meta__.json") == "{\"a\": 1}");
      CHECK(member(a, "empty.jsonl").empty());
      CHECK(member(a, "big/array.npy") == big);
      for (const ZipEntry& e : a.entries()) CHECK(e.method == static_cast<std::uint16_t>(method));
    }
  }

  TEST_CASE("header fields are those Python's zipfile writes") {
    TempDir dir;
    const std::string path = write_zip(dir, {}, [](ZipWriter& w) {
      w.add_member("main.json", "{}", {false, 0, DosDateTime::from_unix(1'700'000'000)});
      w.add_member("x.npy", "data", {true, 0, {}});
      w.add_member("n\xC3\xA4me.jsonl", "1\n", {true, 0, {}});
    });
    Archive a(path);
    const auto& entries = a.entries();
    REQUIRE(entries.size() == 3);
    for (const ZipEntry& e : entries) {
      CHECK(e.version_made_by == 0x0314);  // Unix, 2.0
      CHECK(e.version_needed == 20);
      CHECK(e.external_attributes == 0600u << 16);
      CHECK(!e.has_zip64_extra);  // the central directory carries no Zip64 extra for small members
    }
    CHECK(entries[0].flags == 0);
    CHECK(entries[2].utf8_flag());  // non-ASCII name
    CHECK(entries[0].dos_date != 0x21);
    CHECK(entries[1].dos_date == 0x21);  // 1980-01-01, like zipfile's externals
    CHECK(entries[1].dos_time == 0);
    const LocalHeader plain = read_local_header(archive_source(a), entries[0]);
    const LocalHeader forced = read_local_header(archive_source(a), entries[1]);
    CHECK(!plain.has_zip64_extra);
    CHECK(forced.has_zip64_extra);  // force_zip64: sizes in the local extra too
    CHECK(forced.uncompressed_size == 4);
    CHECK(forced.crc32 == entries[1].crc32);
    const std::string bytes = zanj::test::read_file(path);
    // The local extra of x.npy: id 1, 16 bytes, file size then compressed size.
    const std::size_t extra_at = entries[1].local_header_offset + 30 + 5;
    CHECK(le(bytes, extra_at, 2) == 1);
    CHECK(le(bytes, extra_at + 2, 2) == 16);
    CHECK(le(bytes, extra_at + 4, 8) == 4);
    CHECK(le(bytes, extra_at + 12, 8) == entries[1].compressed_size);
    CHECK(!archive_directory(a).zip64);
  }

  TEST_CASE("more than 65535 members get Zip64 end records") {
    TempDir dir;
    const std::string path = write_zip(dir, {ZipMethod::store, 0, 1}, [](ZipWriter& w) {
      for (int i = 0; i < 65536 + 3; ++i) w.add_member(std::to_string(i), "");
    });
    Archive a(path);
    CHECK(archive_directory(a).zip64);
    CHECK(a.entries().size() == 65539);
    CHECK(a.entries().back().name == "65538");
  }

  TEST_CASE("misuse is refused") {
    TempDir dir;
    const std::string path = dir / "x.zip";
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    CHECK_THROWS_AS(ZipWriter(fd, path, {ZipMethod::bzip2, 6, 1}), Error);
    CHECK_THROWS_AS(ZipWriter(fd, path, {ZipMethod::deflate, 11, 1}), Error);
    ZipWriter w(fd, path);
    CHECK_THROWS_AS(w.begin_member(""), Error);
    CHECK_THROWS_AS(w.begin_member("bad\xFF"), Error);
    CHECK_THROWS_AS(w.write("x"), Error);
    w.begin_member("a");
    CHECK_THROWS_AS(w.begin_member("b"), Error);
    CHECK_THROWS_AS(w.finish(), Error);
    w.end_member();
    w.finish();
    ::close(fd);
  }

  TEST_CASE("write errors are reported") {
    TempDir dir;
    const int fd = ::open((dir / "ro").c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    REQUIRE(fd >= 0);
    ZipWriter w(fd, "ro");
    CHECK_THROWS_WITH_AS(w.add_member("a", "x"), doctest::Contains("ro: cannot write"), Error);
    ::close(fd);
  }

  TEST_CASE("DOS times from the epoch") {
    const DosDateTime d = DosDateTime::from_unix(0);  // before 1980: clamped
    CHECK((d.date >> 9) == 0);
    const DosDateTime later = DosDateTime::from_unix(1'795'217'122);  // 2026
    CHECK((later.date >> 9) == 46);
  }
}

TEST_SUITE("zip_writer copy_member") {
  using zanj::test::corpus;
  using zanj::test::read_file;

  TEST_CASE("a copied member keeps its local header, data, CRC-32, method, times and attributes") {
    TempDir dir;
    const Archive source(corpus("model.zanj"));
    const std::string path = write_zip(dir, {}, [&](ZipWriter& w) {
      w.add_member("first.json", "{\"x\": 1}");  // shifts every copied member
      for (const ZipEntry& e : source.entries()) w.copy_member(archive_source(source), e);
    });
    const Archive copy(path);
    REQUIRE(copy.entries().size() == source.entries().size() + 1);
    const std::string original = read_file(corpus("model.zanj")), written = read_file(path);
    for (std::size_t i = 0; i < source.entries().size(); ++i) {
      const ZipEntry& a = source.entries()[i];
      const ZipEntry& b = copy.entries()[i + 1];
      CAPTURE(a.name);
      CHECK(b.name == a.name);
      CHECK(b.crc32 == a.crc32);
      CHECK(b.method == a.method);
      CHECK(b.flags == a.flags);
      CHECK(b.dos_time == a.dos_time);
      CHECK(b.dos_date == a.dos_date);
      CHECK(b.external_attributes == a.external_attributes);
      CHECK(b.version_made_by == a.version_made_by);
      CHECK(b.compressed_size == a.compressed_size);
      CHECK(b.uncompressed_size == a.uncompressed_size);
      CHECK(b.local_header_offset > a.local_header_offset);
      // the local record (header and compressed data) byte for byte
      const LocalHeader la = read_local_header(archive_source(source), a);
      const std::size_t length = la.data_offset - a.local_header_offset + a.compressed_size;
      CHECK(written.substr(b.local_header_offset, length) == original.substr(a.local_header_offset, length));
      CHECK(member(copy, a.name) == member(source, a.name));
    }
  }

  TEST_CASE("a data descriptor is copied with its member") {
    TempDir dir;
    // A stored member with flag bit 3: zeros in the local header, a signed descriptor after the data.
    std::string zip;
    const auto put = [&](std::uint64_t v, int width) {  // width at most 8
      for (int i = 0; i < width; ++i) zip.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    };
    const std::string name = "a.txt", data = "hello";
    const std::uint32_t crc = 0x3610A686;  // crc32("hello")
    put(0x04034b50, 4), put(20, 2), put(8, 2), put(0, 2), put(0, 2), put(0x21, 2), put(0, 4), put(0, 4), put(0, 4),
        put(name.size(), 2), put(0, 2);
    zip += name + data;
    put(0x08074b50, 4), put(crc, 4), put(data.size(), 4), put(data.size(), 4);
    const std::uint64_t cd = zip.size();
    put(0x02014b50, 4), put(20, 2), put(20, 2), put(8, 2), put(0, 2), put(0, 2), put(0x21, 2), put(crc, 4),
        put(data.size(), 4), put(data.size(), 4), put(name.size(), 2), put(0, 4), put(0, 4), put(0, 4), put(0, 4);
    zip += name;
    const std::uint64_t cd_size = zip.size() - cd;
    put(0x06054b50, 4), put(0, 4), put(1, 2), put(1, 2), put(cd_size, 4), put(cd, 4), put(0, 2);
    const Archive source = Archive::from_memory(zip, "descriptor.zip");
    const std::string path = write_zip(dir, {}, [&](ZipWriter& w) {
      w.add_member("b.txt", "x");
      w.copy_member(archive_source(source), source.entries()[0]);
    });
    const Archive copy(path);
    CHECK(member(copy, "a.txt") == "hello");
    CHECK(copy.entries()[1].flags == 8);
    CHECK(read_file(path).find(zip.substr(0, cd)) != std::string::npos);  // header, data and descriptor
  }
}
