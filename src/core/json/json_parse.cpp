// The JSON parser: Python 3.11's json.loads(bytes), byte for byte (docs/format.md), straight into
// the Json model.
//
// Two passes over the text. The first only follows the structure (brackets, commas, strings
// skipped) to count each container's children: the value limit is enforced before anything is
// allocated, and the second pass reserves every array and object at its exact size, so the
// tree costs what it holds (no growth slack, no copy of an intermediate DOM). The second pass
// validates everything and builds the tree with an explicit stack, so nesting depth costs heap,
// not native stack.
#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <unordered_map>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "base/hex_digit.hpp"
#include "base/unicode.hpp"
#include "json/json_parse.hpp"

namespace zanj {
namespace {

/// Python's int(str) refuses more digits than this (sys.int_info.default_max_str_digits).
constexpr std::size_t kMaxIntDigits = 4300;

[[noreturn]] void fail(std::string_view what, const std::string& message) {
  throw Error(std::string(what) + ": invalid JSON (" + message + ")");
}

// ---- Decoding: json.detect_encoding, then bytes.decode(encoding, 'surrogatepass') ----------

/// UTF-16 or UTF-32 text transcoded to generalized UTF-8. Like Python's codecs with
/// 'surrogatepass', a surrogate pair is joined and a lone surrogate is kept as it is.
std::string transcode_wide(std::string_view bytes, unsigned width, bool big_endian, std::string_view what) {
  if (bytes.size() % width != 0) fail(what, "truncated " + std::to_string(width * 8) + "-bit text");
  auto unit = [&](std::size_t i) {
    std::uint32_t v = 0;
    for (unsigned b = 0; b < width; ++b) {
      const auto byte = static_cast<unsigned char>(bytes[i + (big_endian ? b : width - 1 - b)]);
      v = (v << 8) | byte;
    }
    return v;
  };
  std::string out;
  out.reserve(bytes.size() / width);
  for (std::size_t i = 0; i < bytes.size(); i += width) {
    std::uint32_t cp = unit(i);
    if (width == 2 && cp >= 0xD800 && cp < 0xDC00 && i + 2 < bytes.size()) {
      const std::uint32_t low = unit(i + 2);
      if (low >= 0xDC00 && low < 0xE000) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        i += 2;
      }
    }
    if (cp > 0x10FFFF) fail(what, "code point out of range in UTF-32 text");
    append_utf8(out, cp);  // surrogates too: generalized UTF-8
  }
  return out;
}

/// The text json.loads(bytes) parses: `storage` receives a transcoding when one is needed.
std::string_view decode_input(std::string_view bytes, std::string& storage, JsonParseNotes& notes,
                              std::string_view what) {
  auto starts = [&](std::string_view prefix) { return bytes.substr(0, prefix.size()) == prefix; };
  auto wide = [&](std::string_view encoding, unsigned width, bool big_endian, std::size_t bom) {
    notes.encoding = encoding;
    notes.bom = bom > 0;
    storage = transcode_wide(bytes.substr(bom), width, big_endian, what);
    return std::string_view(storage);
  };
  using namespace std::string_view_literals;
  // Python's order: UTF-32 BOMs first (FF FE 00 00 also starts with the UTF-16 LE BOM).
  if (starts("\x00\x00\xFE\xFF"sv)) return wide("utf-32", 4, true, 4);
  if (starts("\xFF\xFE\x00\x00"sv)) return wide("utf-32", 4, false, 4);
  if (starts("\xFE\xFF"sv)) return wide("utf-16", 2, true, 2);
  if (starts("\xFF\xFE"sv)) return wide("utf-16", 2, false, 2);
  if (starts("\xEF\xBB\xBF"sv)) {
    notes.encoding = "utf-8-sig";
    notes.bom = true;
    return bytes.substr(3);
  }
  const auto b = [&](std::size_t i) { return bytes[i] != 0; };
  if (bytes.size() >= 4) {
    if (!b(0)) return b(1) ? wide("utf-16-be", 2, true, 0) : wide("utf-32-be", 4, true, 0);
    if (!b(1)) return (b(2) || b(3)) ? wide("utf-16-le", 2, false, 0) : wide("utf-32-le", 4, false, 0);
  } else if (bytes.size() == 2) {
    if (!b(0)) return wide("utf-16-be", 2, true, 0);
    if (!b(1)) return wide("utf-16-le", 2, false, 0);
  }
  return bytes;
}

/// JSON's whitespace, by table: one load per byte of the indentation that fills pretty-printed
/// documents (ZANJ writes them indented).
constexpr auto kSpace = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view(" \t\n\r")) t[c] = true;
  return t;
}();
bool is_space(char c) { return kSpace[static_cast<unsigned char>(c)]; }

