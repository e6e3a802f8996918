#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "io/byte_source.hpp"
#include "zanj/error.hpp"
#include "zip/zip_directory.hpp"
#include "zip_builder.hpp"

using namespace zanj;
using namespace zanj::zip;
using test::build_zip;
using test::corpus;
using test::patch;
using test::TestMember;
using test::ZipOptions;

namespace {

ZipDirectory read_corpus(const std::string& name) { return read_zip_directory(io::FileSource(corpus(name))); }

ZipDirectory read_bytes(const std::string& bytes, const ZipLimits& limits = {}) {
  return read_zip_directory(io::MemorySource(bytes), limits);
}

std::vector<TestMember> two_members() { return {{"a.txt", "hello"}, {"dir/b.bin", std::string(300, 'x')}}; }

// From /work/shared/corpus/*.facts.json "members" (written by the reference library).
struct Fact {
  const char* archive;
  const char* name;
  std::uint64_t size, compressed_size;
  std::uint32_t crc32;
  std::uint16_t method;
};
const Fact kFacts[] = {
    {"basic.zanj", "__zanj_meta__.json", 24051, 3261, 0x93db04bau, 8},
    {"basic.zanj", "__zanj__.json", 858, 349, 0x0ad38d98u, 8},
    {"basic.zanj", "big_array.npy", 2176, 2023, 0xf14603e4u, 8},
    {"basic.zanj", "long_list.jsonl", 1090, 516, 0x04cd4e39u, 8},
    {"basic.zanj", "nested/deeper/matrix.npy", 3328, 122, 0x8ac68b84u, 8},
    {"dataclass.zanj", "__zanj_meta__.json", 23704, 3191, 0xa56d9de8u, 8},
    {"dataclass.zanj", "__zanj__.json", 935, 308, 0xbefc76a7u, 8},
    {"dataclass.zanj", "weights.npy", 2176, 2085, 0x9fc77f8fu, 8},
    {"dataframe.zanj", "__zanj_meta__.json", 23991, 3272, 0x13555e3du, 8},
    {"dataframe.zanj", "__zanj__.json", 473, 219, 0x5c782132u, 8},
    {"dataframe.zanj", "table.jsonl", 28444, 6562, 0xfe5efc41u, 8},
    {"dataframe.zanj", "tiny_table.jsonl", 38, 28, 0xd7c618a9u, 8},
    {"dtypes.zanj", "__zanj_meta__.json", 26165, 3345, 0x8a42dbabu, 8},
    {"dtypes.zanj", "__zanj__.json", 2933, 364, 0x580b95e2u, 8},
    {"dtypes.zanj", "b1.npy", 428, 160, 0x7a3e302du, 8},
    {"dtypes.zanj", "i1.npy", 428, 388, 0xc6396addu, 8},
    {"dtypes.zanj", "u1.npy", 428, 385, 0x32e55e95u, 8},
    {"dtypes.zanj", "i2.npy", 728, 614, 0x8e40a216u, 8},
    {"dtypes.zanj", "u2.npy", 728, 699, 0x9441c21eu, 8},
    {"dtypes.zanj", "i4.npy", 1328, 1322, 0xdd2b06eau, 8},
    {"dtypes.zanj", "u4.npy", 1328, 1326, 0xf4ffbad9u, 8},
    {"dtypes.zanj", "i8.npy", 2528, 2504, 0x9dbf8237u, 8},
    {"dtypes.zanj", "u8.npy", 2528, 2521, 0xf434e4ffu, 8},
    {"dtypes.zanj", "f2.npy", 728, 681, 0xd5b9a4cbu, 8},
    {"dtypes.zanj", "f4.npy", 1328, 1239, 0xc4146cc4u, 8},
    {"dtypes.zanj", "f8.npy", 2528, 2424, 0xb2112918u, 8},
    {"dtypes.zanj", "c8.npy", 2528, 2342, 0xacc0d3f2u, 8},
    {"dtypes.zanj", "c16.npy", 4928, 4711, 0xe1414740u, 8},
    {"dtypes.zanj", "f8_3d.npy", 2688, 2573, 0x85b60773u, 8},
    {"dtypes.zanj", "f4_fortran.npy", 1328, 1240, 0x40634619u, 8},
    {"dtypes.zanj", "special.npy", 2528, 122, 0x30bc8885u, 8},
    {"dtypes.zanj", "torch_f32.npy", 1328, 739, 0x4bf9a91au, 8},
    {"dtypes.zanj", "torch_i64.npy", 2528, 604, 0x75343058u, 8},
    {"inline_b64.zanj", "__zanj_meta__.json", 23559, 3144, 0x2090d651u, 8},
    {"inline_b64.zanj", "__zanj__.json", 403, 194, 0x7b3f31a9u, 8},
    {"inline_hex.zanj", "__zanj_meta__.json", 23559, 3145, 0xa78736afu, 8},
    {"inline_hex.zanj", "__zanj__.json", 410, 181, 0xbf99d6e4u, 8},
    {"model.zanj", "__zanj_meta__.json", 23925, 3217, 0x4fcc5652u, 8},
    {"model.zanj", "__zanj__.json", 8333, 3058, 0xae356888u, 8},
    {"model.zanj", "state_dict/net.0.weight.npy", 2176, 2003, 0x34007d6bu, 8},
    {"model.zanj", "state_dict/net.2.weight.npy", 4224, 3911, 0x31b22909u, 8},
    {"nan_values.zanj", "__zanj_meta__.json", 23743, 3209, 0x161f1b9au, 8},
    {"nan_values.zanj", "__zanj__.json", 494, 276, 0xab9392ecu, 8},
    {"nan_values.zanj", "table.jsonl", 64, 41, 0x61437a63u, 8},
    {"stored.zanj", "__zanj_meta__.json", 23885, 23885, 0xe3b2d630u, 0},
    {"stored.zanj", "__zanj__.json", 451, 451, 0x457ef5f3u, 0},
    {"stored.zanj", "data.npy", 8128, 8128, 0xf4a4adb1u, 0},
    {"stored.zanj", "records.jsonl", 5984, 5984, 0xf7f7069au, 0},
    {"tuple_list.zanj", "__zanj_meta__.json", 22729, 2832, 0xa3006a7au, 8},
    {"tuple_list.zanj", "__zanj__.json", 246, 105, 0xb3c43173u, 8},
    {"tuple_list.zanj", "tup.jsonl", 50, 36, 0xce339ecbu, 8},
    {"tuple_list.zanj", "strings.jsonl", 290, 98, 0x50f7eab0u, 8},
    {"tuple_list.zanj", "mixed.jsonl", 52, 52, 0x37b2ab7au, 8},
    {"tuple_list.zanj", "zanj_cfg/serialization_handlers/.serialize override/serialize_func/code.jsonl", 341, 194,
     0x4ae2b296u, 8},
    {"tuple_list.zanj", "zanj_cfg/serialization_handlers/torch.Tensor/serialize_func/code.jsonl", 261, 142, 0xaa3cc4c9u,
     8},
    {"tuple_list.zanj", "zanj_cfg/load_handlers/torch.Tensor/load/code.jsonl", 826, 414, 0xe99dda1eu, 8},
};

}  // namespace

