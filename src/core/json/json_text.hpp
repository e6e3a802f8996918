#pragma once
// The text a JSON parse reads (json_text.cpp): the bytes as Python's json.loads(bytes) decodes
// them, minified, with what simdjson would refuse but Python accepts masked. Private to the
// core: the parser uses all of it, a member reader the minifier (array/member_reader.cpp).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "json/json_parse.hpp"

namespace zanj::json {

/// The text json.loads(bytes) parses: json.detect_encoding's choice, UTF-16 and UTF-32
/// transcoded into `storage` (generalized UTF-8: surrogates kept, as 'surrogatepass' keeps
/// them), a UTF-8 byte-order mark skipped. Fills notes.encoding and notes.bom.
std::string_view decode_json_bytes(std::string_view bytes, std::string& storage, JsonParseNotes& notes,
                                   std::string_view what);

/// Removes JSON's whitespace (space, tab, CR, LF) outside strings, as the text arrives: a
/// parsed document then holds no indentation, and simdjson indexes only what carries meaning.
/// A run between two scalar bytes (as in `[1 2]`) keeps one space, so what was not JSON does
/// not become JSON. Minifying text that is already minified changes nothing.
class JsonMinifier {
 public:
  /// Appends `chunk` to `out`, minified, once the first bytes show UTF-8 (UTF-16 and UTF-32
  /// pass as they are, for the parser to transcode and minify).
  void append(std::string& out, std::string_view chunk);
  /// The end of the text: a space kept after the last scalar goes.
  void finish(std::string& out);

  /// Minifies p[i, n) into p[o, ...) (o <= i; p[0, o) is what came before) and returns the
  /// new end.
  std::size_t minify(char* p, std::size_t o, std::size_t i, std::size_t n);
  bool space_kept() const { return space_kept_; }
  /// append found UTF-8 (json.detect_encoding's verdict on the text as written: the parser
  /// must not look again, at the minified text) and minified what it appended.
  bool minified() const { return utf8_; }
  /// The text as written began with a UTF-8 byte-order mark (which stays in what append wrote).
  bool bom() const { return utf8_ && floor_ == 3; }
  /// Also plan the text for parse_document(limits) as it is minified (TextPlanner,
  /// json_builder.hpp): each appended piece is scanned while it is still in the cache, and on
  /// a second thread's decoding the plan is made in the time this one waited for it.
  /// `expected_bytes`: about how long the text will be (a member's declared size).
  void plan_for(const JsonLimits& limits, std::size_t expected_bytes = 0);
  /// That plan, for JsonText::plan (null without plan_for).
  std::shared_ptr<TextPlanner> plan() const { return planner_; }

 private:
  void minify_appended(std::string& out, std::string_view chunk);

  bool decided_ = false;     ///< append: the first four bytes have been seen
  bool utf8_ = false;        ///< append: they showed UTF-8, so what follows is minified
  std::size_t floor_ = 0;    ///< where the JSON starts (past a UTF-8 byte-order mark)
  bool in_string_ = false;   ///< between a string's quotes
  bool escaped_ = false;     ///< after a backslash in a string
  bool space_kept_ = false;  ///< the last byte written is a space kept after a scalar
  std::shared_ptr<TextPlanner> planner_;
};

/// The whole text at once: text[0, size) minified in place; returns the new size.
std::size_t minify_json(char* text, std::size_t size);

/// Whether `text` holds at least `count` commas outside strings. In JSON each one adds a value
/// to its container, so a document holds at least commas + 1 values: an exact refusal of
/// --max-json-values before simdjson indexes the text (4 bytes per structural character: 64 MB
/// for a list of 8M zeros).
bool has_commas_outside_strings(std::string_view text, std::uint64_t count);

/// simdjson validates its input as strict UTF-8; Python's 'surrogatepass' also accepts the
/// 3-byte forms of U+D800..U+DFFF (ED A0..BF xx). mask_encoded_surrogates turns each such lead
/// byte into EE (a valid private-use character of the same length) and returns where;
/// unmask_encoded_surrogates puts the ED bytes back once simdjson has validated the text, so
/// strings keep the surrogates Python's str would hold (never joined into pairs).
std::vector<std::uint32_t> mask_encoded_surrogates(char* text, std::size_t size);
void unmask_encoded_surrogates(char* text, const std::vector<std::uint32_t>& where);

}  // namespace zanj::json
