// The JSON parser: Python 3.11's json.loads(bytes), byte for byte (docs/format.md), into a
// JsonDocument (json_document.hpp).
//
// simdjson does what it does best: it validates the UTF-8 and finds every structural character
// of the document at SIMD speed (stage 1, in libsimdjson, which picks the best kernel for the
// CPU it runs on), and its On Demand API walks the structure in order, checking brackets,
// commas and colons. What simdjson has no opinion on, or an opinion other than Python's, is
// ours (json_scalars.cpp): each scalar is read from its raw token (NaN, Infinity, integers of
// any length, 1e400, lone surrogate escapes), and duplicate keys are settled as a dict settles
// them (json_members.cpp). Before simdjson sees it, the text is decoded and minified, and
// encoded surrogates are masked (json_text.cpp).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <simdjson.h>

#include "zanj/error.hpp"
#include "zanj/limits.hpp"
#include "base/memory_pages.hpp"
#include "json/json_builder.hpp"
#include "json/json_parse.hpp"
#include "json/json_text.hpp"

namespace zanj::json {
namespace {

namespace od = simdjson::ondemand;

[[noreturn]] void too_many_values(std::string_view what, const JsonLimits& limits) {
  throw JsonLimitError(JsonLimitError::Limit::values,
                       json_error(what, "the number of JSON values (elements and members) exceeds the limit of " +
                                            std::to_string(limits.max_values) + " (raise with --max-json-values)"));
}

/// simdjson's verdicts in Python's words.
std::string describe(simdjson::error_code code) {
  switch (code) {
    case simdjson::UTF8_ERROR:
      return "invalid UTF-8";
    case simdjson::UNESCAPED_CHARS:
      return "invalid control character in a string";
    case simdjson::UNCLOSED_STRING:
      return "unterminated string";
    case simdjson::EMPTY:
      return "expecting value";
    case simdjson::INCOMPLETE_ARRAY_OR_OBJECT:
      return "the document ends inside an array or object";
    case simdjson::TRAILING_CONTENT:
      return "extra data";
    case simdjson::TAPE_ERROR:
      return "expecting ',' or ':' delimiter, or a value";
    default:
      return simdjson::error_message(code);
  }
}

/// Walks the root and everything in it, depth first, in document order, with an explicit stack
/// of open containers: nesting costs heap, not native stack (1,024 levels of recursion overflowed
/// the 8 MB stack under AddressSanitizer).
class Walk {
 public:
  /// A fragment's walk (json_fragments.cpp): its first `continued` containers are the builder's
  /// open ones, opened again, and only its first `closes` closes are the text's own.
  explicit Walk(JsonDocumentBuilder& b, std::uint32_t continued = 0, std::uint64_t closes = UINT64_MAX)
      : b_(b), continuing_(continued), closes_(closes) {}

  std::uint32_t root(od::value value) {
    if (const auto node = enter(value)) return *node;
    for (;;) {
      // The innermost open container: its next child, or its end. (`enter` may grow levels_,
      // so `top` is not used after it.)
      Level& top = levels_.back();
      if (top.object ? top.member != top.members_end : top.element != top.elements_end) {
        std::optional<std::uint32_t> child;
        if (top.object) {
          od::field field;
          check((*top.member).get(field));
          if (top.reopened_member)
            top.reopened_member = false;  // its key was read in an earlier fragment: builder's top() has it
          else
            b_.top().key = b_.key_at(field.key().raw());
          child = enter(field.value());
        } else {
          od::value element;
          check((*top.element).get(element));
          child = enter(element);
        }
        if (child) hand_over(*child);  // a scalar; a container was opened and is now on top
        continue;
      }
      if (closes_ == 0) {  // closed after a fragment's end: it goes on in the next fragment
        levels_.pop_back();
        if (levels_.empty()) return 0;
        Level& parent = levels_.back();  // which moves past it, giving the builder nothing
        if (parent.object)
          ++parent.member;
        else
          ++parent.element;
        continue;
      }
      --closes_;
      const std::uint32_t node = b_.close_container();
      levels_.pop_back();
      if (levels_.empty()) return node;
      hand_over(node);
    }
  }

