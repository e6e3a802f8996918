#pragma once
// Builds a JsonDocument from minified, validated-UTF-8 text (json_text.hpp): json_parse.cpp
// walks the structure with simdjson On Demand, json_scalars.cpp gives each scalar token
// Python's meaning, json_members.cpp settles duplicate keys and the document's own text.
// Private to json/.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_document.hpp"
#include "json/json_parse.hpp"

namespace zanj::json {

class TextPlanner;

/// A bare scalar token (a number, true, false, null, NaN, Infinity or -Infinity: not a string)
/// as Python's json.loads reads it (json_scalars.cpp), or where and why it is not one.
struct BareScalar {
  /// The value; a big integer's node has its size set and its offset left to the caller (its
  /// text starts at the token).
  JsonDocument::Node node{};
  const char* error_at = nullptr;  ///< null: read
  std::string_view error;          ///< what is wrong at error_at
  std::size_t digits = 0;          ///< an integer over Python's 4,300 digits: how many it has
  static BareScalar real(double d);
  static BareScalar integer(std::int64_t i);
};
BareScalar read_bare_scalar(const char* first, const char* last);

class JsonDocumentBuilder {
 public:
  using Node = JsonDocument::Node;

  /// `text` is the document's minified text. `reserve`: the node and child arrays are reserved
  /// at once for the most the text can hold (a part walked apart grows its own instead).
  JsonDocumentBuilder(JsonDocument& doc, std::string_view text, std::string_view what, const JsonLimits& limits,
                      JsonParseNotes& notes, bool reserve = true);

  /// Parse `bytes` into a document of its own: `owned` is the caller's string to take (the
  /// strings are then copied out and the text freed); null, the bytes are copied and the text
  /// kept (parse_json's document, which lives only to be copied into a Json).
  /// `minified`: whether JsonMinifier already passed over `bytes` as UTF-8, and whether they
  /// began with a byte-order mark (still there).
  enum class Minified { no, yes, yes_after_bom };
  /// `planned`: the text's plan, begun as the text was read (TextPlanner, below).
  static JsonDocument build(std::string_view bytes, std::string* owned, Minified minified, std::string_view what,
                            const JsonLimits& limits, JsonParseNotes* notes, TextPlanner* planned = nullptr);

  /// A string lately copied out of the text (json_members.cpp), to keep repeats once.
  struct RecentString {
    std::uint64_t offset = 0;
    std::uint32_t size = 0;
    std::uint32_t tag = 0;  ///< 0: unused; else the string's short_hash with kUsed set
    static constexpr std::uint32_t kUsed = std::uint32_t{1} << 31;
  };
  /// Copy what nodes [first, ...) still view of the document's own text into the arena
  /// (json_members.cpp).
  static void copy_strings_out(JsonDocument& doc, std::size_t first, std::vector<RecentString>& recent);
  /// The same for every node, then free the text.
  static void release_text(JsonDocument& doc, std::vector<RecentString>& recent);

  /// Where a packed array's `[]` stands in the text, and its elements.
  struct PackedPlace {
    std::uint64_t at;  ///< from the start of the text the walk reads
    std::uint32_t elements;
  };
  /// An array of bare scalars to pack: text[open] is its '[' and text[close] its ']'.
  struct Bare {
    std::size_t open, close;
    std::uint32_t elements;
  };
  /// The elements of the array text[open, close] when it holds `min_elements` or more bare
  /// scalars and nothing else (their checkpoints then added to doc), else nothing
  /// (json_packed.cpp).
  static std::optional<std::uint32_t> bare_elements(const char* text, std::size_t open, std::size_t close,
                                                    std::uint32_t min_elements, JsonDocument& doc);
  /// Moves the inside of each `found` array of text[start, ...) into doc's spans, closing up
  /// the text behind it; returns where each `[]` now stands (json_packed.cpp).
  static std::vector<PackedPlace> pack_found(std::string& text, std::size_t start, const std::vector<Bare>& found,
                                             JsonDocument& doc);
  /// A part of a large document walked on its own (json_fragments.cpp): text[first, last)
  /// between two cut commas, with what opens again the containers open at `first` (there are
  /// `continued` of them) and what closes those open at `last`; `closes` of the closing
  /// brackets in text[first, last) close containers for the builder.
  struct Fragment {
    std::size_t first = 0, last = 0;
    std::string opening, closing;
    std::uint32_t continued = 0;
    std::uint64_t closes = 0;
    /// The fewest containers open anywhere in it: `continued` when it closes none of those it
    /// continues, and so only adds to the innermost (it can then be walked apart).
    std::uint32_t lowest = 0;
  };
  /// What the walk of a minified text needs to know first: its packed arrays' places and the
  /// fragments to walk (none: the whole at once).
  struct TextPlan {
    std::vector<PackedPlace> packed;
    std::vector<Fragment> fragments;
  };
  /// One pass over the minified text[start, ...): packs its arrays of bare scalars (when
  /// `pack`, those of limits.packed_min_elements or more) and cuts it into fragments of about
  /// limits.fragment_bytes, in the text as packing leaves it (json_fragments.cpp). A text whose
  /// brackets do not pair, or with more after its root, is neither packed nor cut.
  static TextPlan plan_text(std::string& text, std::size_t start, const JsonLimits& limits, bool pack,
                            JsonDocument& doc);

