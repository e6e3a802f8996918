// Locks: what `zanj hash --json` prints, read back by `zanj hash --check`.
#include "hash/hash_lock.hpp"

#include <optional>
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

base::Result<std::string> text_field(JsonView object, std::string_view key, const std::string& where) {
  const JsonView v = object.find(key);
  if (!v || !v.is_string()) return base::Failure{where + ": no \"" + std::string(key) + "\" string"};
  return std::string(v.as_string());
}

base::Result<std::vector<std::string>> globs_field(JsonView object, std::string_view key, const std::string& where) {
  std::vector<std::string> out;
  const JsonView v = object.find(key);
  if (!v) return out;
  if (!v.is_array()) return base::Failure{where + ": \"" + std::string(key) + "\" is not a list"};
  for (const JsonView g : v) {
    if (!g.is_string()) return base::Failure{where + ": \"" + std::string(key) + "\" holds a non-string"};
    out.emplace_back(g.as_string());
  }
  return out;
}

}  // namespace

base::Result<ContentDigest> hash::read_lock_entry(JsonView object, const std::string& where) {
  if (!object.is_object()) return base::Failure{where + ": not a zanj hash --json object"};
  ContentDigest d;
  base::Result<std::string> file = text_field(object, "file", where);
  if (!file) return base::Failure{file.why()};
  base::Result<std::string> algorithm = text_field(object, "algorithm", where);
  if (!algorithm) return base::Failure{algorithm.why()};
  base::Result<std::string> digest = text_field(object, "digest", where);
  if (!digest) return base::Failure{digest.why()};
  base::Result<std::vector<std::string>> includes = globs_field(object, "include", where);
  if (!includes) return base::Failure{includes.why()};
  base::Result<std::vector<std::string>> excludes = globs_field(object, "exclude", where);
  if (!excludes) return base::Failure{excludes.why()};
  d.file = std::move(*file);
  d.algorithm = std::move(*algorithm);
  d.digest = std::move(*digest);
  d.includes = std::move(*includes);
  d.excludes = std::move(*excludes);
  const JsonView nodes = object.find("nodes");
  if (nodes && !nodes.is_array()) return base::Failure{where + ": \"nodes\" is not a list"};
  if (nodes)
    for (const JsonView n : nodes) {
      if (!n.is_object()) return base::Failure{where + ": a node is not an object"};
      base::Result<std::string> path = text_field(n, "path", where);
      if (!path) return base::Failure{path.why()};
      base::Result<std::string> kind = text_field(n, "kind", where);
      if (!kind) return base::Failure{kind.why()};
      base::Result<std::string> node_digest = text_field(n, "digest", where);
      if (!node_digest) return base::Failure{node_digest.why()};
      d.nodes.push_back({std::move(*path), std::move(*kind), std::move(*node_digest)});
    }
  return d;
}

namespace {

/// The lock as one JSON document (an object, or a list of them), or nothing when it is not one.
std::optional<std::vector<ContentDigest>> whole_lock(const std::string& text, const std::string& path) {
  const base::Result<Json> whole = json::read_json(text, path);
  if (!whole) return std::nullopt;
  std::vector<ContentDigest> out;
  const auto take = [&](const Json& entry) {
    base::Result<ContentDigest> digest = hash::read_lock_entry(json::view_of(entry), path);
    if (digest) out.push_back(std::move(*digest));
    return digest.ok();
  };
  if (whole->is_array()) {
    for (const Json& entry : whole->as_array())
      if (!take(entry)) return std::nullopt;
  } else if (!take(*whole)) {
    return std::nullopt;
  }
  return out;
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
  const auto source = source::open_input(path, remote);
  constexpr std::uint64_t kMaxLockBytes = std::uint64_t{1} << 30;
  if (source->size() > kMaxLockBytes) throw Error(path + ": too large for a lock", Exit::usage);
  std::string text(static_cast<std::size_t>(source->size()), '\0');
  source->read_at(0, text.data(), text.size());
  std::optional<std::vector<ContentDigest>> whole = whole_lock(text, path);
  std::vector<ContentDigest> out;
  if (whole) {
    out = std::move(*whole);
  } else {
    // One object per line, as `zanj hash --json A B` prints them.
    std::size_t start = 0, line = 1;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      const std::string_view row(text.data() + start, end - start);
      const std::string where = path + " line " + std::to_string(line);
      if (row.find_first_not_of(" \t\r") != std::string_view::npos) {
        const base::Result<Json> entry = json::read_json(row, where);
        if (!entry) throw Error(entry.why(), Exit::usage);
        out.push_back(hash::read_lock_entry(json::view_of(*entry), where).value_or_throw(Exit::usage));
      }
      start = end + 1;
      ++line;
    }
  }
  if (out.empty()) throw Error(path + ": no digests in this lock", Exit::usage);
  return out;
}

}  // namespace zanj
