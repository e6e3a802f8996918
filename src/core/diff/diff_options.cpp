// The user's say in a diff: tolerances (global and per path) and excluded paths.
#include <fnmatch.h>

#include <charconv>
#include <cmath>

#include "zanj/diff.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

bool matches(const std::string& glob, const std::string& path) { return fnmatch(glob.c_str(), path.c_str(), 0) == 0; }

}  // namespace

double parse_tolerance_value(std::string_view text, std::string_view what) {
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
    throw Error(std::string(what) + " must be a number >= 0, not '" + std::string(text) + "'", Exit::usage);
  return value;
}

ToleranceRule parse_tolerance_rule(std::string_view spec) {
  const auto eq = spec.rfind('=');
  if (eq == std::string_view::npos || eq == 0)
    throw Error("--tol wants PATH_GLOB=RTOL[,ATOL], not '" + std::string(spec) + "'", Exit::usage);
  ToleranceRule rule;
  rule.glob = std::string(spec.substr(0, eq));
  const std::string_view numbers = spec.substr(eq + 1);
  const auto comma = numbers.find(',');
  rule.tolerance.rtol = parse_tolerance_value(numbers.substr(0, comma), "--tol RTOL");
  if (comma != std::string_view::npos)
    rule.tolerance.atol = parse_tolerance_value(numbers.substr(comma + 1), "--tol ATOL");
  return rule;
}

Tolerance tolerance_for(const DiffOptions& options, std::string_view path) {
  if (options.rules.empty()) return options.tolerance;
  // A rule for a path applies below it too: try the path, then each ancestor.
  std::vector<std::string> candidates{std::string(path)};
  for (auto slash = path.rfind('/'); slash != std::string_view::npos; slash = path.rfind('/', slash - 1)) {
    candidates.emplace_back(path.substr(0, slash));
    if (slash == 0) break;
  }
  for (auto rule = options.rules.rbegin(); rule != options.rules.rend(); ++rule)
    for (const auto& candidate : candidates)
      if (matches(rule->glob, candidate)) return rule->tolerance;
  return options.tolerance;
}

bool is_excluded(const DiffOptions& options, std::string_view path) {
  if (options.excludes.empty()) return false;
  const std::string text(path);
  for (const auto& glob : options.excludes)
    if (matches(glob, text)) return true;
  return false;
}

}  // namespace zanj
