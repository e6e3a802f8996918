// Planning `pack` for files: .npz, .npy and JSON inputs, alone or several under root keys.
#include <sys/stat.h>

#include <algorithm>
#include <unordered_map>

#include "io/byte_source.hpp"
#include "zanj/error.hpp"
#include "base/utf8.hpp"
#include "array/member_reader.hpp"
#include "array/npy_header.hpp"
#include "zanj/pack.hpp"
#include "pack/repack.hpp"
#include "zanj/tree.hpp"
#include "json/json_parse.hpp"
#include "pack/pack_plan.hpp"
#include "pack/json_externalize.hpp"
#include "pack/archive_input.hpp"
#include "pack/safetensors_input.hpp"
#include "pack/safetensors_pack.hpp"

namespace zanj {
namespace {

std::string base_name(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string stem_of(const std::string& path) {
  std::string base = base_name(path);
  const std::size_t dot = base.rfind('.');
  if (dot != std::string::npos && dot > 0) base.resize(dot);
  return base;
}

class Planner {
 public:
  explicit Planner(const PackSettings& settings) : settings_(settings) {}

  /// Plan one input into `slot`, found at object path `path`.
  void add(const PackInput& input, InputKind kind, Json& slot, const JsonArray& path) {
    switch (kind) {
      case InputKind::npz:
        slot = npz(std::make_shared<const Archive>(input.path), path);
        break;
      case InputKind::npy: {
        if (!path.empty()) {
          slot = npy(input.path, path);
          break;
        }
        // A lone array: the reference cannot read a root that is itself external; wrap it.
        const std::string key = settings_.npy_key.empty() ? stem_of(input.path) : settings_.npy_key;
        slot = Json(JsonObject{{key, npy(input.path, JsonArray{Json(key)})}});
        break;
      }
      case InputKind::json:
        slot = json(input.path, path);
        break;
      case InputKind::safetensors:
        take(pack::plan_safetensors(input.path, path, settings_, externals_, members_), slot);
        break;
      case InputKind::directory:
        throw Error(input.path + ": a directory can only be packed on its own, not as one of several inputs",
                    Exit::usage);
    }
  }

  /// Plan an .npz already open into `slot`, found at object path `path`.
  void add_npz(const std::shared_ptr<const Archive>& archive, Json& slot, const JsonArray& path) {
    slot = npz(archive, path);
  }
  /// Plan a .safetensors file's bytes, held open, into `slot`.
  void add_safetensors(const std::shared_ptr<const io::ByteSource>& bytes, const std::string& name, Json& slot,
                       const JsonArray& path) {
    take(pack::plan_safetensors(bytes, name, path, settings_, externals_, members_), slot);
  }

  ZipMethod method() const { return settings_.method.value_or(ZipMethod::deflate); }

  pack::PackPlan finish(Json root) {
    pack::PackPlan plan;
    plan.root = std::move(root);
    const auto compress = static_cast<std::uint16_t>(method());
    Json cfg = pack::default_zanj_cfg(settings_.thresholds.array, settings_.thresholds.list, compress);
    if (zanj_cfg_) {  // the settings a safetensors file recorded, with the method used now
      cfg = std::move(*zanj_cfg_);
      for (auto& [key, value] : cfg.as_object())
        if (key == "compress") value = Json(static_cast<std::uint64_t>(compress));
    }
    plan.meta =
        pack::make_meta(std::move(cfg), pack::tool_sysinfo(), externals_.externals_info(), pack::now_timestamp());
    plan.notes = std::move(notes_);
    plan.members = std::move(members_);
    plan.method = method();
    return plan;
  }

 private:
  void take(pack::SafetensorsPlan plan, Json& slot) {
    slot = std::move(plan.root);
    if (plan.zanj_cfg) zanj_cfg_ = std::move(plan.zanj_cfg);
    notes_.insert(notes_.end(), plan.notes.begin(), plan.notes.end());
  }

  Json npz(const std::shared_ptr<const Archive>& archive, const JsonArray& prefix) {
    const std::string& path = archive->name();
    std::vector<const ZipEntry*> entries;
    for (const ZipEntry& e : archive->entries()) entries.push_back(&e);
    // Storage order: the order numpy wrote them, and the one pass write_pack reads them in.
    std::sort(entries.begin(), entries.end(),
              [](const ZipEntry* a, const ZipEntry* b) { return a->local_header_offset < b->local_header_offset; });
    const NpyLimits npy_limits{settings_.limits.max_npy_header_bytes};
    std::unordered_map<const ZipEntry*, array::NpyHeaderCollector> headers;
    // One pass decoding only the first bytes of each member: its header.
    archive->read_each(entries, [&](const ZipEntry& e, const Archive::MemberReader& read) {
      array::NpyHeaderCollector& collector = headers.emplace(&e, array::NpyHeaderCollector(npy_limits)).first->second;
      try {
        read([&](std::string_view chunk) {
          collector.feed(chunk);
          return !collector.header();
        });
        collector.finish();
      } catch (const Error& err) {  // context: the member joins the message
        throw Error(path + ": member '" + e.name + "': " + err.what());
      }
    });
    JsonObject dict;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const ZipEntry& e = *entries[i];
      const std::string what = path + ": member '" + e.name + "'";
      if (e.is_directory()) throw Error(what + " is a directory, not an array");
      const array::NpyHeader& h = *headers.at(&e).header();
      pack::check_npy_size(h, e.uncompressed_size, what);
      const std::string key = e.name.ends_with(".npy") ? e.name.substr(0, e.name.size() - 4) : e.name;
      check_npz_key(dict, key, what);
      JsonArray node_path = prefix;
      node_path.emplace_back(key);
      const std::string member = externals_.name_for(node_path, "npy");
      dict.emplace_back(key, pack::external_array_node(member, h, externals_, node_path));
      members_.push_back({member, pack::ArchiveMemberSource{archive, &e}, e.uncompressed_size});
    }
    return Json(std::move(dict));
  }

  /// numpy names an .npz array after its member without ".npy"; that name becomes a key.
  /// Refused (nothing written, exit 1): a key that is empty (a member named ".npy"), not
  /// UTF-8 or holding control characters (JSON and terminals would mangle it), or one
  /// already taken in this .npz ("w" beside "w.npy"): no archive with a surprising key.
  static void check_npz_key(const JsonObject& dict, const std::string& key, const std::string& what) {
    if (key.empty()) throw Error(what + " would be stored under an empty key; rename it in the .npz");
    if (!base::is_valid_utf8(key)) throw Error(what + " would be stored under a key that is not UTF-8");
    std::uint32_t cp = 0;
    for (std::string_view rest = key; !rest.empty();) {
      rest.remove_prefix(base::utf8_sequence(rest, cp));  // valid UTF-8: never 0
      if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
        throw Error(what + " would be stored under a key with a control character");
    }
    if (std::any_of(dict.begin(), dict.end(), [&](const auto& member) { return member.first == key; }))
      throw Error(what + " would be stored under the key '" + key + "', which another member already has");
  }

  Json npy(const std::string& path, const JsonArray& node_path) {
    const io::FileSource file(path);
    const array::NpyHeader h = pack::read_npy_file_header(file, NpyLimits{settings_.limits.max_npy_header_bytes});
    pack::check_npy_size(h, file.size(), path);
    const std::string member = externals_.name_for(node_path, "npy");
    Json node = pack::external_array_node(member, h, externals_, node_path);
    members_.push_back({member, pack::DiskFileSource{path}, file.size()});
    return node;
  }

  Json json(const std::string& path, const JsonArray& node_path) {
    std::string text = pack::read_text_file(path, settings_.limits.max_json_bytes);
    Json value =
        json::parse_json(text, path, json::JsonLimits{settings_.limits.max_json_depth});  // its errors name the file
    text = std::string();
    try {
      pack::externalize_json(value, node_path, settings_.thresholds, externals_, members_);
    } catch (const Error& err) {  // context: the input joins the message
      throw Error(InArchive{path}, err.what());
    }
    return value;
  }

  const PackSettings& settings_;
  pack::ExternalRegistry externals_;
  std::vector<pack::PlannedMember> members_;
  std::optional<Json> zanj_cfg_;
  std::vector<std::string> notes_;
};

}  // namespace

InputKind input_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw Error(path + ": no such file or directory", Exit::usage);
  if (S_ISDIR(st.st_mode)) return InputKind::directory;
  if (path.ends_with(".zanj"))
    throw Error(path + ": is already a .zanj archive (to change it: zanj extract, edit, then pack the directory)",
                Exit::usage);
  if (path.ends_with(".npz")) return InputKind::npz;
  if (path.ends_with(".npy")) return InputKind::npy;
  if (path.ends_with(".json")) return InputKind::json;
  if (path.ends_with(".safetensors")) return InputKind::safetensors;
  const io::FileSource file(path);  // throws (usage) for what cannot be read
  if (pack::looks_like_safetensors(file)) return InputKind::safetensors;
  std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), 6)), '\0');
  file.read_at(0, head.data(), head.size());
  if (head.rfind("PK", 0) == 0) return InputKind::npz;
  if (head.rfind("\x93NUMPY", 0) == 0) return InputKind::npy;
  return InputKind::json;
}

