#pragma once
// Arrays for the formatting tests: an inline node given as JSON, opened as ArrayValues, and
// its printed text collected in a string.
#include <memory>
#include <string>

#include "npy_archive.hpp"
#include "array/array_reader.hpp"
#include "zanj/json.hpp"
#include "zanj/format.hpp"
#include "zanj/array.hpp"
#include "zanj/tree.hpp"
#include "json/json_parse.hpp"
#include "object/tree_json.hpp"

namespace zanj::test {

struct InlineArray {
  Archive archive = memory_archive({{"unused", "x"}});
  Json json;
  std::unique_ptr<ArrayValues> values;

  /// `data`, `dtype` and `shape` of an array_list_meta node (or another mode's format key).
  InlineArray(const std::string& data, const std::string& dtype, const std::string& shape,
              const std::string& mode = "array_list_meta") {
    json = json::parse_json(R"({"__muutils_format__": "numpy.ndarray:)" + mode + R"(", "data": )" + data +
                                R"(, "dtype": ")" + dtype + R"(", "shape": )" + shape + "}",
                            "test");
    values = std::make_unique<ArrayValues>(archive, *object::classify(json).array, "a");
  }

  /// The elements a slice text such as "[1, 0:2]" selects; all of them for "".
  Selection selection(const std::string& slice = "") const {
    return slice.empty() ? select_all(values->shape()) : select(parse_slice(slice), values->shape());
  }
};

/// Whatever `print` writes to an OutputBuffer, as one string.
template <typename Print>
std::string printed(Print&& print, std::size_t capacity = 64) {
  std::string all;
  OutputBuffer out([&](std::string_view s) { all.append(s); }, capacity);
  print(out);
  out.flush();
  return all;
}

}  // namespace zanj::test
