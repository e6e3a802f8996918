#include "report/byte_groups.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "report/html_text.hpp"

namespace zanj::report {
namespace {

struct Sizes {
  std::uint64_t external = 0, packed = 0, inline_bytes = 0;
  std::uint64_t total() const { return external + inline_bytes; }
  void add(const ArrayBytes& a) {
    (a.external ? external : inline_bytes) += a.bytes;
    if (a.external) packed += a.packed;
  }
  void add(const Sizes& s) {
    external += s.external;
    packed += s.packed;
    inline_bytes += s.inline_bytes;
  }
};

struct Group {
  Sizes sizes;
  std::map<std::string, Sizes> children;  ///< by the next key
};

/// The key of `path` right below `prefix` ("" = the root), and whether more keys follow it;
/// false when `path` is not below `prefix`.
bool key_below(std::string_view path, std::string_view prefix, std::string_view& key, std::string_view& rest) {
  if (!prefix.empty()) {
    if (!path.starts_with(prefix) || path.size() <= prefix.size() || path[prefix.size()] != '/') return false;
    path.remove_prefix(prefix.size() + 1);
  }
  const std::size_t slash = path.find('/');
  key = path.substr(0, slash);
  rest = slash == std::string_view::npos ? std::string_view() : path.substr(slash + 1);
  return true;
}

std::map<std::string, Group> groups_below(const std::vector<ArrayBytes>& arrays, std::string_view prefix) {
  std::map<std::string, Group> groups;
  for (const ArrayBytes& a : arrays) {
    std::string_view key, rest;
    if (!key_below(a.path, prefix, key, rest)) continue;
    Group& g = groups[std::string(key)];
    g.sizes.add(a);
    if (!rest.empty()) g.children[std::string(rest.substr(0, rest.find('/')))].add(a);
  }
  return groups;
}

Bar bar(std::string label, const Sizes& s, bool child) {
  return {std::move(label), s.total(), s.packed, bytes_value_text(s.external, s.packed, s.inline_bytes), child};
}

/// The `limit` largest of `items` as bars, the rest summed into one "and K more" bar.
template <typename Item, typename Label>
void largest_bars(std::vector<Bar>& bars, std::vector<Item> items, std::size_t limit, bool child,
                  const std::string& more_label, const Label& draw) {
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& x, const Item& y) { return x.second.total() > y.second.total(); });
  Sizes rest;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i < limit || items.size() == limit + 1)
      draw(items[i]);
    else
      rest.add(items[i].second);
  }
  if (items.size() > limit + 1)
    bars.push_back(bar("and " + std::to_string(items.size() - limit) + " more" + more_label, rest, child));
}

}  // namespace

std::string bytes_value_text(std::uint64_t external_bytes, std::uint64_t packed, std::uint64_t inline_bytes) {
  std::string text;
  if (external_bytes || !inline_bytes)
    text = byte_size_text(external_bytes) + " / " + byte_size_text(packed) + " packed";
  if (inline_bytes) text += (text.empty() ? "" : ", ") + byte_size_text(inline_bytes) + " inline";
  return text;
}

std::vector<Bar> byte_group_bars(const std::vector<ArrayBytes>& arrays, const ByteGroupLimits& limits) {
  // Down a chain of lone containers: while the level holds one group, a container, its bar
  // would be the total and nothing more (the labels keep the whole path).
  std::string prefix;
  std::map<std::string, Group> groups = groups_below(arrays, prefix);
  while (groups.size() == 1 && !groups.begin()->second.children.empty()) {
    prefix += (prefix.empty() ? "" : "/") + groups.begin()->first;
    groups = groups_below(arrays, prefix);
  }
  using Item = std::pair<std::string, Sizes>;
  std::vector<Item> parents;
  parents.reserve(groups.size());
  for (const auto& [key, g] : groups) parents.emplace_back(key, g.sizes);
  std::vector<Bar> bars;
  largest_bars(bars, std::move(parents), limits.parents, false, "", [&](const Item& parent) {
    const std::string path = (prefix.empty() ? "" : prefix + "/") + parent.first;
    bars.push_back(bar(path.empty() ? "/" : path, parent.second, false));
    const Group& g = groups.at(parent.first);
    if (g.children.size() < 2) return;  // a lone child says nothing its parent does not
    std::vector<Item> children(g.children.begin(), g.children.end());
    largest_bars(bars, std::move(children), limits.children, true, " in " + path,
                 [&](const Item& c) { bars.push_back(bar(c.first, c.second, true)); });
  });
  return bars;
}

}  // namespace zanj::report
