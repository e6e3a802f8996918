// An externals_info path walked the way the reference loader walks it (docs/format.md, zanj's
// _each_item_in_externals), so that verify's verdict on a path is Python's: plain subscripts,
// where a list takes an int (a bool is an int; a negative one counts from the end) and a dict
// takes a str, and an external node met on the way is entered through its loaded data.
#include <string>

#include "verify/verify_checks.hpp"

namespace zanj::verify {
namespace {

/// The UTF-8 characters of `text`, one string each (Python iterates a str by code point).
std::vector<Json> characters(const std::string& text) {
  std::vector<Json> out;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i + 1;
    while (end < text.size() && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) ++end;
    out.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return out;
}

}  // namespace

std::optional<std::size_t> list_position(const Json& key, std::size_t size) {
  if (key.is_bool()) {
    const std::size_t at = key.as_bool() ? 1 : 0;
    return at < size ? std::optional(at) : std::nullopt;
  }
  if (key.type() == Json::Type::unsigned_integer)
    return key.as_uint64() < size ? std::optional(static_cast<std::size_t>(key.as_uint64())) : std::nullopt;
  if (key.type() != Json::Type::integer) return std::nullopt;  // str, float; big ints are out of range
  const std::int64_t at = key.as_int64();
  if (at >= 0)
    return static_cast<std::uint64_t>(at) < size ? std::optional(static_cast<std::size_t>(at)) : std::nullopt;
  const std::uint64_t back = 0 - static_cast<std::uint64_t>(at);  // no overflow for INT64_MIN
  return back <= size ? std::optional(static_cast<std::size_t>(size - back)) : std::nullopt;
}

namespace {

std::string describe(const Json& key) {
  if (key.is_string()) return "'" + key.as_string() + "'";
  if (key.is_bool()) return key.as_bool() ? "true" : "false";
  return to_json(key);
}

}  // namespace

std::optional<std::size_t> python_path_length(JsonView path) {
  std::size_t n = 0;
  if (path.is_array()) {
    for (const JsonView item : path)  // every key a str or an int (bool included)
      if (!item.is_string() && !item.is_bool() && !item.is_integer()) return std::nullopt;
    n = path.size();
  } else if (path.is_string()) {
    n = characters(std::string(path.as_string())).size();  // tuple("ab") is ('a', 'b')
  } else if (path.is_object()) {
    n = path.size();  // tuple(dict): its keys
  } else {
    return std::nullopt;  // len(5) or tuple(None) raises
  }
  if (n == 0) return std::nullopt;  // the loader asserts len(path) > 0
  return n;
}

std::optional<std::vector<Json>> python_path_items(JsonView path) {
  if (!python_path_length(path)) return std::nullopt;
  std::vector<Json> items;
  if (path.is_array()) {
    items.reserve(path.size());
    for (const JsonView item : path) items.push_back(item.copy());
  } else if (path.is_string()) {
    items = characters(std::string(path.as_string()));
  } else {
    for (const auto [key, value] : path.members()) items.emplace_back(std::string(key));
  }
  return items;
}

PathWalk walk_python_path(JsonView root, const std::vector<Json>& items, const PopulatedNodes& populated,
                          object::KeyIndex* index) {
  PathWalk walk;
  JsonView node = root;
  // Root objects can hold 50,000 keys: every lookup goes through the index when there is one.
  const auto find = [&](JsonView object, std::string_view key) {
    return index ? index->find(object, key) : object.find(key);
  };
  const auto fail = [&](std::string why) {
    walk.failure = std::move(why);
    return walk;
  };
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Json& key = items[i];
    if (node.is_object()) {
      // An external node on the way is entered through its "data": what an earlier (shorter)
      // entry loaded into it, else a "data" key already on disk; without either the loader fails.
      // Each release's loader looks for its own key; an archive holds one kind of key.
      JsonView format = find(node, kFormatKey);
      if (!format) format = find(node, kLegacyFormatKey);
      if (format) {
        if (!format.is_string()) return fail("a format key that is not a string is on the way");
        if (format.as_string().ends_with(":external")) {
          if (const auto fed = populated.find(json::view_identity(node)); fed != populated.end()) {
            if (!fed->second.jsonl)
              return fail("the path goes into the array of '" + std::string(fed->second.member) +
                          "', which has no keys");
            walk.through = fed->second.member;
            walk.rest.assign(items.begin() + static_cast<std::ptrdiff_t>(i), items.end());
            return walk;
          }
          node = find(node, "data");
          if (!node) {
            walk.blocked_by_external = true;
            return fail("the path goes through an external node that nothing loads");
          }
        }
      }
    }
    if (node.is_array()) {
      const auto at = list_position(key, node.size());
      if (!at)
        return fail("key " + describe(key) + " does not index a list of " + std::to_string(node.size()) +
                    (key.is_string() ? " (a list needs an int)" : ""));
      walk.segments.push_back(std::to_string(*at));
      node = node[*at];
    } else if (node.is_object()) {
      if (!key.is_string()) return fail("key " + describe(key) + " into a dict (a dict needs a str key)");
      node = find(node, key.as_string());
      if (!node) return fail("no key " + describe(key));
      walk.segments.push_back(key.as_string());
    } else {
      return fail("key " + describe(key) + " into a " + std::string(node.type_name()));
    }
  }
  walk.target = node;
  return walk;
}

}  // namespace zanj::verify
