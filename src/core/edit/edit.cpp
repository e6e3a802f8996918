// `edit` and `set` (zanj/pack.hpp): a new object for an archive, every other member copied as
// stored, the result held to verify's checks before it replaces anything.
#include "zanj/pack.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "io/temp_file.hpp"
#include "json/json_view_access.hpp"
#include "json/json_parse.hpp"
#include "pack/pack_plan.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zip/archive_access.hpp"
#include "zip/zip_writer.hpp"

namespace zanj {
namespace {

namespace fs = std::filesystem;

/// A position in a list as an object path writes it: decimal, no leading zeros.
bool list_index(const std::string& segment, std::size_t size, std::size_t& out) {
  if (segment.empty() || segment.size() > 18 || (segment.size() > 1 && segment[0] == '0') ||
      !std::all_of(segment.begin(), segment.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  out = static_cast<std::size_t>(std::stoull(segment));
  return out < size;
}

/// The child of `parent` at `segment`, or nullptr.
Json* child(Json& parent, const std::string& segment) {
  if (parent.is_object()) {
    for (auto& [key, value] : parent.as_object())
      if (key == segment) return &value;
  } else if (std::size_t i = 0; parent.is_array() && list_index(segment, parent.as_array().size(), i)) {
    return &parent.as_array()[i];
  }
  return nullptr;
}

/// Where the output goes: its directory and name, and whether it is the archive itself.
struct Destination {
  std::string dir, leaf;
  bool in_place = false;
  mode_t mode = 0;  ///< the archive's permissions, kept when it is replaced in place
};

Destination destination(const std::string& archive_path, const std::string& out_path, Replace replace) {
  struct stat archive {
  }, out{};
  if (::stat(archive_path.c_str(), &archive) != 0 || !S_ISREG(archive.st_mode))
    throw Error(archive_path + ": not a regular file (edit and set rewrite local archives only)", Exit::usage);
  Destination d;
  std::string target = out_path;
  if (::stat(out_path.c_str(), &out) == 0 && out.st_dev == archive.st_dev && out.st_ino == archive.st_ino) {
    d.in_place = true;
    d.mode = archive.st_mode & 07777;
    std::error_code ec;
    target = fs::canonical(out_path, ec).string();  // a symlink's target is what is replaced
    if (ec) throw Error(out_path + ": " + ec.message(), Exit::usage);
  }
  const std::size_t slash = target.rfind('/');
  d.dir = slash == std::string::npos ? "." : slash == 0 ? "/" : target.substr(0, slash);
  d.leaf = slash == std::string::npos ? target : target.substr(slash + 1);
  if (d.leaf.empty() || d.leaf == "." || d.leaf == "..") throw Error(out_path + ": not a file name", Exit::usage);
  const UniqueFd dir = open_user_directory(d.dir, CreateDirs::no);
  const EntryType type = entry_type_at(dir.get(), d.leaf);
  if (type == EntryType::directory) throw Error(out_path + ": is a directory", Exit::usage);
  if (!d.in_place && type != EntryType::missing && replace == Replace::no)
    throw Error(out_path + ": exists (use --force to replace it)", Exit::usage);
  return d;
}

/// The reference nodes of an object ($ref objects), by member: each node's path as the
/// loader walks it (keys as strings, list positions as integers), in document order.
using ReferencePaths = std::map<std::string, std::vector<JsonArray>, std::less<>>;

void find_reference_paths(JsonView value, JsonArray& path, ReferencePaths& out) {
  if (value.is_object()) {
    if (const JsonView ref = value.find(kRefKey); ref.is_string()) {
      out[std::string(ref.as_string())].push_back(path);
      return;  // a reference node holds no other
    }
    for (const auto [key, child] : value.members()) {
      path.emplace_back(std::string(key));
      find_reference_paths(child, path, out);
      path.pop_back();
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      path.emplace_back(static_cast<std::int64_t>(i));
      find_reference_paths(value[i], path, out);
      path.pop_back();
    }
  }
}

ReferencePaths reference_paths(JsonView root) {
  ReferencePaths out;
  JsonArray path;
  find_reference_paths(root, path, out);
  return out;
}

/// Where the loader's walk of an externals_info "path" from `root` ends, with Python's
/// subscripts (a dict by a str key, a list by an int or bool, negative from the end); an
/// invalid view when it fails there. A path that is not a list is not followed.
JsonView loader_walk(JsonView root, JsonView path) {
  if (!path.is_array()) return {};
  JsonView at = root;
  for (const JsonView key : path) {
    if (at.is_object() && key.is_string()) {
      at = at.find(key.as_string());
    } else if (at.is_array() && (key.is_bool() || (key.is_integer() && key.big_integer_digits().empty()))) {
      const auto size = static_cast<std::int64_t>(at.size());
      std::int64_t i = key.is_bool() ? key.as_bool() : 0;
      if (!key.is_bool()) {
        std::uint64_t u = 0;
        if (key.get_uint64(u)) {
          if (u >= static_cast<std::uint64_t>(size)) return {};
          i = static_cast<std::int64_t>(u);
        } else {
          i = key.as_int64();
        }
      }
      if (i < 0) i += size;
      if (i < 0 || i >= size) return {};
      at = at[static_cast<std::size_t>(i)];
    } else {
      return {};
    }
    if (!at) return {};
  }
  return at;
}

/// The meta's externals_info made to follow the new object, as the loader reads it: an entry
/// whose path no longer reaches its reference node takes the path of the node that now refers
/// to its member (moved), or goes with its member when no node refers to it any more
/// (deleted). Entries the old object did not reach either (paths into .jsonl lines) are kept
/// as they are.
struct MetaUpdate {
  std::optional<Json> meta;  ///< the new meta; none when the stored one still fits
  std::vector<std::string> moved, dropped;
};

MetaUpdate follow_references(JsonView old_root, JsonView old_meta, const Json& new_root) {
  MetaUpdate update;
  const JsonView externals = old_meta.find("externals_info");
  if (!externals.is_object()) return update;
  const JsonView root = json::view_of(new_root);
  // A member the meta's own reference nodes name stays, whatever the object does.
  const ReferencePaths now = reference_paths(root), before = reference_paths(old_root),
                       in_meta = reference_paths(old_meta);
  std::set<std::string, std::less<>> dropped;
  std::map<std::string, JsonArray, std::less<>> moved;
  for (const auto [key, info] : externals.members()) {
    const JsonView path = info.find("path");
    if (const JsonView reached = loader_walk(root, path); reached && reached.string_at(kRefKey) == key) continue;
    if (const auto at = now.find(key); at != now.end()) {
      moved.emplace(std::string(key), at->second.front());
    } else if (before.count(key) && !in_meta.count(key)) {
      dropped.emplace(key);
    }
  }
  if (moved.empty() && dropped.empty()) return update;
  Json meta = old_meta.copy();
  for (auto& [name, value] : meta.as_object()) {
    if (name != "externals_info" || !value.is_object()) continue;
    JsonObject kept;
    for (auto& [key, info] : value.as_object()) {
      if (dropped.count(key)) continue;
      if (const auto at = moved.find(key); at != moved.end() && info.is_object()) {
        for (auto& [field, field_value] : info.as_object())
          if (field == "path") field_value = Json(at->second);
      }
      kept.emplace_back(std::move(key), std::move(info));
    }
    value = Json(std::move(kept));
    break;  // the first externals_info, as find() read it
  }
  update.meta = std::move(meta);
  for (const auto& [key, path] : moved) update.moved.push_back(key);
  update.dropped.assign(dropped.begin(), dropped.end());
  return update;
}

/// Write the archive with a new __zanj__.json to the open temporary file.
void write_rewritten(const Archive& archive, const Json& root, const MetaUpdate& meta, int fd,
                     const std::string& out_path, RewriteOutcome& outcome) {
  const ZipEntry* main = archive.find(kMainMember);
  const ZipEntry* meta_entry = meta.meta ? archive.find(kMetaMember) : nullptr;
  const std::set<std::string_view> dropped(meta.dropped.begin(), meta.dropped.end());
  // The object (and a new meta: Python writes both alike) is compressed as it was; a method
  // this writer lacks (bzip2, lzma) becomes deflate.
  const ZipMethod method =
      main && main->method == static_cast<std::uint16_t>(ZipMethod::store) ? ZipMethod::store : ZipMethod::deflate;
  zip::ZipWriter zip(fd, out_path, zip::ZipWriterOptions{method, 6, 1});
  const io::ByteSource& source = zip::archive_source(archive);
  // New members as the reference's writestr makes them: saved now, in local time.
  const zip::ZipMemberOptions written{false, 0, zip::DosDateTime::from_unix(std::time(nullptr))};
  for (const ZipEntry& entry : archive.entries()) {
    if (&entry == main) {
      zip.add_member(entry.name, pack::zanj_json_text(root), written);
    } else if (&entry == meta_entry) {
      zip.add_member(entry.name, pack::zanj_json_text(*meta.meta), written);
    } else if (dropped.count(entry.python_name)) {
      outcome.members_dropped.push_back(entry.name);  // its node is gone, and its externals_info entry
    } else {
      zip.copy_member(source, entry);
      ++outcome.members_copied;
    }
  }
  zip.finish();
}

/// The errors of `result` that `original` does not have (by code, member and object path).
std::vector<Problem> new_errors(const VerifyReport& result, const VerifyReport& original) {
  std::multiset<std::tuple<std::string, std::string, std::string>> had;
  for (const Problem& p : original.errors) had.emplace(p.code, p.member, p.path);
  std::vector<Problem> out;
  for (const Problem& p : result.errors) {
    const auto at = had.find({p.code, p.member, p.path});
    if (at == had.end()) {
      out.push_back(p);
    } else {
      had.erase(at);
    }
  }
  return out;
}

}  // namespace

Json parse_json_value(std::string_view text, std::string_view what, const ResourceLimits& limits) {
  return json::parse_json(text, what, json::JsonLimits{limits.max_json_depth, limits.max_json_values});
}

Json replace_value(JsonView root, const PathSegments& segments, Json value, bool create,
                   std::string_view archive_name) {
  Json out = root.copy();
  Json* at = &out;
  for (std::size_t i = 0; i < segments.size(); ++i) {
    Json* next = child(*at, segments[i]);
    if (!next && create && i + 1 == segments.size() && at->is_object()) {
      at->as_object().emplace_back(segments[i], Json());
      next = &at->as_object().back().second;
    }
    // find_node says what is there instead, with a near key, as cat does.
    if (!next) find_node(root, NodeTarget{join_path(segments), segments, ""}, archive_name);
    if (!next) throw Error(InArchive{std::string(archive_name)}, AtPath{join_path(segments), "path"}, "no value there");
    at = next;
  }
  *at = std::move(value);
  return out;
}

std::string editable_json(JsonView value) { return to_json(value, JsonStyle{1, '\t'}) + "\n"; }

RewriteOutcome rewrite_object(const std::string& archive_path, const Json& root, const std::string& out_path,
                              const RewriteSettings& settings) {
  RewriteOutcome outcome;
  const Destination where = destination(archive_path, out_path, settings.replace);
  {
    const ZanjFile original(archive_path, OpenOptions{settings.limits, {}});
    if (to_json(original.root()) == to_json(root)) {
      outcome.unchanged = true;
      return outcome;
    }
  }
  const UniqueFd dir = open_user_directory(where.dir, CreateDirs::no);
  io::TempFile temp(dir.get(), where.leaf);
  {
    const ZanjFile original(archive_path, OpenOptions{settings.limits, {}});
    const MetaUpdate meta = original.meta() ? follow_references(original.root(), original.meta(), root) : MetaUpdate{};
    outcome.externals_moved = meta.moved;
    write_rewritten(original.archive(), root, meta, temp.fd(), out_path, outcome);
  }
  if (where.in_place && ::fchmod(temp.fd(), where.mode) != 0)
    throw Error(out_path + ": cannot keep its permissions", Exit::usage);
  VerifyOptions check;
  check.limits = settings.limits;
  check.threads = settings.threads;
  const VerifyReport result = verify_file(where.dir + "/" + temp.name(), check);
  if (!result.errors.empty()) {
    // Problems the archive had already are no reason to refuse an edit: only new ones are.
    outcome.errors = new_errors(result, verify_file(archive_path, check));
    if (!outcome.errors.empty()) return outcome;  // the temporary file goes with `temp`
  }
  temp.commit(where.leaf, where.in_place ? Replace::yes : settings.replace);
  outcome.written = true;
  return outcome;
}

}  // namespace zanj
