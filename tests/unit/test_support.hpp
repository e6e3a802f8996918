#pragma once
// Helpers the unit tests share that fit none of the narrower headers (temp_dir.hpp for scratch
// files, zip_builder.hpp / npy_archive.hpp / zanj_builder.hpp / zanj_fixture.hpp for archives
// built in memory, array_fixture.hpp for inline arrays): the on-disk test corpus, reading
// members back, and the exit status an error carries.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "json/json_parse.hpp"

// tests/CMakeLists.txt passes the corpus directory; this default serves a compile by hand from
// the source root.
#ifndef ZANJ_TEST_CORPUS
#define ZANJ_TEST_CORPUS "tests/corpus"
#endif

namespace zanj::test {

/// The test corpus directory (tests/corpus), for tests that build their own paths in it.
inline const std::string kCorpus = ZANJ_TEST_CORPUS;

/// Path of a file in the test corpus, e.g. corpus("malformed/bad_crc.zanj").
inline std::string corpus(const std::string& name) { return kCorpus + "/" + name; }

/// Whether parse_json (json/json_parse.hpp) accepts `text`: Python 3.11's json.loads(bytes) is
/// the oracle the JSON tests hold it to (docs/format.md).
inline bool parses_as_json(std::string_view text) {
  try {
    (void)json::parse_json(text, "t");
    return true;
  } catch (const Error&) {
    return false;
  }
}

/// Path of a pack input in the corpus's convert/ folder (.npy, .npz, .json files).
inline std::string convert(const std::string& name) { return corpus("convert/" + name); }

/// A corpus archive, opened from disk.
inline Archive open_corpus(const std::string& name) { return Archive(corpus(name)); }

/// The whole content of the member `name`, which the archive must hold.
inline std::string member(const Archive& a, const std::string& name) {
  const ZipEntry* e = a.find(name);
  REQUIRE(e);
  return a.read_all(*e, 1 << 30);
}

/// The names of a plan's or result's members, in order (anything with `.members[i].name`).
std::vector<std::string> member_names(const auto& with_members) {
  std::vector<std::string> out;
  for (const auto& m : with_members.members) out.push_back(m.name);
  return out;
}

/// The JSON list [0, 1, ..., n-1], for long arrays and lists.
inline std::string range_json(int n) {
  std::string s = "[";
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(i);
  return s + "]";
}

/// The exit status of the zanj::Error `action` throws; Exit::ok when it throws none.
Exit exit_of(const auto& action) {
  try {
    action();
  } catch (const Error& e) {
    return e.exit();
  }
  return Exit::ok;
}

}  // namespace zanj::test
