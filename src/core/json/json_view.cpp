// JsonView over either representation: a Json value built in memory, or a node of a parsed
// JsonDocument (json_document.hpp). Every accessor goes through here, so when a
// representation changes, only this file (and json_view_access.hpp) follow.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <variant>

#include "base/private_access.hpp"
#include "json/json_document.hpp"
#include "json/json_view_access.hpp"
#include "zanj/json.hpp"

namespace zanj {
namespace {
using DocumentNode = JsonDocument::Node;

const Json& null_json() {
  static const Json null;
  return null;
}
/// An invalid view reads as JSON null.
const Json& value(const Json* json) { return json ? *json : null_json(); }

[[noreturn]] void wrong_type() { throw std::bad_variant_access(); }

/// What a view into a document shows: its node, or an element of a packed array read from the
/// array's text.
DocumentNode shown(JsonView view) {
  const JsonDocument* doc = PrivateAccess::document(view);
  const std::uint32_t element = PrivateAccess::element(view);
  return element == UINT32_MAX ? doc->node(PrivateAccess::node(view)) : doc->element(element);
}
}  // namespace

JsonView JsonDocument::root() const { return nodes_.empty() ? JsonView() : PrivateAccess::view(this, 0); }

std::size_t JsonDocument::bytes() const {
  // Sizes, not capacities: the node and child arrays are reserved at an upper bound whose
  // untouched pages cost no memory (JsonDocumentBuilder).
  return owned_text_.size() + arena_.size() + nodes_.size() * sizeof(DocumentNode) +
         children_.size() * sizeof(std::uint32_t) + spans_.size() + packed_.size() * sizeof(Packed) +
         checkpoints_.size() * sizeof(std::uint32_t);
}

bool JsonDocument::strings_may_hold(std::string_view needle) const {
  // glibc's memmem skips ahead by the needle's length; string_view::find stops at every byte
  // equal to the needle's first.
  return !owned_text_.empty() || needle.empty() ||
         ::memmem(arena_.data(), arena_.size(), needle.data(), needle.size()) != nullptr;
}

bool json::strings_may_hold(JsonView view, std::string_view needle) {
  const JsonDocument* doc = PrivateAccess::document(view);
  return !doc || doc->strings_may_hold(needle);
}

JsonView::Type JsonView::type() const noexcept { return doc_ ? shown(*this).type() : value(json_).type(); }

bool JsonView::is_number() const noexcept { return json::json_type_is_number(type()); }
bool JsonView::is_integer() const noexcept {
  const Type t = type();
  return t == Type::integer || t == Type::unsigned_integer || t == Type::big_integer;
}

bool JsonView::as_bool() const {
  if (!doc_) return value(json_).as_bool();
  const DocumentNode n = shown(*this);
  if (n.type() != Type::boolean) wrong_type();
  return n.u != 0;
}
std::string_view JsonView::as_string() const {
  if (!doc_) return value(json_).as_string();
  const DocumentNode n = shown(*this);
  if (n.type() != Type::string) wrong_type();
  return doc_->text_of(n);
}
std::int64_t JsonView::as_int64() const {
  if (!doc_) return value(json_).as_int64();
  const DocumentNode n = shown(*this);
  if (n.type() != Type::integer) wrong_type();
  return n.i;
}
std::uint64_t JsonView::as_uint64() const {
  if (!doc_) return value(json_).as_uint64();
  const DocumentNode n = shown(*this);
  if (n.type() != Type::unsigned_integer) wrong_type();
  return n.u;
}
double JsonView::as_real() const {
  if (!doc_) return value(json_).as_real();
  const DocumentNode n = shown(*this);
  if (n.type() != Type::real) wrong_type();
  return n.d;
}
std::string_view JsonView::big_integer_digits() const {
  if (!doc_) return value(json_).as_big_integer().digits;
  const DocumentNode n = shown(*this);
  if (n.type() != Type::big_integer) wrong_type();
  return doc_->text_of(n);
}

double JsonView::to_double() const {
  if (!doc_) return value(json_).to_double();
  const DocumentNode n = shown(*this);
  switch (n.type()) {
    case Type::integer:
      return static_cast<double>(n.i);
    case Type::unsigned_integer:
      return static_cast<double>(n.u);
    case Type::big_integer:
      return std::strtod(std::string(doc_->text_of(n)).c_str(), nullptr);
    case Type::real:
      return n.d;
    case Type::boolean:
      return n.u ? 1.0 : 0.0;
    default:
      return std::nan("");
  }
}

bool JsonView::get_uint64(std::uint64_t& out) const noexcept {
  if (!doc_) return value(json_).get_uint64(out);
  const DocumentNode n = shown(*this);
  if (n.type() == Type::unsigned_integer || (n.type() == Type::integer && n.i >= 0)) {
    out = n.u;
    return true;
  }
  return false;
}

std::string_view JsonView::type_name() const noexcept { return json::json_type_name(type()); }

JsonView JsonView::find(std::string_view key) const noexcept {
  if (!doc_) return JsonView(value(json_).find(key));
  const DocumentNode n = shown(*this);
  if (n.type() != Type::object) return {};
  const std::uint32_t* entries = doc_->children(n);
  for (std::uint32_t i = 0; i < n.size; ++i) {
    // The length first, from the node itself: most keys differ in it, and finding a key's text
    // costs a branch on where it lives (a walk looks for the format keys in every object).
    const DocumentNode& k = doc_->node(entries[2 * std::size_t{i}]);
    if (k.size == key.size() && doc_->text_of(k) == key) return JsonView(doc_, entries[2 * std::size_t{i} + 1]);
  }
  return {};
}

std::string_view JsonView::string_at(std::string_view key) const noexcept {
  // Not through as_string(), which throws on other types: this is noexcept.
  if (!doc_) return value(json_).string_at(key);
  const JsonView v = find(key);
  return v.is_string() ? doc_->text_of(shown(v)) : std::string_view();
}

std::size_t JsonView::size() const noexcept {
  if (doc_) {
    const DocumentNode n = shown(*this);
    return (n.type() == Type::array || n.type() == Type::object) ? n.size : 0;
  }
  if (is_array()) return value(json_).as_array().size();
  if (is_object()) return value(json_).as_object().size();
  return 0;
}

JsonView JsonView::operator[](std::size_t i) const {
  if (doc_) {
    const DocumentNode n = shown(*this);
    if (n.type() != Type::array && n.type() != Type::object) wrong_type();
    if (i >= n.size) throw std::out_of_range("JsonView index out of range");
    if (n.packed) return JsonView(doc_, node_, doc_->element_offset(n, i));
    const std::uint32_t* entries = doc_->children(n);
    return JsonView(doc_, n.type() == Type::array ? entries[i] : entries[2 * i + 1]);
  }
  if (is_array()) return JsonView(&json_->as_array().at(i));
  return JsonView(&json_->as_object().at(i).second);
}

std::string_view JsonView::key(std::size_t i) const {
  if (!doc_) return value(json_).as_object().at(i).first;
  const DocumentNode n = shown(*this);
  if (n.type() != Type::object) wrong_type();
  if (i >= n.size) throw std::out_of_range("JsonView key index out of range");
  return doc_->text_of(doc_->node(doc_->children(n)[2 * i]));
}

Json JsonView::copy() const {
  if (!doc_) return value(json_);
  switch (type()) {
    case Type::null:
      return Json();
    case Type::boolean:
      return Json(as_bool());
    case Type::integer:
      return Json(as_int64());
    case Type::unsigned_integer:
      return Json(as_uint64());
    case Type::big_integer:
      return Json(BigInt{std::string(big_integer_digits())});
    case Type::real:
      return Json(as_real());
    case Type::string:
      return Json(std::string(as_string()));
    case Type::array: {
      JsonArray a;
      a.reserve(size());
      for (const JsonView e : *this) a.push_back(e.copy());
      return Json(std::move(a));
    }
    case Type::object: {
      JsonObject o;
      o.reserve(size());
      for (const auto [k, v] : members()) o.emplace_back(std::string(k), v.copy());
      return Json(std::move(o));
    }
  }
  return Json();
}

bool JsonView::operator==(const JsonView& other) const {
  if (!*this || !other) return !*this && !other && json_ == other.json_;
  if (json_ && other.json_) return *json_ == *other.json_;
  if (type() != other.type()) return false;
  switch (type()) {
    case Type::null:
      return true;
    case Type::boolean:
      return as_bool() == other.as_bool();
    case Type::integer:
      return as_int64() == other.as_int64();
    case Type::unsigned_integer:
      return as_uint64() == other.as_uint64();
    case Type::big_integer:
      return big_integer_digits() == other.big_integer_digits();
    case Type::real:
      return as_real() == other.as_real();
    case Type::string:
      return as_string() == other.as_string();
    case Type::array:
    case Type::object: {
      const std::size_t n = size();
      if (n != other.size()) return false;
      const bool object = type() == Type::object;
      for (std::size_t i = 0; i < n; ++i) {
        if (object && key(i) != other.key(i)) return false;
        if (!((*this)[i] == other[i])) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace zanj
