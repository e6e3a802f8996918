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
#include <bit>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "base/byte_blocks.hpp"
#include "json/json_builder.hpp"

namespace zanj::json {
namespace {

/// Where plan_text's scan stops in a text: `"`, `[`, `]`, `{`, `}` (and `,` when it asks), and
/// in a string its closing quote. Minified JSON stops every few bytes (`{"id":7,"loss":0.5}`),
/// so a byte-at-a-time loop paid a load and a branch for each byte, and testing eight bytes at
/// once for six values cost more than it skipped; here the masks of 64 bytes are made at once
/// (base/byte_blocks.hpp) and each stop among them costs a countr_zero. One finder lives for
/// one scan: the text may grow between scans, and a block read past its end then was zeros.
class StopFinder {
 public:
  StopFinder(const char* text, std::size_t size) : text_(text), size_(size) {}

  /// The first stop in text[i, size), or size.
  std::size_t next_stop(std::size_t i, bool commas) {
    while (i < size_) {
      const unsigned k = look_at(i);
      if (const std::uint64_t m = (brackets_ | (commas ? commas_ : 0)) >> k) return i + std::countr_zero(m);
      i = at_ + base::blocks::kBlockBytes;
    }
    return size_;
  }

  /// The closing quote of a string, looked for from text[from] (a byte inside the string, not
  /// one an escape takes), or npos when text[from, size) does not close it; `*stopped` is then
  /// where to look on from once more text has come (past size when its last byte is a backslash).
  std::size_t closing_quote(std::size_t from, std::size_t* stopped) {
    std::size_t i = from;
    while (i < size_) {
      const unsigned k = look_at(i);
      const std::uint64_t m = (quotes_ | backslashes_) >> k;
      if (m == 0) {
        i = std::min(at_ + base::blocks::kBlockBytes, size_);
        continue;
      }
      const std::size_t j = i + std::countr_zero(m);
      if ((quotes_ >> (j - at_)) & 1) return j;
      i = j + 2;  // a backslash and the byte it escapes
    }
    *stopped = i;
    return std::string::npos;
  }

 private:
  /// Reads the block at i unless i is in the one read last; returns i's place in it.
  unsigned look_at(std::size_t i) {
    if (i < at_ || i - at_ >= base::blocks::kBlockBytes) {
      at_ = i;
      const base::blocks::Block block = base::blocks::block_at(text_, i, size_);
      quotes_ = block.any_of('"');
      backslashes_ = block.any_of('\\');
      brackets_ = quotes_ | block.any_of('[', ']', '{', '}');
      commas_ = block.any_of(',');
    }
    return static_cast<unsigned>(i - at_);
  }