TEST_CASE("every corpus member matches the reference library's facts") {
  std::map<std::string, ZipDirectory> dirs;
  std::map<std::string, std::size_t> counts;
  for (const Fact& f : kFacts) {
    CAPTURE(f.archive);
    CAPTURE(f.name);
    if (!dirs.count(f.archive)) dirs.emplace(f.archive, read_corpus(f.archive));
    ++counts[f.archive];
    const ZipEntry* e = dirs.at(f.archive).find(f.name);
    REQUIRE(e != nullptr);
    CHECK(e->uncompressed_size == f.size);
    CHECK(e->compressed_size == f.compressed_size);
    CHECK(e->crc32 == f.crc32);
    CHECK(e->method == f.method);
  }
  CHECK(dirs.size() == 10);
  for (const auto& [archive, dir] : dirs) CHECK(dir.entries.size() == counts[archive]);
}

TEST_CASE("basic.zanj: layout written by Python's zipfile") {
  const ZipDirectory dir = read_corpus("basic.zanj");
  REQUIRE(dir.entries.size() == 5);
  CHECK(dir.entries[0].name == "__zanj_meta__.json");
  CHECK(dir.entries[1].name == "__zanj__.json");
  CHECK_FALSE(dir.zip64);
  CHECK(dir.comment.empty());
  CHECK(dir.cd_offset == 6564);
  CHECK(dir.cd_size == 313);
  CHECK(dir.eocd_offset == 6564 + 313);
  const ZipEntry* big = dir.find("big_array.npy");
  REQUIRE(big != nullptr);
  CHECK(big->uncompressed_size == 2176);
  CHECK(big->compressed_size == 2023);
  CHECK(big->crc32 == 0xf14603e4u);
  CHECK(method_name(big->method) == "deflate");
  // force_zip64 puts the Zip64 extra on the local header only.
  CHECK_FALSE(big->has_zip64_extra);
  CHECK(big->mtime_iso8601() == "1980-01-01T00:00:00");
  CHECK(big->mtime_unix() == 315532800);
  CHECK(big->unix_mode() == 0600);  // writestr() sets permissions but no file-type bits
  CHECK(big->is_regular_file());
  CHECK_FALSE(big->is_symlink());
  CHECK_FALSE(big->is_directory());
  CHECK_FALSE(big->encrypted());
  CHECK(dir.entries[1].dos_date == 23924);
  CHECK(dir.entries[1].mtime_iso8601() == "2026-11-20T23:25:22");
  CHECK(dir.entries[1].mtime_unix() == 1795217122);

  const io::FileSource src(corpus("basic.zanj"));
  const LocalHeader local = read_local_header(src, *big);
  CHECK(local.has_zip64_extra);
  CHECK(local.name == "big_array.npy");
  CHECK(local.compressed_size == 2023);
  CHECK(local.uncompressed_size == 2176);
  CHECK(local.data_offset == big->local_header_offset + 30 + 13 + 20);
  CHECK(dir.find("no such member") == nullptr);
}

