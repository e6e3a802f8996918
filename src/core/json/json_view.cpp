// JsonView over the Json tree the parser builds. Every accessor goes through here, so when the
// document representation changes, only this file (and json_view_access.hpp) follow.
#include "json/json_view_access.hpp"
#include "zanj/json.hpp"

namespace zanj {
namespace {
const Json& null_json() {
  static const Json null;
  return null;
}
/// An invalid view reads as JSON null.
const Json& value(const Json* json) { return json ? *json : null_json(); }
}  // namespace

JsonView::Type JsonView::type() const noexcept { return value(json_).type(); }
bool JsonView::is_number() const noexcept { return value(json_).is_number(); }
bool JsonView::is_integer() const noexcept { return value(json_).is_integer(); }
bool JsonView::as_bool() const { return value(json_).as_bool(); }
std::string_view JsonView::as_string() const { return value(json_).as_string(); }
std::int64_t JsonView::as_int64() const { return value(json_).as_int64(); }
std::uint64_t JsonView::as_uint64() const { return value(json_).as_uint64(); }
double JsonView::as_real() const { return value(json_).as_real(); }
std::string_view JsonView::big_integer_digits() const { return value(json_).as_big_integer().digits; }
double JsonView::to_double() const { return value(json_).to_double(); }
bool JsonView::get_uint64(std::uint64_t& out) const noexcept { return value(json_).get_uint64(out); }
std::string_view JsonView::type_name() const noexcept { return value(json_).type_name(); }
JsonView JsonView::find(std::string_view key) const noexcept { return JsonView(value(json_).find(key)); }
std::string_view JsonView::string_at(std::string_view key) const noexcept { return value(json_).string_at(key); }

std::size_t JsonView::size() const noexcept {
  if (is_array()) return json_->as_array().size();
  if (is_object()) return json_->as_object().size();
  return 0;
}

JsonView JsonView::operator[](std::size_t i) const {
  if (is_array()) return JsonView(&json_->as_array().at(i));
  return JsonView(&json_->as_object().at(i).second);
}

std::string_view JsonView::key(std::size_t i) const { return value(json_).as_object().at(i).first; }

Json JsonView::copy() const { return value(json_); }

bool JsonView::operator==(const JsonView& other) const {
  if (!json_ || !other.json_) return json_ == other.json_;
  return *json_ == *other.json_;
}

void write_json(std::string& out, JsonView view, const JsonStyle& style) {
  write_json(out, value(json_ptr(view)), style);
}
std::string to_json(JsonView view, const JsonStyle& style) {
  return to_json(value(json_ptr(view)), style);
}
void write_json(OutputBuffer& out, JsonView view, const JsonStyle& style) {
  write_json(out, value(json_ptr(view)), style);
}

}  // namespace zanj
