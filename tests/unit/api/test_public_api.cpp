// The C++ API as a program outside zanj sees it: this file includes nothing of zanj but
// "zanj/zanj.hpp" (and the standard library), and checks what the README promises a caller
// can do: open an archive (file or memory), walk its tree, read arrays and slices into a
// buffer or in chunks, verify, diff and pack. Expected values come from the corpus facts
// (tests/corpus/*.facts.json) and the archives' documented contents.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "zanj/zanj.hpp"

namespace {

std::string corpus(const std::string& name) { return std::string(ZANJ_TEST_CORPUS) + "/" + name; }

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// The array node at an object path of an opened archive.
zanj::ArrayNode array_at(const zanj::ZanjFile& file, const std::string& path) {
  const zanj::Node node = zanj::classify(zanj::follow_path(file.root(), zanj::split_path(path)));
  REQUIRE(node.array);
  return *node.array;
}

/// Everything one walk of the tree reports, by path.
struct Listed {
  zanj::NodeKind kind;
  std::string dtype, storage, member;
  std::vector<std::uint64_t> shape;
};
std::map<std::string, Listed> walk(const zanj::ZanjFile& file) {
  std::map<std::string, Listed> out;
  zanj::walk_tree(file.root(), {}, [&](const zanj::TreeVisit& v) {
    Listed l{v.node.kind, "", "", v.node.member(), {}};
    if (v.node.array) {
      l.dtype = v.node.array->dtype;
      l.shape = v.node.array->shape;
      l.storage = v.node.array->external() ? "external" : "inline";
    }
    out.emplace(v.path(), l);
    return true;
  });
  return out;
}

struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "zanj-api-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_SUITE("public api") {
  TEST_CASE("an archive opens from a file and from memory alike") {
    const zanj::Archive from_file(corpus("basic.zanj"));
    const zanj::Archive in_memory = zanj::Archive::from_memory(file_bytes(corpus("basic.zanj")), "mem");
    CHECK(in_memory.name() == "mem");
    REQUIRE(from_file.entries().size() == 5);  // basic.facts.json "members"
    REQUIRE(in_memory.entries().size() == 5);
    for (std::size_t i = 0; i < 5; ++i) {
      const zanj::ZipEntry &a = from_file.entries()[i], &b = in_memory.entries()[i];
      CHECK(a.name == b.name);
      CHECK(a.crc32 == b.crc32);
      CHECK(a.uncompressed_size == b.uncompressed_size);
    }
    const zanj::ZipEntry* big = from_file.find("big_array.npy");
    REQUIRE(big);
    CHECK(big->uncompressed_size == 2176);
    CHECK(big->crc32 == 0xf14603e4);
    CHECK(zanj::method_name(big->method) == "deflate");
    CHECK(from_file.read_all(*big, 1 << 20) == in_memory.read_all(*in_memory.find("big_array.npy"), 1 << 20));
    CHECK(from_file.read_prefix(*big, 6) == "\x93NUMPY");
    CHECK_THROWS_AS(zanj::Archive::from_memory("not a zip", "junk"), zanj::Error);

    const zanj::ZanjFile a(corpus("basic.zanj"));
    const zanj::ZanjFile b(zanj::Archive::from_memory(file_bytes(corpus("basic.zanj")), "mem"));
    CHECK(a.root() == b.root());
    CHECK(a.meta() == b.meta());
    CHECK(a.problems().empty());
    CHECK(a.json_bytes() == 24051 + 858);
  }