TEST_CASE("local headers of every corpus archive agree with the central directory") {
  for (const char* name : {"basic.zanj", "dataclass.zanj", "dataframe.zanj", "dtypes.zanj", "inline_b64.zanj",
                           "inline_hex.zanj", "model.zanj", "nan_values.zanj", "stored.zanj", "tuple_list.zanj",
                           "malformed/absolute_path.zanj", "malformed/bad_crc.zanj", "malformed/bad_main_json.zanj",
                           "malformed/missing_external.zanj", "malformed/no_main.zanj", "malformed/no_meta.zanj",
                           "malformed/npy_shape_mismatch.zanj", "malformed/zip_slip.zanj"}) {
    CAPTURE(name);
    const io::FileSource src(corpus(name));
    const ZipDirectory dir = read_zip_directory(src);
    for (const ZipEntry& e : dir.entries) {
      const LocalHeader h = read_local_header(src, e);
      CHECK(h.name == e.name);
      CHECK((h.flags & 8) == 0);
      CHECK(h.method == e.method);
      CHECK(h.crc32 == e.crc32);
      CHECK(h.compressed_size == e.compressed_size);
      CHECK(h.uncompressed_size == e.uncompressed_size);
      CHECK(h.data_offset + e.compressed_size <= dir.cd_offset);
      // Python's force_zip64 local extra repeats both sizes; verify cross-checks them.
      if (h.has_zip64_extra) {
        CHECK(h.zip64_uncompressed_size == e.uncompressed_size);
        CHECK(h.zip64_compressed_size == e.compressed_size);
      } else {
        CHECK_FALSE(h.zip64_uncompressed_size);
      }
    }
  }
}

TEST_CASE("stored.zanj: method 0 and data_offset points at the member's bytes") {
  const io::FileSource src(corpus("stored.zanj"));
  const ZipDirectory dir = read_zip_directory(src);
  REQUIRE(dir.entries.size() == 4);
  for (const ZipEntry& e : dir.entries) {
    CHECK(method_name(e.method) == "store");
    std::string data(e.compressed_size, '\0');
    src.read_at(read_local_header(src, e).data_offset, data.data(), data.size());
    CHECK(test::crc32_of(data) == e.crc32);
  }
}