 private:
  /// An open container: where its iteration stands (simdjson's iterators are values).
  struct Level {
    bool object;
    bool reopened_member;  ///< an enclosing object opened again: its first member is `"":`, the one that goes on
    od::array_iterator element, elements_end;
    od::object_iterator member, members_end;
  };

  /// A scalar's node, or nothing when `v` is a container, now open on top of the stack.
  std::optional<std::uint32_t> enter(od::value v) {
    od::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS) return scalar(v);  // NaN, Infinity, or not JSON
    Level level{};
    if (type == od::json_type::array) {
      if (!continuing_ && b_.expects_packed()) {
        if (const auto node = b_.packed_array(v.raw_json_token().data())) {
          // Its `[]`, read past (a parent would skip it; the root must be read to its end).
          od::array array;
          check(v.get_array().get(array));
          check(array.begin().get(level.element));
          check(array.end().get(level.elements_end));
          if (level.element != level.elements_end) b_.error("a packed array's place is not empty");
          return node;
        }
      }
      od::array array;
      check(v.get_array().get(array));
      check(array.begin().get(level.element));
      check(array.end().get(level.elements_end));
    } else if (type == od::json_type::object) {
      od::object object;
      check(v.get_object().get(object));
      level.object = true;
      check(object.begin().get(level.member));
      check(object.end().get(level.members_end));
    } else {
      return scalar(v);
    }
    if (continuing_) {  // the builder's container, opened again for this fragment
      --continuing_;
      level.reopened_member = level.object && continuing_ > 0;
    } else {
      b_.count_value();
      b_.open_container(level.object);
    }
    levels_.push_back(level);
    return std::nullopt;
  }

  /// A complete child goes to the innermost open container, which moves past it.
  void hand_over(std::uint32_t node) {
    Level& parent = levels_.back();
    if (parent.object) {
      b_.pending().push_back(b_.top().key);
      b_.pending().push_back(node);
      ++parent.member;
    } else {
      b_.pending().push_back(node);
      ++parent.element;
    }
  }

  std::uint32_t scalar(od::value& v) {
    const std::string_view token = v.raw_json_token();
    const std::uint32_t node = b_.scalar(token.data(), token.data() + token.size());
    b_.count_value();
    // A string value followed by ':' is refused here. simdjson skips a value left unread when
    // its container moves on, and takes a skipped string before ':' for a key: everything after
    // it up to a closing brace would be skipped unchecked, so {"a": "b": "c", "x": 1}, "p": 1}
    // read as {"a": "b", "p": 1}, where Python refuses it. (Reading the string through simdjson
    // instead cost a third of the walk.) The text is minified: ':' would follow the quote.
    if (token.front() == '"' && token.data()[token.size()] == ':')
      b_.error("expecting ',' delimiter", token.data() + token.size());
    return node;
  }

  void check(simdjson::error_code code) {
    if (code == simdjson::DEPTH_ERROR) b_.too_deep();  // simdjson's check backs up open_container's
    if (code != simdjson::SUCCESS) b_.error(describe(code));
  }

  JsonDocumentBuilder& b_;
  std::vector<Level> levels_;
  std::uint32_t continuing_;  ///< containers still to be met that the builder has open
  std::uint64_t closes_;      ///< closes still to come that are the text's own
};

}  // namespace

struct JsonDocumentBuilder::TextParser {
  od::parser parser;
};
void JsonDocumentBuilder::TextParserDeleter::operator()(TextParser* parser) const noexcept { delete parser; }
JsonDocumentBuilder::TextParserPtr JsonDocumentBuilder::make_text_parser() { return TextParserPtr(new TextParser); }