/// Bytes that end a run of number or literal characters in pass 1: structure, quotes, space.
constexpr auto kRunEnd = [] {
  std::array<bool, 256> t{};
  for (unsigned char c : std::string_view("[]{},:\" \t\n\r")) t[c] = true;
  return t;
}();

[[noreturn]] void too_many_values(std::string_view what, const JsonLimits& limits) {
  throw Error(std::string(what) + ": the number of JSON values (elements and members) exceeds the limit of " +
              std::to_string(limits.max_values) + " (raise with --max-json-values)");
}

// ---- Pass 1: the structure only ----------------------------------------------------------

/// How many nodes the document needs. On text that is not JSON the counts may be wrong; pass
/// 2 then finds the error, and only uses them as reservations.
struct Counts {
  std::uint64_t values = 0;  ///< an upper bound on the document's values (exact for valid JSON)
  std::uint64_t keys = 0;    ///< colons outside strings: the object members
};

Counts count_structure(std::string_view text, const JsonLimits& limits, std::string_view what) {
  Counts counts;
  struct Open {
    std::uint64_t commas;
    bool empty;
  };
  std::vector<Open> open;
  const char* p = text.data();
  const char* const end = p + text.size();
  bool root_seen = false;
  auto value_start = [&] {
    if (open.empty()) {
      if (!root_seen) counts.values = 1;
      root_seen = true;
    } else {
      open.back().empty = false;
    }
  };
  while (p < end) {
    const char c = *p++;
    switch (c) {
      case '"':
        value_start();
        while (p < end && *p != '"') p += (*p == '\\' && p + 1 < end) ? 2 : 1;
        if (p < end) ++p;
        break;
      case '[':
      case '{':
        value_start();
        if (open.size() >= limits.max_depth) return counts;  // pass 2 reports the depth
        open.push_back(Open{0, true});
        break;
      case ']':
      case '}': {
        if (open.empty()) return counts;
        const Open o = open.back();
        open.pop_back();
        counts.values += o.empty ? 0 : o.commas + 1;
        break;
      }
      case ',':
        if (!open.empty()) ++open.back().commas;
        break;
      case ':':
        ++counts.keys;
        break;
      default:
        if (is_space(c)) {
          while (p < end && is_space(*p)) ++p;
        } else {
          value_start();
          while (p < end && !kRunEnd[static_cast<unsigned char>(*p)]) ++p;
        }
    }
    if (counts.values > limits.max_values) too_many_values(what, limits);
  }
  // Containers left open: the text is not JSON, but pass 2 builds them until it finds out.
  for (const Open& o : open) counts.values += o.empty ? 0 : o.commas + 1;
  if (counts.values > limits.max_values) too_many_values(what, limits);
  return counts;
}

}  // namespace

// ---- Pass 2: validate and build ------------------------------------------------------------

class JsonDocumentBuilder {
 public:
  using Node = JsonDocument::Node;

