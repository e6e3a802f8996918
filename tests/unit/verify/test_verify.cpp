#include <doctest/doctest.h>

#include "doctest_printers.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"
#include "zanj/verify.hpp"
#include "verify/verify_checks.hpp"
#include "zanj_fixture.hpp"

using namespace zanj;
using namespace zanj::verify;
using test::corpus;
using test::fixture_zip;
using test::FixtureParts;

namespace {

/// The same problems in the same order, and the same counts.
bool same_findings(const VerifyReport& a, const VerifyReport& b) {
  return a.errors == b.errors && a.warnings == b.warnings && a.checked == b.checked;
}

std::vector<std::string> codes(const VerifyReport& r) {
  std::vector<std::string> out;
  for (const auto* list : {&r.errors, &r.warnings})
    for (const Problem& p : *list) out.push_back(p.code);
  return out;
}

bool has(const VerifyReport& r, std::string_view code) {
  const auto all = codes(r);
  return std::find(all.begin(), all.end(), code) != all.end();
}

const char* const kValid[] = {"basic.zanj",      "dataclass.zanj", "dataframe.zanj",  "dtypes.zanj", "inline_b64.zanj",
                              "inline_hex.zanj", "model.zanj",     "nan_values.zanj", "stored.zanj", "tuple_list.zanj"};

}  // namespace

