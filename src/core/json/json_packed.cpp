// Packed arrays (json_document.hpp): a long array of bare scalars is kept as its text, not as a
// node per element. Before simdjson sees the minified text, each such array's inside moves into
// the document's spans and `[]` stays in its place; the walk (json_parse.cpp) knows each `[]`
// by its position and makes one node of it. simdjson then never indexes those elements (4
// bytes per structural character: 64 MB for 8M zeros) and the document holds no node for them
// (20 bytes each). Every element is read as Python reads it before the array is packed, so a
// packed array is valid JSON and reading an element later cannot fail; an array with anything
// else in it (a string, a container, a kept space as in `[1 2]`) stays where it is, for the
// walk to take or refuse as always.
#include <cstring>

#include "base/byte_words.hpp"
#include "json/json_builder.hpp"

namespace zanj {
namespace {

/// The first of `"`, `[`, `]` or `{` in text[i, n), or n.
std::size_t next_bracket_or_quote(const char* text, std::size_t i, std::size_t n) {
  for (; i + 8 <= n; i += 8) {
    const std::uint64_t w = words::load(text + i);
    const std::uint64_t stops = words::bytes_equal(w, '"') | words::bytes_equal(w, '[') |
                                words::bytes_equal(w, ']') | words::bytes_equal(w, '{');
    if (stops) return i + words::first_marked(stops);
  }
  for (; i < n; ++i)
    if (text[i] == '"' || text[i] == '[' || text[i] == ']' || text[i] == '{') return i;
  return n;
}

/// Past the closing quote of the string whose opening quote is text[i] (n when unterminated:
/// the walk reports it).
std::size_t past_string(const char* text, std::size_t i, std::size_t n) {
  for (++i; i < n; ++i) {
    if (text[i] == '"') return i + 1;
    if (text[i] == '\\') ++i;
  }
  return n;
}

}  // namespace

std::vector<JsonDocumentBuilder::PackedPlace> JsonDocumentBuilder::pack_scalar_arrays(std::string& text,
                                                                                      std::size_t start,
                                                                                      std::uint32_t min_elements,
                                                                                      JsonDocument& doc) {
  struct Found {
    std::size_t open, close;  ///< text[open] is '[' and text[close] its ']'
    std::uint32_t elements;
  };
  std::vector<Found> found;
  std::vector<std::uint32_t>& checkpoints = doc.checkpoints_;
  const char* const p = text.data();
  const std::size_t n = text.size();
  std::uint64_t span_bytes = 0;
  std::size_t open = std::string::npos;  // the last '[' with no bracket, brace or string since
  for (std::size_t i = start; (i = next_bracket_or_quote(p, i, n)) < n;) {
    const char c = p[i];
    if (c == '"') {
      open = std::string::npos;
      i = past_string(p, i, n);
      continue;
    }
    if (c == '[') {
      open = i++;
      continue;
    }
    if (c == ']' && open != std::string::npos) {
      // Enough elements (commas + 1) first: most arrays are short, and are passed by memchr.
      std::uint32_t commas = 0;
      for (const char* q = p + open + 1; commas + 1 < min_elements;) {
        q = static_cast<const char*>(std::memchr(q, ',', static_cast<std::size_t>(p + i - q)));
        if (!q) break;
        ++commas, ++q;
      }
      const std::uint64_t bytes = i - open;  // the inside and its terminator
      if (commas + 1 >= min_elements && span_bytes + bytes < UINT32_MAX) {
        const std::size_t first_checkpoint = checkpoints.size();
        std::uint32_t elements = 0;
        bool bare = true;
        for (std::size_t at = open + 1; bare;) {
          const char* comma = static_cast<const char*>(std::memchr(p + at, ',', i - at));
          const std::size_t end = comma ? static_cast<std::size_t>(comma - p) : i;
          if (elements % JsonDocument::kCheckpointEvery == 0)
            checkpoints.push_back(static_cast<std::uint32_t>(at - (open + 1)));
          bare = read_bare_scalar(p + at, p + end).error_at == nullptr && elements < UINT32_MAX - 1;
          ++elements;
          if (end == i) break;
          at = end + 1;
        }
        if (bare) {
          found.push_back(Found{open, i, elements});
          span_bytes += bytes;
        } else {
          checkpoints.resize(first_checkpoint);
        }
      }
    }
    open = std::string::npos;
    ++i;
  }
  std::vector<PackedPlace> places;
  if (found.empty()) return places;
  // Each inside moves to the spans, ended by ']' (so an element's text ends at ',' or ']'),
  // and the text closes up behind it: one pass, front to back.
  doc.spans_.reserve(span_bytes);
  places.reserve(found.size());
  doc.packed_.reserve(found.size());
  char* const q = text.data();
  std::size_t read = start, write = start;
  std::uint32_t checkpoint = 0;
  for (const Found& f : found) {
    std::memmove(q + write, q + read, f.open + 1 - read);
    write += f.open + 1 - read;
    places.push_back(PackedPlace{write - 1 - start, f.elements});
    doc.packed_.push_back(JsonDocument::Packed{static_cast<std::uint32_t>(doc.spans_.size()), checkpoint});
    checkpoint += (f.elements + JsonDocument::kCheckpointEvery - 1) / JsonDocument::kCheckpointEvery;
    doc.spans_.append(q + f.open + 1, f.close - f.open - 1);
    doc.spans_ += ']';
    read = f.close;
  }
  std::memmove(q + write, q + read, n - read);
  text.resize(write + n - read);
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
  Node n = read_bare_scalar(first, last).node;  // read once already, when the array was packed
  if (n.type() == Json::Type::big_integer) {
    n.in_spans = true;
    n.offset = offset;
  }
  return n;
}

}  // namespace zanj
