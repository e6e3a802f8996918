#pragma once
// Lets doctest print lists of strings (problem codes) when a comparison fails.
#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace doctest {
template <>
struct StringMaker<std::vector<std::string>> {
  static String convert(const std::vector<std::string>& list) {
    std::string out = "{";
    for (std::size_t i = 0; i < list.size(); ++i) out += (i ? ", \"" : "\"") + list[i] + "\"";
    return String((out + "}").c_str());
  }
};
}  // namespace doctest
