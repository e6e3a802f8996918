#pragma once
// Object paths (zanj/tree.hpp) followed through a parsed document's Json tree, fast for many
// paths into one document; and paths written as JSON lists (externals_info).
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "json/json_view_access.hpp"
#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj::object {

/// Key lookups for many paths into one document. Json::find scans an object's keys, so
/// following 50,000 paths into a root of 50,000 arrays would compare keys a billion times; an
/// object with many keys is indexed by its first lookup here, and later ones hash. Holds
/// views into the document it is used on: keep that alive and unchanged while this lives.
/// Threads may share one (verify walks externals_info's paths on several): an object's index
/// is built once, under a lock, and only read after.
class KeyIndex {
 public:
  /// object.find(key), the first of equal keys as JsonView::find gives it.
  JsonView find(JsonView object, std::string_view key);
  const Json* find(const Json& object, std::string_view key) {
    return json::json_ptr(find(json::view_of(object), key));
  }

 private:
  static constexpr std::size_t kIndexFrom = 64;  // fewer keys: a scan is as fast
  /// One large object's keys: each key's position (the first of equal keys), and whether any
  /// key repeats (then no position is guessed).
  struct Keys {
    std::unordered_map<std::string_view, std::size_t> position;
    bool unique = true;
  };
  /// Guards `indexes_` itself; an inner index, once made, is never changed (and the outer map's
  /// nodes do not move when it grows), so it is read without the lock.
  std::shared_mutex mutex_;
  std::unordered_map<json::JsonViewIdentity, Keys, json::JsonViewIdentityHash> indexes_;
};

/// Follow `segments` from `root`: keys in objects, decimal indices in arrays.
/// Returns nullptr when a segment is missing; `found` (if given) receives how many matched.
/// `index` (optional) makes key lookups in large objects constant time.
const Json* follow_path(const Json& root, const PathSegments& segments, std::size_t* found = nullptr,
                        KeyIndex* index = nullptr);

/// The segments of a path given as a JSON list (as in `externals_info[...]["path"]`).
/// Returns false when it is not a list of strings and non-negative integers.
bool path_from_json(const Json& list, PathSegments& out);

}  // namespace zanj::object
