#include "export/safetensors_writer.hpp"

#include "zanj/error.hpp"
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

std::string safetensors_header(const std::vector<SafetensorsTensor>& tensors,
                               const std::vector<std::pair<std::string, std::string>>& metadata) {
  JsonObject header;
  if (!metadata.empty()) {
    JsonObject meta;
    for (const auto& [key, value] : metadata) meta.emplace_back(key, value);
    header.emplace_back("__metadata__", Json(std::move(meta)));
  }
  std::uint64_t offset = 0;
  for (const SafetensorsTensor& t : tensors) {
    header.emplace_back(t.name,
                        Json(JsonObject{{"dtype", t.dtype},
                                        {"shape", shape_json(t.shape)},
                                        {"data_offsets", Json(JsonArray{Json(offset), Json(offset + t.bytes)})}}));
    offset += t.bytes;
  }
  std::string text = to_json(Json(std::move(header)));
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[static_cast<std::size_t>(i)] = static_cast<char>((text.size() >> (8 * i)) & 0xFF);
  return out + text;
}

}  // namespace zanj::exporter
