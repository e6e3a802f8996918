// `zanj hash --check`: pinned node digests against the archive's now, reporting the deepest
// differences only (a changed leaf changes every ancestor's digest; listing them all would
// bury the one that matters).
#include <unordered_map>
#include <unordered_set>

#include "zanj/hash.hpp"

namespace zanj {
namespace {

/// The parent of an object path: what comes before the last '/', "" for the root's children
/// (a '/' inside a key is written "~1", so every '/' separates segments).
std::string parent_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

}  // namespace

std::string_view hash_change_name(HashChange::Kind kind) {
  switch (kind) {
    case HashChange::Kind::changed:
      return "changed";
    case HashChange::Kind::missing:
      return "missing";
    case HashChange::Kind::added:
      return "added";
  }
  return "changed";
}

std::vector<HashChange> compare_digests(const std::vector<NodeDigest>& pinned, const std::vector<NodeDigest>& now) {
  std::unordered_map<std::string, const NodeDigest*> current, locked;
  for (const auto& n : now) current.emplace(n.path, &n);
  for (const auto& n : pinned) locked.emplace(n.path, &n);
  std::vector<HashChange> found;
  for (const auto& n : pinned) {
    const auto it = current.find(n.path);
    if (it == current.end()) {
      found.push_back({HashChange::Kind::missing, n.path});
    } else if (it->second->digest != n.digest || it->second->kind != n.kind) {
      found.push_back({HashChange::Kind::changed, n.path});
    }
  }
  for (const auto& n : now)
    if (!locked.count(n.path) && !n.path.empty() && locked.count(parent_of(n.path)))
      found.push_back({HashChange::Kind::added, n.path});
  // Ancestors of a reported node changed because of it: leave them out.
  std::unordered_set<std::string> explained;
  for (const auto& c : found)
    for (std::string p = c.path; !p.empty();) {
      p = parent_of(p);
      if (!explained.insert(p).second) break;
    }
  std::vector<HashChange> out;
  for (auto& c : found)
    if (c.kind != HashChange::Kind::changed || !explained.count(c.path)) out.push_back(std::move(c));
  return out;
}

}  // namespace zanj
