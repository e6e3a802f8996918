// Packed arrays (json_document.hpp): a long array of bare scalars is kept as its text, not as a
// node per element. Before simdjson sees the minified text, each such array (found by the scan
// in json_fragments.cpp) has its inside moved into the document's spans, and `[]` stays in its
// place; the walk (json_parse.cpp) knows each `[]`
// by its position and makes one node of it. simdjson then never indexes those elements (4
// bytes per structural character: 64 MB for 8M zeros) and the document holds no node for them
// (20 bytes each). Every element is read as Python reads it before the array is packed, so a
// packed array is valid JSON and reading an element later cannot fail; an array with anything
// else in it (a string, a container, a kept space as in `[1 2]`) stays where it is, for the
// walk to take or refuse as always.
#include <cstring>

#include "json/json_builder.hpp"

namespace zanj {

std::optional<std::uint32_t> json::JsonDocumentBuilder::bare_elements(const char* p, std::size_t open,
                                                                      std::size_t close, std::uint32_t min_elements,
                                                                      JsonDocument& doc) {
  // Enough elements (commas + 1) first: most arrays are short, and are passed by memchr.
  std::uint32_t commas = 0;
  for (const char* q = p + open + 1; commas + 1 < min_elements;) {
    q = static_cast<const char*>(std::memchr(q, ',', static_cast<std::size_t>(p + close - q)));
    if (!q) break;
    ++commas, ++q;
  }
  if (commas + 1 < min_elements) return std::nullopt;
  std::vector<std::uint32_t>& checkpoints = doc.checkpoints_;
  const std::size_t first_checkpoint = checkpoints.size();
  std::uint32_t elements = 0;
  for (std::size_t at = open + 1;;) {
    const char* comma = static_cast<const char*>(std::memchr(p + at, ',', close - at));
    const std::size_t end = comma ? static_cast<std::size_t>(comma - p) : close;
    if (elements % JsonDocument::kCheckpointEvery == 0)
      checkpoints.push_back(static_cast<std::uint32_t>(at - (open + 1)));
    if (json::read_bare_scalar(p + at, p + end).error_at || elements == UINT32_MAX - 1) {
      checkpoints.resize(first_checkpoint);
      return std::nullopt;
    }
    ++elements;
    if (end == close) return elements;
    at = end + 1;
  }
}

std::vector<json::JsonDocumentBuilder::PackedPlace> json::JsonDocumentBuilder::pack_found(
    std::string& text, std::size_t start, const std::vector<Bare>& found, JsonDocument& doc) {
  std::vector<PackedPlace> places;
  if (found.empty()) return places;
  // Each inside moves to the spans, ended by ']' (so an element's text ends at ',' or ']'),
  // and the text closes up behind it: one pass, front to back.
  std::size_t span_bytes = 0;
  for (const Bare& f : found) span_bytes += f.close - f.open;
  doc.spans_.reserve(span_bytes);
  places.reserve(found.size());
  doc.packed_.reserve(found.size());
  char* const q = text.data() + start;
  const std::size_t n = text.size() - start;
  std::size_t read = 0, write = 0;
  std::uint32_t checkpoint = 0;
  for (const Bare& f : found) {
    std::memmove(q + write, q + read, f.open + 1 - read);
    write += f.open + 1 - read;
    places.push_back(PackedPlace{write - 1, f.elements});
    doc.packed_.push_back(JsonDocument::Packed{static_cast<std::uint32_t>(doc.spans_.size()), checkpoint});
    checkpoint += (f.elements + JsonDocument::kCheckpointEvery - 1) / JsonDocument::kCheckpointEvery;
    doc.spans_.append(q + f.open + 1, f.close - f.open - 1);
    doc.spans_ += ']';
    read = f.close;
  }
  std::memmove(q + write, q + read, n - read);
  text.resize(start + write + n - read);
  return places;
}

std::uint32_t JsonDocument::element_offset(const Node& array, std::size_t i) const {
  const Packed& p = packed_[array.offset];
  const char* const spans = spans_.data();
  const char* at = spans + p.first + checkpoints_[p.checkpoints + i / kCheckpointEvery];
  const char* const end = spans + spans_.size();
  for (std::size_t k = i % kCheckpointEvery; k > 0; --k)
    at = static_cast<const char*>(std::memchr(at, ',', static_cast<std::size_t>(end - at))) + 1;
  return static_cast<std::uint32_t>(at - spans);
}

JsonDocument::Node JsonDocument::element(std::uint32_t offset) const {
  const char* const first = spans_.data() + offset;
  const char* last = first;
  while (*last != ',' && *last != ']') ++last;
  Node n = json::read_bare_scalar(first, last).node;  // read once already, when the array was packed
  if (n.type() == Json::Type::big_integer) {
    n.in_spans = true;
    n.offset = offset;
  }
  return n;
}

}  // namespace zanj