  JsonDocumentBuilder(JsonDocument& doc, std::string_view text, std::string_view what, const JsonLimits& limits,
                      const Counts& counts, JsonParseNotes& notes)
      : p_(text.data()), begin_(text.data()), end_(text.data() + text.size()), what_(what), limits_(limits),
        notes_(notes), doc_(doc) {
    const std::uint64_t nodes = counts.values + counts.keys;
    if (nodes >= UINT32_MAX) too_many_values(what_, limits_);
    doc_.nodes_.reserve(static_cast<std::size_t>(nodes));
    // Every value but the root is one entry in its container's list; a member adds its key.
    doc_.children_.reserve(static_cast<std::size_t>(counts.values + counts.keys));
    // The open containers' entries never outnumber the document's: reserved whole, this costs
    // memory only for the pages used (no copies as it grows, and no doubled slack).
    pending_.reserve(static_cast<std::size_t>(counts.values + counts.keys));
  }

  static JsonDocument build(std::string_view bytes, std::string* owned, std::string_view what,
                            const JsonLimits& limits, JsonParseNotes* notes);

  /// Copy what the nodes still view of the document's own text into the arena, and free the
  /// text. Most of an indented document's bytes are spaces, punctuation and numbers, and a key
  /// repeated in every record is kept once (a small direct-mapped cache of recent strings finds
  /// most repeats; a miss only costs a copy): a 50,000-array __zanj__.json kept 8 MB of text
  /// for about 2 MB of distinct strings.
  /// A cheap hash of a short string (its first and last 8 bytes and its length): enough to
  /// spread a document's keys over the cache's slots, where a collision only costs a copy.
  static std::uint64_t short_hash(std::string_view s) {
    constexpr std::uint64_t kMix = 0x9E3779B97F4A7C15ull;
    std::uint64_t head = 0, tail = 0;
    if (s.size() >= 8) {
      std::memcpy(&head, s.data(), 8);
      std::memcpy(&tail, s.data() + s.size() - 8, 8);
    } else {
      std::memcpy(&head, s.data(), s.size());
    }
    std::uint64_t h = (head ^ (s.size() * kMix)) * kMix;
    h = (h ^ tail ^ (h >> 29)) * kMix;
    return h >> 40;
  }

  static void release_text(JsonDocument& doc) {
    const auto views_text = [](const Node& n) {
      return !n.in_arena && (n.type() == Json::Type::string || n.type() == Json::Type::big_integer);
    };
    const char* const text = doc.text();
    std::size_t viewed = 0, strings = 0;
    for (const Node& n : doc.nodes_)
      if (views_text(n)) viewed += n.size, ++strings;
    std::string& arena = doc.arena_;
    arena.reserve(arena.size() + viewed);  // an upper bound: only the pages written count, and it is trimmed below
    struct Slot {
      std::uint64_t offset = 0;
      std::uint32_t size = 0;
      bool used = false;
    };
    constexpr std::size_t kMostSlots = 4096, kLongest = 64;  // longer strings are rarely repeated
    // As many slots as strings, up to kMostSlots: each .jsonl line is a document of its own, and
    // clearing 4,096 slots for every one of millions of lines was 93% of verify's time on them.
    const std::size_t slots = std::bit_ceil(std::clamp<std::size_t>(strings, 1, kMostSlots));
    std::vector<Slot> recent(slots);
    for (Node& n : doc.nodes_) {
      if (!views_text(n)) continue;
      const std::string_view s(text + n.offset, n.size);
      Slot* slot = nullptr;
      if (s.size() <= kLongest) {
        slot = &recent[short_hash(s) & (slots - 1)];
        if (slot->used && slot->size == s.size() && arena.compare(slot->offset, s.size(), s) == 0) {
          n.offset = slot->offset;
          n.in_arena = true;
          continue;
        }
      }
      const std::uint64_t offset = arena.size();
      arena.append(s);
      if (slot) *slot = Slot{offset, n.size, true};
      n.offset = offset;
      n.in_arena = true;
    }
    std::string().swap(doc.owned_text_);  // before the trim, which may copy the arena
    doc.text_start_ = 0;
    arena.shrink_to_fit();
  }

  void parse_document() {
    skip_space();
    parse_value_tree();
    skip_space();
    if (p_ != end_) error("extra data");
    doc_.values_ = notes_.values;
  }

