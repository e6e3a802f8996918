// ZanjFile: an archive opened as ZANJ. The object must parse; the meta may be missing or broken
// (then problems() says why and meta() is invalid), because what can be shown should be.
#include <doctest/doctest.h>

#include <string>

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

}  // namespace zanj