TEST_SUITE("verify") {
  TEST_CASE("every corpus archive is valid, and every member is read once") {
    for (const char* name : kValid) {
      CAPTURE(name);
      const VerifyReport r = verify_file(corpus(name));
      CHECK(r.ok());
      CHECK(codes(r).empty());
      CHECK(r.checked.members > 0);
      CHECK(r.checked.members_read == r.checked.members);
    }
  }

  TEST_CASE("the malformed corpus is invalid, each for its reason") {
    const std::pair<const char*, const char*> cases[] = {{"truncated.zanj", "no_eocd"},
                                                         {"bad_crc.zanj", "crc_mismatch"},
                                                         {"no_main.zanj", "missing_main"},
                                                         {"no_meta.zanj", "missing_meta"},
                                                         {"bad_main_json.zanj", "json_invalid"},
                                                         {"missing_external.zanj", "dangling_ref"},
                                                         {"zip_slip.zanj", "unsafe_name"},
                                                         {"absolute_path.zanj", "unsafe_name"},
                                                         {"npy_shape_mismatch.zanj", "npy_mismatch"}};
    for (const auto& [name, code] : cases) {
      CAPTURE(name);
      const VerifyReport r = verify_file(corpus(std::string("malformed/") + name));
      CHECK_FALSE(r.ok());
      CHECK(has(r, code));
    }
    // The problem's message starts with what is wrong: the report already names the member.
    const VerifyReport bad = verify_file(corpus("malformed/bad_main_json.zanj"));
    REQUIRE_FALSE(bad.errors.empty());
    CHECK(bad.errors[0].message.rfind("invalid JSON (", 0) == 0);
  }

  TEST_CASE("a missing file cannot be verified (usage), a non-ZIP file is invalid") {
    try {
      verify_file(corpus("nope.zanj"));
      FAIL("verified a missing file");
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::usage);
    }
    const VerifyReport r = verify_bytes(std::string(500, 'x'), "junk");
    CHECK(r.file == "junk");
    CHECK(codes(r) == std::vector<std::string>{"no_eocd"});
  }

  TEST_CASE("the built fixture is valid; memory and file give the same report") {
    const VerifyReport r = verify_bytes(fixture_zip(), "fixture");
    CHECK(codes(r).empty());
    CHECK(r.checked.npy_members == 1);
    CHECK(r.checked.jsonl_members == 2);
    CHECK(r.checked.jsonl_rows == 5);
    CHECK(r.checked.inline_arrays == 1);
    CHECK(r.checked.references == 3);
    const VerifyReport disk = verify_file(corpus("dtypes.zanj"));
    const VerifyReport memory = verify_bytes(test::read_file(corpus("dtypes.zanj")), corpus("dtypes.zanj"));
    CHECK(same_findings(disk, memory));
  }

  TEST_CASE("progress counts every data member's bytes once, whatever the threads") {
    const VerifyReport plain = verify_file(corpus("model.zanj"));
    for (unsigned threads : {1u, 2u, 4u}) {
      CAPTURE(threads);
      VerifyOptions options;
      options.threads = threads;
      std::uint64_t last = 0, total = 0, calls = 0;
      options.progress = [&](std::uint64_t done, std::uint64_t all) {
        CHECK(done > last);  // calls are serialized, so the count only grows
        last = done;
        total = all;
        ++calls;
      };
      const VerifyReport r = verify_file(corpus("model.zanj"), options);
      CHECK(r.ok());
      CHECK(calls > 0);
      CHECK(last == total);
      // The JSON members are read before the data pass and are not counted in it.
      CHECK(total < r.checked.bytes_read);
      CHECK(r.checked.bytes_read == plain.checked.bytes_read);
    }
  }

  TEST_CASE("all problems are reported, in the same order whatever the threads") {
    FixtureParts parts;
    parts.arr = test::fixture_npy("<f4", {3, 4});  // shape mismatch
    parts.lst = "0\n1\n";                          // row count
    parts.tab = "{\"a\": 1}\n[1]\n";               // columns, twice
    std::string bytes = fixture_zip(parts);
    VerifyOptions one, four;
    one.threads = 1;
    four.threads = 4;
    const VerifyReport a = verify_bytes(bytes, "f", one);
    const VerifyReport b = verify_bytes(bytes, "f", four);
    CHECK(codes(a) == std::vector<std::string>{"npy_mismatch", "jsonl_row_count", "table_columns", "table_columns"});
    CHECK(same_findings(a, b));
  }

  TEST_CASE("limits: total size refuses all inflation, entry count, JSON depth") {
    VerifyOptions small;
    small.limits.max_total_bytes = 100;
    const VerifyReport r = verify_bytes(fixture_zip(), "f", small);
    CHECK(has(r, "too_large"));
    CHECK(r.checked.bytes_read == 0);
    VerifyOptions few;
    few.limits.max_entries = 2;
    CHECK(codes(verify_bytes(fixture_zip(), "f", few)) == std::vector<std::string>{"too_many_entries"});
    VerifyOptions shallow;
    shallow.limits.max_json_depth = 1;
    CHECK(has(verify_bytes(fixture_zip(), "f", shallow), "json_too_deep"));
    VerifyOptions valueless;  // over the value limit: too_large, told apart from invalid JSON by type
    valueless.limits.max_json_values = 2;
    const VerifyReport over = verify_bytes(fixture_zip(), "f", valueless);
    CHECK(has(over, "too_large"));
    CHECK_FALSE(has(over, "json_invalid"));
  }

  TEST_CASE("large JSON members read side by side report what the serial reading reports") {
    // Over 1 MiB each, so that on two CPUs they are read at once (unless a limit could bind).
    const auto list = [](std::size_t n, const std::string& tail) {
      std::string out = "[";
      for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + std::string(R"({"k": )") + std::to_string(i) + "}";
      return out + tail + "]";
    };
    const std::string main = list(100000, ", NaN, nope"), meta = list(110000, ", {\"a\": 1, \"a\": 2}, nope");
    const std::string bytes = test::build_zip({{"__zanj_meta__.json", meta}, {"__zanj__.json", main}}).bytes;
    const VerifyReport together = verify_bytes(bytes, "f");
    VerifyOptions serial;  // a value limit the sizes could reach (the documents do not) reads one at a time
    serial.limits.max_json_values = (main.size() + meta.size()) / 2;
    const VerifyReport one_by_one = verify_bytes(bytes, "f", serial);
    CHECK(same_findings(together, one_by_one));
    std::vector<std::string> where;
    for (const Problem& p : together.errors) where.push_back(p.code + " " + p.member);
    CHECK(where == std::vector<std::string>{"json_invalid __zanj__.json", "json_invalid __zanj_meta__.json"});
  }
  TEST_CASE("verify_zanj_file: verify_file's report, from the documents a ZanjFile parsed") {
    // Every corpus archive a ZanjFile opens, the malformed ones included: the same problems,
    // in the same order, and the same counts, with the JSON members parsed once.
    std::size_t compared = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(test::kCorpus)) {
      if (entry.path().extension() != ".zanj") continue;
      const std::string path = entry.path().string();
      std::optional<ZanjFile> file;
      try {
        file.emplace(path);
      } catch (const Error&) {  // ambiguous, unreadable, or no __zanj__.json: verify_file's only
        continue;
      }
      CAPTURE(path);
      const VerifyReport reread = verify_file(path), reused = verify_zanj_file(*file);
      CHECK(same_findings(reread, reused));
      CHECK(reread.code_counts == reused.code_counts);
      ++compared;
    }
    CHECK(compared >= 30);
  }
  TEST_CASE("verify_zanj_file holds the directory to the entry limit, as verify_file does") {
    const std::string path = corpus("basic.zanj");
    VerifyOptions options;
    options.limits.max_entries = 2;
    const VerifyReport reread = verify_file(path, options), reused = verify_zanj_file(ZanjFile(path), options);
    CHECK(codes(reused) == std::vector<std::string>{"too_many_entries"});
    CHECK(same_findings(reread, reused));
  }
}
