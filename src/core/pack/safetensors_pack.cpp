#include "pack/safetensors_pack.hpp"

#include <algorithm>
#include <memory>
#include <set>
#include <unordered_map>

#include "array/npy_header.hpp"
#include "base/utf8.hpp"
#include "json/json_parse.hpp"
#include "object/tree_json.hpp"
#include "pack/safetensors_input.hpp"
#include "zanj/error.hpp"

namespace zanj::pack {
namespace {

std::string metadata_value(const SafetensorsContents& contents, std::string_view key) {
  for (const auto& [k, v] : contents.metadata)
    if (k == key) return v;
  return {};
}

/// Where the tensors' bytes are: a file, opened again when they are written (no `source`), or
/// bytes held open (a URL, standard input).
struct TensorBytes {
  std::string path;  ///< the file, or how messages name the bytes
  std::shared_ptr<const io::ByteSource> source;
};

/// The .npy member of one tensor, stored as `dtype` and `shape` (the tensor's own, or the
/// complex array a --cast export turned into float pairs).
PlannedMember tensor_member(const TensorBytes& in, const SafetensorsEntry& t, const std::string& member,
                            const array::NpyHeader& h) {
  std::string header = array::make_npy_header(h.dtype, false, h.shape);
  const std::uint64_t size = header.size() + t.bytes;
  return {member,
          std::make_shared<const FileSliceSource>(
              FileSliceSource{in.path, std::move(header), t.offset, t.bytes, in.source}),
          size};
}

array::NpyHeader tensor_header(const SafetensorsEntry& t) {
  array::NpyHeader h;
  h.dtype = t.dtype;
  h.shape = t.shape;
  return h;
}

/// Putting back the object `zanj export` recorded: each external array node whose "$ref"
/// names a tensor becomes a reference to that tensor's member. Anything that does not fit
/// (a reference to no tensor, a tensor left over, a shape or dtype that disagrees) is a reason
/// not to restore, returned rather than thrown: the tensors are then packed as a flat dict.
class Restorer {
 public:
  Restorer(const TensorBytes& in, const SafetensorsContents& contents, ExternalRegistry& externals,
           std::vector<PlannedMember>& members)
      : in_(in), contents_(contents), externals_(externals), members_(members) {
    for (std::size_t i = 0; i < contents.tensors.size(); ++i) by_name_.emplace(contents.tensors[i].name, i);
  }