TEST_CASE("malformed corpus: truncated fails, hostile names come through verbatim") {
  CHECK_THROWS_WITH_AS(read_corpus("malformed/truncated.zanj"),
                       "no end of central directory record (not a ZIP file, or truncated)", Error);
  CHECK(read_corpus("malformed/zip_slip.zanj").find("../../escape.npy") != nullptr);
  CHECK(read_corpus("malformed/absolute_path.zanj").find("/tmp/zanj_absolute_escape") != nullptr);
}

TEST_CASE("built archive with a comment, a long one too") {
  for (const std::string& comment : {std::string("made by a test"), std::string(65535, 'c')}) {
    const auto zip = build_zip(two_members(), ZipOptions{comment});
    const io::MemorySource src(zip.bytes);
    const ZipDirectory dir = read_zip_directory(src);
    CHECK(dir.comment == comment);
    CHECK(dir.eocd_offset == zip.end_offset);
    REQUIRE(dir.entries.size() == 2);
    CHECK(dir.entries[1].name == "dir/b.bin");
    CHECK(dir.entries[1].central_offset == zip.central_offsets[1]);
    const LocalHeader h = read_local_header(src, dir.entries[0]);
    CHECK(h.data_offset == zip.local_offsets[0] + 30 + 5);
    CHECK(zip.bytes.substr(h.data_offset, 5) == "hello");
  }
}

TEST_CASE("a prefix the offsets do not count (a self-extracting stub) moves every offset") {
  for (const bool zip64_end : {false, true}) {
    CAPTURE(zip64_end);
    const auto plain = build_zip(two_members(), ZipOptions{std::string(1000, 'c'), zip64_end});
    const std::string stub = "#!/bin/sh\nexit 0\n" + std::string(500, '\0');
    const io::MemorySource src(stub + plain.bytes);
    const ZipDirectory dir = read_zip_directory(src);
    CHECK(dir.prefix_bytes == stub.size());
    CHECK(dir.python_offset_shift == 0);
    CHECK_FALSE(dir.ambiguity().has_value());
    CHECK(dir.cd_offset == stub.size() + plain.central_offsets[0]);
    REQUIRE(dir.entries.size() == 2);
    CHECK(dir.entries[1].local_header_offset == stub.size() + plain.local_offsets[1]);
    const LocalHeader h = read_local_header(src, dir.entries[0]);
    CHECK(src.size() > h.data_offset);
    std::string hello(5, '\0');
    src.read_at(h.data_offset, hello.data(), 5);
    CHECK(hello == "hello");
    // Offsets that are merely wrong are not a prefix: the directory moved would not find the
    // local headers where the moved offsets say.
    std::string wrong = plain.bytes;
    const std::size_t at = static_cast<std::size_t>(plain.end_offset) + 16;
    wrong[at] = 7, wrong[at + 1] = 0, wrong[at + 2] = 0, wrong[at + 3] = 0;
    if (!zip64_end) CHECK_THROWS_AS(read_bytes(wrong), Error);
    CHECK(dir.zip64 == zip64_end);
  }
}

TEST_CASE("the end record is the one Python's zipfile chooses") {
  const auto plain = build_zip(two_members());
  // A signature in the comment: Python takes the last signature, here a cut-off record, and
  // fails to open the file; so do we, rather than read another archive than Python's.
  CHECK_THROWS_AS(read_bytes(build_zip(two_members(), ZipOptions{std::string("PK\x05\x06 fake", 9)}).bytes), Error);
  // Trailing junk without a signature: the last signature is still the real record.
  const ZipDirectory junk = read_bytes(plain.bytes + "junk after the archive");
  CHECK(junk.entries.size() == 2);
  CHECK_FALSE(junk.other_end_record.has_value());
  CHECK_FALSE(junk.ambiguity().has_value());
}