void JsonDocumentBuilder::walk_text(TextParser& text_parser, char* text, std::size_t size, std::size_t capacity,
                                    std::uint32_t continued, std::uint64_t closes) {
  const auto check = [&](simdjson::error_code code) {
    if (code == simdjson::DEPTH_ERROR) too_deep();
    if (code != simdjson::SUCCESS) error(describe(code));
  };
  od::parser& parser = text_parser.parser;
  const std::vector<std::uint32_t> masked = mask_encoded_surrogates(text, size);
  // Our own depth check speaks first (open_container); simdjson's only backs it up.
  if (parser.capacity() < size) check(parser.allocate(size, limits_.max_depth + 2));
  od::document document;
  check(parser.iterate(simdjson::padded_string_view(text, size, capacity)).get(document));
  unmask_encoded_surrogates(text, masked);  // stage 1 has validated the text: strings keep their surrogates
  od::value root;
  check(document.get_value().get(root));
  Walk(*this, continued, closes).root(root);
  const char* rest = nullptr;  // a location unless the walk ended at the end of the text
  if (document.current_location().get(rest) == simdjson::SUCCESS) error("extra data", rest);
}

JsonDocumentBuilder::JsonDocumentBuilder(JsonDocument& doc, std::string_view text, std::string_view what,
                                         const JsonLimits& limits, JsonParseNotes& notes, bool reserve)
    : begin_(text.data()), end_(text.data() + text.size()), what_(what), limits_(limits), notes_(notes), doc_(doc) {
  if (!reserve) return;
  // Every value but the last takes at least two bytes of minified text (itself and a comma or
  // bracket), and a key is never more than one per value: an upper bound, which the value limit
  // also caps. Reserved whole, the arrays cost memory only for the pages the document uses
  // (the rest is address space, never touched): no copies as they grow, no doubled slack. Up
  // to 16M nodes (256 MB of address space for the nodes): past that a reservation could be
  // refused outright on a small machine, and a document that large grows its arrays instead.
  constexpr std::uint64_t kMostReserved = std::uint64_t{1} << 24;
  const std::uint64_t values = std::min<std::uint64_t>(text.size() / 2 + 1, limits.max_values + 1);
  const std::uint64_t nodes = 2 * values;
  if (nodes >= UINT32_MAX) too_many_values(what_, limits_);
  const auto reserved = static_cast<std::size_t>(std::min(nodes, kMostReserved));
  doc_.nodes_.reserve(reserved);
  doc_.children_.reserve(reserved);
  pending_.reserve(reserved);
}

void JsonDocumentBuilder::error(const std::string& message, const char* at) const {
  std::string text = "invalid JSON (" + message;
  if (at && at >= begin_ && at <= end_) text += " at byte " + std::to_string(offset_of(at)) + " of the minified text";
  throw json_error(what_, text + ")");
}

void JsonDocumentBuilder::too_deep() const {
  throw JsonLimitError(JsonLimitError::Limit::depth,
                       json_error(what_, "JSON nesting deeper than " + std::to_string(limits_.max_depth)));
}

void JsonDocumentBuilder::count_value() {
  if (++notes_.values > limits_.max_values) too_many_values(what_, limits_);
}

std::uint32_t JsonDocumentBuilder::add_node(Json::Type type) {
  if (doc_.nodes_.size() >= UINT32_MAX - 1) too_many_values(what_, limits_);
  Node n{};
  n.type_code = static_cast<std::uint8_t>(type);
  doc_.nodes_.push_back(n);
  return static_cast<std::uint32_t>(doc_.nodes_.size() - 1);
}

void JsonDocumentBuilder::open_container(bool object) {
  if (stack_.size() + depth_base_ >= limits_.max_depth) too_deep();
  stack_.push_back(Frame{add_node(object ? Json::Type::object : Json::Type::array), object, pending_.size()});
}

std::optional<std::uint32_t> JsonDocumentBuilder::packed_array(const char* at) {
  const PackedPlace& place = places_[next_packed_];
  if (offset_of(at) + part_at_ != place.at) return std::nullopt;
  const std::uint32_t i = add_node(Json::Type::array);
  node(i).packed = true;
  node(i).offset = next_packed_++;
  node(i).size = place.elements;
  count_value();  // the array; its elements cost no node, and the value limit counts nodes
  return i;
}

