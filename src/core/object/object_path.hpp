#pragma once
// Object paths (zanj/tree.hpp) followed through a parsed document's Json tree, fast for many
// paths into one document; and paths written as JSON lists (externals_info).
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj {

/// Key lookups for many paths into one document. Json::find scans an object's keys, so
/// following 50,000 paths into a root of 50,000 arrays would compare keys a billion times; an
/// object with many keys is indexed by its first lookup here, and later ones hash. Holds
/// pointers into the Json it is used on: keep that alive and unchanged while this lives.
class KeyIndex {
 public:
  /// object.find(key), the first of equal keys as Json::find gives it.
  const Json* find(const Json& object, std::string_view key);

 private:
  static constexpr std::size_t kIndexFrom = 64;  // fewer keys: a scan is as fast
  std::unordered_map<const Json*, std::unordered_map<std::string_view, const Json*>> indexes_;
};

/// Follow `segments` from `root`: keys in objects, decimal indices in arrays.
/// Returns nullptr when a segment is missing; `found` (if given) receives how many matched.
/// `index` (optional) makes key lookups in large objects constant time.
const Json* follow_path(const Json& root, const PathSegments& segments, std::size_t* found = nullptr,
                        KeyIndex* index = nullptr);

/// The segments of a path given as a JSON list (as in `externals_info[...]["path"]`).
/// Returns false when it is not a list of strings and non-negative integers.
bool path_from_json(const Json& list, PathSegments& out);

}  // namespace zanj
