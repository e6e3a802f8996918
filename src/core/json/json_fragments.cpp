// A large document is walked a fragment at a time (json_builder.hpp): simdjson indexes every
// structural character of what it parses at 4 bytes each, 24 MB for a 15 MB document of small
// dicts, as much as the document's nodes. Cut at commas into fragments of about a megabyte,
// each parsed on its own, the index stays a few megabytes whatever the document's size.
//
// A fragment is made a document of its own: the containers open where it starts are opened
// again before it (`{"":` for an enclosing object, whose member it continues, `{` or `[` for the
// innermost), and those open where it ends are closed after it. The walk takes the reopened
// containers as the builder's open ones, and the added closes as no closes at all. simdjson
// then checks each fragment whole, in the context the text has there, so the fragments are
// valid exactly when the document is. A cut is only made between a complete value and the
// next value or key (never at `[,`, `,]` or `,,`, which an added bracket would make valid),
// and a document whose brackets do not pair, or with anything after its root, is not cut: the
// walk of the whole refuses it as always.
#include <cstring>

#include "base/byte_words.hpp"
#include "json/json_builder.hpp"

namespace zanj {
namespace {

/// The first of `"`, `[`, `]`, `{`, `}` (and `,` when `commas`) in text[i, n), or n.
std::size_t next_stop(const char* text, std::size_t i, std::size_t n, bool commas) {
  const auto stop = [commas](char c) {
    return c == '"' || c == '[' || c == ']' || c == '{' || c == '}' || (commas && c == ',');
  };
  for (; i + 8 <= n; i += 8) {
    const std::uint64_t w = words::load(text + i);
    std::uint64_t stops = words::bytes_equal(w, '"') | words::bytes_equal(w, '[') | words::bytes_equal(w, ']') |
                          words::bytes_equal(w, '{') | words::bytes_equal(w, '}');
    if (commas) stops |= words::bytes_equal(w, ',');
    if (stops) return i + words::first_marked(stops);
  }
  for (; i < n; ++i)
    if (stop(text[i])) return i;
  return n;
}

/// Past the closing quote of the string whose opening quote is text[i], or n when unterminated.
std::size_t past_string(const char* text, std::size_t i, std::size_t n) {
  for (++i; i < n; ++i) {
    if (text[i] == '"') return i + 1;
    if (text[i] == '\\') ++i;
  }
  return n;
}

/// What opens again the containers `open` ('o' object, 'a' array, outermost first): each but
/// the innermost as the container of a member or element that goes on.
std::string reopening(const std::string& open) {
  std::string out;
  for (std::size_t k = 0; k < open.size(); ++k) {
    const bool object = open[k] == 'o';
    out += object ? (k + 1 < open.size() ? "{\"\":" : "{") : "[";
  }
  return out;
}

std::string closing(const std::string& open) {
  std::string out;
  for (auto k = open.rbegin(); k != open.rend(); ++k) out += *k == 'o' ? '}' : ']';
  return out;
}

bool ends_a_value(char c) { return c != '[' && c != '{' && c != ',' && c != ':'; }
bool starts_a_value(char c) { return c != ']' && c != '}' && c != ',' && c != ':'; }

}  // namespace

std::vector<JsonDocumentBuilder::Fragment> JsonDocumentBuilder::plan_fragments(const char* text, std::size_t size,
                                                                             const std::vector<PackedPlace>& packed,
                                                                             std::size_t fragment_bytes) {
  std::vector<Fragment> out;
  if (fragment_bytes == 0 || size <= fragment_bytes) return out;
  std::string open;  // the containers open at i, outermost first
  Fragment next{};
  std::size_t target = fragment_bytes, place = 0;
  for (std::size_t i = 0; (i = next_stop(text, i, size, i >= target)) < size;) {
    switch (text[i]) {
      case '"':
        i = past_string(text, i, size);
        continue;
      case '[':
        if (place < packed.size() && packed[place].at == i) {  // a packed array's `[]`: no container to the walk
          ++place;
          i += 2;
          continue;
        }
        open += 'a';
        break;
      case '{':
        open += 'o';
        break;
      case ']':
      case '}':
        if (open.empty() || open.back() != (text[i] == ']' ? 'a' : 'o')) return {};
        open.pop_back();
        ++next.closes;
        if (open.empty() && i + 1 != size) return {};  // something after the root
        break;
      default:  // a comma, past the target
        if (open.empty()) return {};
        if (i + 1 < size && ends_a_value(text[i - 1]) && starts_a_value(text[i + 1])) {
          next.last = i;
          next.closing = closing(open);
          out.push_back(std::move(next));
          next = Fragment{i + 1, 0, reopening(open), "", static_cast<std::uint32_t>(open.size()), 0};
          target = i + 1 + fragment_bytes;
        }
    }
    ++i;
  }
  if (!open.empty() || out.empty()) return {};
  next.last = size;
  out.push_back(std::move(next));
  return out;
}

}  // namespace zanj