std::uint32_t JsonDocumentBuilder::close_container() {
  const Frame f = stack_.back();
  // A part walked apart closes none of what it continues (json_fragment_walk.cpp): if its plan
  // were wrong, the builder's own walk takes the fragment.
  if (f.node == kNoKey) error("a part closed a container it continues");
  if (f.object) resolve_duplicates();
  Node& n = node(f.node);
  n.offset = doc_.children_.size();
  const std::size_t entries = pending_.size() - f.first;
  n.size = static_cast<std::uint32_t>(f.object ? entries / 2 : entries);
  // Moved a chunk at a time, each chunk's pages given back behind it: a large container's
  // entries (the root's, at the very end of the parse) are not held twice at once.
  constexpr std::size_t kChunk = std::size_t{1} << 16;
  const std::uint32_t* from = pending_.data() + f.first;
  for (std::size_t done = 0; done < entries;) {
    const std::size_t step = std::min(entries - done, kChunk);
    doc_.children_.insert(doc_.children_.end(), from + done, from + done + step);
    done += step;
    if (entries > kChunk)
      base::discard_pages(reinterpret_cast<char*>(pending_.data() + f.first), done * sizeof(std::uint32_t));
  }
  pending_.resize(f.first);
  stack_.pop_back();
  return f.node;
}

void JsonDocumentBuilder::parse_document(char* text, std::size_t size, std::size_t capacity) {
  if (size == 0) error("expecting value", begin_);
  if (*text != '[' && *text != '{') {
    // A scalar document: simdjson's On Demand walks containers, so only its UTF-8 check is used.
    const std::vector<std::uint32_t> masked = mask_encoded_surrogates(text, size);
    if (!simdjson::validate_utf8(text, size)) error("invalid UTF-8");
    unmask_encoded_surrogates(text, masked);
    scalar(text, text + size);
    count_value();
  } else if (!fragments_.empty()) {
    parse_fragments(text, fragments_);
  } else {
    walk_text(*make_text_parser(), text, size, capacity, 0, UINT64_MAX);
  }
  // Each packed array is met where its `[]` stands; one not met means the walk did not
  // read the text it stood in, and its elements would be lost, not misread.
  if (next_packed_ != places_.size()) error("a part of the document was not read");
  doc_.values_ = notes_.values;
}

JsonDocument JsonDocumentBuilder::build(std::string_view bytes, std::string* owned, Minified minified,
                                        std::string_view what, const JsonLimits& limits, JsonParseNotes* notes,
                                        TextPlanner* planned) {
  JsonParseNotes local;
  JsonParseNotes& n = notes ? *notes : local;
  n = JsonParseNotes{};
  JsonDocument doc;
  std::string transcoded;
  // Text the minifier already took for UTF-8 is not detected again: without its whitespace,
  // its first bytes may read otherwise ("\n7\0\0\0" is UTF-8 to Python, "7\0\0\0" UTF-32;
  // "\t\xEF\xBB\xBF1" has no byte-order mark, "\xEF\xBB\xBF1" has one).
  const bool bom = minified == Minified::yes_after_bom;
  if (minified != Minified::no) {
    n.encoding = bom ? "utf-8-sig" : "utf-8";
    n.bom = bom;
  }
  const std::string_view decoded =
      minified != Minified::no ? bytes.substr(bom ? 3 : 0) : decode_json_bytes(bytes, transcoded, n, what);
  // The document's own copy of the text, minified in place, with the padding simdjson reads
  // past the end: the caller's string when it hands one over, else a copy.
  std::string& text = doc.owned_text_;
  std::size_t start = 0;
  const bool wide = n.encoding.starts_with("utf-16") || n.encoding.starts_with("utf-32");
  if (wide) {
    text = std::move(transcoded);
  } else if (owned) {
    start = static_cast<std::size_t>(decoded.data() - bytes.data());
    text = std::move(*owned);
  } else {
    text.reserve(decoded.size() + simdjson::SIMDJSON_PADDING);
    text.assign(decoded);
  }
  // Transcoded text is new, so never minified yet.
  std::size_t size =
      minified != Minified::no && !wide ? text.size() - start : minify_json(text.data() + start, text.size() - start);
  text.resize(start + size);
  // A document kept (not copied into a Json at once) holds its long arrays of numbers as text.
  // Its plan may have been made as its text was read (TextPlanner), all but the last bytes.
  const bool pack = owned && limits.packed_min_elements;
  TextPlan plan = planned && minified != Minified::no && !wide && planned->made_for(limits, pack)
                      ? planned->finish(text, start, doc)
                      : plan_text(text, start, limits, pack, doc);
  size = text.size() - start;
  // At least commas + 1 values: a list of millions is refused before simdjson indexes it.
  if (has_commas_outside_strings(std::string_view(text).substr(start), limits.max_values))
    too_many_values(what, limits);
  if (text.capacity() < text.size() + simdjson::SIMDJSON_PADDING)
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  doc.text_start_ = start;
  JsonDocumentBuilder builder(doc, std::string_view(text).substr(start), what, limits, n);
  builder.packed_places_ = std::move(plan.packed);
  builder.places_ = builder.packed_places_;
  builder.fragments_ = std::move(plan.fragments);
  builder.release_as_parsed_ = owned != nullptr;
  builder.parse_document(text.data() + start, size, text.capacity() - start);
  if (owned) release_text(doc, builder.recent_);
  return doc;
}