  TEST_CASE("the tree: paths, kinds, dtypes, shapes and storage") {
    const zanj::ZanjFile file(corpus("basic.zanj"));
    CHECK(file.root().is_object());
    CHECK(file.root().find("name").is_string());
    CHECK_FALSE(file.root().find("no such key"));
    CHECK(file.meta().find("externals_info").find("big_array.npy").string_at("item_type") == "npy");
    std::vector<std::string> keys;
    for (const auto member : file.root().members()) keys.emplace_back(member.key);
    CHECK(keys == std::vector<std::string>{"name", "version", "ratio", "flag", "nothing", "tags", "small_array",
                                           "big_array", "long_list", "nested"});

    const auto tree = walk(file);
    CHECK(tree.at("").kind == zanj::NodeKind::dict);
    CHECK(tree.at("small_array").kind == zanj::NodeKind::array);
    CHECK(tree.at("small_array").dtype == "int32");
    CHECK(tree.at("small_array").shape == std::vector<std::uint64_t>{2, 3});
    CHECK(tree.at("small_array").storage == "inline");
    CHECK(tree.at("big_array").shape == std::vector<std::uint64_t>{32, 16});
    CHECK(tree.at("big_array").storage == "external");
    CHECK(tree.at("big_array").member == "big_array.npy");
    CHECK(tree.at("nested/deeper/matrix").dtype == "float64");
    CHECK(tree.at("nested/deeper/matrix").shape == std::vector<std::uint64_t>{20, 20});
    CHECK(tree.at("long_list").kind == zanj::NodeKind::external_list);
    CHECK(tree.at("long_list").member == "long_list.jsonl");
    CHECK(zanj::kind_name(tree.at("nested").kind) == "dict");

    const zanj::NodeTarget target = zanj::parse_node_target(file.root(), "nested/deeper/matrix[2:5, 2:5]");
    CHECK(target.path == "nested/deeper/matrix");
    CHECK(target.slice == "[2:5, 2:5]");
    CHECK(zanj::find_node(file.root(), target, file.name()).find("$ref").as_string() == "nested/deeper/matrix.npy");
    CHECK_THROWS_AS(zanj::find_node(file.root(), zanj::parse_node_target(file.root(), "nope"), file.name()),
                    zanj::Error);
    CHECK(zanj::join_path({"a/b", ""}) == "a~1b/~e");
  }

  TEST_CASE("arrays and slices into a caller's buffer, and in chunks") {
    const zanj::ZanjFile file(corpus("basic.zanj"));

    // An inline int32 array: numpy.arange(6).reshape(2, 3) (min 0, max 5, sum 15 in the facts).
    const zanj::ArrayValues small(file.archive(), array_at(file, "small_array"), "small_array");
    CHECK(small.dtype() == "<i4");
    CHECK(small.item_size() == 4);
    CHECK_FALSE(small.external());
    std::int32_t values[6] = {};
    small.read_into(zanj::select_all(small.shape()), values, sizeof values);
    for (int i = 0; i < 6; ++i) CHECK(values[i] == i);
    CHECK_THROWS_AS(small.read_into(zanj::select_all(small.shape()), values, 8), zanj::Error);

    // An external 20 x 20 float64 identity matrix, sliced.
    const zanj::ArrayValues matrix(file.archive(), array_at(file, "nested/deeper/matrix"), "nested/deeper/matrix");
    CHECK(matrix.external());
    const zanj::Selection corner = zanj::select(zanj::parse_slice("[2:5, 2:5]"), matrix.shape());
    CHECK(corner.shape() == std::vector<std::uint64_t>{3, 3});
    double block[9] = {};
    matrix.read_into(corner, block, sizeof block);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) CHECK(block[i * 3 + j] == (i == j ? 1.0 : 0.0));
    const auto reversed = matrix.read(zanj::select(zanj::parse_slice("[::-1, 19]"), matrix.shape()));
    REQUIRE(reversed.size() == 20 * sizeof(double));
    double first = 0;
    std::memcpy(&first, reversed.data(), sizeof first);
    CHECK(first == 1.0);  // row 19, column 19
    CHECK_THROWS_AS(zanj::select(zanj::parse_slice("[20]"), matrix.shape()), zanj::Error);

