// Mirrors zanj/serializing.py (zanj_external_serialize, jsonl_metadata) and muutils'
// arr_metadata: which nodes go external and what their reference nodes hold.
#include "pack/json_externalize.hpp"

#include <algorithm>

#include "zanj/error.hpp"
#include "array/inline_array.hpp"
#include "array/npy_header.hpp"
#include "array/value_bytes.hpp"
#include "object/tree_json.hpp"
#include "zanj/tree.hpp"

namespace zanj::pack {
namespace {

PathSegments segments_of(const JsonArray& path) {
  PathSegments out;
  for (const Json& s : path) out.push_back(s.is_string() ? s.as_string() : to_json(s));
  return out;
}

std::string where(const JsonArray& path) { return "'" + join_path(segments_of(path)) + "'"; }

/// The .npy member for an inline array node: numpy's header and the values in C order.
struct NpyMember {
  std::string bytes;
  array::Dtype dtype;
  std::vector<std::uint64_t> shape;
};
NpyMember npy_from_inline(const ArrayNode& node, const JsonArray& path) {
  array::DecodedArray decoded;
  try {
    decoded = array::decode_inline_array(node);
  } catch (const Error& e) {  // context: the node joins the message
    throw Error(where(path) + ": " + e.what());
  }
  // The values come little-endian; numpy saves an array in its own byte order. The swap is its
  // own inverse, so swapping little-endian values by a big-endian dtype gives its bytes.
  array::swap_to_little_endian(decoded.values, decoded.dtype);
  NpyMember npy{array::make_npy_header(decoded.dtype, false, decoded.shape), decoded.dtype, std::move(decoded.shape)};
  npy.bytes += decoded.values;
  return npy;
}

/// jsonl_metadata(): for a list of objects, its length, each key's Python value types and
/// count (first-seen order where the reference iterates a set), and the first element.
void add_jsonl_metadata(JsonObject& node, const JsonArray& items) {
  JsonObject columns;
  auto column = [&](const std::string& key) -> JsonObject& {
    for (auto& [k, v] : columns)
      if (k == key) return v.as_object();
    columns.emplace_back(key, Json(JsonObject{{"types", Json(JsonArray{})}, {"len", std::uint64_t{0}}}));
    return columns.back().second.as_object();
  };
  for (const Json& item : items)
    for (const auto& [key, value] : item.as_object()) {
      if (key == kFormatKey) continue;
      JsonObject& c = column(key);
      JsonArray& types = c[0].second.as_array();
      const Json type(std::string(python_type_name(value)));
      if (std::find(types.begin(), types.end(), type) == types.end()) types.push_back(type);
      c[1].second = Json(c[1].second.as_uint64() + 1);
    }
  node.emplace_back("len(data)", static_cast<std::uint64_t>(items.size()));
  node.emplace_back("columns", Json(std::move(columns)));
  if (!items.empty()) node.emplace_back("data[0]", items.front());
}

class Externalizer {
 public:
  Externalizer(const Thresholds& t, ExternalRegistry& externals, std::vector<PlannedMember>& members)
      : thresholds_(t), externals_(externals), members_(members) {}

  void visit(Json& value, JsonArray& path) {
    if (value.is_array()) {
      if (!path.empty() && value.as_array().size() >= thresholds_.list) return store_list(value, path);
      JsonArray& items = value.as_array();
      for (std::size_t i = 0; i < items.size(); ++i) visit_child(items[i], path, static_cast<std::uint64_t>(i));
      return;
    }
    if (!value.is_object()) return;
    const Node node = object::classify(value);
    if (node.array) {
      if (node.array->external())
        throw Error(where(path) + " refers to member '" + node.array->member +
                    "', which a .json input cannot provide (pack the extracted directory instead)");
      const auto n = node.array->element_count();
      if (!path.empty() && n && *n >= thresholds_.array) store_array(value, *node.array, *n, path);
      return;  // inline arrays are leaves: their data is values, not lists to store apart
    }
    if (node.is_reference())
      throw Error(where(path) + " refers to member '" + node.member() +
                  "', which a .json input cannot provide (pack the extracted directory instead)");
    for (auto& [key, child] : value.as_object())
      if (key != kFormatKey) visit_child(child, path, key);
  }

 private:
  template <typename Segment>  // std::uint64_t for a list index, std::string for a key
  void visit_child(Json& child, JsonArray& path, const Segment& segment) {
    path.emplace_back(segment);
    visit(child, path);
    path.pop_back();
  }

  void store_list(Json& value, const JsonArray& path) {
    // The reference checks the name before storing the elements, and registers the list after them.
    const std::string member = externals_.name_for(path, "jsonl");
    JsonArray items = std::move(value.as_array());
    JsonArray item_path = path;
    for (std::size_t i = 0; i < items.size(); ++i) visit_child(items[i], item_path, static_cast<std::uint64_t>(i));
    JsonObject node{{std::string(kFormatKey), "list:external"}, {std::string(kRefKey), member}};
    const bool all_objects = std::all_of(items.begin(), items.end(), [](const Json& item) { return item.is_object(); });
    if (all_objects) add_jsonl_metadata(node, items);
    JsonObject details{{"type(data)", "<class 'list'>"}, {"len(data)", static_cast<std::uint64_t>(items.size())}};
    if (!items.empty()) details.emplace_back("data[0]", items.front());
    externals_.add({member, "jsonl", path, std::move(details)});
    members_.push_back({member, JsonLinesSource{std::move(items)}, 0});
    value = Json(std::move(node));
  }

  void store_array(Json& value, const ArrayNode& array, std::uint64_t elements, const JsonArray& path) {
    const std::string member = externals_.name_for(path, "npy");
    const bool torch = array.torch;
    NpyMember npy = npy_from_inline(array, path);
    const std::string dtype = torch ? "torch." + npy.dtype.numpy_name() : npy.dtype.numpy_name();
    JsonObject details{{"type(data)", "<class 'numpy.ndarray'>"}};
    if (!npy.shape.empty()) details.emplace_back("len(data)", npy.shape.front());
    externals_.add({member, "npy", path, std::move(details)});
    value = Json(JsonObject{{std::string(kFormatKey), torch ? "torch.Tensor:external" : "numpy.ndarray:external"},
                            {std::string(kRefKey), member},
                            {"shape", shape_json(npy.shape)},
                            {"dtype", dtype},
                            {"n_elements", elements}});
    const std::uint64_t size = npy.bytes.size();
    members_.push_back({member, BytesSource{std::move(npy.bytes)}, size});
  }

  const Thresholds& thresholds_;
  ExternalRegistry& externals_;
  std::vector<PlannedMember>& members_;
};

}  // namespace

void externalize_json(Json& value, JsonArray path, const Thresholds& thresholds, ExternalRegistry& externals,
                      std::vector<PlannedMember>& members) {
  Externalizer(thresholds, externals, members).visit(value, path);
}

}  // namespace zanj::pack
