// `edit` and `set` (zanj/edit.hpp): a new object for an archive, every other member copied as
// stored, the result held to verify's checks before it replaces anything.
#include "zanj/pack.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <set>
#include <tuple>

#include "io/temp_file.hpp"
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

/// Write the archive with a new __zanj__.json to the open temporary file.
void write_rewritten(const Archive& archive, const Json& root, int fd, const std::string& out_path) {
  const ZipEntry* main = archive.find(kMainMember);
  // The object is compressed as it was; a method this writer lacks (bzip2, lzma) becomes deflate.
  const ZipMethod method =
      main && main->method == static_cast<std::uint16_t>(ZipMethod::store) ? ZipMethod::store : ZipMethod::deflate;
  ZipWriter zip(fd, out_path, ZipWriterOptions{method, 6, 1});
  const ByteSource& source = archive_source(archive);
  for (const ZipEntry& entry : archive.entries()) {
    if (&entry == main) {
      // A new member as the reference's writestr makes it: saved now, in local time.
      zip.add_member(entry.name, zanj_json_text(root),
                     ZipMemberOptions{false, 0, DosDateTime::from_unix(std::time(nullptr))});
    } else {
      zip.copy_member(source, entry);
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
  return parse_json(text, what, JsonLimits{limits.max_json_depth, limits.max_json_values});
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
    if (!next) throw Error(InArchive{std::string(archive_name)}, "no value at path '" + join_path(segments) + "'");
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
  TempFile temp(dir.get(), where.leaf);
  {
    const Archive archive(archive_path, OpenOptions{settings.limits, {}});
    write_rewritten(archive, root, temp.fd(), out_path);
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