TEST_CASE("a second end record in the comment that opens as another directory is an ambiguity") {
  const auto plain = build_zip(two_members());
  // A record listing only the first member (its central entry is 46 + 5 bytes long).
  const std::string fake = test::end_record_head(1, 46 + 5, plain.cd_offset);
  for (const std::string& after : {std::string(), std::string("tail")}) {
    CAPTURE(after.size());
    std::string comment = fake;
    test::put(comment, after.size(), 2);
    comment += after;
    const auto zip = build_zip(two_members(), ZipOptions{comment});
    const ZipDirectory dir = read_bytes(zip.bytes);
    CHECK(dir.entries.size() == 1);  // Python's choice: the last signature
    CHECK(dir.eocd_offset == zip.end_offset + 22);
    REQUIRE(dir.other_end_record.has_value());
    CHECK(*dir.other_end_record == zip.end_offset);
    REQUIRE(dir.ambiguity().has_value());
    CHECK(dir.ambiguity()->find("two end of central directory records") != std::string::npos);
  }
  // A stray signature that opens as nothing is no ambiguity.
  std::string junk = "PK\x05\x06";
  junk += std::string(16, '\x7f');
  test::put(junk, 0, 2);
  CHECK_THROWS_AS(read_bytes(build_zip(two_members(), ZipOptions{junk}).bytes), Error);  // Python fails too
}

TEST_CASE("names as Python sees them: cp437 without the UTF-8 flag, clashes after NFD") {
  ZipDirectory dir;
  dir.entries.resize(4);
  dir.entries[0].name = "caf\xC3\xA9.npy";  // UTF-8 bytes, no flag: Python reads cp437
  dir.entries[1].name = "caf\x82.npy";      // cp437 é
  dir.entries[2].name = "x.npy";
  dir.entries[3].name = "cafe\xCC\x81.npy";  // NFD, with the flag
  dir.entries[3].flags = 0x0800;
  dir.index_names();
  CHECK(dir.entries[0].python_name == "caf\xE2\x94\x9C\xE2\x8C\x90.npy");
  CHECK(dir.find("caf\xC3\xA9.npy") == &dir.entries[1]);  // the cp437 one reads as café
  CHECK(dir.find("cafe\xCC\x81.npy") == &dir.entries[3]);
  CHECK(dir.find("x.npy") == &dir.entries[2]);
  const auto clashes = name_clashes(dir.entries);
  REQUIRE(clashes.size() == 1);
  CHECK_FALSE(clashes[0].same_name);
  CHECK(clashes[0].entries == std::vector<std::size_t>{1, 3});
  REQUIRE(dir.ambiguity().has_value());
  CHECK(dir.ambiguity()->find("Unicode normalization") != std::string::npos);
  // Same name for Python, different bytes: a duplicate.
  dir.entries[3].name = "caf\xC3\xA9.npy";
  dir.index_names();
  const auto dup = name_clashes(dir.entries);  // bytes equal (0, 3), Python's names equal (1, 3)
  REQUIRE(dup.size() == 2);
  CHECK((dup[0].same_name && dup[1].same_name));
}

TEST_CASE("many members: the index finds every name, and clashes hide among many ASCII names") {
  ZipDirectory dir;
  constexpr std::size_t kMany = 20000;
  for (std::size_t i = 0; i < kMany; ++i) {
    ZipEntry e;
    e.name = "w" + std::to_string(i) + ".npy";
    dir.entries.push_back(std::move(e));
  }
  dir.index_names();
  for (std::size_t i = 0; i < kMany; ++i) REQUIRE(dir.find("w" + std::to_string(i) + ".npy") == &dir.entries[i]);
  CHECK(dir.find("w.npy") == nullptr);
  CHECK(dir.find("") == nullptr);
  CHECK(dir.find("w20000.npy") == nullptr);
  CHECK(name_clashes(dir.entries).empty());
  CHECK_FALSE(dir.ambiguity().has_value());
  // One NFD-equal pair (precomposed and decomposed é) among them, far apart.
  dir.entries[7].name = "caf\xC3\xA9.npy";
  dir.entries[7].flags = 0x0800;
  dir.entries[kMany - 3].name = "cafe\xCC\x81.npy";
  dir.entries[kMany - 3].flags = 0x0800;
  // The Kelvin sign decomposes to an ASCII K: it clashes with a plain ASCII name.
  dir.entries[100].name = "K.npy";
  dir.entries[kMany - 1].name = "\xE2\x84\xAA.npy";
  dir.entries[kMany - 1].flags = 0x0800;
  // And a plain duplicate.
  dir.entries[12345].name = "w5.npy";
  dir.index_names();
  CHECK(dir.find("w5.npy") == &dir.entries[5]);  // the first of a name
  CHECK(dir.find("K.npy") == &dir.entries[100]);
  CHECK(dir.find("\xE2\x84\xAA.npy") == &dir.entries[kMany - 1]);
  const auto clashes = name_clashes(dir.entries);
  REQUIRE(clashes.size() == 3);
  CHECK(clashes[0].same_name);
  CHECK(clashes[0].entries == std::vector<std::size_t>{5, 12345});
  std::vector<std::vector<std::size_t>> normalized;
  for (const auto& c : clashes)
    if (!c.same_name) normalized.push_back(c.entries);
  std::sort(normalized.begin(), normalized.end());
  CHECK(normalized == std::vector<std::vector<std::size_t>>{{7, kMany - 3}, {100, kMany - 1}});
  REQUIRE(dir.ambiguity().has_value());
  CHECK(dir.ambiguity()->find("entries are named 'w5.npy'") != std::string::npos);
}

