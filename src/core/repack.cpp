// Packing an extracted (and maybe edited) directory back into an equivalent archive.
#include "zanj/repack.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "zanj/dtype.hpp"
#include "zanj/error.hpp"
#include "zanj/member_name.hpp"
#include "zanj/object_path.hpp"
#include "zanj/tree.hpp"
#include "zanj/zanj_file.hpp"

namespace zanj {
namespace {

namespace fs = std::filesystem;

/// Every regular file below `dir` as a relative '/'-separated name, with its size.
std::map<std::string, std::uint64_t> list_files(const std::string& dir, std::vector<std::string>& notes) {
  std::map<std::string, std::uint64_t> files;
  std::error_code ec;
  // Directory symlinks are not followed by default; symlinked files are refused below.
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (ec) break;
    // Lexically: fs::relative would resolve symlinks and name their targets.
    const std::string name = it->path().lexically_relative(dir).generic_string();
    if (fs::is_directory(st)) continue;
    if (fs::is_symlink(st)) throw Error(dir + ": '" + printable_name(name) + "' is a symbolic link; it is not packed");
    if (!fs::is_regular_file(st)) throw Error(dir + ": '" + printable_name(name) + "' is not a regular file");
    const std::string base = it->path().filename().string();
    if (base.front() == '.' && base.find(".zanj-tmp-") != std::string::npos) {
      notes.push_back("skipped '" + printable_name(name) + "', a temporary file left by an interrupted run");
      continue;
    }
    if (auto why = member_name_problem(name)) throw Error(dir + ": '" + printable_name(name) + "': " + *why);
    files[name] = static_cast<std::uint64_t>(it->file_size(ec));
  }
  if (ec) throw Error(dir + ": " + ec.message(), Exit::usage);
  return files;
}

/// The object path of `segments` as the meta writes it: keys as strings, indices as numbers.
JsonArray json_path(const Json& root, const PathSegments& segments) {
  JsonArray out;
  const Json* at = &root;
  for (const std::string& s : segments) {
    if (at && at->is_array()) {
      const std::uint64_t index = std::stoull(s);
      out.emplace_back(index);
      at = index < at->as_array().size() ? &at->as_array()[index] : nullptr;
    } else {
      out.emplace_back(s);
      at = at ? at->find(s) : nullptr;
    }
  }
  return out;
}

bool same_shape(const Json* shape, const std::vector<std::uint64_t>& want) {
  if (!shape || !shape->is_array() || shape->as_array().size() != want.size()) return false;
  for (std::size_t i = 0; i < want.size(); ++i) {
    std::uint64_t v = 0;
    if (!shape->as_array()[i].get_uint64(v) || v != want[i]) return false;
  }
  return true;
}

void set_key(JsonObject& object, const std::string& key, Json value) {
  for (auto& [k, v] : object)
    if (k == key) {
      v = std::move(value);
      return;
    }
  object.emplace_back(key, std::move(value));
}

/// Bring an external array node in line with its (maybe edited) .npy header; true if changed.
bool update_array_node(Json& node, const ArrayNode& array, const NpyHeader& h) {
  JsonObject& o = node.as_object();
  bool changed = false;
  if (!same_shape(node.find("shape"), h.shape)) {
    JsonArray shape;
    for (auto d : h.shape) shape.emplace_back(d);
    set_key(o, "shape", Json(std::move(shape)));
    changed = true;
  }
  bool dtype_ok = false;
  try {
    dtype_ok = dtypes_compatible(parse_dtype_name(array.dtype), h.dtype);
  } catch (const Error&) {
  }
  if (!dtype_ok) {
    set_key(o, "dtype", array.torch ? "torch." + h.dtype.numpy_name() : h.dtype.numpy_name());
    changed = true;
  }
  if (array.n_elements != h.element_count()) {
    set_key(o, "n_elements", h.element_count());
    changed = true;
  }
  return changed;
}

/// externals_info entry: item_type and path first, the entry's other details kept.
Json info_entry(const Json* old, const std::string& item_type, JsonArray path, std::optional<std::uint64_t> length) {
  JsonObject entry{{"item_type", item_type}, {"path", Json(std::move(path))}};
  if (old && old->is_object())
    for (const auto& [k, v] : old->as_object())
      if (k != "item_type" && k != "path") entry.emplace_back(k, v);
  if (length) set_key(entry, "len(data)", *length);
  return Json(std::move(entry));
}

}  // namespace

