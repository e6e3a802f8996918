#pragma once
// Between the two things a JsonView can show: a Json value (what pack builds and edits, what
// a .jsonl line parses to) and a node of a parsed JsonDocument (what an opened archive holds).
// Core code that holds a Json converts here; code that only reads uses the view, which works
// on both.
#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>

#include "base/private_access.hpp"
#include "zanj/json.hpp"

namespace zanj::json {

/// A view of a value that outlives it.
inline JsonView view_of(const Json& json) { return PrivateAccess::view(&json); }
/// A view of a value that may be absent (nullptr: an invalid view).
inline JsonView view_of(const Json* json) { return PrivateAccess::view(json); }
/// The Json a view shows, or nullptr for an invalid view or a view into a JsonDocument.
inline const Json* json_ptr(JsonView view) { return PrivateAccess::json(view); }
/// The Json a valid view of a Json shows.
inline const Json& json_of(JsonView view) { return *PrivateAccess::json(view); }

/// What tells two views of the same value apart from views of equal values (for sets of
/// nodes): the Json's address, or the document, the node's index and (an element of a packed
/// array) where its text starts.
using JsonViewIdentity = std::pair<const void*, std::uint64_t>;
inline JsonViewIdentity view_identity(JsonView view) {
  if (const Json* json = PrivateAccess::json(view)) return {json, 0};
  return {PrivateAccess::document(view), std::uint64_t{PrivateAccess::node(view)} << 32 | PrivateAccess::element(view)};
}
/// "object", "array", "string", "number", "bool" or "null": Json::type_name and
/// JsonView::type_name both answer with this (json.cpp).
std::string_view json_type_name(Json::Type type) noexcept;
/// Whether a type is one of the four kinds of number (Json::is_number, JsonView::is_number).
inline bool json_type_is_number(Json::Type t) noexcept {
  return t == Json::Type::integer || t == Json::Type::unsigned_integer || t == Json::Type::big_integer ||
         t == Json::Type::real;
}

/// False only when no string of the document `view` shows (no key, no value, under the root
/// or not) holds `needle`, found without a walk: a walk looking for such a key can then be
/// skipped. A view of a Json value answers true.
bool strings_may_hold(JsonView view, std::string_view needle);

struct JsonViewIdentityHash {
  std::size_t operator()(const JsonViewIdentity& id) const noexcept {
    return std::hash<const void*>()(id.first) ^ (std::hash<std::uint64_t>()(id.second) * 0x9E3779B97F4A7C15ull);
  }
};

}  // namespace zanj::json
