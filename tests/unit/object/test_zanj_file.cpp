// ZanjFile: an archive opened as ZANJ. The object must parse; the meta may be missing or broken
// (then problems() says why and meta() is invalid), because what can be shown should be.
#include <doctest/doctest.h>

#include <string>

#include "array/member_reader.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zanj_builder.hpp"

namespace zanj {

TEST_CASE("a corpus archive opens with its object and meta, and no problems") {
  const ZanjFile z(test::corpus("basic.zanj"));
  CHECK(z.name() == test::corpus("basic.zanj"));
  CHECK(z.root().is_object());
  REQUIRE(static_cast<bool>(z.meta()));
  CHECK(static_cast<bool>(z.meta().find("externals_info")));
  CHECK(z.problems().empty());
  const ZipEntry* main = z.archive().find(kMainMember);
  const ZipEntry* meta = z.archive().find(kMetaMember);
  REQUIRE(main);
  REQUIRE(meta);
  CHECK(z.json_bytes() == main->uncompressed_size + meta->uncompressed_size);
}

TEST_CASE("the object is read as written, keys in file order") {
  const ZanjFile z = test::make_zanj(R"({"b": 1, "a": [true, null, "x"]})");
  std::string keys;
  for (const auto [key, value] : z.root().members()) keys += std::string(key) + ",";
  CHECK(keys == "b,a,");
  CHECK(z.root().find("a").size() == 3);
  CHECK(z.root().find("a")[2].as_string() == "x");
}

TEST_CASE("a broken meta is a problem, not an error") {
  const ZanjFile z = test::make_zanj(R"({"x": 1})", {}, "{not json");
  CHECK_FALSE(static_cast<bool>(z.meta()));
  REQUIRE(z.problems().size() == 1);
  CHECK(z.problems()[0].find(std::string(kMetaMember)) != std::string::npos);
  std::uint64_t x = 0;
  CHECK(z.root().find("x").get_uint64(x));
  CHECK(x == 1);
}

TEST_CASE("a broken object is an error of the archive") {
  CHECK(test::exit_of([] { test::make_zanj("[1, 2"); }) == Exit::invalid);
}

TEST_CASE("each archive keeps the limits it was opened with; none is process-wide") {
  const std::string path = test::corpus("dataframe.zanj");
  const ZanjFile full(path);
  OpenOptions tight;
  tight.limits.max_json_values = 3;
  CHECK_THROWS_WITH_AS(ZanjFile(path, tight), doctest::Contains("exceeds the limit of 3"), Error);
  const ZanjFile again(path);  // opened after, and beside, with the defaults: unaffected
  CHECK(again.json_values() == full.json_values());
  CHECK(again.archive().limits().max_json_values == ResourceLimits{}.max_json_values);
  OpenOptions shallow;  // every limit of the archive's applies, the depth too
  shallow.limits.max_json_depth = 1;
  CHECK_THROWS_WITH_AS(ZanjFile(path, shallow), doctest::Contains("deeper than 1"), Error);
}

TEST_CASE("documents loaded together share one budget: the meta, a second archive, a line") {
  const std::string path = test::corpus("dataframe.zanj");
  const ZanjFile full(path);
  REQUIRE(full.json_values() > 2);
  // A second archive gets what the first left (diff, report).
  const ZanjLimits left = full.limits_left();
  CHECK(left.max_json_values == ResourceLimits{}.max_json_values - full.json_values());
  CHECK(left.max_json_bytes == ResourceLimits{}.max_json_bytes - full.json_bytes());
  ZanjLimits exact;
  exact.max_json_values = full.json_values();
  CHECK(ZanjFile(Archive(path), exact).problems().empty());
  exact.max_json_values = full.json_values() - 1;  // the object fits; the meta gets one too few
  const ZanjFile short_one(Archive(path), exact);
  REQUIRE(short_one.problems().size() == 1);
  CHECK(short_one.problems()[0].find("exceeds the limit") != std::string::npos);

  // A .jsonl line read while both documents are loaded gets what they left of the archive's
  // limit: one value more than they hold is too few for a row (an object of several members).
  OpenOptions options;
  options.limits.max_json_values = full.json_values() + 1;
  const ZanjFile bounded(path, options);
  const auto each_row = [](const ZanjFile& file) {
    const ZipEntry* rows = file.archive().find("table.jsonl");
    REQUIRE(rows);
    zanj::array::for_each_jsonl_value(file.archive(), *rows, [](std::uint64_t, const Json&) { return true; });
  };
  CHECK_THROWS_WITH_AS(each_row(bounded), doctest::Contains("exceeds the limit of 1"), Error);
  options.limits.max_json_values = full.json_values() + 1000;
  CHECK_NOTHROW(each_row(ZanjFile(path, options)));
}

}  // namespace zanj

