#include <doctest/doctest.h>

#include "doctest_printers.hpp"

#include <algorithm>
#include <memory>

#include "test_support.hpp"
#include "verify/verify_checks.hpp"
#include "zanj_fixture.hpp"
#include "zip/archive_access.hpp"
#include "object/zanj_file_access.hpp"

using namespace zanj;
using namespace zanj::verify;
using Role = MemberPlan::Role;
using test::fixture_main;
using test::fixture_meta;
using test::FixtureParts;

namespace {

struct Consistency {
  VerifyReport report;
  std::shared_ptr<ZanjDocuments> docs = std::make_shared<ZanjDocuments>();  // the plans view them: never moved
  std::vector<MemberPlan> plans;
  std::vector<std::string> codes;
};

Consistency consistency(const Archive& archive, unsigned threads = 1) {
  Consistency r;
  r.plans = check_zanj_consistency(archive, std::vector<bool>(archive.entries().size(), true), {}, threads, *r.docs,
                                   r.report);
  for (const auto* list : {&r.report.errors, &r.report.warnings})
    for (const Problem& p : *list) r.codes.push_back(p.code);
  return r;
}

Consistency consistency(const FixtureParts& parts, std::vector<test::TestMember> extra = {}) {
  auto members = test::fixture_members(parts);
  members.insert(members.end(), extra.begin(), extra.end());
  return consistency(zip::open_archive(std::make_unique<io::MemorySource>(test::build_zip(members).bytes), "f"));
}

/// The same verdict, word for word, and the same plans: what a check made on several threads
/// must give, against the serial one.
void check_same_consistency(const Consistency& serial, const Consistency& other) {
  CHECK(serial.report.errors == other.report.errors);
  CHECK(serial.report.warnings == other.report.warnings);
  CHECK(serial.report.code_counts == other.report.code_counts);
  CHECK(serial.report.checked == other.report.checked);
  REQUIRE(serial.plans.size() == other.plans.size());
  for (std::size_t i = 0; i < serial.plans.size(); ++i) {
    CAPTURE(i);
    CHECK(serial.plans[i].role == other.plans[i].role);
    CHECK(serial.plans[i].path == other.plans[i].path);
    CHECK(serial.plans[i].in_rows == other.plans[i].in_rows);
    CHECK(serial.plans[i].arrays.size() == other.plans[i].arrays.size());
    CHECK(serial.plans[i].lines().line_references.size() == other.plans[i].lines().line_references.size());
  }
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_SUITE("verify_zanj") {
  TEST_CASE("plans say what each member is and what it must agree with") {
    const Consistency r = consistency(FixtureParts{});
    CHECK(r.codes.empty());
    REQUIRE(r.plans.size() == 5);
    CHECK(r.plans[0].role == Role::meta_json);
    CHECK(r.plans[1].role == Role::main_json);
    CHECK(r.plans[2].role == Role::npy);
    REQUIRE(r.plans[2].arrays.size() == 1);
    CHECK(classify(r.plans[2].arrays[0]).array->shape == std::vector<std::uint64_t>{4, 3});
    CHECK(r.plans[2].path == "arr");
    CHECK(r.plans[3].role == Role::jsonl);
    CHECK(r.plans[3].lines().rows == 3u);  // from externals_info
    CHECK(r.plans[3].list_elements);
    CHECK(r.plans[4].lines().rows == 2u);  // from the node
    CHECK(r.plans[4].lines().columns == std::vector<std::string>{"a", "b"});
    CHECK(r.report.checked.references == 3);
    CHECK(r.report.checked.members_read == 2);  // the two JSON members
  }

  TEST_CASE("references in the meta are legitimate (tuple_list.zanj)") {
    const Consistency r = consistency(test::open_corpus("tuple_list.zanj"));
    CHECK(r.codes.empty());
    CHECK(r.report.checked.references == 6);
    CHECK(std::count_if(r.plans.begin(), r.plans.end(), [](const MemberPlan& p) { return p.role == Role::jsonl; }) ==
          6);
  }

  TEST_CASE("missing and broken documents") {
    auto members = test::fixture_members();
    members.erase(members.begin() + 1);
    CHECK(
        consistency(zip::open_archive(std::make_unique<io::MemorySource>(test::build_zip(members).bytes), "f")).codes ==
        std::vector<std::string>{"missing_main"});
    FixtureParts p;
    p.main = "{\"a\": [1, }";
    CHECK(consistency(p).codes == std::vector<std::string>{"json_invalid"});
    p = {};
    p.meta = "[]";
    CHECK(consistency(p).codes == std::vector<std::string>{"meta_not_object"});
    p.meta = "{\"zanj_cfg\": {}}";
    CHECK(consistency(p).codes == std::vector<std::string>{"no_externals_info"});
  }

  TEST_CASE("references: dangling, malformed, stray members") {
    FixtureParts p;
    p.main = replaced(fixture_main(), "\"$ref\": \"lst.jsonl\"", "\"$ref\": \"gone.jsonl\"");
    const Consistency dangling = consistency(p);
    CHECK(std::count(dangling.codes.begin(), dangling.codes.end(), "dangling_ref") == 1);
    CHECK(std::count(dangling.codes.begin(), dangling.codes.end(), "externals_info_mismatch") == 2);
    p.main = replaced(fixture_main(), "\"shape\": [4, 3],", "");
    CHECK(consistency(p).codes == std::vector<std::string>{"bad_reference"});
    p.main = replaced(fixture_main(), "\"$ref\": \"tab.jsonl\",", "");
    const Consistency no_ref = consistency(p);
    CHECK(std::count(no_ref.codes.begin(), no_ref.codes.end(), "bad_reference") == 1);
    const Consistency stray = consistency(FixtureParts{}, {{"stray.bin", "x"}});  // the loader ignores it
    CHECK(stray.codes == std::vector<std::string>{"unreferenced_member"});
    CHECK(stray.report.errors.empty());
  }

  TEST_CASE("externals_info: path, item_type, missing entry, len(data)") {
    FixtureParts p;
    p.meta = replaced(fixture_meta(), "\"path\": [\"arr\"]", "\"path\": [\"lst\"]");
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch"});
    p.meta = replaced(fixture_meta(), "{\"item_type\": \"npy\"", "{\"item_type\": \"jsonl\"");
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch"});
    p.meta =
        replaced(fixture_meta(), "\"tab.jsonl\": {\"item_type\": \"jsonl\", \"path\": [\"tab\"], \"len(data)\": 2}",
                 "\"tab.jsonl\": 7");
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch"});
    p.meta = replaced(fixture_meta(),
                      ",\n   \"tab.jsonl\": {\"item_type\": \"jsonl\", \"path\": [\"tab\"], \"len(data)\": 2}", "");
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch"});
    p.meta = replaced(fixture_meta(), "\"path\": [\"tab\"], \"len(data)\": 2", "\"path\": [\"tab\"], \"len(data)\": 5");
    CHECK(consistency(p).codes == std::vector<std::string>{"jsonl_row_count"});
    p.meta = replaced(fixture_meta(), "\"path\": [\"arr\"], \"len(data)\": 4", "\"path\": [\"arr\"], \"len(data)\": 3");
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_len"});
  }

  TEST_CASE("externals_info paths are walked with Python subscripts") {
    FixtureParts p;
    p.main = replaced(fixture_main(), "\"arr\": {", "\"7\": {");  // the array under the key "7"
    p.meta = replaced(fixture_meta(), "\"path\": [\"arr\"]", "\"path\": [\"7\"]");
    CHECK(consistency(p).codes.empty());
    p.meta = replaced(fixture_meta(), "\"path\": [\"arr\"]", "\"path\": [7]");  // dict[7]: KeyError
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch"});
    p.main = replaced(fixture_main(), "\"arr\": {", "\"l\": [0, {");
    p.main = replaced(p.main, "\"n_elements\": 12}", "\"n_elements\": 12}]");  // {"l": [0, ARRAY]}
    for (const char* path : {"[\"l\", 1]", "[\"l\", true]", "[\"l\", -1]"}) {
      p.meta = replaced(fixture_meta(), "[\"arr\"]", path);
      CAPTURE(path);
      const Consistency r = consistency(p);
      CHECK(r.codes.empty());
      CHECK(r.plans[2].path == "l/1");
    }
    for (const char* path : {"[\"l\", \"1\"]", "[\"l\", 2]", "[\"l\", 1.0]", "[]", "\"l\""}) {
      p.meta = replaced(fixture_meta(), "[\"arr\"]", path);
      CAPTURE(path);
      CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch"});
    }
  }

  TEST_CASE("a reference inside an external list's lines is found through externals_info") {
    // ZANJ serializes the items of a long list before writing them as .jsonl lines, so a large
    // array item becomes its own member, referred to from inside the list's member.
    FixtureParts p;
    p.lst =
        "0\n{\"__muutils_format__\": \"numpy.ndarray:external\", \"$ref\": \"lst/1.npy\", \"shape\": [4, 3], "
        "\"dtype\": \"float32\", \"n_elements\": 12}\n2\n";
    p.meta = replaced(fixture_meta(), "\"arr.npy\": {",
                      "\"lst/1.npy\": {\"item_type\": \"npy\", \"path\": [\"lst\", 1]},\n   \"arr.npy\": {");
    const Consistency r = consistency(p, {{"lst/1.npy", test::fixture_npy(), true}});
    CHECK(r.codes.empty());
    CHECK(r.plans.back().role == Role::npy);
    CHECK(r.plans.back().path == "lst/1");
    p.meta = replaced(fixture_meta(), "\"arr.npy\": {",
                      "\"lst/1.npy\": {\"item_type\": \"npz\", \"path\": [\"lst\", 1]},\n   \"arr.npy\": {");
    CHECK(consistency(p, {{"lst/1.npy", test::fixture_npy(), true}}).codes ==
          std::vector<std::string>{"externals_info_mismatch"});
  }

  TEST_CASE("two nodes sharing a member is a warning; as two kinds, an error") {
    FixtureParts p;
    p.main =
        replaced(fixture_main(), "\"name\": \"x\",",
                 "\"name\": \"x\", \"again\": {\"__muutils_format__\": \"list:external\", \"$ref\": \"lst.jsonl\"},");
    CHECK(consistency(p).codes == std::vector<std::string>{"externals_info_mismatch", "shared_member"});
    p.main =
        replaced(fixture_main(), "\"name\": \"x\",",
                 "\"name\": \"x\", \"again\": {\"__muutils_format__\": \"list:external\", \"$ref\": \"arr.npy\"},");
    const Consistency r = consistency(p);
    CHECK(std::count(r.codes.begin(), r.codes.end(), "bad_reference") == 1);
  }

  TEST_CASE("externals_info entries walked on several threads give the serial verdict, word for word") {
    // 640 external arrays, over the count that is walked on several threads; one entry in 40 of
    // each fault, a reference in the meta, and two-key paths into an external list's lines.
    constexpr int kArrays = 640;
    std::string main = "{\"lst\": {\"__muutils_format__\": \"list:external\", \"$ref\": \"lst.jsonl\"}";
    std::string meta =
        "{\"m\": {\"__muutils_format__\": \"numpy.ndarray:external\", \"$ref\": \"a1.npy\", "
        "\"shape\": [2, 3], \"dtype\": \"float32\", \"n_elements\": 6}, \"externals_info\": {"
        "\"lst.jsonl\": {\"item_type\": \"jsonl\", \"path\": [\"lst\"], \"len(data)\": 3}";
    std::string lines;
    std::vector<test::TestMember> members;
    for (int i = 0; i < kArrays; ++i) {
      const std::string key = "a" + std::to_string(i), member = key + ".npy";
      main += ", \"" + key + "\": {\"__muutils_format__\": \"numpy.ndarray:external\", \"$ref\": \"" + member +
              "\", \"shape\": [2, 3], \"dtype\": \"float32\", \"n_elements\": 6}";
      members.push_back({member, test::fixture_npy("<f4", {2, 3}), true});
      std::string item_type = "npy", path = "[\"" + key + "\"]", len = "2";
      switch (i % 40) {
        case 3:
          item_type = "jsonl";
          break;  // the node wants npy
        case 7:
          len = "5";
          break;  // not the first dimension
        case 11:
          path = "[\"nope\"]";
          break;  // no such key
        case 13:
          path = "[\"a0\"]";
          break;  // a node whose $ref is another member
        case 17:
          continue;  // a reference node without an entry
        case 19:
          path = "[\"lst\", 1]";
          break;  // a line of the list, which is no node of a1's
        default:
          break;
      }
      meta += ", \"" + member + "\": {\"item_type\": \"" + item_type + "\", \"path\": " + path +
              ", \"len(data)\": " + len + "}";
    }
    meta += ", \"ghost.npy\": {\"item_type\": \"npy\", \"path\": [\"a5\"]}}}";
    main += "}";
    lines =
        "0\n{\"__muutils_format__\": \"numpy.ndarray:external\", \"$ref\": \"a19.npy\", \"shape\": [2, 3], "
        "\"dtype\": \"float32\", \"n_elements\": 6}\n2\n";
    members.insert(members.begin(), {{"__zanj_meta__.json", meta}, {"__zanj__.json", main}, {"lst.jsonl", lines}});
    const std::string bytes = test::build_zip(members).bytes;
    const auto open = [&] { return zip::open_archive(std::make_unique<io::MemorySource>(bytes), "many"); };
    const Archive one = open(), three = open();
    const Consistency serial = consistency(one, 1), side_by_side = consistency(three, 3);
    const auto count = [&](const std::string& code) {
      return std::count(serial.codes.begin(), serial.codes.end(), code);
    };
    // Each fault found (so the comparison below compares findings, not two empty reports).
    CHECK(count("externals_info_len") == kArrays / 40);
    CHECK(count("externals_info_mismatch") >= 4 * kArrays / 40);
    CHECK(count("dangling_ref") == 1);
    CHECK(count("shared_member") == 1);  // the meta's node shares a1.npy
    check_same_consistency(serial, side_by_side);
  }

  TEST_CASE("a large main document walked in runs on several threads gives the serial verdict, word for word") {
    // Over the 65,536 values from which the main document's walk takes the threads: 6,000
    // records, an inline array each, one in 25 of them with a shape its data does not have
    // (240: past the 100 listed per code), one in 50 with a reference to a member that is not
    // there, and one in 300 sharing another record's member.
    constexpr int kRecords = 6000;
    std::string main = "{";
    std::string meta = "{\"externals_info\": {";
    std::vector<test::TestMember> members;
    for (int i = 0; i < kRecords; ++i) {
      const std::string key = "r" + std::to_string(i);
      main += std::string(i ? ", " : "") + "\"" + key + "\": {\"id\": " + std::to_string(i) +
              ", \"w\": {\"__muutils_format__\": \"numpy.ndarray:array_list_meta\", \"data\": [[1, 2], [3, 4]], "
              "\"shape\": [2, " +
              (i % 25 == 4 ? "3" : "2") + "], \"dtype\": \"int64\", \"n_elements\": " + (i % 25 == 4 ? "6" : "4") + "}";
      if (i % 50 == 7 || i % 300 == 11) {
        const std::string member = (i % 300 == 11 ? "e7" : "e" + std::to_string(i)) + ".npy";
        main += ", \"e\": {\"__muutils_format__\": \"numpy.ndarray:external\", \"$ref\": \"" + member +
                "\", \"shape\": [2, 3], \"dtype\": \"float32\", \"n_elements\": 6}";
        if (i % 50 == 7 && i % 100 == 7) members.push_back({member, test::fixture_npy("<f4", {2, 3}), true});
        if (i % 300 != 11)
          meta += std::string(meta.back() == '{' ? "" : ", ") + "\"" + member +
                  "\": {\"item_type\": \"npy\", \"path\": [\"" + key + "\", \"e\"], \"len(data)\": 2}";
      }
      main += "}";
    }
    main += "}";
    meta += "}}";
    members.insert(members.begin(), {{"__zanj_meta__.json", meta}, {"__zanj__.json", main}});
    const std::string bytes = test::build_zip(members).bytes;
    const auto open = [&] { return zip::open_archive(std::make_unique<io::MemorySource>(bytes), "runs"); };
    const Archive one = open();
    const Consistency serial = consistency(one, 1);
    REQUIRE(serial.docs->main);
    REQUIRE(serial.docs->main->values() >= (1u << 16));
    const auto count = [&](const std::string& code) {
      return std::count(serial.codes.begin(), serial.codes.end(), code);
    };
    // Each fault found (so the comparisons below compare findings, not two empty reports).
    const auto counted = [&](const std::string& code) {
      for (const auto& [c, n] : serial.report.code_counts)
        if (c == code) return n;
      return std::uint64_t{0};
    };
    CHECK(count("inline_array_invalid") == 100);  // listed; the rest counted
    CHECK(counted("inline_array_invalid") == kRecords / 25);
    CHECK(counted("dangling_ref") >= kRecords / 100);             // the 60 members not there
    CHECK(counted("shared_member") == kRecords / 300);            // the 20 records sharing e7.npy
    CHECK(counted("externals_info_mismatch") == kRecords / 300);  // and having no entry
    CHECK(serial.report.checked.inline_arrays == kRecords);
    for (unsigned threads : {2u, 3u, 8u}) {
      CAPTURE(threads);
      const Archive again = open();
      check_same_consistency(serial, consistency(again, threads));
    }
  }
}