TEST_CASE("Zip64: end records and extras replace the 32-bit fields") {
  std::vector<TestMember> members = two_members();
  members[1].zip64_central = true;
  members[1].zip64_local = true;
  for (const bool sentinel : {true, false}) {
    ZipOptions options;
    options.zip64_end = true;
    options.sentinel_end = sentinel;
    const auto zip = build_zip(members, options);
    const io::MemorySource src(zip.bytes);
    const ZipDirectory dir = read_zip_directory(src);
    CHECK(dir.zip64);
    CHECK(dir.cd_offset == zip.cd_offset);
    CHECK(dir.cd_size == zip.cd_size);
    REQUIRE(dir.entries.size() == 2);
    const ZipEntry& e = dir.entries[1];
    CHECK(e.has_zip64_extra);
    CHECK(e.uncompressed_size == 300);
    CHECK(e.compressed_size == 300);
    CHECK(e.local_header_offset == zip.local_offsets[1]);
    const LocalHeader h = read_local_header(src, e);
    CHECK(h.has_zip64_extra);
    CHECK(h.data_offset == zip.local_offsets[1] + 30 + 9 + 20);
  }
  ZipOptions options;
  options.zip64_end = true;
  auto zip = build_zip(members, options);
  patch(zip.bytes, zip.zip64_end_offset + 32, 3, 8);  // Zip64 total entries
  CHECK_THROWS_AS(read_bytes(zip.bytes), Error);
  zip = build_zip(members, options);
  patch(zip.bytes, zip.end_offset - 12, zip.end_offset, 8);  // locator -> not a Zip64 record
  CHECK_THROWS_AS(read_bytes(zip.bytes), Error);
  options.sentinel_end = false;
  zip = build_zip(members, options);
  patch(zip.bytes, zip.end_offset + 10, 1, 2);  // 32-bit count disagrees with Zip64's
  CHECK_THROWS_WITH_AS(read_bytes(zip.bytes), doctest::Contains("disagree"), Error);
  zip = build_zip(members, options);
  patch(zip.bytes, zip.central_offsets[1] + 46 + 9 + 2, 8, 2);  // Zip64 extra too short
  CHECK_THROWS_WITH_AS(read_bytes(zip.bytes), doctest::Contains("Zip64 extra field"), Error);
}

