#include <doctest/doctest.h>

#include "test_support.hpp"
#include "zanj/error.hpp"
#include "pack/json_externalize.hpp"
#include "array/npy_header.hpp"
#include "json/json_parse.hpp"

using namespace zanj;
using namespace zanj::pack;
using test::member_names;
using test::range_json;

namespace {

struct Externalized {
  Json value;
  ExternalRegistry externals;
  std::vector<PlannedMember> members;
};

Externalized externalize(const std::string& text, Thresholds t = {}, JsonArray path = {}) {
  Externalized r;
  r.value = json::parse_json(text, "test");
  externalize_json(r.value, std::move(path), t, r.externals, r.members);
  return r;
}

}  // namespace

TEST_SUITE("json_externalize") {
  TEST_CASE("long lists become list:external nodes and jsonl members") {
    const Externalized r = externalize(R"j({"short": [1, 2], "long": )j" + range_json(300) + "}");
    CHECK(to_json(*r.value.find("short")) == "[1, 2]");
    CHECK(to_json(*r.value.find("long")) == R"j({"__muutils_format__": "list:external", "$ref": "long.jsonl"})j");
    REQUIRE(r.members.size() == 1);
    const auto& lines = std::get<JsonLinesSource>(r.members[0].source).items;
    CHECK(lines.size() == 300);
    CHECK(lines[299].as_int64() == 299);
    CHECK(
        to_json(r.externals.externals_info()) ==
        R"j({"long.jsonl": {"item_type": "jsonl", "path": ["long"], "type(data)": "<class 'list'>", "len(data)": 300, "data[0]": 0}})j");
  }

  TEST_CASE("thresholds are 'at least'") {
    CHECK(externalize(R"j({"a": )j" + range_json(256) + "}").members.size() == 1);
    CHECK(externalize(R"j({"a": )j" + range_json(255) + "}").members.empty());
    CHECK(externalize(R"j({"a": [1, 2, 3]})j", Thresholds{256, 3}).members.size() == 1);
  }

  TEST_CASE("the root never goes external, its children do") {
    const Externalized r = externalize("[" + range_json(5) + ", 1, 2]", Thresholds{256, 3});
    CHECK(r.value.is_array());
    CHECK(member_names(r) == std::vector<std::string>{"0.jsonl"});
    CHECK(to_json(r.value.as_array()[0]) == R"j({"__muutils_format__": "list:external", "$ref": "0.jsonl"})j");
  }

  TEST_CASE("nested lists: elements stored first, with their index in the path") {
    const Externalized r = externalize(R"j({"outer": [[1, 2, 3], [4], [5, 6, 7]]})j", Thresholds{256, 3});
    CHECK(member_names(r) == std::vector<std::string>{"outer/0.jsonl", "outer/2.jsonl", "outer.jsonl"});
    const auto& outer = std::get<JsonLinesSource>(r.members[2].source).items;
    CHECK(to_json(outer[1]) == "[4]");
    CHECK(outer[0].string_at("$ref") == "outer/0.jsonl");
    const Json info = r.externals.externals_info();
    CHECK(to_json(*info.find("outer/2.jsonl")->find("path")) == R"j(["outer", 2])j");
    CHECK(info.as_object().front().first == "outer.jsonl");  // shortest path first
  }

  TEST_CASE("lists of objects carry the reference's jsonl metadata") {
    const Externalized r =
        externalize(R"j({"rows": [{"a": 1, "b": "x"}, {"a": 2.5}, {"a": null, "c": [1]}]})j", Thresholds{256, 3});
    CHECK(to_json(*r.value.find("rows")) ==
          R"j({"__muutils_format__": "list:external", "$ref": "rows.jsonl", "len(data)": 3, "columns": )j"
          R"j({"a": {"types": ["int", "float", "NoneType"], "len": 3}, "b": {"types": ["str"], "len": 1}, )j"
          R"j("c": {"types": ["list"], "len": 1}}, "data[0]": {"a": 1, "b": "x"}})j");
  }

  TEST_CASE("dataclass fields are stored by the same rules, the format key kept") {
    const Externalized r =
        externalize(R"j({"__muutils_format__": "Cfg(SerializableDataclass)", "xs": [1, 2, 3]})j", Thresholds{256, 3});
    CHECK(r.value.string_at("__muutils_format__") == "Cfg(SerializableDataclass)");
    CHECK(r.value.find("xs")->string_at("$ref") == "xs.jsonl");
  }

  TEST_CASE("an inline array's data is never stored as a list; small arrays stay inline") {
    const std::string node =
        R"j({"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [1, 2, 3, 4], "shape": [4], "dtype": "int64", "n_elements": 4})j";
    const Externalized r = externalize(R"j({"a": )j" + node + "}", Thresholds{256, 2});
    CHECK(r.members.empty());
    CHECK(to_json(*r.value.find("a")) == to_json(json::parse_json(node, "node")));
  }

  TEST_CASE("large inline arrays become .npy members, as numpy would save them") {
    const Externalized r = externalize(
        R"j({"a": {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [[1, 2], [3, 4]], "shape": [2, 2], "dtype": "int16", "n_elements": 4}})j",
        Thresholds{4, 256});
    CHECK(
        to_json(*r.value.find("a")) ==
        R"j({"__muutils_format__": "numpy.ndarray:external", "$ref": "a.npy", "shape": [2, 2], "dtype": "int16", "n_elements": 4})j");
    REQUIRE(r.members.size() == 1);
    const std::string& npy = std::get<BytesSource>(r.members[0].source).bytes;
    const std::string header = array::make_npy_header(array::parse_descr("<i2"), false, {2, 2});
    CHECK(npy == header + std::string("\1\0\2\0\3\0\4\0", 8));
    CHECK(r.members[0].size == npy.size());
    CHECK(to_json(*r.externals.externals_info().find("a.npy")) ==
          R"j({"item_type": "npy", "path": ["a"], "type(data)": "<class 'numpy.ndarray'>", "len(data)": 2})j");
  }

  TEST_CASE("every inline mode, torch names, and big-endian bytes kept big-endian") {
    const Externalized r = externalize(
        R"j({"h": {"__muutils_format__": "numpy.ndarray:array_hex_meta", "data": "0100020003000400", "shape": [4], "dtype": "int16", "n_elements": 4},)j"
        R"j( "b": {"__muutils_format__": "numpy.ndarray:array_b64_meta", "data": "AQACAAMABAA=", "shape": [4], "dtype": "int16", "n_elements": 4},)j"
        R"j( "t": {"__muutils_format__": "torch.Tensor:array_list_meta", "data": [0.5, 1.5, 2.5, 3.5], "shape": [4], "dtype": "float32", "n_elements": 4},)j"
        R"j( "be": {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [1, 2, 3, 4], "shape": [4], "dtype": ">i2", "n_elements": 4},)j"
        R"j( "z": {"__muutils_format__": "numpy.ndarray:zero_dim", "data": 7, "shape": [], "dtype": "int64", "n_elements": 1}})j",
        Thresholds{1, 256});
    const auto bytes = [&](std::size_t i) {
      const std::string& npy = std::get<BytesSource>(r.members[i].source).bytes;
      return npy.substr(static_cast<std::size_t>(array::parse_npy_header(npy).data_offset));
    };
    REQUIRE(r.members.size() == 5);
    CHECK(bytes(0) == std::string("\1\0\2\0\3\0\4\0", 8));
    CHECK(bytes(1) == bytes(0));  // hex and base64 of the same values
    CHECK(r.value.find("t")->string_at("__muutils_format__") == "torch.Tensor:external");
    CHECK(r.value.find("t")->string_at("dtype") == "torch.float32");
    CHECK(r.value.find("be")->string_at("dtype") == ">i2");
    CHECK(bytes(3) == std::string("\0\1\0\2\0\3\0\4", 8));
    CHECK(std::get<BytesSource>(r.members[3].source).bytes.find("'descr': '>i2'") != std::string::npos);
    CHECK(to_json(*r.value.find("z")->find("shape")) == "[]");  // 0-d: no len(data) either
    CHECK(r.externals.externals_info().find("z.npy")->find("len(data)") == nullptr);
  }

  TEST_CASE("an inline array that does not decode is refused with its path") {
    CHECK_THROWS_WITH_AS(
        externalize(
            R"j({"bad": {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [1, 2, 3], "shape": [4], "dtype": "int8", "n_elements": 4}})j",
            Thresholds{4, 256}),
        doctest::Contains("'bad'"), Error);
  }

  TEST_CASE("reference nodes in the input are refused") {
    CHECK_THROWS_WITH_AS(externalize(R"j({"x": {"__muutils_format__": "numpy.ndarray:external", "$ref": "x.npy"}})j"),
                         doctest::Contains("cannot provide"), Error);
    CHECK_THROWS_WITH_AS(externalize(R"j({"t": {"__muutils_format__": "list:external", "$ref": "t.jsonl"}})j"),
                         doctest::Contains("'t'"), Error);
  }

  TEST_CASE("keys that would make unsafe member names are refused") {
    CHECK_THROWS_AS(externalize(R"j({"..": {"x": [1, 2, 3]}})j", Thresholds{256, 3}), Error);
    CHECK_THROWS_AS(externalize(R"j({"a": [1, 2, 3], "a/b": [1, 2, 3]})j", Thresholds{256, 3}), Error);
  }

  TEST_CASE("a path prefix places the value below a root key") {
    const Externalized r = externalize(range_json(300), {}, JsonArray{Json("losses")});
    CHECK(r.value.string_at("$ref") == "losses.jsonl");
  }
}