  /// The walk met an array at `at`: its node when it is the next packed array, else nothing.
  std::optional<std::uint32_t> packed_array(const char* at);
  bool expects_packed() const { return next_packed_ < places_.size(); }

  /// The document: text[0, size) is the minified text builder was made with, readable (not
  /// parsed) up to `capacity` as simdjson wants (json_parse.cpp).
  void parse_document(char* text, std::size_t size, std::size_t capacity);

  /// simdjson's parser: one for each thread that walks text (json_parse.cpp).
  struct TextParser;
  struct TextParserDeleter {
    void operator()(TextParser* parser) const noexcept;
  };
  using TextParserPtr = std::unique_ptr<TextParser, TextParserDeleter>;
  static TextParserPtr make_text_parser();
  /// simdjson over text[0, size) (readable up to `capacity`), a whole document or a fragment,
  /// and the walk of it into this builder: its first `continued` containers are the builder's
  /// open ones, opened again, and only its first `closes` closes are the text's own.
  void walk_text(TextParser& parser, char* text, std::size_t size, std::size_t capacity, std::uint32_t continued,
                 std::uint64_t closes);

  // ---- used by the walk (json_parse.cpp) -------------------------------------------------
  /// A container being filled: its children's entries gather on `pending_`, from `first` on.
  struct Frame {
    std::uint32_t node;
    bool object;
    std::size_t first;      ///< where its entries start in pending_
    std::uint32_t key = 0;  ///< objects: the key node whose value is being parsed
  };
  /// Where `p`, in the text simdjson parses (the document, or a fragment of it), stands in the
  /// document's text.
  std::uint64_t offset_of(const char* p) const { return static_cast<std::uint64_t>(p - begin_) + shift_; }
  /// Throws "WHAT: invalid JSON (MESSAGE at byte N of the minified text)".
  [[noreturn]] void error(const std::string& message, const char* at = nullptr) const;
  /// Nesting past limits.max_depth: a JsonLimitError, not invalid JSON.
  [[noreturn]] void too_deep() const;
  void count_value();
  void open_container(bool object);
  std::uint32_t close_container();
  Frame& top() { return stack_.back(); }
  std::vector<std::uint32_t>& pending() { return pending_; }

  // ---- scalars (json_scalars.cpp) --------------------------------------------------------
  /// The scalar token text[first, last): a string, number, literal or Python's NaN and
  /// Infinity; an error when it is anything else or does not fill the token.
  std::uint32_t scalar(const char* first, const char* last);
  /// The string whose bytes start after the opening quote at `first`: a view of the text, or
  /// its decoded bytes in the arena. Returns the node; `end` gets the byte past the quote.
  std::uint32_t string_at(const char* first, const char*& end);
  /// The first quote, backslash or control byte in [p, end), or end: where a string's run of
  /// bytes that are their own text stops.
  static const char* string_run_end(const char* p, const char* end);
  /// The same for an object's key: the node of the same key met lately, when there is one
  /// (json_members.cpp).
  std::uint32_t key_at(const char* first);
  static std::uint64_t short_hash(std::string_view s);

 private:
  std::uint32_t add_node(Json::Type type);
  Node& node(std::uint32_t index) { return doc_.nodes_[index]; }
  std::uint32_t read_hex4(const char*& p, const char* end) const;
  void read_escape(std::string& out, const char*& p, const char* end) const;
  std::string_view key_text(std::uint32_t key) const { return doc_.text_of(doc_.nodes_[key]); }
  void resolve_duplicates();
  /// A string or big integer whose bytes are text_[first, last).
  std::uint32_t add_text(Json::Type type, const char* first, const char* last) {
    const std::uint32_t i = add_node(type);
    node(i).offset = offset_of(first);
    node(i).size = static_cast<std::uint32_t>(last - first);
    return i;
  }

  std::vector<Fragment> fragments_;  ///< plan_text's, for parse_document
  // ---- the fragments' walk (json_fragment_walk.cpp) ---------------------------------------
  void parse_fragments(char* text, const std::vector<Fragment>& fragments);
  /// A fragment walked into this builder, as the serial walk does each in turn.
  void walk_here(TextParser& parser, char* text, const Fragment& fragment, bool last, std::string& buffer);
  /// What a fragment walked apart from the builder adds to it (WalkedPart in
  /// json_fragment_walk.cpp): nodes of a document of its own, entries of the innermost
  /// container it continues, and the containers it leaves open.
  struct WalkedPart;
  /// Walks fragment `f` apart into `part`; false when what it met (a duplicate key, whose note
  /// names a path the part does not know) is for the builder's own walk to meet.
  bool walk_apart(TextParser& parser, const char* text, const Fragment& f, WalkedPart& part) const;
  /// Joins a part walked apart to the document; false (nothing joined) when the builder's own
  /// walk must take the fragment (the value limit reached).
  bool join_part(const Fragment& f, WalkedPart& part);
  void parse_fragments_beside(char* text, const std::vector<Fragment>& fragments, const std::vector<bool>& apart,
                              unsigned helpers);
  /// After fragment `f` is in the document: its strings copied out and its text given back.
  void release_fragment(char* text, const Fragment& f);

