#include "zanj/tree.hpp"

#include "array/dtype.hpp"
#include "object/tree_json.hpp"

namespace zanj {

std::string_view kind_name(NodeKind kind) {
  switch (kind) {
    case NodeKind::dict:
      return "dict";
    case NodeKind::list:
      return "list";
    case NodeKind::array:
      return "array";
    case NodeKind::table:
      return "table";
    case NodeKind::external_list:
      return "external_list";
    case NodeKind::dataclass:
      return "dataclass";
    case NodeKind::string:
      return "string";
    case NodeKind::number:
      return "number";
    case NodeKind::boolean:
      return "bool";
    case NodeKind::null:
      return "null";
    case NodeKind::other:
      return "other";
  }
  return "other";
}

std::string_view encoding_name(ArrayEncoding encoding) {
  switch (encoding) {
    case ArrayEncoding::list:
      return "array_list_meta";
    case ArrayEncoding::hex:
      return "array_hex_meta";
    case ArrayEncoding::b64:
      return "array_b64_meta";
    case ArrayEncoding::zero_dim:
      return "zero_dim";
    case ArrayEncoding::external:
      return "external";
  }
  return "external";
}

std::string_view format_version_name(FormatVersion version) {
  switch (version) {
    case FormatVersion::legacy:
      return "__format__ (muutils 0.2-0.7: muutils.zanj of 2023, ZANJ 0.1-0.3)";
    case FormatVersion::current:
      return "__muutils_format__ (ZANJ >= 0.4 with muutils >= 0.8)";
    case FormatVersion::none:
      return "none (no format-keyed node)";
  }
  return "none";
}

bool is_first_generation_format(std::string_view format) {
  return format == "array_list_meta" || format == "array_hex_meta" || format == "external:npy" ||
         format == "external:jsonl";
}

std::string_view externals_item_type(const Node& reference) {
  if (reference.format == "external:npy") return "ndarray";
  return reference.array ? "npy" : "jsonl";
}

namespace {

/// The kinds the "__format__" releases wrote (muutils.json_serialize and zanj/serializing.py
/// of those tags): a value outside these is an ordinary key of the user's dict.
bool legacy_format_value(std::string_view v) {
  for (const std::string_view type : {"numpy.ndarray:", "torch.Tensor:"})
    if (v.starts_with(type)) return true;
  return v == "list:external" || v == "tuple:external" || v == "pandas.DataFrame:external" || v == "pandas.DataFrame" ||
         v.ends_with("(SerializableDataclass)") || is_first_generation_format(v);
}

}  // namespace

FormatTag format_tag(JsonView object) {
  if (!object.is_object()) return {};
  if (const JsonView v = object.find(kFormatKey)) return {FormatVersion::current, kFormatKey, v};
  if (const JsonView v = object.find(kLegacyFormatKey); v && v.is_string() && legacy_format_value(v.as_string()))
    return {FormatVersion::legacy, kLegacyFormatKey, v};
  return {};
}

std::optional<std::uint64_t> ArrayNode::element_count() const {
  if (!has_shape) return std::nullopt;
  std::uint64_t n = 1;
  for (auto d : shape)
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  return n;
}

std::string ArrayNode::numpy_dtype() const { return array::numpy_dtype_name(dtype); }

std::string_view ArrayNode::library() const { return torch || dtype.starts_with("torch.") ? "torch" : "numpy"; }

const std::string& Node::member() const {
  static const std::string none;
  if (array) return array->member;
  if (table) return table->member;
  if (list) return list->member;
  return none;
}

namespace {

std::optional<std::uint64_t> uint_at(JsonView obj, std::string_view key) {
  std::uint64_t v = 0;
  const JsonView j = obj.find(key);
  if (j && j.get_uint64(v)) return v;
  return std::nullopt;
}

/// "numpy.ndarray:array_hex_meta" -> hex, etc.; nullopt when not an array format.
std::optional<ArrayEncoding> array_encoding(std::string_view format, bool& torch) {
  // muutils 0.2.x named the mode alone (a tensor was stored as its numpy array).
  if (format == "array_list_meta") return ArrayEncoding::list;
  if (format == "array_hex_meta") return ArrayEncoding::hex;
  if (format == "external:npy") return ArrayEncoding::external;
  const auto colon = format.find(':');
  if (colon == std::string_view::npos) return std::nullopt;
  const auto type = format.substr(0, colon);
  const auto mode = format.substr(colon + 1);
  if (type != "numpy.ndarray" && type != "torch.Tensor") return std::nullopt;
  torch = type == "torch.Tensor";
  if (mode == "external") return ArrayEncoding::external;
  if (mode == "array_list_meta") return ArrayEncoding::list;
  if (mode == "array_hex_meta") return ArrayEncoding::hex;
  if (mode == "array_b64_meta") return ArrayEncoding::b64;
  if (mode == "zero_dim") return ArrayEncoding::zero_dim;
  return std::nullopt;
}

ArrayNode make_array(JsonView json, ArrayEncoding encoding, bool torch) {
  ArrayNode a;
  a.encoding = encoding;
  a.torch = torch;
  // The node's fields found in one pass over its keys, each where it is first met (as find()
  // gives it): verify classifies each of 50,000 array nodes three times, and a find() per
  // field read every key four times.
  JsonView dtype, shape, n_elements, ref, data;
  const auto first = [](JsonView& field, JsonView value) {
    if (!field) field = value;
  };
  const std::size_t n = json.size();
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view key = json.key(i);
    if (key == "dtype")
      first(dtype, json[i]);
    else if (key == "shape")
      first(shape, json[i]);
    else if (key == "n_elements")
      first(n_elements, json[i]);
    else if (key == kRefKey)
      first(ref, json[i]);
    else if (key == "data")
      first(data, json[i]);
  }
  if (dtype.is_string()) a.dtype = std::string(dtype.as_string());
  if (shape.is_array()) {
    a.has_shape = true;
    a.shape.reserve(shape.size());
    for (const JsonView d : shape) {
      std::uint64_t v = 0;
      if (!d.get_uint64(v)) {
        a.has_shape = false;
        break;
      }
      a.shape.push_back(v);
    }
    if (!a.has_shape) a.shape.clear();
  }
  if (std::uint64_t v = 0; n_elements && n_elements.get_uint64(v)) a.n_elements = v;
  if (encoding == ArrayEncoding::external) {
    if (ref.is_string()) a.member = std::string(ref.as_string());
  } else {
    a.data = data;
  }
  return a;
}

void classify_formatted(JsonView json, std::string_view format, Node& node) {
  bool torch = false;
  if (auto encoding = array_encoding(format, torch)) {
    node.kind = NodeKind::array;
    node.array = make_array(json, *encoding, torch);
  } else if (format == "external:jsonl") {
    // muutils 0.2.x: every external list and DataFrame; its loader gives the lines as a list
    // (a DataFrame's rows as dicts), so each is a list here too.
    node.kind = NodeKind::external_list;
    node.list = ExternalListNode{std::string(json.string_at(kRefKey)), false, uint_at(json, "len(data)")};
  } else if (format == "list:external" || format == "tuple:external") {
    node.kind = NodeKind::external_list;
    node.list =
        ExternalListNode{std::string(json.string_at(kRefKey)), format == "tuple:external", uint_at(json, "len(data)")};
  } else if (format.ends_with("DataFrame:external")) {
    TableNode t{std::string(json.string_at(kRefKey)), {}, uint_at(json, "len(data)"), JsonView()};
    if (const JsonView cols = json.find("columns"); cols.is_array()) {
      for (const JsonView c : cols) t.columns.push_back(c.is_string() ? std::string(c.as_string()) : to_json(c));
    } else if (cols.is_object()) {
      // The "__format__" releases overwrote the column list with per-column statistics, a
      // dict whose order is a Python set's: the first row (`data[0]`) keeps the real order.
      const JsonView first = json.find("data[0]");
      for (const auto& [k, v] : (first.is_object() ? first : cols).members()) t.columns.emplace_back(k);
    }
    node.kind = NodeKind::table;
    node.table = std::move(t);
  } else if (format == "pandas.DataFrame" && json.find("data").is_array()) {
    // A small DataFrame inline (releases before ZANJ 0.6): the loader builds the frame from
    // the row objects in "data"; "columns" lists the names in the frame's order.
    const JsonView data = json.find("data");
    TableNode t{"", {}, data.size(), data};
    if (const JsonView cols = json.find("columns"); cols.is_array()) {
      for (const JsonView c : cols) t.columns.push_back(c.is_string() ? std::string(c.as_string()) : to_json(c));
    } else if (data.size() > 0 && data[0].is_object()) {
      for (const auto& [k, v] : data[0].members()) t.columns.emplace_back(k);
    }
    node.kind = NodeKind::table;
    node.table = std::move(t);
  } else if (format.ends_with("(SerializableDataclass)")) {
    node.kind = NodeKind::dataclass;
  } else {
    node.kind = NodeKind::other;
  }
}

}  // namespace