 private:
  /// A container being filled: its children's entries gather on `pending_`, from `first` on.
  struct Frame {
    std::uint32_t node;
    bool object;
    std::size_t first;       ///< where its entries start in pending_
    std::uint32_t key = 0;   ///< objects: the key node whose value is being parsed
  };

  [[noreturn]] void error(const std::string& message) const {
    fail(what_, message + " at byte " + std::to_string(p_ - begin_));
  }

  /// Pass 1's count is exact for JSON; this bounds what pass 2 builds of text that is not.
  void count_value() {
    if (++notes_.values > limits_.max_values) too_many_values(what_, limits_);
  }

  void skip_space() {
    while (p_ < end_ && is_space(*p_)) ++p_;
  }

  bool take(char c) {
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }

  bool take_word(std::string_view word) {
    if (static_cast<std::size_t>(end_ - p_) >= word.size() && std::memcmp(p_, word.data(), word.size()) == 0) {
      p_ += word.size();
      return true;
    }
    return false;
  }

  std::uint32_t add_node(Json::Type type) {
    if (doc_.nodes_.size() >= UINT32_MAX - 1) too_many_values(what_, limits_);
    Node n{};
    n.type_code = static_cast<std::uint8_t>(type);
    doc_.nodes_.push_back(n);
    return static_cast<std::uint32_t>(doc_.nodes_.size() - 1);
  }
  Node& node(std::uint32_t index) { return doc_.nodes_[index]; }

  void open_container(std::vector<Frame>& stack, bool object) {
    if (stack.size() >= limits_.max_depth)
      throw Error(std::string(what_) + ": JSON nesting deeper than " + std::to_string(limits_.max_depth));
    stack.push_back(Frame{add_node(object ? Json::Type::object : Json::Type::array), object, pending_.size()});
  }

  /// The container on top of the stack is complete: its entries move to the document.
  std::uint32_t close_container(std::vector<Frame>& stack) {
    const Frame f = stack.back();
    if (f.object) resolve_duplicates(stack);
    Node& n = node(f.node);
    n.offset = doc_.children_.size();
    const std::size_t entries = pending_.size() - f.first;
    n.size = static_cast<std::uint32_t>(f.object ? entries / 2 : entries);
    doc_.children_.insert(doc_.children_.end(), pending_.begin() + static_cast<std::ptrdiff_t>(f.first),
                          pending_.end());
    pending_.resize(f.first);
    stack.pop_back();
    return f.node;
  }

  /// The whole value at p_, containers included, iteratively.
  void parse_value_tree() {
    std::vector<Frame> stack;
    for (;;) {
      // Here a value starts: a scalar, or a container whose first child (if any) follows.
      std::uint32_t value;
      skip_space();
      if (p_ < end_ && (*p_ == '[' || *p_ == '{')) {
        const bool object = *p_++ == '{';
        count_value();
        open_container(stack, object);
        skip_space();
        if (object) {
          if (take('}')) {
            value = close_container(stack);
          } else {
            read_key(stack.back());
            continue;
          }
        } else {
          if (take(']')) {
            value = close_container(stack);
          } else {
            continue;
          }
        }
      } else {
        value = parse_scalar();
        count_value();
      }
      // `value` is complete: hand it to its container, then close every container it completes.
      for (;;) {
        if (stack.empty()) return;
        Frame& top = stack.back();
        if (top.object) {
          pending_.push_back(top.key);
          pending_.push_back(value);
          skip_space();
          if (take(',')) {
            skip_space();
            read_key(stack.back());
            break;
          }
          if (!take('}')) error("expecting ',' delimiter");
        } else {
          pending_.push_back(value);
          skip_space();
          if (take(',')) break;
          if (!take(']')) error("expecting ',' delimiter");
        }
        value = close_container(stack);
      }
    }
  }

  /// A key and its colon; the value follows.
  void read_key(Frame& frame) {
    if (!take('"')) error("expecting property name enclosed in double quotes");
    frame.key = read_string();
    skip_space();
    if (!take(':')) error("expecting ':' delimiter");
  }

