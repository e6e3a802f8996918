#include "pack/safetensors_input.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <optional>

#include "base/utf8.hpp"
#include "json/json_parse.hpp"
#include "zanj/json.hpp"

namespace zanj::pack {
namespace {

struct DtypeName {
  std::string_view name, descr;  ///< descr "" : numpy has no such dtype
};
constexpr std::array<DtypeName, 15> kDtypes{{
    {"BOOL", "|b1"},
    {"U8", "|u1"},
    {"I8", "|i1"},
    {"U16", "<u2"},
    {"I16", "<i2"},
    {"U32", "<u4"},
    {"I32", "<i4"},
    {"U64", "<u8"},
    {"I64", "<i8"},
    {"F16", "<f2"},
    {"F32", "<f4"},
    {"F64", "<f8"},
    {"BF16", ""},
    {"F8_E4M3", ""},
    {"F8_E5M2", ""},
}};

base::Failure bad(std::string why) { return base::Failure{std::move(why)}; }

/// A name numpy would key an array by and JSON and terminals show intact: not empty, UTF-8,
/// no control characters.
std::optional<std::string> name_problem(const std::string& name) {
  if (name.empty()) return "a tensor has an empty name";
  if (!base::is_valid_utf8(name)) return "a tensor name is not UTF-8";
  std::uint32_t cp = 0;
  for (std::string_view rest = name; !rest.empty();) {
    rest.remove_prefix(base::utf8_sequence(rest, cp));
    if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F)) return "a tensor name holds a control character";
  }
  return std::nullopt;
}

/// One tensor's entry: exactly "dtype", "shape" and "data_offsets", each well-formed.
base::Result<SafetensorsEntry> read_entry(const std::string& name, const Json& value, std::uint64_t data_start) {
  const std::string what = "tensor '" + terminal_safe(name) + "'";
  if (!value.is_object()) return bad(what + ": its entry is not an object");
  const Json* dtype = value.find("dtype");
  const Json* shape = value.find("shape");
  const Json* offsets = value.find("data_offsets");
  if (!dtype || !shape || !offsets || value.as_object().size() != 3)
    return bad(what + ": its entry must have exactly \"dtype\", \"shape\" and \"data_offsets\"");
  if (!dtype->is_string()) return bad(what + ": \"dtype\" is not a string");
  SafetensorsEntry e;
  e.name = name;
  e.dtype_name = dtype->as_string();
  base::Result<array::Dtype> numpy = safetensors_numpy_dtype(e.dtype_name);
  if (!numpy) return bad(what + ": " + numpy.why());
  e.dtype = *numpy;
  if (!shape->is_array()) return bad(what + ": \"shape\" is not a list");
  // numpy refuses a shape whose non-zero sizes times the itemsize pass an intp, even empty.
  std::uint64_t bytes = e.dtype.itemsize;
  bool empty = false;
  for (const Json& dim : shape->as_array()) {
    std::uint64_t n = 0;
    if (!dim.is_integer() || !dim.get_uint64(n)) return bad(what + ": \"shape\" holds something not a size");
    e.shape.push_back(n);
    if (n == 0) {
      empty = true;
      continue;
    }
    if (bytes > static_cast<std::uint64_t>(INT64_MAX) / n) return bad(what + ": its shape is too large to exist");
    bytes *= n;
  }
  if (empty) bytes = 0;
  std::uint64_t begin = 0, end = 0;
  if (!offsets->is_array() || offsets->as_array().size() != 2 || !offsets->as_array()[0].get_uint64(begin) ||
      !offsets->as_array()[1].get_uint64(end) || !offsets->as_array()[0].is_integer() ||
      !offsets->as_array()[1].is_integer())
    return bad(what + ": \"data_offsets\" is not a pair of offsets");
  if (end < begin) return bad(what + ": its data ends before it begins");
  if (end - begin != bytes)
    return bad(what + ": shape " + to_json(shape_json(e.shape)) + " of " + e.dtype_name + " needs " +
               std::to_string(bytes) + " bytes, but its offsets hold " + std::to_string(end - begin));
  if (begin > UINT64_MAX - data_start) return bad(what + ": its offsets are out of the file");
  e.offset = data_start + begin;
  e.bytes = bytes;
  return e;
}