Node classify(JsonView json) {
  // One Node, returned from every path (so it is constructed in place, never moved): most
  // nodes a walk meets are plain values, and a Node is large.
  Node node;
  node.json = json;
  switch (json.type()) {
    case Json::Type::null:
      node.kind = NodeKind::null;
      break;
    case Json::Type::boolean:
      node.kind = NodeKind::boolean;
      break;
    case Json::Type::string:
      node.kind = NodeKind::string;
      break;
    case Json::Type::array:
      node.kind = NodeKind::list;
      break;
    case Json::Type::object:
      if (const FormatTag tag = format_tag(json); tag.version != FormatVersion::none) {
        const JsonView format = tag.value;
        node.version = tag.version;
        node.format_key = tag.key;
        node.format = format.is_string() ? std::string(format.as_string()) : to_json(format);
        classify_formatted(json, node.format, node);
      } else {
        node.kind = NodeKind::dict;
      }
      break;
    default:
      node.kind = NodeKind::number;
      break;
  }
  return node;
}

namespace {
/// The key that tags `node` (and so is no child of it); an empty key is an ordinary key.
bool is_format_key(const Node& node, std::string_view key) {
  return !node.format_key.empty() && key == node.format_key;
}
}  // namespace

bool is_scalar_list(JsonView json) {
  if (!json.is_array()) return false;
  for (const JsonView e : json)
    if (e.is_array() || e.is_object()) return false;
  return true;
}

