#include <doctest/doctest.h>

#include "zanj/tree.hpp"
#include "json/json_parse.hpp"
#include "object/tree_json.hpp"

using namespace zanj;
using namespace zanj::object;

namespace {
Node classify_text(const char* text, Json& keep) {
  keep = json::parse_json(text, "t");
  return classify(keep);
}
}  // namespace

TEST_SUITE("tree") {
  TEST_CASE("plain JSON kinds") {
    Json j;
    CHECK(classify_text("{}", j).kind == NodeKind::dict);
    CHECK(classify_text("[]", j).kind == NodeKind::list);
    CHECK(classify_text("\"s\"", j).kind == NodeKind::string);
    CHECK(classify_text("1.5", j).kind == NodeKind::number);
    CHECK(classify_text("true", j).kind == NodeKind::boolean);
    CHECK(classify_text("null", j).kind == NodeKind::null);
    CHECK(kind_name(NodeKind::external_list) == "external_list");
    CHECK(kind_name(NodeKind::boolean) == "bool");
  }

  TEST_CASE("external arrays, numpy and torch") {
    Json j;
    Node n = classify_text(R"({"__muutils_format__": "numpy.ndarray:external", "$ref": "w.npy",
                               "shape": [32, 16], "dtype": "float32", "n_elements": 512})",
                           j);
    REQUIRE(n.array);
    CHECK(n.kind == NodeKind::array);
    CHECK(n.array->external());
    CHECK(n.array->member == "w.npy");
    CHECK(n.member() == "w.npy");
    CHECK(n.array->shape == std::vector<std::uint64_t>{32, 16});
    CHECK(*n.array->element_count() == 512);
    CHECK(*n.array->n_elements == 512);
    CHECK_FALSE(n.array->torch);
    n = classify_text(R"({"__muutils_format__": "torch.Tensor:external", "$ref": "t.npy", "shape": [3],
                          "dtype": "torch.float32", "n_elements": 3})",
                      j);
    CHECK(n.array->torch);
    CHECK(n.array->dtype == "torch.float32");
  }

  TEST_CASE("inline arrays in every mode") {
    Json j;
    const char* modes[][2] = {
        {"array_list_meta", "list"}, {"array_hex_meta", "hex"}, {"array_b64_meta", "b64"}, {"zero_dim", "zero_dim"}};
    for (auto& m : modes) {
      const std::string text = std::string(R"({"__muutils_format__": "numpy.ndarray:)") + m[0] +
                               R"(", "data": [1], "shape": [1], "dtype": "int8", "n_elements": 1})";
      Node n = classify_text(text.c_str(), j);
      REQUIRE(n.array);
      CHECK_FALSE(n.array->external());
      CHECK(static_cast<bool>(n.array->data));
      CHECK(encoding_name(n.array->encoding) == m[0]);
      CHECK_FALSE(n.is_reference());
    }
    Node z = classify_text(R"({"__muutils_format__": "numpy.ndarray:zero_dim", "data": 5, "shape": [],
                               "dtype": "int64", "n_elements": 1})",
                           j);
    CHECK(z.array->has_shape);
    CHECK(*z.array->element_count() == 1);
  }

  TEST_CASE("format versions: __format__ of the releases before muutils 0.8") {
    Json j;
    Node a = classify_text(R"({"__format__": "numpy.ndarray:array_hex_meta", "data": "0100", "shape": [2],
                               "dtype": "uint8", "n_elements": 2})",
                           j);
    REQUIRE(a.array);
    CHECK(a.version == FormatVersion::legacy);
    CHECK(a.format == "numpy.ndarray:array_hex_meta");
    CHECK(a.array->encoding == ArrayEncoding::hex);
    Node d = classify_text(R"j({"__format__": "Cfg(SerializableDataclass)", "x": 1})j", j);
    CHECK(d.kind == NodeKind::dataclass);
    REQUIRE(node_children(d).size() == 1);
    CHECK(node_children(d)[0].first == "x");
    CHECK(node_child_count(d) == 1);
    // a value no release wrote: the user's own key of a plain dict
    Node u = classify_text(R"({"__format__": "mine", "x": 1})", j);
    CHECK(u.kind == NodeKind::dict);
    CHECK(u.version == FormatVersion::none);
    CHECK(node_child_count(u) == 2);
    // both keys: today's decides, and the old one is an ordinary child
    Node both = classify_text(R"({"__muutils_format__": "list:external", "__format__": "x", "$ref": "l.jsonl"})", j);
    CHECK(both.kind == NodeKind::external_list);
    CHECK(both.version == FormatVersion::current);
    // an empty key is never taken for a format key
    Node empty = classify_text(R"({"": 1, "b": 2})", j);
    CHECK(node_child_count(empty) == 2);
    CHECK(format_tag(json::view_of(j)).version == FormatVersion::none);
  }

  TEST_CASE("table columns written as per-column statistics (releases before ZANJ 0.6)") {
    Json j;
    Node t = classify_text(R"({"__format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
                               "columns": {"c": {"types": ["str"], "len": 3}, "a": {"types": ["int"], "len": 3}},
                               "data[0]": {"a": 1, "c": "x"}})",
                           j);
    REQUIRE(t.table);
    CHECK(t.table->columns == std::vector<std::string>{"a", "c"});  // the first row's order
    Node n = classify_text(R"({"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
                               "columns": {"c": {}, "a": {}}})",
                           j);
    CHECK(n.table->columns == std::vector<std::string>{"c", "a"});  // no first row: the dict's keys
  }

  TEST_CASE("muutils 0.2.x: bare array modes and external:npy / external:jsonl") {
    Json j;
    Node a = classify_text(R"({"__format__": "array_hex_meta", "data": "0100", "shape": [1], "dtype": "int16"})", j);
    REQUIRE(a.array);
    CHECK(a.version == FormatVersion::legacy);
    CHECK(a.array->encoding == ArrayEncoding::hex);
    Node e =
        classify_text(R"({"__format__": "external:npy", "$ref": "w.npy", "shape": [2, 3], "dtype": "float32"})", j);
    REQUIRE(e.array);
    CHECK(e.array->external());
    CHECK(e.array->member == "w.npy");
    CHECK(e.array->shape == std::vector<std::uint64_t>{2, 3});
    // its loader gives every .jsonl member as a list, a DataFrame's rows included
    Node l =
        classify_text(R"x({"__format__": "external:jsonl", "$ref": "t.jsonl", "columns": ["a"], "len(data)": 4})x", j);
    CHECK(l.kind == NodeKind::external_list);
    CHECK(l.list->length == 4u);
    CHECK(is_first_generation_format("external:npy"));
    CHECK_FALSE(is_first_generation_format("numpy.ndarray:external"));
    // any other "__format__" value is a user's key in a plain dict
    CHECK(classify_text(R"({"__format__": "something else", "data": 1})", j).kind == NodeKind::dict);
  }

  TEST_CASE("a small DataFrame kept inline (releases before ZANJ 0.6) is a table without a member") {
    Json j;
    Node t = classify_text(R"({"__format__": "pandas.DataFrame", "columns": ["x", "y"],
                               "data": [{"x": 1, "y": "a"}, {"x": 2, "y": "b"}], "path": ["t"]})",
                           j);
    REQUIRE(t.table);
    CHECK(t.kind == NodeKind::table);
    CHECK(t.table->columns == std::vector<std::string>{"x", "y"});
    CHECK(t.table->rows == 2u);
    REQUIRE(t.table->inline_rows);
    CHECK(t.table->inline_rows.size() == 2);
    CHECK_FALSE(t.is_reference());    // nothing to read from a member
    CHECK(node_children(t).empty());  // its rows are the table's, not keys to list
    // "data" that is not a list of rows is no table: the format-keyed object as it is
    CHECK(classify_text(R"({"__format__": "pandas.DataFrame", "data": 5})", j).kind == NodeKind::other);
    // no "columns": the first row's keys, in order
    Node k = classify_text(R"({"__muutils_format__": "pandas.DataFrame", "data": [{"b": 1, "a": 2}]})", j);
    CHECK(k.table->columns == std::vector<std::string>{"b", "a"});
  }

  TEST_CASE("tables, external lists, dataclasses, other") {
    Json j;
    Node t = classify_text(R"j({"__muutils_format__": "pandas.DataFrame:external", "$ref": "t.jsonl",
                               "len(data)": 400, "columns": ["id", "x"], "data[0]": {"id": 0, "x": 1}})j",
                           j);
    REQUIRE(t.table);
    CHECK(t.kind == NodeKind::table);
    CHECK(*t.table->rows == 400);
    CHECK(t.table->columns == std::vector<std::string>{"id", "x"});
    CHECK(node_children(t).empty());
    Node p = classify_text(R"({"__muutils_format__": "polars.DataFrame:external", "$ref": "p.jsonl"})", j);
    CHECK(p.kind == NodeKind::table);
    Node l = classify_text(R"({"__muutils_format__": "tuple:external", "$ref": "l.jsonl"})", j);
    REQUIRE(l.list);
    CHECK(l.list->tuple);
    CHECK_FALSE(l.list->length);
    Node d = classify_text(R"j({"__muutils_format__": "Point(SerializableDataclass)", "x": 1, "y": 2})j", j);
    CHECK(d.kind == NodeKind::dataclass);
    CHECK(node_children(d).size() == 2);
    Node o = classify_text(R"({"__muutils_format__": "set", "data": [1, 2]})", j);
    CHECK(o.kind == NodeKind::other);
    CHECK(o.format == "set");
    CHECK(node_children(o).size() == 1);
  }

  TEST_CASE("malformed reference nodes classify without throwing") {
    Json j;
    Node n = classify_text(R"({"__muutils_format__": "numpy.ndarray:external", "shape": [-1, "x"]})", j);
    CHECK(n.kind == NodeKind::array);
    CHECK_FALSE(n.array->has_shape);
    CHECK_FALSE(n.array->element_count());
    CHECK(n.array->member.empty());
    n = classify_text(R"({"__muutils_format__": 7})", j);
    CHECK(n.kind == NodeKind::other);
    n = classify_text(
        R"({"__muutils_format__": "numpy.ndarray:external", "shape": [4294967296, 4294967296, 4294967296]})", j);
    CHECK_FALSE(n.array->element_count());
  }

  TEST_CASE("walk visits in document order with escaped paths and can prune") {
    const Json root = json::parse_json(R"({"a/b": {"c": [1, 2]}, "arr": {"__muutils_format__": "numpy.ndarray:external",
                                     "$ref": "arr.npy", "shape": [1], "dtype": "int8"}, "z": [{"k": 1}]})",
                                       "t");
    std::vector<std::string> paths;
    walk_tree(root, {}, [&](const TreeVisit& v) {
      paths.push_back(v.path());
      return !is_scalar_list(v.node.json);
    });
    CHECK(paths == std::vector<std::string>{"", "a~1b", "a~1b/c", "arr", "z", "z/0", "z/0/k"});
    std::vector<std::size_t> depths;
    walk_tree(root, {}, [&](const TreeVisit& v) {
      depths.push_back(v.depth);
      return v.depth < 1;
    });
    CHECK(depths == std::vector<std::size_t>{0, 1, 1, 1});
    const auto refs = collect_references(root);
    REQUIRE(refs.size() == 1);
    CHECK(refs[0].segments == std::vector<std::string>{"arr"});
    CHECK(refs[0].node.member() == "arr.npy");
  }

  TEST_CASE("a walk cut into runs of the start's children visits what the whole walk does") {
    const Json dict = json::parse_json(R"({"a/b": {"c": [1, 2]}, "arr": {"__muutils_format__": "numpy.ndarray:external",
                                     "$ref": "arr.npy", "shape": [1], "dtype": "int8"}, "z": [{"k": 1}], "q": 3})",
                                       "t");
    const Json tagged = json::parse_json(
        R"J({"x": [1, {"y": 2}], "__muutils_format__": "Cfg(SerializableDataclass)", "w": {"v": 1}})J", "t");
    const Json list = json::parse_json(R"([{"a": 1}, [2, [3]], 4, {"b~": {}}])", "t");
    for (const Json* root : {&dict, &tagged, &list}) {
      std::vector<std::pair<std::string, std::size_t>> whole, runs;
      walk_tree(*root, {}, [&](const TreeVisit& v) {
        if (v.depth > 0) whole.emplace_back(v.path(), v.depth);
        return true;
      });
      const Node start = classify(*root);
      const std::size_t n = start.json.size();
      for (std::size_t cut = 0; cut <= n; ++cut) {
        runs.clear();
        const auto visit = [&](const TreeVisit& v) {
          runs.emplace_back(v.path(), v.depth);
          return true;
        };
        walk_tree_children(start, 0, cut, visit);
        walk_tree_children(start, cut, n + 5, visit);  // past the end: up to the last child
        CHECK(runs == whole);
      }
    }
    std::vector<std::string> pruned;
    walk_tree_children(classify(dict), 1, 3, [&](const TreeVisit& v) {
      pruned.push_back(v.path());
      return v.path() != "z";
    });
    CHECK(pruned == std::vector<std::string>{"arr", "z"});
    const Node leaf = classify(*dict.find("arr"));
    walk_tree_children(leaf, 0, 10, [&](const TreeVisit&) {
      FAIL("an array's node has no children to walk");
      return true;
    });
  }

  TEST_CASE("paths and segments are made on demand, for any node asked, below a start path") {
    const Json root =
        json::parse_json(R"({"a": {"x~": [10, {"y": 1}], "": 2}, "b/c": [[3]], "__muutils_format__": "f"})", "t");
    // Every node asked (the reference answer), then only some nodes: what was made for one node
    // must never leak into a later one's path.
    std::vector<std::pair<std::string, PathSegments>> all;
    walk_tree(root, {"s/t"}, [&](const TreeVisit& v) {
      all.emplace_back(v.path(), v.segments());
      CHECK(v.path() == join_path(v.segments()));
      return true;
    });
    const std::vector<std::string> expected{"s~1t",         "s~1t/a",         "s~1t/a/x~0", "s~1t/a/x~0/0",
                                            "s~1t/a/x~0/1", "s~1t/a/x~0/1/y", "s~1t/a/~e",  "s~1t/b~1c",
                                            "s~1t/b~1c/0",  "s~1t/b~1c/0/0"};
    REQUIRE(all.size() == expected.size());
    for (std::size_t i = 0; i < all.size(); ++i) CHECK(all[i].first == expected[i]);
    CHECK(all[5].second == PathSegments{"s/t", "a", "x~", "1", "y"});
    for (std::size_t every = 2; every <= 4; ++every) {
      std::size_t i = 0;
      walk_tree(root, {"s/t"}, [&](const TreeVisit& v) {
        if (i % every == 1) CHECK(v.path() == all[i].first);
        if (i % every == 0) CHECK(v.segments() == all[i].second);
        ++i;
        return true;
      });
    }
  }

  TEST_CASE("node_child_count counts what node_children lists") {
    for (const char* text : {R"J({"a": 1, "__muutils_format__": "x(SerializableDataclass)", "b": 2})J", "[1, 2, 3]",
                             "{}", R"({"k": {"__muutils_format__": "numpy.ndarray:external"}})", "7"}) {
      const Json j = json::parse_json(text, "t");
      const Node n = classify(j);
      CHECK(node_child_count(n) == node_children(n).size());
    }
  }

  TEST_CASE("is_scalar_list") {
    CHECK(is_scalar_list(json::parse_json("[1, \"a\", null]", "t")));
    CHECK(is_scalar_list(json::parse_json("[]", "t")));
    CHECK_FALSE(is_scalar_list(json::parse_json("[[1]]", "t")));
    CHECK_FALSE(is_scalar_list(json::parse_json("{}", "t")));
  }
}
