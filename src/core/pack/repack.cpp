// Packing an extracted (and maybe edited) directory back into an equivalent archive.
#include "pack/repack.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>

#include "array/dtype.hpp"
#include "zanj/error.hpp"
#include "zip/member_name.hpp"
#include "array/member_reader.hpp"
#include "object/tree_json.hpp"
#include "zanj/tree.hpp"
#include "zanj/archive.hpp"
#include "json/json_parse.hpp"
#include "pack/json_externalize.hpp"
#include "json/json_document.hpp"
#include "json/json_view_access.hpp"

namespace zanj::pack {
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
    if (fs::is_symlink(st))
      throw Error(dir + ": '" + zip::printable_name(name) + "' is a symbolic link; it is not packed");
    if (!fs::is_regular_file(st)) throw Error(dir + ": '" + zip::printable_name(name) + "' is not a regular file");
    if (is_leftover_temp_name(it->path().filename().string())) {
      notes.push_back("skipped '" + zip::printable_name(name) + "', a temporary file left by an interrupted run");
      continue;
    }
    if (auto why = zip::member_name_problem(name)) throw Error(dir + ": '" + zip::printable_name(name) + "': " + *why);
    files[name] = static_cast<std::uint64_t>(it->file_size(ec));
  }
  if (ec) throw Error(dir + ": " + ec.message(), Exit::usage);
  return files;
}

/// A copy of `value` with the values `edited` holds (by view_identity) in their place.
using EditedNodes = std::unordered_map<json::JsonViewIdentity, Json, json::JsonViewIdentityHash>;
Json copy_edited(JsonView value, const EditedNodes& edited) {
  if (const auto it = edited.find(json::view_identity(value)); it != edited.end()) return it->second;
  if (value.is_object()) {
    JsonObject out;
    out.reserve(value.size());
    for (auto [key, child] : value.members()) out.emplace_back(std::string(key), copy_edited(child, edited));
    return Json(std::move(out));
  }
  if (value.is_array()) {
    JsonArray out;
    out.reserve(value.size());
    for (std::size_t i = 0; i < value.size(); ++i) out.push_back(copy_edited(value[i], edited));
    return Json(std::move(out));
  }
  return value.copy();
}

/// Set `key` to `value`; true when that changed anything (NaN counts as unchanged NaN).
bool set_key(JsonObject& object, const std::string& key, Json value) {
  for (auto& [k, v] : object)
    if (k == key) {
      if (v == value || to_json(v) == to_json(value)) return false;
      v = std::move(value);
      return true;
    }
  object.emplace_back(key, std::move(value));
  return true;
}

/// Set `key` to `value`, without comparing (a large value whose change does not matter).
void put_key(JsonObject& object, const std::string& key, Json value) {
  for (auto& [k, v] : object)
    if (k == key) {
      v = std::move(value);
      return;
    }
  object.emplace_back(key, std::move(value));
}

/// Bring an external array node in line with its (maybe edited) .npy header; true if changed.
bool update_array_node(JsonObject& node, const ArrayNode& array, const array::NpyHeader& h) {
  bool changed = set_key(node, "shape", shape_json(h.shape));
  const base::Result<array::Dtype> dtype = array::read_dtype_name(array.dtype);
  if (!dtype || !array::dtypes_compatible(*dtype, h.dtype))
    changed |= set_key(node, "dtype", array.torch ? "torch." + h.dtype.numpy_name() : h.dtype.numpy_name());
  changed |= set_key(node, "n_elements", h.element_count());
  return changed;
}

/// Lines of a .jsonl file and its first value (what the reference records as len(data), data[0]).
JsonlStats jsonl_file_stats(const std::string& path, const ResourceLimits& limits) {
  JsonlStats stats;
  array::JsonlLineSplitter lines(
      [&](std::uint64_t index, std::string_view line) {
        if (index == 0) stats.first = json::parse_json(line, path + " line 1", json::JsonLimits{limits.max_json_depth});
        return true;
      },
      limits.max_jsonl_line_bytes, path, limits.max_jsonl_rows);
  read_file_chunks(path, [&](std::string_view chunk) { return lines.feed(chunk); });
  lines.finish();
  stats.lines = lines.lines();
  return stats;
}

