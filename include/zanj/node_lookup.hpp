#pragma once
// Finding the node a user named: an object path, optionally followed by a slice
// ("weights/w[0:10]"), and an error that helps when the path is wrong (the nearest node that
// does exist, and what is under it).
#include <string>
#include <string_view>

#include "zanj/json.hpp"
#include "zanj/object_path.hpp"

namespace zanj {

struct NodeTarget {
  std::string path;       ///< the object path, as written
  PathSegments segments;  ///< its unescaped segments
  std::string slice;      ///< "[...]" written after the path, or ""
};

/// Split `text` into an object path and a trailing slice. Text that names an existing node as
/// a whole is a path even when it ends in "]" (a key may contain brackets); otherwise the
/// slice starts at a '[' in the last segment whose prefix is an existing node (or at the first
/// '[' of the last segment, so a wrong path is reported as such). Throws Error (usage) for a
/// malformed path escape.
NodeTarget parse_node_target(const Json& root, std::string_view text);

/// The node at `target`. Throws Error (invalid) when there is none, naming the nearest existing
/// parent and some of its keys or its index range; for a table or external list it says to
/// select rows with a slice instead.
const Json& find_node(const Json& root, const NodeTarget& target, std::string_view archive_name);

}  // namespace zanj
