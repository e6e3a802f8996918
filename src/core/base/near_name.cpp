// "Did you mean ...?": the one rule every suggestion follows (subcommands, options, object
// paths), so that a typo gets the same help wherever it is made.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/error.hpp"

namespace zanj {
namespace {

/// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
/// neighbours ("lsit" for "list") each cost 1. Rows of the shorter kind only: names are short.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        current[j] = std::min(current[j], before[j - 2] + 1);
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

}  // namespace

std::string nearest_name(std::string_view wrong, const std::vector<std::string>& names) {
  // Close enough to be a typo: a third of the longer name, at least 1 and at most 3 edits.
  std::string best;
  std::size_t best_distance = 0;
  for (const std::string& name : names) {
    if (name == wrong || name.empty()) continue;
    const std::size_t limit = std::clamp<std::size_t>(std::max(name.size(), wrong.size()) / 3, 1, 3);
    const std::size_t d = edit_distance(wrong, name);
    if (d <= limit && (best.empty() || d < best_distance)) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

}  // namespace zanj
