#pragma once
// A value difference with every field set, for the tests of its text (diff) and of its JSON
// (the command line's --json).
#include <string>
#include <utility>

#include "zanj/diff.hpp"

namespace zanj::test {

inline Difference values_difference(DiffKind kind, std::string unit) {
  ValueDifferences v;
  v.unit = std::move(unit);
  v.compared = 512;
  v.differing = 12;
  v.first_at = JsonArray{Json(0), Json(1)};
  v.first = "1.0 -> 1.5";
  v.max_abs = 0.25;
  v.max_abs_at = JsonArray{Json(3), Json(7)};
  v.max_rel = 0.01;
  v.max_rel_at = JsonArray{Json(0), Json(2)};
  v.tolerance = {1e-3, 0};
  return {DiffScope::object, "w", kind, nullptr, nullptr, v};
}

}  // namespace zanj::test