TEST_CASE("lying and broken end records are refused") {
  const auto good = build_zip(two_members());
  const auto with = [&](std::uint64_t offset, std::uint64_t value, int width) {
    std::string bytes = good.bytes;
    patch(bytes, offset, value, width);
    return bytes;
  };
  const std::uint64_t end = good.end_offset;
  std::string lying = with(end + 8, 0xFFFF, 2);  // 65535 entries in a 2-entry directory
  patch(lying, end + 10, 0xFFFF, 2);
  CHECK_THROWS_WITH_AS(read_bytes(lying), doctest::Contains("cannot hold"), Error);
  CHECK_THROWS_WITH_AS(read_bytes(with(end + 10, 3, 2)), doctest::Contains("disagree"), Error);
  CHECK_THROWS_WITH_AS(read_bytes(good.bytes, ZipLimits{1}), doctest::Contains("limit"), Error);
  CHECK_THROWS_AS(read_bytes(with(end + 16, good.bytes.size() + 100, 4)), Error);  // cd_offset past EOF
  CHECK_THROWS_AS(read_bytes(with(end + 12, good.cd_size + 1, 4)), Error);         // cd overlaps EOCD
  CHECK_THROWS_WITH_AS(read_bytes(with(end + 4, 1, 2)), doctest::Contains("multi-disk"), Error);
  CHECK_THROWS_WITH_AS(read_bytes(with(good.central_offsets[1] + 28, 60000, 2)),
                       doctest::Contains("past the end of the central directory"), Error);
  CHECK_THROWS_WITH_AS(read_bytes(with(good.central_offsets[1], 0x12345678, 4)), doctest::Contains("bad signature"),
                       Error);
  CHECK_THROWS_WITH_AS(read_bytes(with(good.central_offsets[1] + 42, good.cd_offset, 4)),
                       doctest::Contains("local header offset"), Error);
  CHECK_THROWS_AS(read_bytes(good.bytes.substr(0, good.bytes.size() - 1)), Error);
  CHECK_THROWS_AS(read_bytes(""), Error);

  // An undercounted directory leaves bytes over.
  std::string under = with(end + 8, 1, 2);
  patch(under, end + 10, 1, 2);
  CHECK_THROWS_WITH_AS(read_bytes(under), doctest::Contains("after its 1 entries"), Error);

  // A local header offset that points at the wrong bytes.
  ZipDirectory dir = read_bytes(good.bytes);
  dir.entries[1].local_header_offset = 1;
  CHECK_THROWS_WITH_AS(read_local_header(io::MemorySource(good.bytes), dir.entries[1]),
                       doctest::Contains("local header of 'dir/b.bin' not found"), Error);
  dir.entries[1].name = "bad\nname";  // control bytes are escaped in messages
  CHECK_THROWS_WITH_AS(read_local_header(io::MemorySource(good.bytes), dir.entries[1]),
                       doctest::Contains("'bad\\x0Aname'"), Error);
  dir.entries[1].local_header_offset = good.bytes.size() - 10;
  CHECK_THROWS_AS(read_local_header(io::MemorySource(good.bytes), dir.entries[1]), Error);
}

TEST_CASE("entries: names, modes, times, duplicate lookup") {
  std::vector<TestMember> members = {{"dup", "first"}, {"dir/", ""}, {"link", "target"}, {"dup", "second"}};
  members[1].external_attributes = 040755u << 16;
  members[2].external_attributes = 0120777u << 16;
  members[0].dos_date = static_cast<std::uint16_t>((46 << 9) | (11 << 5) | 20);
  members[0].dos_time = static_cast<std::uint16_t>((12 << 11) | (34 << 5) | 28);
  members[3].version_made_by = 0x0014;  // MS-DOS: no Unix mode
  const ZipDirectory dir = read_bytes(build_zip(members).bytes);
  REQUIRE(dir.entries.size() == 4);
  CHECK(dir.find("dup") == &dir.entries[0]);
  // A find in storage order guesses the next entry; never a later entry of a repeated name.
  CHECK(dir.find("link") == &dir.entries[2]);
  CHECK(dir.find("dup") == &dir.entries[0]);
  CHECK(dir.entries[0].mtime_iso8601() == "2026-11-20T12:34:56");
  CHECK(dir.entries[1].is_directory());
  CHECK_FALSE(dir.entries[1].is_regular_file());
  CHECK(dir.entries[2].is_symlink());
  CHECK_FALSE(dir.entries[2].is_regular_file());
  CHECK(dir.entries[3].unix_mode() == 0);
  CHECK(dir.entries[3].is_regular_file());
  ZipEntry zero;
  CHECK(zero.mtime_iso8601() == "1980-01-01T00:00:00");
  CHECK(method_name(12) == "bzip2");
  CHECK(method_name(14) == "lzma");
  CHECK(method_name(99) == "method 99");
  ZipDirectory copy = dir;  // the index survives copying
  CHECK(copy.find("link") == &copy.entries[2]);
  copy.entries.pop_back();  // a stale index falls back to scanning
  CHECK(copy.find("link") == &copy.entries[2]);
}

