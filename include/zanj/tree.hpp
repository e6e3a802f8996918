#pragma once
// The object model of __zanj__.json: what kind each JSON node is (plain value, array in any
// storage mode, table, external list, dataclass, other format-keyed node) and a walker that
// visits the tree in document order. Every command that looks at the tree goes through here.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/json.hpp"

namespace zanj {

inline constexpr std::string_view kFormatKey = "__muutils_format__";
inline constexpr std::string_view kRefKey = "$ref";

enum class NodeKind { dict, list, array, table, external_list, dataclass, string, number, boolean, null, other };
/// The names used by `ls --json`: "dict", "list", "array", "table", "external_list", ...
std::string_view kind_name(NodeKind kind);

/// How an array node stores its values.
enum class ArrayEncoding { list, hex, b64, zero_dim, external };
std::string_view encoding_name(ArrayEncoding encoding);

struct ArrayNode {
  ArrayEncoding encoding = ArrayEncoding::list;
  bool torch = false;                  ///< torch.Tensor:... rather than numpy.ndarray:...
  std::string dtype;                   ///< exactly as written in the JSON ("" if missing)
  std::vector<std::uint64_t> shape;
  bool has_shape = false;              ///< "shape" present and a list of non-negative ints
  std::optional<std::uint64_t> n_elements;
  std::string member;                  ///< $ref (external only)
  const Json* data = nullptr;          ///< "data" (inline only)
  bool external() const { return encoding == ArrayEncoding::external; }
  /// Product of shape (1 for a 0-d array); nullopt if the shape is missing or overflows.
  std::optional<std::uint64_t> element_count() const;
};

struct TableNode {
  std::string member;
  std::vector<std::string> columns;
  std::optional<std::uint64_t> rows;   ///< "len(data)" when present
};

struct ExternalListNode {
  std::string member;
  bool tuple = false;
  std::optional<std::uint64_t> length; ///< "len(data)" when present
};

/// One classified JSON node. Pointers refer into the Json it was made from.
struct Node {
  NodeKind kind = NodeKind::null;
  std::string format;                  ///< the format key's value, "" when absent
  const Json* json = nullptr;
  std::optional<ArrayNode> array;
  std::optional<TableNode> table;
  std::optional<ExternalListNode> list;
  /// The ZIP member this node's data lives in ("" when inline).
  const std::string& member() const;
  bool is_reference() const { return !member().empty(); }
};

/// Classify one JSON node (never throws: malformed reference nodes keep what they have).
Node classify(const Json& json);

/// True for a JSON array whose elements are all scalars (no objects or arrays):
/// `ls` prints such a list as one entry.
bool is_scalar_list(const Json& json);

/// What the walker reports for each node.
struct TreeVisit {
  const std::string& path;             ///< escaped object path ("" for the root)
  const std::vector<std::string>& segments;
  const Node& node;
  std::size_t depth;                   ///< 0 for the node the walk started at
};
/// Visit `start` and its descendants depth-first in document order. Return false from the
/// visitor to skip a node's children. Format-keyed leaf nodes (arrays, tables, external lists)
/// have no children; dataclasses and other format-keyed objects have their fields (not the
/// format key) as children.
void walk_tree(const Json& start, const std::vector<std::string>& start_segments,
               const std::function<bool(const TreeVisit&)>& visitor);

/// Children of a node in document order as (segment, value) pairs, following the rules above.
std::vector<std::pair<std::string, const Json*>> node_children(const Node& node);

/// Every reference node (external array, table or list) under `root` with its path segments.
struct Reference {
  std::vector<std::string> segments;
  Node node;
};
std::vector<Reference> collect_references(const Json& root);

}  // namespace zanj
