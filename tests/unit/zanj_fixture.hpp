#pragma once
// A small, valid ZANJ archive built in memory (stored members, via zip_builder.hpp) for the
// verify tests, with one function per part so a test can break exactly one thing.
#include <string>
#include <vector>

#include "array/dtype.hpp"
#include "array/npy_header.hpp"
#include "zip_builder.hpp"

namespace zanj::test {

inline std::string fixture_npy(const char* descr = "<f4", std::vector<std::uint64_t> shape = {4, 3},
                               std::size_t extra_bytes = 0) {
  const array::Dtype dtype = array::parse_descr(descr);
  std::size_t count = 1;
  for (auto d : shape) count *= d;
  return array::make_npy_header(dtype, false, shape) + std::string(count * dtype.itemsize + extra_bytes, '\0');
}

inline std::string fixture_main() {
  return R"json({"name": "x",
 "arr": {"__muutils_format__": "numpy.ndarray:external", "$ref": "arr.npy", "shape": [4, 3],
         "dtype": "float32", "n_elements": 12},
 "lst": {"__muutils_format__": "list:external", "$ref": "lst.jsonl"},
 "tab": {"__muutils_format__": "pandas.DataFrame:external", "$ref": "tab.jsonl", "len(data)": 2,
         "columns": ["a", "b"]},
 "small": {"__muutils_format__": "numpy.ndarray:array_hex_meta", "data": "01000200", "shape": [2],
           "dtype": "int16", "n_elements": 2}})json";
}

inline std::string fixture_meta() {
  return R"json({"externals_info": {
   "arr.npy": {"item_type": "npy", "path": ["arr"], "len(data)": 4},
   "lst.jsonl": {"item_type": "jsonl", "path": ["lst"], "len(data)": 3},
   "tab.jsonl": {"item_type": "jsonl", "path": ["tab"], "len(data)": 2}}})json";
}

struct FixtureParts {
  std::string meta = fixture_meta();
  std::string main = fixture_main();
  std::string arr = fixture_npy();
  std::string lst = "0\n1\nNaN\n";
  std::string tab = "{\"a\": 1, \"b\": \"x\"}\n{\"a\": Infinity, \"b\": null}\n";
};

inline std::vector<TestMember> fixture_members(const FixtureParts& p = {}) {
  return {{"__zanj_meta__.json", p.meta},
          {"__zanj__.json", p.main},
          {"arr.npy", p.arr, true},
          {"lst.jsonl", p.lst, true},
          {"tab.jsonl", p.tab, true}};
}

inline std::string fixture_zip(const FixtureParts& p = {}) { return build_zip(fixture_members(p)).bytes; }

}  // namespace zanj::test
