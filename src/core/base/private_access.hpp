#pragma once
// The one way core code reaches what a public class keeps private. Public classes whose state
// is a private type (Archive, ZanjFile, ArrayValues, PackJob) hold it behind an `impl_`
// pointer, and JsonView holds its node; each names PrivateAccess its friend. Subsystems wrap
// these calls in named accessors in their own private headers (zip/archive_access.hpp,
// object/zanj_file_access.hpp, array/array_reader.hpp, json/json_view_access.hpp, ...), so
// nothing outside src/core ever sees them.
#include <memory>
#include <type_traits>
#include <utility>

#include "zanj/json.hpp"

namespace zanj {

struct PrivateAccess {
  /// The type of a public class's private state (named through a function: access to impl_
  /// is checked where the function is declared, inside this friend).
  template <class T>
  static auto impl_address(const T& object) -> decltype(&*object.impl_) {
    return &*object.impl_;
  }
  template <class T>
  using Impl = std::remove_cvref_t<std::remove_pointer_t<decltype(impl_address(std::declval<const T&>()))>>;

  /// The private state of a pimpl'd public object.
  template <class T>
  static auto& impl(const T& object) {
    return *object.impl_;
  }
  template <class T>
  static auto& impl(T& object) {
    return *object.impl_;
  }
  /// The pointer itself, to give a default-made public object its state.
  template <class T>
  static auto& impl_pointer(T& object) {
    return object.impl_;
  }
  /// A public object made from its private state (through its private constructor).
  template <class T, class... Args>
  static T make(Args&&... args) {
    return T(std::forward<Args>(args)...);
  }
  static const Json* json(JsonView view) { return view.json_; }
  static JsonView view(const Json* json) { return JsonView(json); }
  static JsonView view(const JsonDocument* doc, std::uint32_t node) { return JsonView(doc, node); }
  static const JsonDocument* document(JsonView view) { return view.doc_; }
  static std::uint32_t node(JsonView view) { return view.node_; }
  static std::uint32_t element(JsonView view) { return view.element_; }
};

}  // namespace zanj