namespace {

/// A JSON list of `n` small objects: over a mebibyte for n of 100,000, so that a meta and an
/// object of this size are parsed side by side where the machine has two CPUs.
std::string big_json(std::size_t n, const std::string& tail = "") {
  std::string out = "[";
  for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + std::string(R"({"k": )") + std::to_string(i) + "}";
  return out + tail + "]";
}

}  // namespace

TEST_CASE("large object and meta (parsed side by side on two CPUs) read as one at a time would") {
  const std::string root = big_json(100000), meta = big_json(110000);
  const zanj::ZanjFile z = zanj::test::make_zanj(root, {}, meta);
  CHECK(z.problems().empty());
  CHECK(z.root().size() == 100000);
  REQUIRE(static_cast<bool>(z.meta()));
  CHECK(z.meta().size() == 110000);
  CHECK(z.meta()[109999].find("k").as_int64() == 109999);
  // Each {"k": i} is two values; each list one more.
  CHECK(z.json_values() == (1 + 2 * 100000) + (1 + 2 * 110000));
  CHECK(z.json_bytes() == root.size() + meta.size());

  // A broken large meta is a problem, as a small one is; a broken large object is the error.
  const zanj::ZanjFile broken = zanj::test::make_zanj(root, {}, big_json(110000, ", nope"));
  CHECK_FALSE(static_cast<bool>(broken.meta()));
  REQUIRE(broken.problems().size() == 1);
  CHECK(broken.problems()[0].find("invalid JSON") != std::string::npos);
  CHECK_THROWS_WITH_AS(zanj::test::make_zanj(big_json(100000, ", nope"), {}, meta), doctest::Contains("invalid JSON"),
                       zanj::Error);
}

TEST_CASE("work on the directory while the documents are parsed: once, done before the constructor returns or throws") {
  const std::string root = big_json(100000), meta = big_json(110000);
  const std::string broken_root = big_json(100000, ", nope");
  const auto archive_of = [](const std::string& object, const std::string& meta_text) {
    return zanj::zip::open_archive(
        std::make_unique<zanj::io::MemorySource>(
            zanj::test::build_zip({{"__zanj_meta__.json", meta_text}, {"__zanj__.json", object}, {"x.npy", "data"}})
                .bytes),
        "test.zanj");
  };
  // Large documents are parsed side by side (the work then runs on the meta's thread), small
  // ones one after the other (the work after them).
  for (const std::string* meta_text : {&meta, static_cast<const std::string*>(nullptr)}) {
    const std::string small_meta = R"({"timestamp": 1.0})";
    const std::string& m = meta_text ? *meta_text : small_meta;
    CAPTURE(m.size());
    int calls = 0;
    std::size_t seen = 0;
    const zanj::ZanjFile z(archive_of(root, m), {}, [&](const zanj::Archive& archive) {
      ++calls;
      seen = archive.entries().size();
    });
    CHECK(calls == 1);
    CHECK(seen == 3);
    CHECK(z.root().size() == 100000);
    // The work's exception is the constructor's.
    CHECK_THROWS_WITH_AS(
        zanj::ZanjFile(archive_of(root, m), {}, [](const zanj::Archive&) { throw zanj::Error("listing failed"); }),
        "listing failed", zanj::Error);
    // An object that does not parse: the work, reading the directory, still finishes before
    // the archive goes (AddressSanitizer would see a read of freed entries).
    std::size_t names = 0;
    CHECK_THROWS_WITH_AS(zanj::ZanjFile(archive_of(broken_root, m), {},
                                        [&](const zanj::Archive& archive) {
                                          for (const zanj::ZipEntry& e : archive.entries()) names += e.name.size();
                                        }),
                         doctest::Contains("invalid JSON"), zanj::Error);
    CHECK(names <= std::string("__zanj_meta__.json__zanj__.jsonx.npy").size());
  }
}