TEST_CASE("no crash on truncated or corrupted input") {
  const std::string real = test::build_zip(two_members(), ZipOptions{"c"}).bytes;
  std::mt19937 rng(1234);
  const auto try_parse = [](const std::string& bytes) {
    try {
      const io::MemorySource src(bytes);
      for (const ZipEntry& e : read_zip_directory(src).entries) (void)read_local_header(src, e);
    } catch (const Error&) {
    }
  };
  for (std::size_t n = 0; n <= real.size(); ++n) try_parse(real.substr(0, n));
  for (int round = 0; round < 3000; ++round) {
    std::string bytes = real;
    for (int k = 0; k < 3; ++k) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    try_parse(bytes);
  }
}

TEST_CASE("read_local_header_result: the header, or the reason read_local_header throws") {
  const auto zip = build_zip(two_members());
  const io::MemorySource src(zip.bytes);
  const ZipDirectory dir = read_zip_directory(src);
  const base::Result<LocalHeader> h = read_local_header_result(src, dir.entries[0]);
  REQUIRE(h.ok());
  CHECK(h->data_offset == read_local_header(src, dir.entries[0]).data_offset);
  ZipEntry moved = dir.entries[0];
  moved.local_header_offset += 1;  // no signature there
  const base::Result<LocalHeader> missing = read_local_header_result(src, moved);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.why() ==
        "local header of '" + moved.name + "' not found at offset " + std::to_string(moved.local_header_offset));
  moved.local_header_offset = zip.bytes.size();
  const base::Result<LocalHeader> past = read_local_header_result(src, moved);
  REQUIRE_FALSE(past.ok());
  CHECK(past.why() == "local header of '" + moved.name + "' lies past the end of the file");
}

TEST_CASE("read_zip_directory_result: the directory, or the reason read_zip_directory throws") {
  const auto zip = build_zip(two_members());
  const base::Result<ZipDirectory> dir = read_zip_directory_result(io::MemorySource(zip.bytes));
  REQUIRE(dir.ok());
  CHECK(dir->entries.size() == 2);
  const base::Result<ZipDirectory> none = read_zip_directory_result(io::MemorySource("not a zip file at all"));
  REQUIRE_FALSE(none.ok());
  CHECK(none.why() == "no end of central directory record (not a ZIP file, or truncated)");
}

TEST_CASE("overlapping_members pairs each member sharing bytes with the one before it reaching furthest") {
  using Pairs = std::vector<std::pair<std::size_t, std::size_t>>;
  // Apart, touching (end == begin is not shared) and given out of order: no pairs, sorted.
  std::vector<MemberExtent> apart{{30, 40, 2}, {0, 10, 0}, {10, 30, 1}};
  CHECK(overlapping_members(apart).empty());
  CHECK(apart[0].index == 0);
  CHECK(apart[1].index == 1);
  CHECK(apart[2].index == 2);
  // A long member (0) covers two later ones; 3 starts past it but inside 2.
  std::vector<MemberExtent> bomb{{0, 100, 0}, {10, 20, 1}, {50, 150, 2}, {120, 130, 3}, {200, 210, 4}};
  CHECK(overlapping_members(bomb) == Pairs{{1, 0}, {2, 0}, {3, 2}});
  // Two entries naming one local header (the classic overlapping-entries bomb).
  std::vector<MemberExtent> same{{0, 500, 0}, {0, 500, 1}};
  CHECK(overlapping_members(same) == Pairs{{1, 0}});
}

TEST_CASE("find in storage order, out of it, and across directories gives each name's entry") {
  std::vector<TestMember> members;
  for (int i = 0; i < 300; ++i) members.push_back({"m" + std::to_string(i), std::to_string(i)});
  const ZipDirectory one = read_bytes(build_zip(members).bytes);
  members.erase(members.begin() + 100);  // the other directory: a name missing, the rest shifted
  const ZipDirectory other = read_bytes(build_zip(members).bytes);
  bool right = true;
  for (int i = 0; i < 300; ++i) {  // forward (the guess), then every third backwards, alternating directories
    const std::string name = "m" + std::to_string(i), back = "m" + std::to_string(299 - (i * 3) % 300);
    right = right && one.find(name) == &one.entries[static_cast<std::size_t>(i)];
    const ZipEntry* e = other.find(name);
    right = right && (i == 100 ? e == nullptr : e != nullptr && e->name == name);
    right = right && one.find(back)->name == back;
  }
  CHECK(right);
  CHECK(one.find("m300") == nullptr);
}