std::vector<std::pair<std::string, JsonView>> node_children(const Node& node) {
  std::vector<std::pair<std::string, JsonView>> out;
  switch (node.kind) {
    case NodeKind::list: {
      out.reserve(node.json.size());
      std::size_t i = 0;
      for (const JsonView element : node.json) out.emplace_back(std::to_string(i++), element);
      break;
    }
    case NodeKind::dict:
    case NodeKind::dataclass:
    case NodeKind::other:
      for (const auto& [k, v] : node.json.members())
        if (!is_format_key(node, k)) out.emplace_back(std::string(k), v);
      break;
    default:
      break;
  }
  return out;
}

std::size_t node_child_count(const Node& node) {
  switch (node.kind) {
    case NodeKind::list:
      return node.json.size();
    case NodeKind::dict:
    case NodeKind::dataclass:
    case NodeKind::other: {
      std::size_t n = 0;
      for (const auto [k, v] : node.json.members()) n += !is_format_key(node, k);
      return n;
    }
    default:
      return 0;
  }
}

/// Where a walk is: the chain of (container, child position) from the start node down. A
/// visited node's path and segments are made from it only when the visitor asks, and what
/// was made is kept for the next node (siblings share their parent's prefix).
class TreeWalker {
 public:
  TreeWalker(const std::vector<std::string>& start_segments, const std::function<bool(const TreeVisit&)>& visitor)
      : start_segments_(start_segments), visitor_(visitor), path_(join_path(start_segments)) {
    path_ends_.push_back(path_.size());
  }

  void walk(JsonView json) {
    const Node node = classify(json);
    if (visitor_(TreeVisit{node, levels_.size(), this})) walk_children(node, 0, json.size());
  }

  /// The subtrees of `node`'s children [first, last) (its elements' or members' indices).
  void walk_children(const Node& node, std::size_t first, std::size_t last) {
    // The children are visited as node_children() lists them, without building that list: a
    // list of millions of elements would cost tens of MiB of index strings and pointers.
    const JsonView json = node.json;
    switch (node.kind) {
      case NodeKind::list:
        for (std::size_t i = first; i < last; ++i) descend(json, i, json[i]);
        break;
      case NodeKind::dict:
      case NodeKind::dataclass:
      case NodeKind::other: {
        // Only a format-keyed node has a key to pass over: a plain dict's keys are not read.
        const bool tagged = !node.format_key.empty();
        for (std::size_t i = first; i < last; ++i)
          if (!tagged || !is_format_key(node, json.key(i))) descend(json, i, json[i]);
        break;
      }
      default:
        break;
    }
  }

