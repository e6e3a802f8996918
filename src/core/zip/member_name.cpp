#include "zip/member_name.hpp"

#include <algorithm>

namespace zanj::zip {

std::optional<std::string> member_name_problem(std::string_view name) {
  if (name.empty()) return "empty name";
  if (!base::is_valid_utf8(name)) return "name is not valid UTF-8";
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) return "name contains a NUL or control character";
  if (name.find('\\') != std::string_view::npos) return "name contains a backslash";
  if (name.front() == '/') return "absolute path";
  if (name.size() >= 2 && name[1] == ':' && ((name[0] >= 'A' && name[0] <= 'Z') || (name[0] >= 'a' && name[0] <= 'z')))
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

}  // namespace zanj::zip
