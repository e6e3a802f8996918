// A large document is walked a fragment at a time (json_builder.hpp): simdjson indexes every
// structural character of what it parses at 4 bytes each, 24 MB for a 15 MB document of small
// dicts, as much as the document's nodes. Cut at commas into fragments of about 256 KiB
// (JsonLimits::fragment_bytes), each parsed on its own, the index stays about a megabyte
// whatever the document's size. The same pass finds the arrays json_packed.cpp packs.
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
#include <algorithm>
#include <array>
#include <cstring>
#include <string>
#include <string_view>

#include "json/json_builder.hpp"

namespace zanj::json {
namespace {

/// What stops plan_text's scan: kBracket for `"`, `[`, `]`, `{`, `}`; kComma for `,`.
enum : unsigned char { kBracket = 1, kComma = 2 };
constexpr auto kStops = [] {
  std::array<unsigned char, 256> t{};
  for (const unsigned char c : std::string_view("\"[]{}")) t[c] = kBracket;
  t[','] = kComma;
  return t;
}();

/// The first of `"`, `[`, `]`, `{`, `}` (and `,` when `commas`) in text[i, n), or n. A byte at a
/// time through a table: minified JSON stops every few bytes (`{"id":7,"loss":0.5}`), where
/// testing eight bytes at once for six values cost more than it skipped.
std::size_t next_stop(const char* text, std::size_t i, std::size_t n, bool commas) {
  const unsigned char wanted = commas ? kBracket | kComma : kBracket;
  for (; i < n; ++i)
    if (kStops[static_cast<unsigned char>(text[i])] & wanted) return i;
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

JsonDocumentBuilder::TextPlan JsonDocumentBuilder::plan_text(std::string& whole, std::size_t start,
                                                             const JsonLimits& limits, bool pack, JsonDocument& doc) {
  // One pass over the text finds both what to pack and where to cut: a cut is never made in
  // an array that may yet be packed (after '[' with no string, bracket or brace since).
  const char* const text = whole.data() + start;
  const std::size_t size = whole.size() - start;
  const std::size_t fragment_bytes = limits.fragment_bytes;
  const bool cutting = fragment_bytes != 0 && size > fragment_bytes;
  const bool level_cuts = limits.threads > 1;
  // Nothing to cut and no array to pack (most .jsonl lines): no pass at all.
  TextPlan plan;
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result): a search of `size` bytes, not a copy
  if (!cutting && (!pack || !std::memchr(text, '[', size))) return plan;
  std::vector<Bare> found;
  std::vector<Fragment> cuts;  // in the text as it is before packing
  std::string open;            // the containers open at i, outermost first
  Fragment next{};
  std::size_t target = cutting ? fragment_bytes : SIZE_MAX, flat = std::string::npos, span_bytes = 0;
  bool sound = true;  // brackets pair, one root: else nothing is packed or cut (the walk refuses it)
  for (std::size_t i = 0; sound && (i = next_stop(text, i, size, i >= target)) < size;) {
    switch (text[i]) {
      case '"':
        flat = std::string::npos;
        i = past_string(text, i, size);
        continue;
      case '[':
        open += 'a';
        flat = i;
        break;
      case '{':
        open += 'o';
        flat = std::string::npos;
        break;
      case ']':
      case '}': {
        if (open.empty() || open.back() != (text[i] == ']' ? 'a' : 'o')) {
          sound = false;
          break;
        }
        open.pop_back();
        next.lowest = std::min(next.lowest, static_cast<std::uint32_t>(open.size()));
        std::optional<std::uint32_t> elements;
        if (pack && flat != std::string::npos && span_bytes + (i - flat) < UINT32_MAX)
          elements = bare_elements(text, flat, i, limits.packed_min_elements, doc);
        if (elements) {  // packed: the walk meets `[]` as one value, no container
          found.push_back(Bare{flat, i, *elements});
          span_bytes += i - flat;
        } else {
          ++next.closes;
        }
        flat = std::string::npos;
        if (open.empty() && i + 1 != size) sound = false;  // something after the root
        break;
      }
      default:  // a comma, past the target
        if (open.empty()) {
          sound = false;
          break;
        }
        // Walked on several threads, a fragment is cut where it is least deep since it began (no
        // shallower than the root's members), so that the next one only adds to a container it
        // continues and can be walked apart (json_fragment_walk.cpp); past twice the target, at
        // any comma, so that no fragment grows large.
        if (level_cuts && open.size() > std::max<std::size_t>(next.lowest, 1) && i < target + fragment_bytes) break;
        if (flat == std::string::npos && i + 1 < size && ends_a_value(text[i - 1]) && starts_a_value(text[i + 1])) {
          next.last = i;
          next.closing = closing(open);
          cuts.push_back(std::move(next));
          const auto depth = static_cast<std::uint32_t>(open.size());
          next = Fragment{i + 1, 0, reopening(open), "", depth, 0, depth};
          target = i + 1 + fragment_bytes;
        }
    }
    ++i;
  }
  if (!sound) {
    doc.checkpoints_.clear();
    return plan;
  }
  plan.packed = pack_found(whole, start, found, doc);
  if (cuts.empty() || !open.empty()) return plan;
  next.last = size;
  cuts.push_back(std::move(next));
  // Where the cuts stand once the packed arrays' insides have left the text (never inside one).
  std::size_t removed = 0, k = 0;
  const auto moved = [&](std::size_t at) {
    for (; k < found.size() && found[k].close < at; ++k) removed += found[k].close - found[k].open - 1;
    return at - removed;
  };
  for (Fragment& f : cuts) {
    f.first = moved(f.first);
    f.last = moved(f.last);
  }
  plan.fragments = std::move(cuts);
  return plan;
}

}  // namespace zanj::json