  const std::string& path() const {
    const std::size_t depth = levels_.size();
    while (path_levels_ < depth) {
      const Level& l = levels_[path_levels_];
      if (!path_.empty()) path_ += '/';
      if (l.parent.is_array()) {
        path_ += std::to_string(l.index);
      } else {
        append_escaped_segment(path_, l.parent.key(l.index));
      }
      ++path_levels_;
      path_ends_.push_back(path_.size());
    }
    return path_;
  }

  const std::vector<std::string>& segments() const {
    const std::size_t depth = levels_.size();
    while (segment_levels_ < depth) {
      const Level& l = levels_[segment_levels_];
      segments_.push_back(l.parent.is_array() ? std::to_string(l.index) : std::string(l.parent.key(l.index)));
      ++segment_levels_;
    }
    return segments_;
  }

 private:
  struct Level {
    JsonView parent;
    std::size_t index;  ///< the child's position in parent (an object's member index)
  };

  void descend(JsonView parent, std::size_t index, JsonView child) {
    // What was made for a deeper or sibling node no longer applies from this level down.
    const std::size_t level = levels_.size();
    if (path_levels_ > level) {
      path_levels_ = level;
      path_.resize(path_ends_[level]);
      path_ends_.resize(level + 1);
    }
    if (segment_levels_ > level) {
      segment_levels_ = level;
      segments_.resize(start_segments_.size() + level);
    }
    levels_.push_back(Level{parent, index});
    walk(child);
    levels_.pop_back();
  }

  const std::vector<std::string>& start_segments_;
  const std::function<bool(const TreeVisit&)>& visitor_;
  std::vector<Level> levels_;  ///< below the start node
  // Made on demand: the path and segments of the first path_levels_ / segment_levels_ levels.
  mutable std::string path_;
  mutable std::vector<std::size_t> path_ends_;  ///< path_'s length after 0, 1, ... levels
  mutable std::size_t path_levels_ = 0;
  mutable std::vector<std::string> segments_ = start_segments_;
  mutable std::size_t segment_levels_ = 0;
};

const std::string& TreeVisit::path() const { return walker->path(); }
const std::vector<std::string>& TreeVisit::segments() const { return walker->segments(); }

void walk_tree(JsonView start, const std::vector<std::string>& start_segments,
               const std::function<bool(const TreeVisit&)>& visitor) {
  TreeWalker(start_segments, visitor).walk(start);
}

void object::walk_tree_children(const Node& start, std::size_t first, std::size_t last,
                                const std::function<bool(const TreeVisit&)>& visitor) {
  static const std::vector<std::string> kFromTheStart;
  TreeWalker(kFromTheStart, visitor).walk_children(start, first, std::min(last, start.json.size()));
}

std::size_t object::tree_runs(const Node& start, unsigned threads) {
  constexpr std::size_t kRunsPerThread = 8;
  return std::min<std::size_t>(start.json.size(), std::size_t{threads} * kRunsPerThread);
}

void object::walk_tree_run(const Node& start, std::size_t run, std::size_t runs,
                           const std::function<bool(const TreeVisit&)>& visitor) {
  const std::size_t children = start.json.size();
  walk_tree_children(start, children * run / runs, children * (run + 1) / runs, visitor);
}

std::vector<Reference> collect_references(JsonView root) {
  std::vector<Reference> refs;
  walk_tree(root, {}, [&](const TreeVisit& v) {
    if (v.node.is_reference() || (v.node.array && v.node.array->external()))
      refs.push_back(Reference{v.segments(), v.node});
    return true;
  });
  return refs;
}

// For core code holding a Json tree (pack's): the same through its view.
Node object::classify(const Json& json) { return zanj::classify(json::view_of(json)); }
bool object::is_scalar_list(const Json& json) { return zanj::is_scalar_list(json::view_of(json)); }
void object::walk_tree(const Json& start, const std::vector<std::string>& start_segments,
                       const std::function<bool(const TreeVisit&)>& visitor) {
  zanj::walk_tree(json::view_of(start), start_segments, visitor);
}
std::vector<Reference> object::collect_references(const Json& root) {
  return zanj::collect_references(json::view_of(root));
}

}  // namespace zanj