  const char* begin_;  ///< the text simdjson parses now
  const char* end_;
  std::uint64_t shift_ = 0;  ///< offset_of(begin_): where a fragment's first byte stands in the document
  std::string_view what_;
  const JsonLimits& limits_;
  JsonParseNotes& notes_;
  JsonDocument& doc_;
  std::vector<Frame> stack_;            ///< the open containers, innermost last
  std::vector<std::uint32_t> pending_;  ///< entries of the open containers, innermost last
  std::vector<PackedPlace> packed_places_;
  std::span<const PackedPlace> places_;  ///< packed_places_, or a part's builder's: the document's
  /// A part's builder: where its text stands in the document's (packed places are the document's).
  std::uint64_t part_at_ = 0;
  /// A part's builder: the containers open around its own (its first Frame stands for the
  /// innermost), which count towards limits.max_depth.
  std::size_t depth_base_ = 0;
  /// The document keeps no text once parsed (build's `owned`): each fragment's strings are
  /// copied out as soon as it is walked, and its text given back (parse_fragments).
  bool release_as_parsed_ = false;
  std::vector<RecentString> recent_;
  static constexpr std::size_t kKeySlots = 1024;
  static constexpr std::size_t kLongestSharedKey = 64;
  /// Keys are shared in texts (or fragments) of this many bytes or more: in a smaller one, a
  /// .jsonl line above all, the cache would cost more than the nodes it saves.
  static constexpr std::ptrdiff_t kShareKeysFrom = std::ptrdiff_t{16} << 10;
  static constexpr std::uint32_t kNoKey = UINT32_MAX;
  struct RecentKey {
    std::uint32_t node;
    std::uint32_t hash;  ///< short_hash of its text (24 bits)
  };
  std::vector<RecentKey> keys_;   ///< key_at's recent keys: a direct-mapped cache of nodes
  std::size_t copied_nodes_ = 0;  ///< nodes before this have no string in the text
  std::size_t next_packed_ = 0;   ///< the packed array the walk meets next
};

/// plan_text's pass over a text, resumable: fed a text as it grows (a member's minified text
/// while the member is still being inflated, json_text.hpp), it scans what is final as it
/// comes, and its plan is ready when the text's last byte is (json_fragments.cpp). The plan is
/// the one plan_text makes of the whole.
class TextPlanner {
 public:
  /// For parse_document with `limits`; `pack`: the document is kept (its arrays packed).
  /// `expected_bytes`: about how long the text will be (0: unknown).
  TextPlanner(const JsonLimits& limits, bool pack, std::size_t expected_bytes = 0);
  /// The limits the plan is made with (a document walked on several threads is cut smaller).
  static JsonLimits planning_limits(const JsonLimits& limits);
  /// Whether this plans the text as build(limits, pack) would.
  bool made_for(const JsonLimits& limits, bool pack) const;
  /// text[0, size) is the text so far, and none of it will change: the bytes it scanned before
  /// stay where they are. `last`: nothing more will come.
  void scan(const char* text, std::size_t size, bool last = false);
  /// The plan of the whole text whole[start, ...), of which this scanned a first part (or
  /// none): packs it (the text changes) and places the cuts.
  JsonDocumentBuilder::TextPlan finish(std::string& whole, std::size_t start, JsonDocument& doc);

 private:
  using Fragment = JsonDocumentBuilder::Fragment;
  std::size_t fragment_bytes_;
  bool level_cuts_, pack_;
  std::uint32_t min_elements_;
  std::size_t target_;                             ///< commas count as stops from here on
  std::size_t resume_ = 0;                         ///< where the next scan starts
  std::size_t string_from_ = std::string::npos;    ///< resume_'s string: where to look on for its close
  bool stretch_ = false, stretch_commas_ = false;  ///< the last scan ran out of text in a stretch with(out) commas
  std::size_t flat_ = std::string::npos;           ///< the '[' of an array with nothing but scalars so far
  std::size_t span_bytes_ = 0;                     ///< packed arrays' text so far
  std::size_t root_end_ = std::string::npos;       ///< where the root closed
  bool sound_ = true;           ///< brackets pair, one root: else nothing is packed or cut (the walk refuses it)
  std::string open_;            ///< the containers open at resume_, outermost first ('o' object, 'a' array)
  Fragment next_{};             ///< the fragment being planned
  std::vector<Fragment> cuts_;  ///< in the text as it is before packing
  std::vector<JsonDocumentBuilder::Bare> found_;  ///< the arrays to pack
  JsonDocument scratch_;                          ///< the packed arrays' checkpoints, until finish
};

}  // namespace zanj::json