/// A folder on disk.
class DirectoryTree final : public PackTree {
 public:
  explicit DirectoryTree(std::string dir) : dir_(std::move(dir)) {}
  const std::string& name() const override { return dir_; }
  bool has_main() const override {
    std::error_code ec;
    return fs::is_regular_file(fs::symlink_status(path_of(std::string(kMainMember)), ec));
  }
  std::map<std::string, std::uint64_t> files(std::vector<std::string>& notes) override {
    return list_files(dir_, notes);
  }
  std::string text(const std::string& file, std::uint64_t max_bytes) override {
    return read_text_file(path_of(file), max_bytes);
  }
  std::optional<array::NpyHeader> npy_header(const std::string& file, const NpyLimits& limits) override {
    const io::FileSource source(path_of(file));
    const array::NpyHeader h = read_npy_file_header(source, limits);
    check_npy_size(h, source.size(), source.path());
    return h;
  }
  std::optional<JsonlStats> jsonl_stats(const std::string& file, const ResourceLimits& limits) override {
    return jsonl_file_stats(path_of(file), limits);
  }
  MemberSource source(const std::string& file) override { return DiskFileSource{path_of(file)}; }

 private:
  std::string path_of(const std::string& file) const { return dir_ + "/" + file; }
  std::string dir_;
};

class Repacker {
 public:
  Repacker(PackTree& tree, const PackSettings& settings) : tree_(tree), dir_(tree.name()), settings_(settings) {}

