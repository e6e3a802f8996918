// The tree walk behind `zanj hash`: storage does not count, content does, dict key order does
// not; per-node digests; --include and --exclude.
#include <doctest/doctest.h>

#include "hash/digest.hpp"
#include "npy_archive.hpp"
#include "zanj/hash.hpp"
#include "zanj_builder.hpp"

using namespace zanj;
using namespace zanj::hash;
using zanj::test::make_zanj;

namespace {
std::string digest_of(const std::string& root, std::vector<test::TestMember> members = {}, const HashOptions& o = {}) {
  const ZanjFile z = make_zanj(root, std::move(members));
  return hash_archive(z, o).digest;
}
std::string sha256_hex(const std::string& message) {
  Digest d("sha256");
  d.update(message);
  return hex_text(d.finish());
}
std::string raw(const std::string& hex) {
  std::string out;
  for (std::size_t i = 0; i < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return out;
}
}  // namespace

TEST_SUITE("hash content") {
  TEST_CASE("a scalar root is the digest of its encoding; a dict hashes sorted keys and child digests") {
    CHECK(digest_of("true") == sha256_hex("t"));
    const std::string one = raw(sha256_hex("i1")), two = raw(sha256_hex("i2"));
    std::string dict = "d";
    dict += std::string("\x01\0\0\0\0\0\0\0a", 9) + one;
    dict += std::string("\x01\0\0\0\0\0\0\0b", 9) + two;
    CHECK(digest_of(R"({"b": 2, "a": 1})") == sha256_hex(dict));
    CHECK(digest_of(R"({"a": 1, "b": 2})") == sha256_hex(dict));
    CHECK(digest_of("[1, 2]") == sha256_hex("l" + one + two));
  }

  TEST_CASE("an array hashes alike inline, external, big-endian and in Fortran order") {
    const std::string values("\0\0\x80\x3f\0\0\0\x40\0\0\x40\x40\0\0\x80\x40\0\0\xa0\x40\0\0\xc0\x40", 24);
    const std::string inline_list =
        R"({"w": {"__muutils_format__": "numpy.ndarray:array_list_meta", "dtype": "float32", "shape": [2, 3],
                  "data": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}})";
    const std::string external = R"({"w": {"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy",
                                           "dtype": "float32", "shape": [2, 3]}})";
    const std::string big = R"({"w": {"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy",
                                      "dtype": ">f4", "shape": [2, 3]}})";
    const std::string d = digest_of(inline_list);
    CHECK(digest_of(external, {{"w.npy", test::npy_member("<f4", false, {2, 3}, values)}}) == d);
    CHECK(digest_of(big, {{"w.npy", test::npy_member(">f4", false, {2, 3}, test::swapped(values, 4))}}) == d);
    std::string fortran;
    for (int c = 0; c < 3; ++c)
      for (int r = 0; r < 2; ++r) fortran += values.substr((r * 3 + c) * 4, 4);
    CHECK(digest_of(external, {{"w.npy", test::npy_member("<f4", true, {2, 3}, fortran)}}) == d);
    // another dtype, another shape or a tensor is another object
    CHECK(digest_of(R"({"w": {"__muutils_format__": "torch.Tensor:array_list_meta", "dtype": "torch.float32",
                              "shape": [2, 3], "data": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}})") != d);
    CHECK(digest_of(R"({"w": {"__muutils_format__": "numpy.ndarray:array_list_meta", "dtype": "float32",
                              "shape": [3, 2], "data": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]}})") != d);
  }

  TEST_CASE("an external list hashes like the same list inline") {
    const std::string items = test::jsonl({"1", "{\"a\": [1, 2]}", "\"x\""});
    CHECK(digest_of(R"({"l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"}})", {{"l.jsonl", items}}) ==
          digest_of(R"({"l": [1, {"a": [1, 2]}, "x"]})"));
    CHECK(digest_of(R"({"l": {"__muutils_format__": "tuple:external", "$ref": "l.jsonl"}})", {{"l.jsonl", items}}) ==
          digest_of(R"({"l": [1, {"a": [1, 2]}, "x"]})"));
  }

  TEST_CASE("per-node digests in document order; --include and --exclude select subtrees") {
    const ZanjFile z = make_zanj(R"({"b": {"x": 1, "y": [1, 2]}, "a": [{"k": null}], "c": "s"})");
    const ContentDigest all = hash_archive(z, {});
    std::vector<std::string> paths;
    for (const auto& n : all.nodes) paths.push_back(n.path);
    CHECK(paths == std::vector<std::string>{"", "b", "b/x", "b/y", "a", "a/0", "a/0/k", "c"});
    CHECK(all.nodes.front().digest == all.digest);
    CHECK(all.nodes[1].kind == "dict");

    HashOptions only_b;
    only_b.includes = {"b"};
    const ContentDigest b = hash_archive(z, only_b);
    CHECK(b.nodes.size() == 3);
    CHECK(b.nodes[0].digest == all.nodes[1].digest);  // a selected subtree keeps its digest
    CHECK(b.digest != all.digest);
    CHECK(b.digest == digest_of(R"({"b": {"y": [1, 2], "x": 1}})"));  // the root holds what leads to it

    HashOptions without_a;
    without_a.excludes = {"a", "c"};
    CHECK(hash_archive(z, without_a).digest == b.digest);

    HashOptions nothing;
    nothing.includes = {"nowhere"};
    const ContentDigest none = hash_archive(z, nothing);
    CHECK(none.nodes.empty());
    CHECK(none.digest == sha256_hex(""));
  }

  TEST_CASE("a repeated key counts once, with its last value (as Python reads it)") {
    CHECK(digest_of(R"({"a": 1, "a": 2})") == digest_of(R"({"a": 2})"));
  }

  TEST_CASE("hash_selects decides by a path and its ancestors; node_digests=false lists nothing") {
    HashOptions o;
    CHECK(hash_selects(o, ""));
    CHECK(hash_selects(o, "a/b"));
    o.includes = {"m*"};
    CHECK(hash_selects(o, "model/w"));
    CHECK(hash_selects(o, "m"));
    CHECK_FALSE(hash_selects(o, "cfg/m"));  // '*' crosses '/', but the glob is anchored at the start
    CHECK_FALSE(hash_selects(o, ""));
    o.excludes = {"model/opt"};
    CHECK_FALSE(hash_selects(o, "model/opt/state/0"));
    CHECK(hash_selects(o, "model/optimizer"));
    const ZanjFile z = make_zanj(R"({"a": [{"b": 1}]})");
    HashOptions quiet;
    quiet.node_digests = false;
    const ContentDigest d = hash_archive(z, quiet);
    CHECK(d.nodes.empty());
    CHECK(d.digest == hash_archive(z, {}).digest);
  }

  TEST_CASE("members read ahead on a worker (large) or inflated in place (small) hash alike") {
    std::string values;
    for (int i = 0; i < 1000; ++i) values += std::string("\0\0\x80\x3f", 4);
    const std::string root = R"({"w": {"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy",
                                       "dtype": "float32", "shape": [1000]},
                                 "l": {"__muutils_format__": "list:external", "$ref": "l.jsonl"}})";
    std::vector<std::string> lines;
    for (int i = 0; i < 500; ++i) lines.push_back("{\"i\": " + std::to_string(i) + "}");
    const ZanjFile z =
        make_zanj(root, {{"w.npy", test::npy_member("<f4", false, {1000}, values)}, {"l.jsonl", test::jsonl(lines)}});
    HashOptions worker;
    worker.queue_bytes = 64;  // every member counts as large
    CHECK(hash_archive(z, worker).digest == hash_archive(z, {}).digest);
  }
}
