#include "zanj/tree.hpp"

#include "zanj/error.hpp"
#include "zanj/tree.hpp"

namespace zanj {
namespace {

constexpr std::size_t kChildrenShown = 10;

std::string describe_children(JsonView parent) {
  const Node node = classify(parent);
  if (node.table || node.list)
    return "it is " + std::string(node.table ? "a table" : "an external list") +
           ": select rows with a slice after its path, such as [0:10]";
  if (node.array) return "it is an array: select values with a slice after its path, such as [0]";
  if (parent.is_array()) {
    const auto n = parent.size();
    return n == 0 ? "it is an empty list" : "it is a list with indices 0 to " + std::to_string(n - 1);
  }
  const auto children = node_children(node);
  if (!parent.is_object()) return "it is a " + std::string(parent.type_name()) + " and has no children";
  if (children.empty()) return "it has no keys";
  std::string out = "its keys: ";
  for (std::size_t i = 0; i < children.size() && i < kChildrenShown; ++i)
    out += (i ? ", " : "") + escape_path_segment(children[i].first);
  if (children.size() > kChildrenShown) out += " (and " + std::to_string(children.size() - kChildrenShown) + " more)";
  return out;
}

/// "; did you mean 'KEY'?" for a key of `parent` that `wrong` is a typo of, else "".
std::string near_child(JsonView parent, const std::string& wrong) {
  if (!parent.is_object()) return "";
  std::vector<std::string> keys;
  for (const auto& child : node_children(classify(parent))) keys.push_back(child.first);
  const std::string near = nearest_name(wrong, keys);
  return near.empty() ? "" : " (did you mean '" + escape_path_segment(near) + "'?)";
}

}  // namespace

NodeTarget parse_node_target(JsonView root, std::string_view text) {
  NodeTarget whole{std::string(text), split_path(text), ""};
  if (text.empty() || follow_path(root, whole.segments)) return whole;
  const std::size_t last_segment = text.rfind('/') == std::string_view::npos ? 0 : text.rfind('/') + 1;
  std::size_t chosen = text.find('[', last_segment);
  bool after_a_node = false;
  for (std::size_t at = chosen; at != std::string_view::npos; at = text.find('[', at + 1)) {
    if (follow_path(root, split_path(text.substr(0, at)))) {
      chosen = at;
      after_a_node = true;
      break;
    }
  }
  // Text not ending in ']' is a slice only after an existing node: "w[0:2," is then a
  // malformed slice (a usage error), and "no_such[x" a missing path.
  if (chosen == std::string_view::npos || (!after_a_node && text.back() != ']')) return whole;
  return NodeTarget{std::string(text.substr(0, chosen)), split_path(text.substr(0, chosen)),
                    std::string(text.substr(chosen))};
}

JsonView find_node(JsonView root, const NodeTarget& target, std::string_view archive_name) {
  std::size_t matched = 0;
  if (const JsonView node = follow_path(root, target.segments, &matched)) return node;
  const PathSegments parent_segments(target.segments.begin(),
                                     target.segments.begin() + static_cast<std::ptrdiff_t>(matched));
  const JsonView parent = follow_path(root, parent_segments);
  const std::string parent_path = parent_segments.empty() ? "the root" : "'" + join_path(parent_segments) + "'";
  throw Error(InArchive{std::string(archive_name)}, AtPath{target.path, "no object at path"},
              parent_path + " has no '" + escape_path_segment(target.segments[matched]) + "'" +
                  near_child(parent, target.segments[matched]) + "; " + describe_children(parent));
}

}  // namespace zanj
