#pragma once
// Between a parsed document's Json tree and the JsonView handles the API gives out. Core code
// that still works on Json (the parser's output) converts here; code that only reads should
// prefer the view.
#include "base/private_access.hpp"
#include "zanj/json.hpp"

namespace zanj {

/// A view of a value that outlives it.
inline JsonView view_of(const Json& json) { return PrivateAccess::view(&json); }
/// A view of a value that may be absent (nullptr: an invalid view).
inline JsonView view_of(const Json* json) { return PrivateAccess::view(json); }
/// The Json a view shows, or nullptr for an invalid view.
inline const Json* json_ptr(JsonView view) { return PrivateAccess::json(view); }
/// The Json a valid view shows.
inline const Json& json_of(JsonView view) { return *PrivateAccess::json(view); }
/// The Json a view shows; JSON null for an invalid view.
inline const Json& json_or_null(JsonView view) {
  static const Json null;
  return view ? json_of(view) : null;
}

}  // namespace zanj
