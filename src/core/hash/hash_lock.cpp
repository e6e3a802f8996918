// Locks: what `zanj hash --json` prints, read back by `zanj hash --check`.
#include <string>

#include "source/input.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "zanj/hash.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

Json globs_json(const std::vector<std::string>& globs) {
  JsonArray out;
  for (const auto& g : globs) out.emplace_back(g);
  return Json(std::move(out));
}

std::string text_field(JsonView object, std::string_view key, const std::string& where) {
  const JsonView v = object.find(key);
  if (!v || !v.is_string()) throw Error(where + ": no \"" + std::string(key) + "\" string", Exit::usage);
  return std::string(v.as_string());
}

std::vector<std::string> globs_field(JsonView object, std::string_view key, const std::string& where) {
  std::vector<std::string> out;
  const JsonView v = object.find(key);
  if (!v) return out;
  if (!v.is_array()) throw Error(where + ": \"" + std::string(key) + "\" is not a list", Exit::usage);
  for (const JsonView g : v) {
    if (!g.is_string()) throw Error(where + ": \"" + std::string(key) + "\" holds a non-string", Exit::usage);
    out.emplace_back(g.as_string());
  }
  return out;
}

ContentDigest lock_entry(JsonView object, const std::string& where) {
  if (!object.is_object()) throw Error(where + ": not a zanj hash --json object", Exit::usage);
  ContentDigest d;
  d.file = text_field(object, "file", where);
  d.algorithm = text_field(object, "algorithm", where);
  d.digest = text_field(object, "digest", where);
  d.includes = globs_field(object, "include", where);
  d.excludes = globs_field(object, "exclude", where);
  const JsonView nodes = object.find("nodes");
  if (nodes && !nodes.is_array()) throw Error(where + ": \"nodes\" is not a list", Exit::usage);
  if (nodes)
    for (const JsonView n : nodes) {
      if (!n.is_object()) throw Error(where + ": a node is not an object", Exit::usage);
      d.nodes.push_back({text_field(n, "path", where), text_field(n, "kind", where), text_field(n, "digest", where)});
    }
  return d;
}

}  // namespace

Json content_digest_json(const ContentDigest& d) {
  JsonArray nodes;
  for (const auto& n : d.nodes)
    nodes.emplace_back(JsonObject{{"path", n.path}, {"kind", n.kind}, {"digest", n.digest}});
  return Json(JsonObject{{"file", d.file},
                         {"algorithm", d.algorithm},
                         {"digest", d.digest},
                         {"include", globs_json(d.includes)},
                         {"exclude", globs_json(d.excludes)},
                         {"nodes", Json(std::move(nodes))}});
}

std::vector<ContentDigest> read_hash_lock(const std::string& path, const RemoteOptions& remote) {
  const auto source = open_input(path, remote);
  constexpr std::uint64_t kMaxLockBytes = std::uint64_t{1} << 30;
  if (source->size() > kMaxLockBytes) throw Error(path + ": too large for a lock", Exit::usage);
  std::string text(static_cast<std::size_t>(source->size()), '\0');
  source->read_at(0, text.data(), text.size());
  std::vector<ContentDigest> out;
  try {
    const Json whole = parse_json(text, path);
    if (whole.is_array()) {
      for (const Json& entry : whole.as_array()) out.push_back(lock_entry(view_of(entry), path));
    } else {
      out.push_back(lock_entry(view_of(whole), path));
    }
  } catch (const Error&) {
    // One object per line, as `zanj hash --json A B` prints them.
    out.clear();
    std::size_t start = 0, line = 1;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string_view row(text.data() + start, end - start);
      const std::string where = path + " line " + std::to_string(line);
      if (row.find_first_not_of(" \t\r") != std::string_view::npos) {
        Json entry;
        try {
          entry = parse_json(row, where);
        } catch (const Error& e) {
          throw Error(std::string(e.what()), Exit::usage);
        }
        out.push_back(lock_entry(view_of(entry), where));
      }
      start = end + 1;
      ++line;
    }
  }
  if (out.empty()) throw Error(path + ": no digests in this lock", Exit::usage);
  return out;
}

}  // namespace zanj
