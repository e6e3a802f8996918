#include "export/safetensors_writer.hpp"

#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/json.hpp"

namespace zanj::exporter {

std::string safetensors_dtype(const array::Dtype& dtype, bool cast, std::vector<std::uint64_t>& shape,
                              const InArchive& archive, const AtPath& at) {
  const std::uint32_t size = dtype.itemsize;
  switch (dtype.kind) {
    case array::DtypeKind::boolean:
      return "BOOL";
    case array::DtypeKind::signed_int:
      return "I" + std::to_string(size * 8);
    case array::DtypeKind::unsigned_int:
      return "U" + std::to_string(size * 8);
    case array::DtypeKind::floating:
      if (size == 2 || size == 4 || size == 8) return "F" + std::to_string(size * 8);
      break;
    case array::DtypeKind::complex:
      if (cast && (size == 8 || size == 16)) {
        shape.push_back(2);  // (real, imaginary) pairs, as torch.view_as_real gives them
        return "F" + std::to_string(size * 4);
      }
      throw Error(archive, at,
                  "safetensors has no dtype for " + dtype.numpy_name() +
                      " (--cast stores complex values as float pairs on a last axis of 2)",
                  Exit::invalid);
    case array::DtypeKind::bytes:
    case array::DtypeKind::unicode:
      break;
  }
  throw Error(archive, at, "safetensors has no dtype for " + dtype.numpy_name() + "; export it to .npz instead",
              Exit::invalid);
}

namespace {

/// The header's JSON text, unpadded: what to_json writes for {"__metadata__": {key: text, ...},
/// name: {"dtype", "shape", "data_offsets"}, ...}.
void write_header_text(const std::vector<SafetensorsTensor>& tensors, const SafetensorsMetadata& metadata,
                       OutputBuffer& out) {
  std::string& text = out.text();  // OutputBuffer appends to and flushes this same string
  text += '{';
  bool first = true;
  const auto key = [&](std::string_view name) {
    if (!first) text += ", ";
    first = false;
    write_json_string(text, name);
    text += ": ";
  };
  if (!metadata.empty()) {
    key("__metadata__");
    text += '{';
    std::string escaped;
    for (std::size_t i = 0; i < metadata.size(); ++i) {
      if (i) text += ", ";
      write_json_string(text, metadata[i].first);
      text += ": \"";
      // The value's text arrives in pieces that end between whole JSON items, never inside a
      // character: escaped piece by piece it reads as write_json_string of it whole.
      OutputBuffer value([&](std::string_view piece) {
        escaped.clear();
        write_json_string(escaped, piece);
        out.write(std::string_view(escaped).substr(1, escaped.size() - 2));
      });
      metadata[i].second(value);
      value.flush();
      text += '"';
    }
    text += '}';
  }
  std::uint64_t offset = 0;
  for (const SafetensorsTensor& t : tensors) {
    key(t.name);
    write_json(text, Json(JsonObject{{"dtype", t.dtype},
                                     {"shape", shape_json(t.shape)},
                                     {"data_offsets", Json(JsonArray{Json(offset), Json(offset + t.bytes)})}}));
    offset += t.bytes;
    out.flush_if_full();
  }
  text += '}';
}

}  // namespace

std::uint64_t write_safetensors_header(const std::vector<SafetensorsTensor>& tensors,
                                       const SafetensorsMetadata& metadata,
                                       const std::function<void(std::string_view)>& write) {
  std::uint64_t size = 0;
  OutputBuffer count([&](std::string_view piece) { size += piece.size(); });
  write_header_text(tensors, metadata, count);
  count.flush();
  const std::uint64_t padding = (8 - size % 8) % 8;  // the data starts 8-byte aligned
  std::string prefix(8, '\0');
  for (int i = 0; i < 8; ++i)
    prefix[static_cast<std::size_t>(i)] = static_cast<char>(((size + padding) >> (8 * i)) & 0xFF);
  write(prefix);
  OutputBuffer out(write);
  write_header_text(tensors, metadata, out);
  out.text().append(static_cast<std::size_t>(padding), ' ');
  out.flush();
  return 8 + size + padding;
}

}  // namespace zanj::exporter
