// The command line's own reading of pack's and extract's arguments: NAME=PATH inputs, and the
// directory extract writes to without -C.
#include <doctest/doctest.h>

#include "extract_command.hpp"
#include "pack_command.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"

using zanj::PackInput;
using zanj::cli::default_extract_directory;
using zanj::cli::parse_pack_input;
using zanj::test::TempDir;

TEST_SUITE("cli arguments") {
  TEST_CASE("pack: NAME=PATH, or a path stored under its stem") {
    const PackInput plain = parse_pack_input("dir/weights.v2.npz");
    CHECK((plain.key.empty() && plain.path == "dir/weights.v2.npz" && !plain.named));  // the core takes the stem
    const PackInput named = parse_pack_input("w=dir/weights.npz");
    CHECK((named.key == "w" && named.path == "dir/weights.npz" && named.named));
    const PackInput odd = parse_pack_input("dir/a=b.json");  // '/' before '=': a path
    CHECK((odd.path == "dir/a=b.json" && !odd.named));
    TempDir tmp;
    zanj::test::write_file(tmp / "x=y.json", "1");
    CHECK(parse_pack_input(tmp / "x=y.json").path == tmp / "x=y.json");  // an existing file wins
  }

  TEST_CASE("extract: the default directory is the archive's name without .zanj") {
    CHECK(default_extract_directory("model.zanj") == "model");
    CHECK(default_extract_directory("/data/runs/model.zanj") == "model");
    CHECK(default_extract_directory("weights.zip") == "weights");
    CHECK(default_extract_directory("archive") == "archive.d");
    CHECK(default_extract_directory(".zanj") == ".zanj.d");
    CHECK(default_extract_directory("https://host/runs/model.zanj?X-Amz-Signature=abc") == "model");
  }
}