std::uint64_t little_endian_u64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

}  // namespace

base::Result<array::Dtype> safetensors_numpy_dtype(std::string_view name) {
  for (const DtypeName& d : kDtypes) {
    if (d.name != name) continue;
    if (d.descr.empty())
      return bad("dtype " + std::string(name) + " has no numpy dtype; zanj cannot store it (convert it first)");
    return array::read_descr(d.descr);
  }
  return bad("unknown dtype '" + terminal_safe(name) + "'");
}

bool looks_like_safetensors(const io::ByteSource& source) {
  if (source.size() < 9) return false;
  unsigned char head[9];
  source.read_at(0, head, sizeof head);
  return head[8] == '{' && little_endian_u64(head) <= source.size() - 8;
}

base::Result<SafetensorsContents> read_safetensors(const io::ByteSource& source, const SafetensorsLimits& limits) {
  const std::uint64_t size = source.size();
  if (size < 8) return bad("too short for a safetensors file (" + std::to_string(size) + " bytes)");
  unsigned char prefix[8];
  source.read_at(0, prefix, sizeof prefix);
  const std::uint64_t header_bytes = little_endian_u64(prefix);
  if (header_bytes > size - 8)
    return bad("the header is said to be " + std::to_string(header_bytes) + " bytes, past the end of the file (" +
               std::to_string(size) + " bytes)");
  if (header_bytes > limits.max_header_bytes)
    return bad("the header is " + std::to_string(header_bytes) + " bytes, more than the " +
               std::to_string(limits.max_header_bytes) + " allowed");
  if (header_bytes < 2) return bad("the header is too short to be JSON");
  std::string text(static_cast<std::size_t>(header_bytes), '\0');
  source.read_at(8, text.data(), text.size());
  if (text.front() != '{') return bad("the header does not start with '{'");
  json::JsonParseNotes notes;
  base::Result<Json> parsed = json::read_json(text, "the header", json::JsonLimits{limits.max_json_depth}, &notes);
  if (!parsed) return bad(parsed.why());
  if (!parsed->is_object()) return bad("the header is not a JSON object");
  if (notes.duplicate_keys != 0) return bad("the header names a key twice");

  const std::uint64_t data_start = 8 + header_bytes;
  SafetensorsContents out;
  for (const auto& [name, value] : parsed->as_object()) {
    if (name == "__metadata__") {
      if (!value.is_object()) return bad("\"__metadata__\" is not an object");
      for (const auto& [key, text_value] : value.as_object()) {
        if (!text_value.is_string()) return bad("\"__metadata__\" holds a value that is not a string");
        out.metadata.emplace_back(key, text_value.as_string());
      }
      continue;
    }
    if (auto why = name_problem(name)) return bad(*why);
    base::Result<SafetensorsEntry> entry = read_entry(name, value, data_start);
    if (!entry) return bad(entry.why());
    out.tensors.push_back(std::move(*entry));
  }
  // The tensors must tile the data exactly: sorted by offset, each starts where the last ended.
  std::stable_sort(out.tensors.begin(), out.tensors.end(), [](const SafetensorsEntry& a, const SafetensorsEntry& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.bytes < b.bytes;
  });
  std::uint64_t next = data_start;
  for (const SafetensorsEntry& t : out.tensors) {
    const std::string what = "tensor '" + terminal_safe(t.name) + "'";
    if (t.offset < next) return bad(what + ": its data overlaps another tensor's");
    if (t.offset > next) return bad(what + ": a gap of unclaimed bytes lies before its data");
    if (t.bytes > size - t.offset) return bad(what + ": its data runs past the end of the file");
    next = t.offset + t.bytes;
  }
  if (next != size) return bad(std::to_string(size - next) + " bytes at the end of the file belong to no tensor");
  return out;
}

}  // namespace zanj::pack