pack::PackPlan pack::plan_npz(const std::shared_ptr<const Archive>& npz, const PackSettings& settings) {
  Planner planner(settings);
  Json root;
  planner.add_npz(npz, root, {});
  return planner.finish(std::move(root));
}

pack::PackPlan pack::plan_safetensors(const std::shared_ptr<const io::ByteSource>& bytes, const std::string& name,
                                      const PackSettings& settings) {
  Planner planner(settings);
  Json root;
  planner.add_safetensors(bytes, name, root, {});
  return planner.finish(std::move(root));
}

pack::PackPlan pack::plan_pack(const std::vector<PackInput>& inputs, const PackSettings& settings) {
  if (inputs.empty()) throw Error("nothing to pack", Exit::usage);
  for (const PackInput& in : inputs) {
    if (!pack::is_libarchive_input(in.path)) continue;
    if (inputs.size() != 1 || in.named)
      throw Error(in.path + ": an archive can only be packed on its own, not as one of several inputs", Exit::usage);
    // A tar (7z, cpio, ...) is the directory it holds, streamed (archive_input.hpp).
    return pack::plan_archive(in.path, settings);
  }
  std::vector<InputKind> kinds;
  kinds.reserve(inputs.size());
  for (const PackInput& in : inputs) kinds.push_back(input_kind(in.path));
  if (inputs.size() == 1 && kinds[0] == InputKind::directory && !inputs[0].named)
    return pack::plan_repack(inputs[0].path, settings);
  Planner planner(settings);
  if (inputs.size() == 1 && !inputs[0].named) {
    Json root;
    planner.add(inputs[0], kinds[0], root, {});
    return planner.finish(std::move(root));
  }
  JsonObject root;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string key = inputs[i].key.empty() ? stem_of(inputs[i].path) : inputs[i].key;
    if (key.empty()) throw Error(inputs[i].path + ": no name to store it under (use NAME=PATH)", Exit::usage);
    for (const auto& [existing, value] : root)
      if (existing == key)
        throw Error("two inputs would both be stored under '" + key + "' (use NAME=PATH)", Exit::usage);
    root.emplace_back(key, Json());
    planner.add(inputs[i], kinds[i], root.back().second, JsonArray{Json(key)});
  }
  return planner.finish(Json(std::move(root)));
}

}  // namespace zanj
