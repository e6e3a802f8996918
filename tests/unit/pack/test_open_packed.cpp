#include <doctest/doctest.h>

#include <filesystem>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/pack.hpp"

using namespace zanj;
using zanj::test::TempDir;

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
    OperandKind kind = OperandKind::npz;
    const ZanjFile z = open_as_zanj(test::corpus("basic.zanj"), {}, {}, &kind);
    CHECK(z.root().is_object());
    CHECK(kind == OperandKind::zanj);
  }

  TEST_CASE("an .npz of another name is recognised by its content") {
    TempDir tmp;
    std::filesystem::copy_file(test::convert("arrays.npz"), tmp / "arrays.bin");
    OperandKind kind = OperandKind::zanj;
    const ZanjFile z = open_as_zanj(tmp / "arrays.bin", {}, {}, &kind);
    CHECK(kind == OperandKind::npz);
    CHECK(z.name() == tmp / "arrays.bin");
    CHECK(z.archive().find("weights.npy") != nullptr);
  }
}
