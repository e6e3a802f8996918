#pragma once
// A parsed JSON document in one flat piece: what an opened archive holds of __zanj__.json and
// its meta. A tree of Json values costs 40-110 bytes per value (a std::variant each, a
// std::string per key, a vector per container); here every value and every key is one 16-byte
// node in one array, in document order, and a container's children are listed in one shared
// index array (an element: its node; an object member: its key node, then its value node). A
// string is a view into the document's own (minified) text when it needs no decoding, else its
// decoded bytes in one arena; a document kept after parsing copies the strings into the arena,
// each repeated key once, and frees the text (parse_json's short-lived document keeps it). A
// key met lately in a document of 16 KiB or more is one node however often it repeats (keys
// are only read as text).
// A long array of bare scalars (numbers, true, false, null: the rows of an inline array, a long
// list) is not a node per element: its text is moved whole into the spans and read when an
// element is asked for (json_packed.cpp), so 8M zeros cost their 16 MB of text, not 160 MB of
// nodes. JsonView (json_view.cpp) reads it; nothing else needs to.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/json.hpp"

namespace zanj {
namespace json {
class JsonDocumentBuilder;  // json_builder.hpp
class TextPlanner;          // json_builder.hpp
}  // namespace json

class JsonDocument {
 public:
  struct Node {
    std::uint8_t type_code;  ///< a Json::Type
    bool in_arena;           ///< strings and big integers: bytes in arena_, else in the text
    bool in_spans;           ///< a big integer read from a packed array: its bytes are in spans_
    bool packed;             ///< an array whose elements are text in spans_: `offset` indexes packed_
    std::uint32_t size;      ///< strings and big integers: bytes; arrays and objects: children
    union {
      std::int64_t i;
      std::uint64_t u;
      double d;
      std::uint64_t offset;  ///< strings: first byte; containers: first entry in children_
    };
    Json::Type type() const { return static_cast<Json::Type>(type_code); }
  };

  JsonDocument() = default;
  JsonDocument(JsonDocument&&) noexcept = default;
  JsonDocument& operator=(JsonDocument&&) noexcept = default;

  /// The root value (an invalid view for an empty document).
  JsonView root() const;
  const Node& node(std::uint32_t index) const { return nodes_[index]; }
  /// A string's or big integer's bytes.
  std::string_view text_of(const Node& n) const {
    return {(n.in_arena ? arena_.data() : n.in_spans ? spans_.data() : text()) + n.offset, n.size};
  }
  /// Packed arrays (n.packed): where element i's text starts in the spans, and the element
  /// whose text starts there, as a node of its own (json_packed.cpp).
  std::uint32_t element_offset(const Node& array, std::size_t i) const;
  Node element(std::uint32_t offset) const;
  /// A container's child entries: `size` node indices for an array, 2 x `size` (key, value)
  /// for an object.
  const std::uint32_t* children(const Node& n) const { return children_.data() + n.offset; }
  /// Values held (the root, every element and every member), as --max-json-values counts.
  std::uint64_t values() const { return values_; }
  /// Bytes in use (the text, the arena, the nodes and the child lists).
  std::size_t bytes() const;
  /// False only when no string of the document (no key, no value) holds `needle`: once the
  /// text is freed every string is in the arena, with big integers' digits (packed arrays
  /// hold no strings), so one search there answers for the whole document. While the text is
  /// held (escaped strings in it would not match), true.
  bool strings_may_hold(std::string_view needle) const;

 private:
  friend class json::JsonDocumentBuilder;
  friend class json::TextPlanner;
  const char* text() const { return owned_text_.data() + text_start_; }

  std::string owned_text_;      ///< the (decoded, minified) text, until release_text
  std::size_t text_start_ = 0;  ///< past a byte-order mark in owned_text_
  std::string arena_;           ///< strings that needed decoding (escapes)
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> children_;
  std::uint64_t values_ = 0;

  /// A packed array: its elements' text in spans_, comma-separated, and where every
  /// kCheckpointEvery-th element starts (checkpoints_, from `checkpoints` on), so an element is
  /// found by skipping fewer than that many commas.
  struct Packed {
    std::uint32_t first;        ///< the first element's text in spans_ (each array's ends with ']')
    std::uint32_t checkpoints;  ///< offsets from `first`, one per kCheckpointEvery elements
  };
  static constexpr std::uint32_t kCheckpointEvery = 16;
  std::string spans_;
  std::vector<Packed> packed_;
  std::vector<std::uint32_t> checkpoints_;
};
static_assert(sizeof(JsonDocument::Node) == 16);

}  // namespace zanj