std::string json_library_version_line() {
  return std::string("simdjson " SIMDJSON_STRINGIFY(SIMDJSON_VERSION) " (") +
         simdjson::get_active_implementation()->name() + " kernel)";
}

JsonDocument parse_document(std::string text, std::string_view what, const JsonLimits& limits, JsonParseNotes* notes) {
  const std::string_view bytes = text;
  return JsonDocumentBuilder::build(bytes, &text, JsonDocumentBuilder::Minified::no, what, limits, notes);
}

JsonDocument parse_document(JsonText text, std::string_view what, const JsonLimits& limits, JsonParseNotes* notes) {
  const std::string_view bytes = text.bytes;
  using Minified = JsonDocumentBuilder::Minified;
  const Minified minified = !text.minified ? Minified::no : text.bom ? Minified::yes_after_bom : Minified::yes;
  return JsonDocumentBuilder::build(bytes, &text.bytes, minified, what, limits, notes, text.plan.get());
}

Json parse_json(std::string_view bytes, std::string_view what, const JsonLimits& limits, JsonParseNotes* notes) {
  const JsonDocument doc =
      JsonDocumentBuilder::build(bytes, nullptr, JsonDocumentBuilder::Minified::no, what, limits, notes);
  return doc.root().copy();
}

namespace {

/// The parser stops at the first fault deep inside its recursion (and inside simdjson's
/// callbacks) by throwing; its callers that branch on failure get it here as a value.
template <class Parse>
base::Result<JsonDocument, JsonFailure> parse_as_result(Parse parse) {
  try {
    return parse();
  } catch (const Error& e) {  // boundary: the parser's unwinding becomes a value, once
    const auto* over = dynamic_cast<const JsonLimitError*>(&e);
    return JsonFailure{e.what(), over ? std::optional(over->limit()) : std::nullopt};
  }
}

}  // namespace

base::Result<JsonDocument, JsonFailure> read_json_document(std::string text, std::string_view what,
                                                           const JsonLimits& limits, JsonParseNotes* notes) {
  return parse_as_result([&] { return parse_document(std::move(text), what, limits, notes); });
}

base::Result<JsonDocument, JsonFailure> read_json_document(JsonText text, std::string_view what,
                                                           const JsonLimits& limits, JsonParseNotes* notes) {
  return parse_as_result([&] { return parse_document(std::move(text), what, limits, notes); });
}

base::Result<Json> read_json(std::string_view text, std::string_view what, const JsonLimits& limits,
                             JsonParseNotes* notes) {
  base::Result<JsonDocument, JsonFailure> doc = parse_as_result([&] {
    return JsonDocumentBuilder::build(text, nullptr, JsonDocumentBuilder::Minified::no, what, limits, notes);
  });
  if (!doc) return base::Failure{doc.why()};
  return (*doc).root().copy();
}

}  // namespace zanj::json
