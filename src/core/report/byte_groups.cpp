#include "report/byte_groups.hpp"

#include <algorithm>
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

/// The arrays right below a prefix, summed by the key that follows it.
struct KeyedSizes {
  std::string_view key;  ///< a view into an array's path
  Sizes sizes;
  bool nested = false;  ///< some of its arrays lie deeper (it is a container)
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

/// The groups right below `prefix`, sorted by key; with `parent`, the groups right below that
/// key of `prefix` instead (its children). Built from the arrays sorted by key, not a map of
/// groups that each held a map of children: 50,000 arrays at the root made 12 MiB of nodes
/// there, most of a report's peak after its tree; children are summed only for the
/// parents drawn.
std::vector<KeyedSizes> groups_below(const std::vector<ArrayBytes>& arrays, std::string_view prefix,
                                     const std::string_view* parent = nullptr) {
  // The group an array counts in, and whether it lies deeper than that group.
  const auto group_of = [&](const ArrayBytes& a, std::string_view& key, bool& nested) {
    std::string_view rest;
    if (!key_below(a.path, prefix, key, rest)) return false;
    if (parent) {
      if (key != *parent || rest.empty()) return false;
      const std::size_t slash = rest.find('/');
      key = rest.substr(0, slash);
      nested = slash != std::string_view::npos;
    } else {
      nested = !rest.empty();
    }
    return true;
  };
  std::vector<std::pair<std::string_view, std::size_t>> keyed;  // key, array
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    std::string_view key;
    bool nested = false;
    if (group_of(arrays[i], key, nested)) keyed.emplace_back(key, i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<KeyedSizes> groups;
  for (const auto& [key, i] : keyed) {
    if (groups.empty() || groups.back().key != key) groups.push_back({key, {}, false});
    groups.back().sizes.add(arrays[i]);
    std::string_view same;
    bool nested = false;
    group_of(arrays[i], same, nested);
    groups.back().nested = groups.back().nested || nested;
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
  std::vector<KeyedSizes> groups = groups_below(arrays, prefix);
  while (groups.size() == 1 && groups.front().nested) {
    prefix += (prefix.empty() ? "" : "/") + std::string(groups.front().key);
    groups = groups_below(arrays, prefix);
  }
  using Item = std::pair<std::string_view, Sizes>;
  std::vector<Item> parents;
  parents.reserve(groups.size());
  for (const KeyedSizes& g : groups) parents.emplace_back(g.key, g.sizes);
  std::vector<KeyedSizes>().swap(groups);
  std::vector<Bar> bars;
  largest_bars(bars, std::move(parents), limits.parents, false, "", [&](const Item& parent) {
    const std::string path = (prefix.empty() ? "" : prefix + "/") + std::string(parent.first);
    bars.push_back(bar(path.empty() ? "/" : path, parent.second, false));
    const std::vector<KeyedSizes> below = groups_below(arrays, prefix, &parent.first);
    if (below.size() < 2) return;  // a lone child says nothing its parent does not
    std::vector<Item> children;
    children.reserve(below.size());
    for (const KeyedSizes& c : below) children.emplace_back(c.key, c.sizes);
    largest_bars(bars, std::move(children), limits.children, true, " in " + path,
                 [&](const Item& c) { bars.push_back(bar(std::string(c.first), c.second, true)); });
  });
  return bars;
}

}  // namespace zanj::report