  PackPlan run() {
    if (!tree_.has_main())
      throw Error(dir_ + ": no __zanj__.json (not a directory made by `zanj extract`)", Exit::usage);
    // One list of the files, by name, with what is known of each: a name in several sets or
    // maps costs a node and a copy each (megabytes with 50,000 members).
    {
      const std::map<std::string, std::uint64_t> files = tree_.files(plan_.notes);
      files_.reserve(files.size());
      for (const auto& [name, size] : files) files_.push_back({name, size});
    }
    for (const std::string* placed : {&main_name_, &meta_name_})
      if (FileEntry* f = file(*placed)) f->placed = true;
    const json::JsonLimits json_limits{settings_.limits.max_json_depth};
    std::string main_text = tree_.text(main_name_, settings_.limits.max_json_bytes);
    // The object is read as a document (16 bytes a value), not as a tree of Json (40 to 110):
    // only the reference nodes that change are copied, and a tree is built only then.
    std::optional<JsonDocument> root = json::parse_document(std::string(main_text), path_of(main_name_), json_limits);
    // The meta too: its externals_info (an entry per member) is rebuilt, so a tree of the old
    // one would be as large as the new for nothing. The tree written is built at the end.
    if (file(meta_name_))
      meta_ = json::parse_document(tree_.text(meta_name_, settings_.limits.max_json_bytes), path_of(meta_name_),
                                   json_limits);
    if (const JsonView old = old_externals_info()) {
      old_info_.reserve(old.size());
      for (auto [member, entry] : old.members()) old_info_.emplace_back(member, entry);
      // The first of equal keys wins, as a map's emplace would keep it.
      std::stable_sort(old_info_.begin(), old_info_.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    plan_.members.reserve(files_.size());
    info_.reserve(files_.size());

    place_references(root->root());
    // Each lookup table and the object's document go as soon as their step is done: with
    // 50,000 members each holds megabytes that finish_meta, the peak, need not carry.
    old_info_ = {};
    keep_nested_entries();
    place_meta_references();
    for (FileEntry& f : files_)
      if (!std::exchange(f.placed, true)) plan_.members.push_back({f.name, tree_.source(f.name), f.size});
    files_ = {};
    if (edited_.empty())
      plan_.root_text = std::move(main_text);
    else
      plan_.root = copy_edited(root->root(), edited_);
    edited_ = {};
    root.reset();
    choose_method();
    finish_meta();
    return std::move(plan_);
  }

 private:
  /// How messages name a file of the tree.
  std::string path_of(const std::string& member) const { return dir_ + "/" + member; }

  /// Every reference node of the object, in document order, with its path as the meta writes
  /// it: keys as strings, list indices as numbers (the kinds of the nodes on the way down say
  /// which segments are list indices).
  void place_references(JsonView root) {
    std::vector<NodeKind> kinds;  // of the nodes from the root down to the one visited
    walk_tree(root, {}, [&](const TreeVisit& v) {
      kinds.resize(v.depth);
      kinds.push_back(v.node.kind);
      if (!v.node.is_reference() && !(v.node.array && v.node.array->external())) return true;
      JsonArray path;
      for (std::size_t i = 0; i < v.segments().size(); ++i) {
        if (kinds[i] == NodeKind::list) {
          path.emplace_back(static_cast<std::uint64_t>(std::stoull(v.segments()[i])));
        } else {
          path.emplace_back(v.segments()[i]);
        }
      }
      place_reference(v.node, v.segments(), std::move(path));
      return true;
    });
  }

  /// Check one reference of the object against its file, update the node from it (a copy, in
  /// edited_, when that changes it), record its externals_info entry and place its member.
  void place_reference(const Node& ref, const PathSegments& segments, JsonArray ref_path) {
    const std::string& member = ref.member();
    FileEntry* const file_entry = file(member);
    if (!file_entry)
      throw Error(dir_ + ": the reference at '" + join_path(segments) + "' names '" + zip::printable_name(member) +
                  "', which is not in the directory");
    Json copy = ref.json.copy();
    JsonObject& node = copy.as_object();
    const auto old = std::lower_bound(old_info_.begin(), old_info_.end(), member,
                                      [](const auto& a, const std::string& b) { return a.first < b; });
    JsonObject entry{{"item_type", std::string(externals_item_type(ref))}, {"path", Json(std::move(ref_path))}};
    if (old != old_info_.end() && old->first == member && old->second.is_object())  // its other details move over
      for (auto [k, v] : old->second.members())
        if (k != "item_type" && k != "path") entry.emplace_back(std::string(k), v.copy());
    bool changed = false;
    if (ref.array) {
      const std::optional<array::NpyHeader> h =
          tree_.npy_header(member, NpyLimits{settings_.limits.max_npy_header_bytes});
      const std::vector<std::uint64_t>& shape = h ? h->shape : ref.array->shape;
      if (h) changed = update_array_node(node, *ref.array, *h);
      if (!shape.empty()) set_key(entry, "len(data)", shape.front());
    } else if (const std::optional<JsonlStats> found = tree_.jsonl_stats(member, settings_.limits)) {
      // An edited table or list: its length and first row, in the node where the reference puts them.
      const JsonlStats& stats = *found;
      set_key(entry, "len(data)", stats.lines);
      if (stats.first) set_key(entry, "data[0]", *stats.first);
      if (ref.json.find("len(data)")) changed |= set_key(node, "len(data)", stats.lines);
      if (ref.json.find("data[0]") && stats.first) changed |= set_key(node, "data[0]", *stats.first);
    }
    if (changed) edited_.emplace(json::view_identity(ref.json), std::move(copy));
    if (!std::exchange(file_entry->has_info, true)) info_.emplace_back(member, Json(std::move(entry)));
    if (!std::exchange(file_entry->placed, true))
      plan_.members.push_back({member, tree_.source(member), file_entry->size});
  }

  /// Entries of the old externals_info not referenced from the object (externals nested in a
  /// .jsonl member) stay while their file does; then the reference's order, by path length.
  void keep_nested_entries() {
    if (const JsonView old = old_externals_info())
      for (auto [key, entry] : old.members()) {  // in its order
        const std::string member(key);
        FileEntry* const f = file(member);
        if (f && f->has_info) continue;
        if (!f) {
          plan_.notes.push_back("dropped the externals_info entry for '" + zip::printable_name(member) +
                                "': no such file");
          continue;
        }
        f->has_info = true;
        info_.emplace_back(member, entry.copy());
      }
    const auto depth = [](const Json& entry) {
      const Json* p = entry.find("path");
      return p && p->is_array() ? p->as_array().size() : 0;
    };
    std::stable_sort(info_.begin(), info_.end(),
                     [&](const auto& a, const auto& b) { return depth(a.second) < depth(b.second); });
  }

  /// Members referenced from the meta (handler code stored apart) come after the object's.
  void place_meta_references() {
    if (!meta_) return;
    for (const Reference& ref : collect_references(meta_->root())) {
      const std::string& member = ref.node.member();
      FileEntry* const f = file(member);
      if (!f) {
        plan_.notes.push_back("the meta refers to '" + zip::printable_name(member) +
                              "', which is not in the directory");
      } else if (!std::exchange(f->placed, true)) {
        plan_.members.push_back({member, tree_.source(member), f->size});
      }
    }
  }

  /// Without a choice on the command line, keep the method the archive was saved with.
  void choose_method() {
    plan_.method = ZipMethod::deflate;
    if (settings_.method) {
      plan_.method = *settings_.method;
    } else if (const JsonView cfg = meta_ ? meta_->root().find("zanj_cfg") : JsonView()) {
      std::uint64_t saved = 0;
      if (const JsonView c = cfg.find("compress"); c && c.get_uint64(saved) && saved == 0)
        plan_.method = ZipMethod::store;
    }
  }

  void finish_meta() {
    const auto compress = static_cast<std::uint64_t>(plan_.method);
    if (!meta_ || !meta_->root().is_object()) {
      plan_.meta = make_meta(
          default_zanj_cfg(settings_.thresholds.array, settings_.thresholds.list, static_cast<std::uint16_t>(compress)),
          tool_sysinfo(), Json(std::move(info_)), now_timestamp());
      return;
    }
    // The meta read, as a tree: its externals_info is replaced, so not copied.
    Json meta{JsonObject{}};
    JsonObject& m = meta.as_object();
    for (auto [key, value] : meta_->root().members())
      m.emplace_back(std::string(key), key == "externals_info" ? Json() : value.copy());
    meta_.reset();
    if (Json* cfg = const_cast<Json*>(meta.find("zanj_cfg")); cfg && cfg->is_object())
      set_key(cfg->as_object(), "compress", compress);
    if (Json* sysinfo = const_cast<Json*>(meta.find("sysinfo")); sysinfo && sysinfo->is_object()) {
      set_key(sysinfo->as_object(), "zanj_cli", *tool_sysinfo().find("zanj_cli"));
    } else {
      set_key(m, "sysinfo", tool_sysinfo());
    }
    put_key(m, "externals_info", Json(std::move(info_)));
    set_key(m, "timestamp", now_timestamp());
    plan_.meta = std::move(meta);
  }

  PackTree& tree_;
  const std::string dir_;
  const PackSettings& settings_;
  const std::string main_name_{kMainMember}, meta_name_{kMetaMember};
  PackPlan plan_;
  struct FileEntry {
    std::string name;
    std::uint64_t size = 0;
    bool placed = false;    ///< in plan_.members already (or the object or meta, written apart)
    bool has_info = false;  ///< in info_ already
  };
  std::vector<FileEntry> files_;  ///< every file of the tree, by name
  FileEntry* file(std::string_view name) {
    const auto it = std::lower_bound(files_.begin(), files_.end(), name,
                                     [](const FileEntry& f, std::string_view n) { return f.name < n; });
    return it != files_.end() && it->name == name ? &*it : nullptr;
  }
  /// The externals_info of the meta read, when it is an object.
  JsonView old_externals_info() const {
    const JsonView old = meta_ ? meta_->root().find("externals_info") : JsonView();
    return old.is_object() ? old : JsonView();
  }

  std::optional<JsonDocument> meta_;
  EditedNodes edited_;  ///< reference nodes of the object that their files change
  std::vector<std::pair<std::string_view, JsonView>> old_info_;  ///< entries of the meta read, by member
  JsonObject info_;
};

}  // namespace

bool is_leftover_temp_name(const std::string& base) {
  return !base.empty() && base.front() == '.' && base.find(".zanj-tmp-") != std::string::npos;
}

PackPlan plan_repack(PackTree& tree, const PackSettings& settings) { return Repacker(tree, settings).run(); }

PackPlan plan_repack(const std::string& dir, const PackSettings& settings) {
  DirectoryTree tree(dir);
  return plan_repack(tree, settings);
}

}  // namespace zanj::pack
