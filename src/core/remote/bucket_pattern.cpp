#include "remote/bucket_pattern.hpp"

#include <vector>

namespace zanj::remote {

bool is_key_pattern(std::string_view key) { return key.find_first_of("*?") != std::string_view::npos; }

std::string_view pattern_literal_prefix(std::string_view pattern) {
  return pattern.substr(0, std::min(pattern.find_first_of("*?"), pattern.size()));
}

bool key_matches(std::string_view pattern, std::string_view key) {
  // Dynamic programming over (pattern position, key position): matched[k] says whether the
  // pattern read so far matches key[0, k). Linear memory, pattern × key time, no backtracking
  // blow-up whatever the pattern (object names are at most 1024 bytes).
  const std::size_t n = key.size();
  std::vector<char> matched(n + 1, 0), next(n + 1, 0);
  matched[0] = 1;
  for (std::size_t p = 0; p < pattern.size();) {
    std::fill(next.begin(), next.end(), 0);
    if (pattern[p] == '*') {
      const bool any = p + 1 < pattern.size() && pattern[p + 1] == '*';
      const std::size_t width = any ? 2 : 1;
      // "**/" may match no folder at all: "a/**/b" matches "a/b" (the slash goes with it).
      const bool folders = any && p + 2 < pattern.size() && pattern[p + 2] == '/';
      bool reach = false;
      for (std::size_t k = 0; k <= n; ++k) {
        reach = matched[k] || (reach && (any || key[k - 1] != '/'));
        next[k] = reach;
      }
      if (folders) {
        // After "**/": either the "**" and then a '/' were read, or nothing was (no folder).
        for (std::size_t k = n; k >= 1; --k) next[k] = (next[k - 1] && key[k - 1] == '/') || matched[k];
        next[0] = matched[0];
        p += 3;
      } else {
        p += width;
      }
    } else {
      for (std::size_t k = 1; k <= n; ++k)
        next[k] = matched[k - 1] && (pattern[p] == '?' ? key[k - 1] != '/' : key[k - 1] == pattern[p]);
      p += 1;
    }
    matched.swap(next);
  }
  return matched[n];
}

}  // namespace zanj::remote