  std::string_view key_text(std::uint32_t key) const { return doc_.text_of(doc_.nodes_[key]); }

  // Duplicate keys are resolved when the object closes: appends stay cheap, and small
  // objects (nearly all of them) are checked by comparing keys, large ones through a hash map.
  void resolve_duplicates(const std::vector<Frame>& stack) {
    std::uint32_t* members = pending_.data() + stack.back().first;  // (key, value) pairs
    const std::size_t n = (pending_.size() - stack.back().first) / 2;
    if (n < 2) return;
    const auto key_at = [&](std::size_t i) { return key_text(members[2 * i]); };
    std::size_t duplicates = 0;
    std::vector<std::size_t> first_of;  // for each member: index of the first member with its key
    const auto mark = [&](std::size_t i, std::size_t first) {
      if (first_of.empty()) {
        first_of.resize(n);
        for (std::size_t k = 0; k < n; ++k) first_of[k] = k;
      }
      first_of[i] = first;
      ++duplicates;
    };
    if (n <= 16) {
      for (std::size_t i = 1; i < n; ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (key_at(j) == key_at(i)) {
            mark(i, first_of.empty() ? j : first_of[j]);
            break;
          }
    } else {
      // An open-addressing table of member indices (+1; 0 is free), 8 bytes per member where a
      // node-based hash map would take about 50.
      std::vector<std::uint32_t> table(std::bit_ceil(2 * n), 0);
      const std::size_t mask = table.size() - 1;
      const std::hash<std::string_view> hash;
      for (std::size_t i = 0; i < n; ++i) {
        const std::string_view key = key_at(i);
        for (std::size_t slot = hash(key) & mask;; slot = (slot + 1) & mask) {
          if (table[slot] == 0) {
            table[slot] = static_cast<std::uint32_t>(i + 1);
            break;
          }
          if (key_at(table[slot] - 1) == key) {
            mark(i, table[slot] - 1);
            break;
          }
        }
      }
    }
    if (!duplicates) return;
    if (notes_.duplicate_keys == 0) {
      // The object's path: the keys (or indices) under which each enclosing container sits.
      for (std::size_t level = 0; level + 1 < stack.size(); ++level) {
        const Frame& f = stack[level];
        const std::size_t entries = (level + 1 < stack.size() ? stack[level + 1].first : pending_.size()) - f.first;
        notes_.first_duplicate.push_back(f.object ? std::string(key_text(f.key)) : std::to_string(entries));
      }
      for (std::size_t i = 0; i < n; ++i)
        if (first_of[i] != i) {
          notes_.first_duplicate.push_back(std::string(key_at(i)));
          break;
        }
    }
    notes_.duplicate_keys += duplicates;
    // Python's dict: the first position keeps the key, the last value wins.
    for (std::size_t i = 0; i < n; ++i)
      if (first_of[i] != i) members[2 * first_of[i] + 1] = members[2 * i + 1];
    std::size_t kept = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (first_of[i] != i) continue;
      members[2 * kept] = members[2 * i];
      members[2 * kept + 1] = members[2 * i + 1];
      ++kept;
    }
    pending_.resize(stack.back().first + 2 * kept);
  }

  std::uint32_t parse_scalar() {
    if (p_ >= end_) error("expecting value");
    switch (*p_) {
      case '"': {
        ++p_;
        return read_string();
      }
      case 'n':
        if (take_word("null")) return add_node(Json::Type::null);
        break;
      case 't':
        if (take_word("true")) return add_bool(true);
        break;
      case 'f':
        if (take_word("false")) return add_bool(false);
        break;
      case 'N':
        if (take_word("NaN")) return add_real(std::numeric_limits<double>::quiet_NaN());
        break;
      case 'I':
        if (take_word("Infinity")) return add_real(std::numeric_limits<double>::infinity());
        break;
      case '-':
        if (take_word("-Infinity")) return add_real(-std::numeric_limits<double>::infinity());
        return parse_number();
      default:
        if (*p_ >= '0' && *p_ <= '9') return parse_number();
    }
    error("expecting value");
  }

