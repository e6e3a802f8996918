// Packing an extracted (and maybe edited) directory back into an equivalent archive.
#include "pack/repack.hpp"

#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif

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
#include "json/json_writer.hpp"

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

/// Member `key` (the first of equal keys), or null.
template <typename Object>
auto find_key(Object& object, std::string_view key) -> decltype(&object.front().second) {
  for (auto& [k, v] : object)
    if (k == key) return &v;
  return nullptr;
}

/// The index of member `key` (the first of equal keys), added (null) when absent.
std::size_t key_index(JsonObject& object, const std::string& key) {
  for (std::size_t i = 0; i < object.size(); ++i)
    if (object[i].first == key) return i;
  object.emplace_back(key, Json());
  return object.size() - 1;
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

/// What an .npy must hold for reference node `node` (a copy) to stay as it is: its shape, and
/// a dtype compatible with the one it names (update_array_node then changes nothing).
ExpectedFile expected_npy(JsonObject node, const ArrayNode& array) {
  const base::Result<array::Dtype> dtype = array::read_dtype_name(array.dtype);
  if (!dtype) return {};
  array::NpyHeader h;
  h.dtype = *dtype;
  h.shape = array.shape;
  if (!h.checked_element_count() || update_array_node(node, array, h)) return {};
  ExpectedFile e;
  e.kind = ExpectedFile::Kind::npy;
  e.dtype = *dtype;
  e.shape = array.shape;
  return e;
}

/// What JSON lines must hold for a reference's node and externals_info entry to stay as they
/// are: the entry's len(data) lines, its data[0] first; the node saying the same, by text.
ExpectedFile expected_lines(const JsonObject& node, const JsonObject& entry) {
  ExpectedFile e;
  e.kind = ExpectedFile::Kind::lines;
  const Json* lines = find_key(entry, "len(data)");
  if (!lines || !json::view_of(*lines).get_uint64(e.lines) || to_json(*lines) != std::to_string(e.lines)) return {};
  if (const Json* first = find_key(entry, "data[0]")) {
    e.has_first = true;
    e.first = to_json(*first);
  }
  if (const Json* n = find_key(node, "len(data)"); n && to_json(*n) != std::to_string(e.lines)) return {};
  if (const Json* n = find_key(node, "data[0]"); n && (!e.has_first || to_json(*n) != e.first)) return {};
  return e;
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
    // one would be as large as the new for nothing. The new one is written as text, an entry
    // at a time (add_info).
    std::size_t meta_bytes = 0;
    if (file(meta_name_)) {
      std::string text = tree_.text(meta_name_, settings_.limits.max_json_bytes);
      meta_bytes = text.size();
      meta_ = json::parse_document(std::move(text), path_of(meta_name_), json_limits);
    }
    if (const JsonView old = old_externals_info()) {
      // Sorted with their keys at hand (looking a key up costs more than comparing it), then
      // kept without. The first of equal keys wins, as a map's emplace would keep it.
      std::vector<std::pair<std::string_view, std::uint32_t>> by_key(old.size());
      for (std::uint32_t i = 0; i < by_key.size(); ++i) by_key[i] = {old.key(i), i};
      std::sort(by_key.begin(), by_key.end());
      old_info_.reserve(by_key.size());
      for (const auto& [key, i] : by_key) old_info_.push_back(i);
    }
    // Parsing the two documents left megabytes of its working memory (text copies, builders)
    // free but resident in glibc's heap, where what placing allocates next does not all fit:
    // handed back first, they are not counted again on top of it (the plan's peak on a
    // 50,000-member tar.zst 65.2 -> 62.9 MiB). One walk of the free lists per plan.
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    plan_.members.reserve(files_.size());
    info_.reserve(files_.size());
    info_text_.reserve(meta_bytes);  // about the size of the entries it held

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
    JsonObject entry{{"item_type", std::string(externals_item_type(ref))}, {"path", Json(std::move(ref_path))}};
    if (const JsonView old = old_info(member); old.is_object())  // its other details move over
      for (auto [k, v] : old.members())
        if (k != "item_type" && k != "path") entry.emplace_back(std::string(k), v.copy());
    bool changed = false;
    if (ref.array) {
      const std::optional<array::NpyHeader> h =
          tree_.npy_header(member, NpyLimits{settings_.limits.max_npy_header_bytes});
      const std::vector<std::uint64_t>& shape = h ? h->shape : ref.array->shape;
      if (h) {
        changed = update_array_node(node, *ref.array, *h);
      } else {
        tree_.expect(member, expected_npy(node, *ref.array));
      }
      if (!shape.empty()) set_key(entry, "len(data)", shape.front());
    } else if (const std::optional<JsonlStats> found = tree_.jsonl_stats(member, settings_.limits)) {
      // An edited table or list: its length and first row, in the node where the reference puts them.
      const JsonlStats& stats = *found;
      set_key(entry, "len(data)", stats.lines);
      if (stats.first) set_key(entry, "data[0]", *stats.first);
      if (ref.json.find("len(data)")) changed |= set_key(node, "len(data)", stats.lines);
      if (ref.json.find("data[0]") && stats.first) changed |= set_key(node, "data[0]", *stats.first);
    } else {
      tree_.expect(member, expected_lines(node, entry));
    }
    if (changed) edited_.emplace(json::view_identity(ref.json), std::move(copy));
    if (!std::exchange(file_entry->has_info, true)) add_info(member, json::view_of(Json(std::move(entry))));
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
        add_info(member, entry);
      }
    std::stable_sort(info_.begin(), info_.end(),
                     [](const InfoEntry& a, const InfoEntry& b) { return a.depth < b.depth; });
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

  /// The meta, as text: the one read with the compress method, "zanj_cli" in sysinfo, the new
  /// externals_info and the timestamp put in; a fresh one without it.
  void finish_meta() {
    const auto compress = static_cast<std::uint64_t>(plan_.method);
    if (!meta_ || !meta_->root().is_object()) {
      JsonObject meta = make_meta(default_zanj_cfg(settings_.thresholds.array, settings_.thresholds.list,
                                                   static_cast<std::uint16_t>(compress)),
                                  tool_sysinfo(), Json(), now_timestamp())
                            .as_object();
      plan_.meta_text = meta_text(meta, key_index(meta, "externals_info"));
      return;
    }
    // The meta read, as a tree but for its externals_info, which is replaced.
    JsonObject meta;
    for (auto [key, value] : meta_->root().members())
      meta.emplace_back(std::string(key), key == "externals_info" ? Json() : value.copy());
    meta_.reset();
    if (Json* cfg = find_key(meta, "zanj_cfg"); cfg && cfg->is_object())
      set_key(cfg->as_object(), "compress", compress);
    if (Json* sysinfo = find_key(meta, "sysinfo"); sysinfo && sysinfo->is_object()) {
      set_key(sysinfo->as_object(), "zanj_cli", *tool_sysinfo().find("zanj_cli"));
    } else {
      set_key(meta, "sysinfo", tool_sysinfo());
    }
    const std::size_t info_at = key_index(meta, "externals_info");
    set_key(meta, "timestamp", now_timestamp());
    plan_.meta_text = meta_text(meta, info_at);
  }

  /// `meta` as zanj_json_text writes it (the layout of write_json's indenting style), with the
  /// entries of info_ as member `info_at`'s value.
  std::string meta_text(const JsonObject& meta, std::size_t info_at) {
    std::string out;
    out.reserve(info_text_.size() + 3 * info_.size() + 4096);
    out += '{';
    for (std::size_t i = 0; i < meta.size(); ++i) {
      out += i ? ",\n\t" : "\n\t";
      write_json_string(out, meta[i].first);
      out += ": ";
      if (i != info_at) {
        json::write_json_nested(out, json::view_of(meta[i].second), kMetaStyle, 1);
        continue;
      }
      out += '{';
      for (std::size_t k = 0; k < info_.size(); ++k) {
        out += k ? ",\n\t\t" : "\n\t\t";
        out.append(info_text_, info_[k].offset, info_[k].size);
      }
      out += info_.empty() ? "}" : "\n\t}";
    }
    out += "\n}";  // never empty: it holds externals_info
    info_text_ = {};
    info_ = {};
    return out;
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

  /// Add member `member`'s entry to the new externals_info, written as text at once: a tree
  /// of each would be hundreds of bytes a member, held until the meta is written.
  void add_info(std::string_view member, JsonView entry) {
    const std::size_t offset = info_text_.size();
    write_json_string(info_text_, member);
    info_text_ += ": ";
    json::write_json_nested(info_text_, entry, kMetaStyle, 2);
    const JsonView path = entry.find("path");
    info_.push_back({offset, info_text_.size() - offset, path.is_array() ? path.size() : 0});
  }

  static constexpr JsonStyle kMetaStyle{1, '\t'};  ///< zanj_json_text's
  std::optional<JsonDocument> meta_;
  EditedNodes edited_;  ///< reference nodes of the object that their files change
  /// The members of the old externals_info (old_externals_info), their indices ordered by key:
  /// 4 bytes an entry where a key's view and a value's were 40 (2 MB of the plan's peak with
  /// 50,000 members).
  std::vector<std::uint32_t> old_info_;
  /// The old externals_info's entry for `member` (the first of equal keys), or an invalid view.
  JsonView old_info(std::string_view member) const {
    if (old_info_.empty()) return JsonView();
    const JsonView old = old_externals_info();
    const auto it = std::lower_bound(old_info_.begin(), old_info_.end(), member,
                                     [&](std::uint32_t i, std::string_view m) { return old.key(i) < m; });
    return it != old_info_.end() && old.key(*it) == member ? old[*it] : JsonView();
  }
  /// The new externals_info: each entry's text (`"member": {...}`, indented as in the meta)
  /// in info_text_, in the order they were made; ordered by their paths' lengths at the end.
  struct InfoEntry {
    std::size_t offset = 0, size = 0, depth = 0;
  };
  std::vector<InfoEntry> info_;
  std::string info_text_;
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
