#pragma once
// Small .zanj archives built in memory for tests: __zanj_meta__.json, __zanj__.json, then any
// data members, stored (zip_builder.hpp), opened as a ZanjFile.
#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "object/zanj_file_access.hpp"
#include "zip_builder.hpp"
#include "zip/archive_access.hpp"

namespace zanj::test {

inline ZanjFile make_zanj(const std::string& root_json, std::vector<TestMember> data_members = {},
                          const std::string& meta_json = R"({"timestamp": 1.0})") {
  std::vector<TestMember> members{{"__zanj_meta__.json", meta_json}, {"__zanj__.json", root_json}};
  for (auto& m : data_members) members.push_back(std::move(m));
  return ZanjFile(zip::open_archive(std::make_unique<io::MemorySource>(build_zip(members).bytes), "test.zanj"));
}

/// A .jsonl member body: one line per value.
inline std::string jsonl(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

}  // namespace zanj::test
