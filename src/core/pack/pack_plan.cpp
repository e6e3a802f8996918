#include "pack/pack_plan.hpp"

#include <libdeflate.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <memory>

#include "zanj/error.hpp"
#include "zanj/tree.hpp"
#include "zip/member_name.hpp"

#include "zanj/version.hpp"

namespace zanj::pack {

std::uint64_t PackPlan::known_bytes() const {
  std::uint64_t total = 0;
  for (const auto& m : members) total += m.size;
  return total;
}

namespace {

std::string segment_text(const Json& segment) { return segment.is_string() ? segment.as_string() : to_json(segment); }

}  // namespace

namespace {
std::string joined_path(const JsonArray& path) {
  std::string joined;
  for (const Json& segment : path) joined += (joined.empty() ? "" : "/") + segment_text(segment);
  return joined;
}
}  // namespace

std::string ExternalRegistry::name_for(const JsonArray& path, std::string_view item_type) const {
  if (path.empty())
    throw Error("the root object cannot be stored as an external member (the reference cannot read it)");
  const std::string joined = joined_path(path);
  std::string name = joined + "." + std::string(item_type);
  if (auto why = zip::member_name_problem(name))
    throw Error("cannot store '" + zip::printable_name(joined) + "' as a member: " + *why);
  if (names_.count(name)) throw Error("two externals would both be stored as '" + name + "'");
  // The reference refuses a path that is a directory-prefix of another ("a" and "a/b"): one
  // member would have to sit inside the other's name.
  const std::string below = joined + "/";
  if (auto it = joined_.lower_bound(below); it != joined_.end() && it->rfind(below, 0) == 0)
    throw Error("external '" + joined + "' would be a prefix of external '" + *it + "'");
  for (std::size_t slash = joined.find('/'); slash != std::string::npos; slash = joined.find('/', slash + 1))
    if (joined_.count(joined.substr(0, slash)))
      throw Error("external '" + joined.substr(0, slash) + "' would be a prefix of external '" + joined + "'");
  return name;
}

void ExternalRegistry::add(ExternalInfo info) {
  joined_.insert(joined_path(info.path));
  names_.insert(info.member);
  entries_.push_back(std::move(info));
}

Json ExternalRegistry::externals_info() const {
  std::vector<const ExternalInfo*> order;
  for (const auto& e : entries_) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(),
                   [](const ExternalInfo* a, const ExternalInfo* b) { return a->path.size() < b->path.size(); });
  JsonObject out;
  for (const ExternalInfo* e : order) {
    JsonObject entry{{"item_type", e->item_type}, {"path", Json(e->path)}};
    for (const auto& kv : e->details) entry.push_back(kv);
    out.emplace_back(e->member, Json(std::move(entry)));
  }
  return Json(std::move(out));
}

Json external_array_node(const std::string& member, const array::NpyHeader& h, ExternalRegistry& externals,
                         const JsonArray& path, bool torch) {
  JsonObject details{{"type(data)", "<class 'numpy.ndarray'>"}};
  if (!h.shape.empty()) details.emplace_back("len(data)", h.shape.front());  // len() of a 0-d array fails
  externals.add({member, "npy", path, std::move(details)});
  return Json(JsonObject{{std::string(kFormatKey), torch ? "torch.Tensor:external" : "numpy.ndarray:external"},
                         {std::string(kRefKey), member},
                         {"shape", shape_json(h.shape)},
                         {"dtype", torch ? "torch." + h.dtype.numpy_name() : h.dtype.numpy_name()},
                         {"n_elements", h.element_count()}});
}

Json default_zanj_cfg(std::uint64_t array_threshold, std::uint64_t list_threshold, std::uint16_t compress) {
  return Json(JsonObject{{"error_mode", "ErrorMode.Except"},
                         {"array_mode", "array_list_meta"},
                         {"external_array_threshold", array_threshold},
                         {"external_list_threshold", list_threshold},
                         {"compress", static_cast<std::uint64_t>(compress)},
                         {"serialization_handlers", Json(JsonObject{})},
                         {"load_handlers", Json(JsonObject{})}});
}

Json tool_sysinfo() {
  return Json(JsonObject{{"zanj_cli", Json(JsonObject{{"name", "zanj"},
                                                      {"version", ZANJ_VERSION_STRING},
                                                      {"zlib", zlibVersion()},
                                                      {"libdeflate", LIBDEFLATE_VERSION_STRING}})}});
}

Json make_meta(Json zanj_cfg, Json sysinfo, Json externals_info, double timestamp) {
  return Json(JsonObject{{"zanj_cfg", std::move(zanj_cfg)},
                         {"sysinfo", std::move(sysinfo)},
                         {"externals_info", std::move(externals_info)},
                         {"timestamp", timestamp}});
}

double now_timestamp() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

array::NpyHeader read_npy_file_header(const io::FileSource& file, const NpyLimits& limits) {
  try {
    std::string head(static_cast<std::size_t>(std::min<std::uint64_t>(file.size(), 12)), '\0');
    file.read_at(0, head.data(), head.size());
    head.resize(static_cast<std::size_t>(std::min(array::npy_header_size(head, limits), file.size())));
    file.read_at(0, head.data(), head.size());
    return array::parse_npy_header(head, limits);
  } catch (const Error& err) {  // context: the file joins the message
    throw Error(file.path() + ": " + err.what());
  }
}

void check_npy_size(const array::NpyHeader& header, std::uint64_t size, const std::string& what) {
  const std::uint64_t want = header.data_offset + header.data_bytes();
  if (size != want)
    throw Error(what + ": holds " + std::to_string(size) + " bytes, but its header (shape and dtype) needs " +
                std::to_string(want));
}

void read_file_chunks(const std::string& path, const ChunkSink& sink) {
  const io::FileSource file(path);
  // Small files (most members of a large model) need no 1 MiB buffer, nor its zeroing.
  const std::size_t size = static_cast<std::size_t>(std::min<std::uint64_t>(file.size() + 1, std::uint64_t{1} << 20));
  const auto buffer = std::make_unique_for_overwrite<char[]>(size);
  for (std::uint64_t at = 0;;) {
    const std::size_t n = file.read_some(at, buffer.get(), size);
    if (n == 0 || !sink(std::string_view(buffer.get(), n))) return;
    at += n;
  }
}

std::string read_text_file(const std::string& path, std::uint64_t max_bytes) {
  const io::FileSource file(path);
  if (file.size() > max_bytes)
    throw Error(path + ": " + std::to_string(file.size()) + " bytes, over the limit of " + std::to_string(max_bytes));
  std::string text(static_cast<std::size_t>(file.size()), '\0');
  file.read_at(0, text.data(), text.size());
  return text;
}

std::string_view python_type_name(const Json& value) {
  switch (value.type()) {
    case Json::Type::null:
      return "NoneType";
    case Json::Type::boolean:
      return "bool";
    case Json::Type::integer:
    case Json::Type::unsigned_integer:
    case Json::Type::big_integer:
      return "int";
    case Json::Type::real:
      return "float";
    case Json::Type::string:
      return "str";
    case Json::Type::array:
      return "list";
    case Json::Type::object:
      return "dict";
  }
  return "NoneType";
}

}  // namespace zanj::pack
