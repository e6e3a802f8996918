#include <doctest/doctest.h>

#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/pack.hpp"

using namespace zanj;

TEST_SUITE("open_packed") {
  TEST_CASE("which operands are read as packed") {
    CHECK(is_array_file_operand("run.npz"));
    CHECK(is_array_file_operand("dir/model.safetensors"));
    CHECK_FALSE(is_array_file_operand("run.zanj"));
    CHECK_FALSE(is_array_file_operand("-"));
    CHECK_FALSE(is_array_file_operand("https://example.com/run.npz"));
  }

  TEST_CASE("an .npz opens as the object pack makes of it") {
    const ZanjFile z = open_as_zanj(test::convert("arrays.npz"));
    CHECK(z.name() == test::convert("arrays.npz"));
    REQUIRE(z.root().is_object());
    CHECK(z.root().find("weights").is_object());
    CHECK(z.archive().find("weights.npy") != nullptr);
  }

  TEST_CASE("a .zanj opens as itself") {
    const ZanjFile z = open_as_zanj(test::corpus("basic.zanj"));
    CHECK(z.root().is_object());
  }
}