  std::uint32_t add_bool(bool b) {
    const std::uint32_t i = add_node(Json::Type::boolean);
    node(i).u = b ? 1 : 0;
    return i;
  }
  std::uint32_t add_real(double d) {
    const std::uint32_t i = add_node(Json::Type::real);
    node(i).d = d;
    return i;
  }
  std::uint32_t add_int(std::int64_t v) {
    const std::uint32_t i = add_node(Json::Type::integer);
    node(i).i = v;
    return i;
  }
  std::uint32_t add_uint(std::uint64_t v) {
    const std::uint32_t i = add_node(Json::Type::unsigned_integer);
    node(i).u = v;
    return i;
  }
  /// A string or big integer whose bytes are text_[first, last).
  std::uint32_t add_text(Json::Type type, const char* first, const char* last) {
    const std::uint32_t i = add_node(type);
    node(i).offset = static_cast<std::uint64_t>(first - begin_);
    node(i).size = static_cast<std::uint32_t>(last - first);
    return i;
  }

  /// -?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)? : Python's NUMBER_RE. What follows a partial match
  /// (as in "1." or "01") is left for the caller, where it is always an error.
  std::uint32_t parse_number() {
    const char* start = p_;
    const bool negative = take('-');
    const char* digits = p_;
    if (p_ >= end_ || *p_ < '0' || *p_ > '9') error("expecting value");
    if (*p_ == '0') {
      ++p_;
    } else {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    const char* int_end = p_;
    bool is_float = false;
    if (p_ + 1 < end_ && *p_ == '.' && p_[1] >= '0' && p_[1] <= '9') {
      is_float = true;
      p_ += 2;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      const char* q = p_ + 1;
      if (q < end_ && (*q == '+' || *q == '-')) ++q;
      if (q < end_ && *q >= '0' && *q <= '9') {
        is_float = true;
        while (q < end_ && *q >= '0' && *q <= '9') ++q;
        p_ = q;
      }
    }
    if (is_float) return add_real(to_double(start, p_));
    const std::size_t n = static_cast<std::size_t>(int_end - digits);
    if (n > kMaxIntDigits) {
      p_ = start;
      error("an integer of " + std::to_string(n) + " digits exceeds Python's limit of " +
            std::to_string(kMaxIntDigits));
    }
    std::uint64_t magnitude = 0;
    if (n <= 19) {  // below 10^19 < 2^64: no overflow to check for, digit by digit
      for (const char* d = digits; d < int_end; ++d) magnitude = magnitude * 10 + static_cast<std::uint64_t>(*d - '0');
    } else {
      for (const char* d = digits; d < int_end; ++d) {
        const auto digit = static_cast<std::uint64_t>(*d - '0');
        if (magnitude > (UINT64_MAX - digit) / 10) {
          return add_text(Json::Type::big_integer, start, int_end);  // the sign, if any, and the digits
        }
        magnitude = magnitude * 10 + digit;
      }
    }
    if (!negative) {
      if (magnitude <= static_cast<std::uint64_t>(INT64_MAX)) return add_int(static_cast<std::int64_t>(magnitude));
      return add_uint(magnitude);
    }
    if (magnitude <= static_cast<std::uint64_t>(INT64_MAX)) return add_int(-static_cast<std::int64_t>(magnitude));
    if (magnitude == static_cast<std::uint64_t>(INT64_MAX) + 1) return add_int(INT64_MIN);
    return add_text(Json::Type::big_integer, start, int_end);
  }

  /// Python's float(text): correctly rounded, overflow to +-inf, underflow to 0. `text` is
  /// already known to match the number grammar.
  static double to_double(const char* first, const char* last) {
    double value = 0;
    const auto [ptr, ec] = std::from_chars(first, last, value);
    if (ec == std::errc() && ptr == last) return value;
    // Out of range: beyond 1e308 or below 1e-324, and the decimal order of the first nonzero
    // digit says which (no strtod: it would depend on the C locale).
    const bool negative = *first == '-';
    const char* p = first + (negative ? 1 : 0);
    std::int64_t order = 0;
    if (*p != '0') {
      while (p < last && *p >= '0' && *p <= '9') ++p, ++order;
    } else {
      ++p;
      if (p < last && *p == '.')
        for (++p; p < last && *p == '0'; ++p) --order;
    }
    while (p < last && *p != 'e' && *p != 'E') ++p;
    if (p < last) {
      ++p;
      const bool exp_negative = *p == '-';
      if (*p == '-' || *p == '+') ++p;
      std::int64_t exponent = 0;
      for (; p < last; ++p) exponent = std::min<std::int64_t>(exponent * 10 + (*p - '0'), std::int64_t{1} << 40);
      order += exp_negative ? -exponent : exponent;
    }
    const double magnitude = order > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    return negative ? -magnitude : magnitude;
  }

  /// The rest of a string after its opening quote, as a string node: a view of the text while
  /// nothing needs decoding, else its bytes decoded (generalized UTF-8) into the arena.
  std::uint32_t read_string() {
    const char* const first = p_;
    std::string* out = nullptr;  // the arena, once an escape was met
    std::size_t arena_start = 0;
    for (;;) {
      const char* run = p_;
      while (p_ < end_) {
        const auto c = static_cast<unsigned char>(*p_);
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) break;
        ++p_;
      }
      if (out) out->append(run, p_);
      if (p_ >= end_) error("unterminated string");
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        break;
      }
      if (c == '\\') {
        if (!out) {
          out = &doc_.arena_;
          arena_start = out->size();
          out->append(first, p_);
        }
        read_escape(*out);
      } else if (c < 0x20) {
        error("invalid control character in a string");
      } else {
        const char* sequence = p_;
        p_ += utf8_length();
        if (out) out->append(sequence, p_);
      }
    }
    if (!out) {
      if (p_ - 1 - first > std::ptrdiff_t{UINT32_MAX}) error("a string of 4 GiB or more");
      return add_text(Json::Type::string, first, p_ - 1);
    }
    const std::size_t size = out->size() - arena_start;
    if (size > UINT32_MAX) error("a string of 4 GiB or more");
    const std::uint32_t i = add_node(Json::Type::string);
    node(i).in_arena = true;
    node(i).offset = arena_start;
    node(i).size = static_cast<std::uint32_t>(size);
    return i;
  }

  /// The length of the multi-byte UTF-8 sequence at p_, checked as Python's 'surrogatepass'
  /// decoder checks it.
  std::ptrdiff_t utf8_length() const {
    const auto at = [&](std::ptrdiff_t i) { return static_cast<unsigned char>(p_[i]); };
    const auto cont = [&](std::ptrdiff_t i) { return p_ + i < end_ && (at(i) & 0xC0) == 0x80; };
    const unsigned char c = at(0);
    std::ptrdiff_t len = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = cont(1) ? 2 : 0;
    } else if (c >= 0xE0 && c <= 0xEF) {
      // E0 needs A0..BF (no overlong forms); ED's surrogates (A0..BF) pass, as surrogatepass does.
      len = (cont(1) && cont(2) && (c != 0xE0 || at(1) >= 0xA0)) ? 3 : 0;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = (cont(1) && cont(2) && cont(3) && (c != 0xF0 || at(1) >= 0x90) && (c != 0xF4 || at(1) < 0x90)) ? 4 : 0;
    }
    if (!len) error("invalid UTF-8");
    return len;
  }

  /// Four hex digits after "\u", or an error.
  std::uint32_t read_hex4() {
    if (end_ - p_ < 4) error("invalid \\uXXXX escape");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) {
      const int h = hex_digit_value(p_[i]);
      if (h < 0) error("invalid \\uXXXX escape");
      v = (v << 4) | static_cast<std::uint32_t>(h);
    }
    p_ += 4;
    return v;
  }

  void read_escape(std::string& out) {
    ++p_;  // the backslash
    if (p_ >= end_) error("unterminated string");
    const char e = *p_++;
    switch (e) {
      case '"': out += '"'; return;
      case '\\': out += '\\'; return;
      case '/': out += '/'; return;
      case 'b': out += '\b'; return;
      case 'f': out += '\f'; return;
      case 'n': out += '\n'; return;
      case 'r': out += '\r'; return;
      case 't': out += '\t'; return;
      case 'u': break;
      default: --p_; error("invalid \\escape");
    }
    std::uint32_t cp = read_hex4();
    // A high surrogate followed by an escaped low one is one character; anything else leaves
    // the surrogate alone (Python keeps it in the str).
    if (cp >= 0xD800 && cp < 0xDC00 && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
      const char* save = p_;
      p_ += 2;
      const std::uint32_t low = read_hex4();
      if (low >= 0xDC00 && low < 0xE000)
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      else
        p_ = save;
    }
    append_utf8(out, cp);  // surrogates too: generalized UTF-8
  }

  const char* p_;
  const char* begin_;
  const char* end_;
  std::string_view what_;
  const JsonLimits& limits_;
  JsonParseNotes& notes_;
  JsonDocument& doc_;
  std::vector<std::uint32_t> pending_;  ///< entries of the open containers, innermost last
};