    // An external float32 array, streamed in small chunks: the same bytes as one read, and
    // its first row and sum as basic.facts.json records them.
    zanj::ArrayReadOptions chunked;
    chunked.chunk_bytes = 100;
    const zanj::ArrayValues big(file.archive(), array_at(file, "big_array"), "big_array", chunked);
    const zanj::Selection all = zanj::select_all(big.shape());
    std::vector<std::byte> streamed;
    std::size_t chunks = 0;
    big.stream(all, [&](std::string_view elements) {
      CHECK(elements.size() % 4 == 0);
      const auto* p = reinterpret_cast<const std::byte*>(elements.data());
      streamed.insert(streamed.end(), p, p + elements.size());
      ++chunks;
      return true;
    });
    CHECK(chunks > 10);
    CHECK(streamed == big.read(all));
    std::vector<float> row(4);
    big.read_into(zanj::select(zanj::parse_slice("[0, :4]"), big.shape()), row.data(), row.size() * sizeof(float));
    CHECK(row ==
          std::vector<float>{1.382177710533142f, -0.30369892716407776f, 1.6091885566711426f, 1.4600402116775513f});
    const zanj::ArrayStats stats = zanj::array_stats(file.archive(), array_at(file, "big_array"), "big_array");
    CHECK(stats.count == 512);
    CHECK(*stats.sum == doctest::Approx(-15.545081663818564).epsilon(1e-6));
    CHECK(stats.min->re == doctest::Approx(-3.396475076675415));
  }

  TEST_CASE("verify reports problems by code") {
    const zanj::VerifyReport good = zanj::verify_file(corpus("basic.zanj"));
    CHECK(good.ok());
    CHECK(good.checked.members == 5);
    CHECK(good.checked.npy_members == 2);
    const zanj::VerifyReport bad = zanj::verify_file(corpus("malformed/bad_crc.zanj"));
    CHECK_FALSE(bad.ok());
    REQUIRE(bad.errors.size() == 1);
    CHECK(bad.errors[0].code == "crc_mismatch");
    CHECK(bad.errors[0].member == "big_array.npy");
  }

  TEST_CASE("diff compares objects, not bytes") {
    const zanj::ZanjFile a(corpus("basic.zanj"));
    const zanj::ZanjFile same(zanj::Archive::from_memory(file_bytes(corpus("basic.zanj")), "copy"));
    CHECK(zanj::diff_archives(a, same, {}).equal());
    const zanj::ZanjFile other(corpus("stored.zanj"));
    const zanj::DiffReport report = zanj::diff_archives(a, other, {});
    CHECK_FALSE(report.equal());
    CHECK(report.differences.size() == 12);
    bool records_added = false;
    for (const auto& d : report.differences) records_added |= d.path == "records" && d.kind == zanj::DiffKind::added;
    CHECK(records_added);
  }

  TEST_CASE("pack writes an archive that reads back") {
    const TempDir dir;
    const std::string input = (dir.path / "values.json").string(), output = (dir.path / "values.zanj").string();
    std::ofstream(input) << R"({"name": "run", "losses": [0.5, 0.25, 0.125], "steps": [1, 2, 3, 4]})";
    zanj::PackSettings settings;
    settings.thresholds.list = 4;  // lists of 4 or more go to .jsonl members
    const zanj::PackJob job = zanj::prepare_pack({zanj::PackInput{"", input}}, settings);
    const zanj::PackSummary written = zanj::write_pack(job, output, settings);
    CHECK(written.members == 3);  // the two JSON members and steps.jsonl

    const zanj::ZanjFile back(output);
    CHECK(back.problems().empty());
    CHECK(back.root().find("name").as_string() == "run");
    const zanj::JsonView losses = back.root().find("losses");
    REQUIRE(losses.size() == 3);
    CHECK(losses[2].to_double() == 0.125);
    const zanj::Node steps = zanj::classify(back.root().find("steps"));
    CHECK(steps.kind == zanj::NodeKind::external_list);
    CHECK(back.archive().find(steps.member()) != nullptr);
    CHECK(zanj::verify_file(output).ok());
    std::string rows;
    zanj::OutputBuffer out([&](std::string_view text) { rows += text; });
    zanj::print_rows(back.archive(), steps, "steps", {}, zanj::RowFormat::json, out);
    out.flush();
    CHECK(rows == "[1, 2, 3, 4]\n");
  }

  TEST_CASE("the version is the project's") {
    CHECK(zanj::version() == ZANJ_VERSION_STRING);
    CHECK(zanj::version_report().rfind(std::string("zanj ") + ZANJ_VERSION_STRING + "\n", 0) == 0);
  }
}
