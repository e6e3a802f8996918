#include "zanj/member_name.hpp"

#include <cstdio>

namespace zanj {

bool is_valid_utf8(std::string_view text) {
  std::size_t i = 0;
  const std::size_t n = text.size();
  while (i < n) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else {
      return false;
    }
    if (i + len > n) return false;
    for (std::size_t k = 1; k < len; ++k) {
      const auto cc = static_cast<unsigned char>(text[i + k]);
      if ((cc & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (cc & 0x3F);
    }
    static constexpr std::uint32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += len;
  }
  return true;
}

std::string printable_name(std::string_view name) {
  const bool utf8 = is_valid_utf8(name);
  std::string out;
  for (unsigned char c : name) {
    if (c < 0x20 || c == 0x7f || (!utf8 && c >= 0x80)) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::optional<std::string> member_name_problem(std::string_view name) {
  if (name.empty()) return "empty name";
  if (!is_valid_utf8(name)) return "name is not valid UTF-8";
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return "name contains a NUL or control character";
  if (name.find('\\') != std::string_view::npos) return "name contains a backslash";
  if (name.front() == '/') return "absolute path";
  if (name.size() >= 2 && name[1] == ':' &&
      ((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
    return "name starts with a drive letter";
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('/', start), name.size());
    const std::string_view segment = name.substr(start, end - start);
    if (segment == "..") return "name contains a '..' segment";
    if (segment == ".") return "name contains a '.' segment";
    if (segment.empty() && end != name.size()) return "name contains an empty segment ('//')";
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace zanj
