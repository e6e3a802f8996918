#pragma once
// The blanks around a value read from a line of text (an HTTP header, a line of an AWS config
// file), trimmed by one rule: spaces and tabs on either side, and the line's end (CR, LF).
#include <string_view>

namespace zanj::base {

inline std::string_view trim_line(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r' || text.back() == '\n'))
    text.remove_suffix(1);
  return text;
}

}  // namespace zanj::base