namespace {
std::atomic<std::uint64_t> held_values{0};  // threads parse .jsonl lines while documents are held
}  // namespace

std::uint64_t default_max_json_values() {
  const std::uint64_t limit = reader_limits().max_json_values, held = held_values.load();
  return held < limit ? limit - held : 0;
}

HeldJsonValues::HeldJsonValues(std::uint64_t values) : values_(values) { held_values += values_; }

HeldJsonValues& HeldJsonValues::operator=(HeldJsonValues&& other) noexcept {
  if (this != &other) {
    held_values -= values_;
    values_ = std::exchange(other.values_, 0);
  }
  return *this;
}

HeldJsonValues::~HeldJsonValues() { held_values -= values_; }

/// Parse `bytes` into a document that owns them (`owned`: the caller's string to take) or
/// only points into them (the caller keeps them alive while the document lives).
JsonDocument JsonDocumentBuilder::build(std::string_view bytes, std::string* owned, std::string_view what,
                                        const JsonLimits& limits, JsonParseNotes* notes) {
  JsonParseNotes local;
  JsonParseNotes& n = notes ? *notes : local;
  n = JsonParseNotes{};
  JsonDocument doc;
  std::string transcoded;
  const std::string_view text = decode_input(bytes, transcoded, n, what);
  std::string_view parsed = text;
  if (text.data() == transcoded.data() && !transcoded.empty()) {  // UTF-16/32: keep the UTF-8 text
    doc.owned_text_ = std::move(transcoded);
    parsed = doc.owned_text_;
  } else if (owned) {
    const std::size_t start = static_cast<std::size_t>(text.data() - bytes.data());
    doc.owned_text_ = std::move(*owned);
    doc.text_start_ = start;
    parsed = std::string_view(doc.owned_text_).substr(start);
  } else {
    doc.external_text_ = text.data();
  }
  const Counts counts = count_structure(parsed, limits, what);
  JsonDocumentBuilder(doc, parsed, what, limits, counts, n).parse_document();
  if (!doc.external_text_) release_text(doc);
  return doc;
}

JsonDocument parse_document(std::string text, std::string_view what, const JsonLimits& limits,
                            JsonParseNotes* notes) {
  const std::string_view bytes = text;
  return JsonDocumentBuilder::build(bytes, &text, what, limits, notes);
}

Json parse_json(std::string_view bytes, std::string_view what, const JsonLimits& limits, JsonParseNotes* notes) {
  const JsonDocument doc = JsonDocumentBuilder::build(bytes, nullptr, what, limits, notes);
  return doc.root().copy();
}

}  // namespace zanj
