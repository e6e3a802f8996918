#pragma once
// The object tree of __zanj__.json: what kind each JSON node is (plain value, array in any
// storage mode, table, external list, dataclass, other format-keyed node), a walker that
// visits the tree in document order, and object paths, the names of its nodes. Every command
// that looks at the tree goes through here.
//
// Object paths: dict keys and list indices joined by "/", with "~" written "~0" and "/"
// written "~1" (JSON Pointer escaping), an empty key written "~e", and each byte of a control
// character (C0, DEL, C1) or of invalid UTF-8 written "~xNN". The root is the empty path.
// Printed paths are therefore terminal-safe, and every key has exactly one printed form that
// reads back to it (zanj(1), "OBJECT PATHS").
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/json.hpp"

namespace zanj {

inline constexpr std::string_view kFormatKey = "__muutils_format__";
inline constexpr std::string_view kLegacyFormatKey = "__format__";  ///< before muutils 0.8
inline constexpr std::string_view kRefKey = "$ref";

/// Which generation of the library tagged a node (docs/format.md has the releases of each).
/// The one mapping from what is on disk to a format version is format_tag() below; every
/// reader of the tree goes through classify(), which uses it.
enum class FormatVersion {
  none,     ///< not a format-keyed node
  legacy,   ///< "__format__": muutils 0.2 to 0.7 (muutils.zanj of 2023, ZANJ 0.1 to 0.3)
  current,  ///< "__muutils_format__": ZANJ 0.4 and later with muutils 0.8 and later
};
/// "__format__ (muutils <= 0.7, ZANJ <= 0.3)" or "__muutils_format__ (...)", for `info`.
std::string_view format_version_name(FormatVersion version);

/// The format key of an object node and its value. A node with "__muutils_format__" is
/// current. A node with only "__format__" is legacy when the value names a kind those
/// releases wrote (an array, external list or tuple, a DataFrame, a serializable dataclass);
/// any other "__format__" key is a user's key in a plain dict, as today's library reads it.
struct FormatTag {
  FormatVersion version = FormatVersion::none;
  std::string_view key;  ///< the key that holds the format ("" when none)
  JsonView value;
};
FormatTag format_tag(JsonView object);
/// The format values only muutils 0.2.x wrote (February 2023, the first zanj): the array mode
/// alone ("array_list_meta", "array_hex_meta") and "external:npy" / "external:jsonl". Its
/// externals_info calls an .npy member's item_type "ndarray", and its loader takes every
/// external list and DataFrame as a list of lines.
bool is_first_generation_format(std::string_view format);

struct Node;
/// The externals_info item_type the loader of `reference`'s generation wants for its member:
/// "npy" for an external array ("ndarray" for muutils 0.2.x's "external:npy" nodes), "jsonl"
/// for an external list or table.
std::string_view externals_item_type(const Node& reference);

enum class NodeKind { dict, list, array, table, external_list, dataclass, string, number, boolean, null, other };
/// The names used by `ls --json`: "dict", "list", "array", "table", "external_list", ...
std::string_view kind_name(NodeKind kind);

/// How an array node stores its values.
enum class ArrayEncoding { list, hex, b64, zero_dim, external };
std::string_view encoding_name(ArrayEncoding encoding);

struct ArrayNode {
  ArrayEncoding encoding = ArrayEncoding::list;
  bool torch = false;  ///< torch.Tensor:... rather than numpy.ndarray:...
  std::string dtype;   ///< exactly as written in the JSON ("" if missing): what verify checks
  std::vector<std::uint64_t> shape;
  bool has_shape = false;  ///< "shape" present and a list of non-negative ints
  std::optional<std::uint64_t> n_elements;
  std::string member;  ///< $ref (external only)
  JsonView data;       ///< "data" (inline only)
  bool external() const { return encoding == ArrayEncoding::external; }
  /// Product of shape (1 for a 0-d array); nullopt if the shape is missing or overflows.
  std::optional<std::uint64_t> element_count() const;
  /// The dtype as every output prints it: numpy's name ("float32", "int64", "bool"), the
  /// same for a tensor stored as "torch.float32" and one stored inline as "float32".
  std::string numpy_dtype() const;
  /// The tensor library that stored the array: "torch" (a torch.Tensor node, or a dtype
  /// written "torch.*") or "numpy".
  std::string_view library() const;
};

struct TableNode {
  std::string member;  ///< "" for a table stored inline
  std::vector<std::string> columns;
  std::optional<std::uint64_t> rows;  ///< "len(data)" when present (inline: the rows held)
  /// A table stored inline, as releases before ZANJ 0.6 wrote a small DataFrame
  /// ({"__format__": "pandas.DataFrame", "columns": [...], "data": [row objects]}): its rows.
  /// Invalid for a table in a member.
  JsonView inline_rows;
};

struct ExternalListNode {
  std::string member;
  bool tuple = false;
  std::optional<std::uint64_t> length;  ///< "len(data)" when present
};

/// One classified JSON node. Its views refer into the document it was made from.
struct Node {
  NodeKind kind = NodeKind::null;
  std::string format;                           ///< the format key's value, "" when absent
  FormatVersion version = FormatVersion::none;  ///< which key held it
  std::string_view format_key;                  ///< that key ("" when absent)
  JsonView json;
  std::optional<ArrayNode> array;
  std::optional<TableNode> table;
  std::optional<ExternalListNode> list;
  /// The ZIP member this node's data lives in ("" when inline).
  const std::string& member() const;
  bool is_reference() const { return !member().empty(); }
};

/// Classify one JSON node (never throws: malformed reference nodes keep what they have).
Node classify(JsonView json);

/// True for a JSON array whose elements are all scalars (no objects or arrays):
/// `ls` prints such a list as one entry.
bool is_scalar_list(JsonView json);

class TreeWalker;
/// What the walker reports for each node. Its path and segments are made only when asked for
/// (a walk over millions of nodes that prints a few builds a few paths), and stay valid until
/// the visitor returns.
struct TreeVisit {
  const Node& node;
  std::size_t depth;         ///< 0 for the node the walk started at
  const TreeWalker* walker;  ///< where the walk is (tree.cpp)
  /// The escaped object path ("" for the root).
  const std::string& path() const;
  /// The unescaped segments of that path.
  const std::vector<std::string>& segments() const;
};
/// Visit `start` and its descendants depth-first in document order. Return false from the
/// visitor to skip a node's children. Format-keyed leaf nodes (arrays, tables, external lists)
/// have no children; dataclasses and other format-keyed objects have their fields (not the
/// format key) as children.
void walk_tree(JsonView start, const std::vector<std::string>& start_segments,
               const std::function<bool(const TreeVisit&)>& visitor);

/// The children of a node that node_children() lists, counted without listing them.
std::size_t node_child_count(const Node& node);

/// Children of a node in document order as (segment, value) pairs, following the rules above.
std::vector<std::pair<std::string, JsonView>> node_children(const Node& node);

/// Every reference node (external array, table or list) under `root` with its path segments.
struct Reference {
  std::vector<std::string> segments;
  Node node;
};
std::vector<Reference> collect_references(JsonView root);

using PathSegments = std::vector<std::string>;

std::string escape_path_segment(std::string_view segment);
/// Append the escaped segment to `out` (no separator).
void append_escaped_segment(std::string& out, std::string_view segment);
/// Join segments into an object path.
std::string join_path(const PathSegments& segments);
/// Append one segment to an existing path string.
std::string child_path(std::string_view parent, std::string_view segment);
/// Split an object path into unescaped segments. A single leading "/" is accepted and ignored;
/// an empty segment between slashes ("a//b") is also the empty key. Throws zanj::Error (usage)
/// on a "~" that does not start ~0, ~1, ~xNN or a whole segment ~e.
PathSegments split_path(std::string_view path);

/// Follow `segments` from `root`: keys in objects, decimal indices in arrays. Returns an
/// invalid view when a segment is missing; `found` (if given) receives how many matched.
JsonView follow_path(JsonView root, const PathSegments& segments, std::size_t* found = nullptr);

/// A node as a user names it: an object path, optionally followed by a slice ("w[0:10]").
struct NodeTarget {
  std::string path;       ///< the object path, as written
  PathSegments segments;  ///< its unescaped segments
  std::string slice;      ///< "[...]" written after the path, or ""
};

/// Split `text` into an object path and a trailing slice. Text that names an existing node as
/// a whole is a path even when it ends in "]" (a key may contain brackets); otherwise the
/// slice starts at a '[' in the last segment whose prefix is an existing node (or, for text
/// ending in ']', at the first '[' of the last segment, so a wrong path is reported as such).
/// Throws Error (usage) for a malformed path escape.
NodeTarget parse_node_target(JsonView root, std::string_view text);

/// The node at `target`. Throws Error (invalid) when there is none, naming the nearest existing
/// parent and some of its keys or its index range; for a table or external list it says to
/// select rows with a slice instead.
JsonView find_node(JsonView root, const NodeTarget& target, std::string_view archive_name);

}  // namespace zanj