  const char* text_;
  std::size_t size_;
  std::size_t at_ = std::string::npos;  ///< where the block read last starts
  std::uint64_t quotes_ = 0, backslashes_ = 0, brackets_ = 0, commas_ = 0;
};

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

JsonLimits TextPlanner::planning_limits(const JsonLimits& limits) {
  // Walked on several threads, fragments are cut smaller: each thread's simdjson index and the
  // parts held until joined then take about what one fragment of the serial size does, and the
  // peak stays where it was (64 KiB fragments raised it by up to 0.7 MB on a 15 MB document).
  JsonLimits cut = limits;
  if (limits.threads > 1) cut.fragment_bytes = std::min<std::size_t>(cut.fragment_bytes, std::size_t{32} << 10);
  return cut;
}

TextPlanner::TextPlanner(const JsonLimits& limits, bool pack, std::size_t expected_bytes)
    : fragment_bytes_(planning_limits(limits).fragment_bytes),
      level_cuts_(limits.threads > 1),
      pack_(pack),
      min_elements_(limits.packed_min_elements),
      target_(fragment_bytes_ != 0 ? fragment_bytes_ : SIZE_MAX) {
  // The cuts' list at its expected length at once: grown while a member was read, its buffers
  // left the heap holes that raised verify's peak on a 20 MB document by 0.8 MiB. A declared
  // size is no promise: at most this many are reserved (untouched, they cost no memory).
  constexpr std::size_t kMostReserved = std::size_t{1} << 15;
  if (fragment_bytes_ != 0) cuts_.reserve(std::min(expected_bytes / fragment_bytes_ + 2, kMostReserved));
}

bool TextPlanner::made_for(const JsonLimits& limits, bool pack) const {
  return fragment_bytes_ == planning_limits(limits).fragment_bytes && level_cuts_ == (limits.threads > 1) &&
         pack_ == pack && min_elements_ == limits.packed_min_elements;
}

void TextPlanner::scan(const char* text, std::size_t size, bool last) {
  // One pass over the text finds both what to pack and where to cut: a cut is never made in
  // an array that may yet be packed (after '[' with no string, bracket or brace since). Fed a
  // text still growing, it stops before what it cannot settle yet (a string not closed, a
  // comma that is the last byte) and goes on from there when more has come.
  using Bare = JsonDocumentBuilder::Bare;
  if (root_end_ != std::string::npos && size > root_end_ + 1) sound_ = false;  // something after the root
  std::size_t i = resume_;
  // Commas are stops in a stretch that starts past the target: one that the last scan ran out
  // of text in goes on as it began.
  bool carried = stretch_, commas = stretch_commas_;
  StopFinder stops(text, size);
  for (; sound_; carried = false) {
    if (!carried) commas = i >= target_;
    i = stops.next_stop(i, commas);
    if (i >= size) {
      stretch_ = true;
      stretch_commas_ = commas;
      break;
    }
    stretch_ = false;
    switch (text[i]) {
      case '"': {
        flat_ = std::string::npos;
        // A string still open when the last scan ran out goes on from where that scan stopped:
        // read from its quote each time, a string of 100 MB (an inline array's base64) fed in
        // 256 KiB pieces would be read 400 times.
        const std::size_t from = string_from_ != std::string::npos ? string_from_ : i + 1;
        std::size_t stopped = 0;
        const std::size_t close = stops.closing_quote(from, &stopped);
        if (close == std::string::npos && !last) {
          resume_ = i;  // this quote again, once the string has closed
          string_from_ = stopped;
          return;
        }
        string_from_ = std::string::npos;
        i = close == std::string::npos ? size : close + 1;
        continue;
      }
      case '[':
        open_ += 'a';
        flat_ = i;
        break;
      case '{':
        open_ += 'o';
        flat_ = std::string::npos;
        break;
      case ']':
      case '}': {
        if (open_.empty() || open_.back() != (text[i] == ']' ? 'a' : 'o')) {
          sound_ = false;
          break;
        }
        open_.pop_back();
        next_.lowest = std::min(next_.lowest, static_cast<std::uint32_t>(open_.size()));
        std::optional<std::uint32_t> elements;
        if (pack_ && flat_ != std::string::npos && span_bytes_ + (i - flat_) < UINT32_MAX)
          elements = JsonDocumentBuilder::bare_elements(text, flat_, i, min_elements_, scratch_);
        if (elements) {  // packed: the walk meets `[]` as one value, no container
          found_.push_back(Bare{flat_, i, *elements});
          span_bytes_ += i - flat_;
        } else {
          ++next_.closes;
        }
        flat_ = std::string::npos;
        if (open_.empty()) {
          if (i + 1 < size) sound_ = false;  // something after the root (or after more comes)
          root_end_ = i;
        }
        break;
      }
      default:  // a comma, past the target
        if (open_.empty()) {
          sound_ = false;
          break;
        }
        if (!last && i + 1 == size) {
          resume_ = i;  // what follows it decides whether it is a cut
          return;
        }
        // Walked on several threads, a fragment is cut where it is least deep since it began (no
        // shallower than the root's members), so that the next one only adds to a container it
        // continues and can be walked apart (json_fragment_walk.cpp); past twice the target, at
        // any comma, so that no fragment grows large.
        if (level_cuts_ && open_.size() > std::max<std::size_t>(next_.lowest, 1) && i < target_ + fragment_bytes_)
          break;
        if (flat_ == std::string::npos && i + 1 < size && ends_a_value(text[i - 1]) && starts_a_value(text[i + 1])) {
          next_.last = i;
          next_.closing = closing(open_);
          cuts_.push_back(std::move(next_));
          const auto depth = static_cast<std::uint32_t>(open_.size());
          next_ = Fragment{i + 1, 0, reopening(open_), "", depth, 0, depth};
          target_ = i + 1 + fragment_bytes_;
        }
    }
    ++i;
  }
  resume_ = std::min(i, size);
}

JsonDocumentBuilder::TextPlan TextPlanner::finish(std::string& whole, std::size_t start, JsonDocument& doc) {
  const char* const text = whole.data() + start;
  const std::size_t size = whole.size() - start;
  scan(text, size, true);
  JsonDocumentBuilder::TextPlan plan;
  if (!sound_) return plan;  // brackets that do not pair, or more after the root: the walk refuses it
  doc.checkpoints_ = std::move(scratch_.checkpoints_);
  plan.packed = JsonDocumentBuilder::pack_found(whole, start, found_, doc);
  if (cuts_.empty() || !open_.empty()) return plan;
  next_.last = size;
  cuts_.push_back(std::move(next_));
  // Where the cuts stand once the packed arrays' insides have left the text (never inside one).
  std::size_t removed = 0, k = 0;
  const auto moved = [&](std::size_t at) {
    for (; k < found_.size() && found_[k].close < at; ++k) removed += found_[k].close - found_[k].open - 1;
    return at - removed;
  };
  for (Fragment& f : cuts_) {
    f.first = moved(f.first);
    f.last = moved(f.last);
  }
  plan.fragments = std::move(cuts_);
  return plan;
}

JsonDocumentBuilder::TextPlan JsonDocumentBuilder::plan_text(std::string& whole, std::size_t start,
                                                             const JsonLimits& limits, bool pack, JsonDocument& doc) {
  const char* const text = whole.data() + start;
  const std::size_t size = whole.size() - start;
  const std::size_t fragment_bytes = TextPlanner::planning_limits(limits).fragment_bytes;
  const bool cutting = fragment_bytes != 0 && size > fragment_bytes;
  // Nothing to cut and no array to pack (most .jsonl lines): no pass at all.
  // NOLINTNEXTLINE(bugprone-not-null-terminated-result): a search of `size` bytes, not a copy
  if (!cutting && (!pack || !std::memchr(text, '[', size))) return {};
  return TextPlanner(limits, pack, size).finish(whole, start, doc);
}

}  // namespace zanj::json