PackPlan plan_repack(const std::string& dir, const PackSettings& settings) {
  PackPlan plan;
  const std::string main_name(kMainMember), meta_name(kMetaMember);
  std::error_code ec;
  if (!fs::is_regular_file(fs::symlink_status(dir + "/" + main_name, ec)))
    throw Error(dir + ": no __zanj__.json (not a directory made by `zanj extract`)", Exit::usage);
  const std::map<std::string, std::uint64_t> files = list_files(dir, plan.notes);
  const JsonLimits json_limits{settings.limits.max_json_depth};
  std::string main_text = read_text_file(dir + "/" + main_name, settings.limits.max_json_bytes);
  plan.root = parse_json(main_text, dir + "/" + main_name, json_limits);
  std::optional<Json> meta;
  if (files.count(meta_name))
    meta = parse_json(read_text_file(dir + "/" + meta_name, settings.limits.max_json_bytes), dir + "/" + meta_name,
                      json_limits);
  const Json* old_info = meta ? meta->find("externals_info") : nullptr;

  std::set<std::string> placed{main_name, meta_name};
  JsonObject info;
  bool root_changed = false;
  for (const Reference& ref : collect_references(plan.root)) {
    const std::string& member = ref.node.member();
    const std::string where = dir + ": the reference at '" + join_path(ref.segments) + "'";
    if (!files.count(member)) throw Error(where + " names '" + printable_name(member) + "', which is not in the directory");
    std::optional<std::uint64_t> length;
    if (ref.node.array) {
      const FileSource file(dir + "/" + member);
      const NpyHeader h = read_npy_file_header(file, NpyLimits{settings.limits.max_npy_header_bytes});
      check_npy_size(h, file.size(), file.path());
      Json* node = const_cast<Json*>(follow_path(plan.root, ref.segments));  // plan.root is ours to change
      root_changed |= update_array_node(*node, *ref.node.array, h);
      if (!h.shape.empty()) length = h.shape.front();
    }
    const Json* old = old_info ? old_info->find(member) : nullptr;
    set_key(info, member, info_entry(old, ref.node.array ? "npy" : "jsonl", json_path(plan.root, ref.segments), length));
    if (placed.insert(member).second) plan.members.push_back({member, DiskFileSource{dir + "/" + member}, files.at(member)});
  }
  // Entries of the old externals_info not referenced from the object (externals nested in a
  // .jsonl member) stay while their file does.
  if (old_info && old_info->is_object())
    for (const auto& [member, entry] : old_info->as_object()) {
      if (info.end() != std::find_if(info.begin(), info.end(), [&](const auto& kv) { return kv.first == member; })) continue;
      if (files.count(member)) {
        info.emplace_back(member, entry);
      } else {
        plan.notes.push_back("dropped the externals_info entry for '" + printable_name(member) + "': no such file");
      }
    }
  std::stable_sort(info.begin(), info.end(), [](const auto& a, const auto& b) {
    const Json* pa = a.second.find("path");
    const Json* pb = b.second.find("path");
    return (pa && pa->is_array() ? pa->as_array().size() : 0) < (pb && pb->is_array() ? pb->as_array().size() : 0);
  });
  if (meta)
    for (const Reference& ref : collect_references(*meta)) {
      if (!files.count(ref.node.member())) {
        plan.notes.push_back("the meta refers to '" + printable_name(ref.node.member()) + "', which is not in the directory");
      } else if (placed.insert(ref.node.member()).second) {
        plan.members.push_back({ref.node.member(), DiskFileSource{dir + "/" + ref.node.member()}, files.at(ref.node.member())});
      }
    }
  for (const auto& [name, size] : files)
    if (placed.insert(name).second) plan.members.push_back({name, DiskFileSource{dir + "/" + name}, size});
  if (!root_changed) plan.root_text = std::move(main_text);

  // Without a choice on the command line, keep the method the archive was saved with.
  plan.method = ZipMethod::deflate;
  if (settings.method) {
    plan.method = *settings.method;
  } else if (const Json* cfg = meta ? meta->find("zanj_cfg") : nullptr) {
    std::uint64_t saved = 0;
    if (const Json* c = cfg->find("compress"); c && c->get_uint64(saved) && saved == 0) plan.method = ZipMethod::store;
  }
  const auto compress = static_cast<std::uint64_t>(plan.method);
  if (meta && meta->is_object()) {
    JsonObject& m = meta->as_object();
    if (Json* cfg = const_cast<Json*>(meta->find("zanj_cfg")); cfg && cfg->is_object()) set_key(cfg->as_object(), "compress", compress);
    Json* sysinfo = const_cast<Json*>(meta->find("sysinfo"));
    if (sysinfo && sysinfo->is_object()) {
      set_key(sysinfo->as_object(), "zanj_cli", *tool_sysinfo().find("zanj_cli"));
    } else {
      set_key(m, "sysinfo", tool_sysinfo());
    }
    set_key(m, "externals_info", Json(std::move(info)));
    set_key(m, "timestamp", now_timestamp());
    plan.meta = std::move(*meta);
  } else {
    plan.meta = make_meta(default_zanj_cfg(settings.thresholds.array, settings.thresholds.list,
                                           static_cast<std::uint16_t>(compress)),
                          tool_sysinfo(), Json(std::move(info)), now_timestamp());
  }
  return plan;
}

}  // namespace zanj