  /// Why `object` cannot be restored, or nothing once it has been (its arrays registered).
  std::optional<std::string> run(Json& object) {
    JsonArray path;
    if (auto why = visit(object, path)) return why;
    if (used_.size() != contents_.tensors.size()) return "it does not refer to every tensor";
    // Only now, all checks passed: the members in the order of the tensors' data.
    std::sort(planned_.begin(), planned_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (auto& [index, member] : planned_) members_.push_back(std::move(member));
    return std::nullopt;
  }

 private:
  std::optional<std::string> visit(Json& value, JsonArray& path) {
    const Node node = object::classify(value);
    if (node.kind == NodeKind::array && node.array->external()) return array(value, *node.array, path);
    if (node.is_reference())
      return "it refers to '" + terminal_safe(node.member()) + "', which a safetensors file does not hold";
    if (value.is_object()) {
      for (auto& [key, child] : value.as_object()) {
        if (key == kFormatKey) continue;
        path.emplace_back(key);
        auto why = visit(child, path);
        path.pop_back();
        if (why) return why;
      }
    } else if (value.is_array()) {
      JsonArray& items = value.as_array();
      for (std::size_t i = 0; i < items.size(); ++i) {
        path.emplace_back(static_cast<std::uint64_t>(i));
        auto why = visit(items[i], path);
        path.pop_back();
        if (why) return why;
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> array(Json& value, const ArrayNode& node, const JsonArray& path) {
    const auto found = by_name_.find(node.member);
    if (found == by_name_.end()) return "it refers to '" + terminal_safe(node.member) + "', which is no tensor";
    if (!used_.insert(found->second).second) return "two arrays refer to '" + terminal_safe(node.member) + "'";
    const SafetensorsEntry& t = contents_.tensors[found->second];
    array::NpyHeader h = tensor_header(t);
    const base::Result<array::Dtype> recorded = array::read_dtype_name(node.dtype);
    if (!recorded) return "array '" + terminal_safe(node.member) + "' has a dtype zanj does not know";
    if (recorded->kind == array::DtypeKind::complex && t.dtype.kind == array::DtypeKind::floating &&
        recorded->itemsize == 2 * t.dtype.itemsize && !h.shape.empty() && h.shape.back() == 2) {
      // --cast stored complex values as (real, imaginary) pairs on a last axis of 2: the same bytes.
      h.shape.pop_back();
      h.dtype = array::Dtype{array::DtypeKind::complex, recorded->itemsize, array::ByteOrder::little};
    }
    if (recorded->kind != h.dtype.kind || recorded->itemsize != h.dtype.itemsize)
      return "array '" + terminal_safe(node.member) + "' is recorded as " + node.dtype + " but stored as " +
             t.dtype_name;
    if (!node.has_shape || node.shape != h.shape)
      return "array '" + terminal_safe(node.member) + "' is recorded with another shape than its tensor's";
    const std::string member = externals_.name_for(path, "npy");
    planned_.emplace_back(found->second, tensor_member(in_, t, member, h));
    value = external_array_node(member, h, externals_, path, node.torch);
    return std::nullopt;
  }

  const TensorBytes& in_;
  const SafetensorsContents& contents_;
  ExternalRegistry& externals_;
  std::vector<PlannedMember>& members_;
  std::unordered_map<std::string, std::size_t> by_name_;
  std::set<std::size_t> used_;
  std::vector<std::pair<std::size_t, PlannedMember>> planned_;
};

/// {tensor name: array}, in the order of the tensors' data, as pack makes an .npz's dict.
Json flat_dict(const TensorBytes& in, const SafetensorsContents& contents, const JsonArray& prefix,
               ExternalRegistry& externals, std::vector<PlannedMember>& members) {
  JsonObject dict;
  for (const SafetensorsEntry& t : contents.tensors) {
    JsonArray node_path = prefix;
    node_path.emplace_back(t.name);
    const std::string member = externals.name_for(node_path, "npy");
    const array::NpyHeader h = tensor_header(t);
    dict.emplace_back(t.name, external_array_node(member, h, externals, node_path));
    members.push_back(tensor_member(in, t, member, h));
  }
  return Json(std::move(dict));
}

}  // namespace

namespace {

SafetensorsPlan plan_tensors(const TensorBytes& in, const io::ByteSource& file, const JsonArray& prefix,
                             const PackSettings& settings, ExternalRegistry& externals,
                             std::vector<PlannedMember>& members) {
  const std::string& path = in.path;
  SafetensorsLimits limits;
  limits.max_header_bytes = std::min(limits.max_header_bytes, settings.limits.max_json_bytes);
  limits.max_json_depth = settings.limits.max_json_depth;
  const base::Result<SafetensorsContents> read = read_safetensors(file, limits);
  if (!read) throw Error(path + ": " + read.why(), Exit::invalid);
  const SafetensorsContents& contents = *read;
  SafetensorsPlan plan;
  const std::string recorded = metadata_value(contents, kMainMember);
  if (prefix.empty() && metadata_value(contents, "format") == "zanj" && !recorded.empty()) {
    base::Result<Json> object = json::read_json(recorded, path + ": __metadata__ " + std::string(kMainMember),
                                                json::JsonLimits{settings.limits.max_json_depth});
    std::optional<std::string> why;
    if (!object) {
      why = object.why();
    } else {
      ExternalRegistry restored = externals;  // nothing registered unless the whole object fits
      why = Restorer(in, contents, restored, members).run(*object);
      if (!why) externals = std::move(restored);
    }
    if (!why) {
      plan.root = std::move(*object);
      const std::string meta_text = metadata_value(contents, kMetaMember);
      base::Result<Json> meta = json::read_json(meta_text, "meta", json::JsonLimits{settings.limits.max_json_depth});
      if (const Json* cfg = meta ? meta->find("zanj_cfg") : nullptr; cfg && cfg->is_object()) plan.zanj_cfg = *cfg;
      return plan;
    }
    plan.notes.push_back(path + ": the object zanj export recorded was not restored (" + *why +
                         "); the tensors are packed as a flat dict");
  }
  plan.root = flat_dict(in, contents, prefix, externals, members);
  return plan;
}

}  // namespace

SafetensorsPlan plan_safetensors(const std::string& path, const JsonArray& prefix, const PackSettings& settings,
                                 ExternalRegistry& externals, std::vector<PlannedMember>& members) {
  const io::FileSource file(path);
  return plan_tensors(TensorBytes{path, nullptr}, file, prefix, settings, externals, members);
}

SafetensorsPlan plan_safetensors(const std::shared_ptr<const io::ByteSource>& bytes, const std::string& name,
                                 const JsonArray& prefix, const PackSettings& settings, ExternalRegistry& externals,
                                 std::vector<PlannedMember>& members) {
  return plan_tensors(TensorBytes{name, bytes}, *bytes, prefix, settings, externals, members);
}

}  // namespace zanj::pack
