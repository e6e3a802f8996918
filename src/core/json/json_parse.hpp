#pragma once
// The JSON parser (json_parse.cpp) and the budget it parses under. Private: the API hands out
// documents as JsonView (zanj/json.hpp), never the parser or its limits.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.hpp"
#include "json/json_document.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"

namespace zanj::json {

/// The Error for a document named `what` (a member name, "line 3"; "" when the caller says
/// where itself): "WHAT: REASON", or REASON alone.
inline Error json_error(std::string_view what, const std::string& reason) {
  return Error(what.empty() ? reason : std::string(what) + ": " + reason);
}

/// A document over a limit rather than invalid (verify reports json_too_deep or too_large, not
/// json_invalid): callers tell them apart by type, not by the words of the message.
class JsonLimitError : public Error {
 public:
  enum class Limit { depth, values };
  JsonLimitError(Limit limit, const Error& error) : Error(error), limit_(limit) {}
  Limit limit() const noexcept { return limit_; }

 private:
  Limit limit_;
};

/// Values in a tree: the root, every element and every member (what parse_json counted).
std::uint64_t count_json_values(const Json& value);

/// What a document may make the parser spend. The value count (every element, member and the
/// root) is checked by a first structural pass, before anything is allocated for the tree.
/// A document read from an archive is held to the archive's limits (json_values_left in
/// zip/archive_access.hpp for a .jsonl line); the defaults are ResourceLimits' own.
struct JsonLimits {
  std::size_t max_depth = ResourceLimits{}.max_json_depth;
  std::uint64_t max_values = ResourceLimits{}.max_json_values;
  /// A kept document holds an array of this many bare scalars or more as its text, not as
  /// nodes (json_document.hpp); 0: never. Shorter ones cost less as nodes than as text read
  /// again at every access.
  std::uint32_t packed_min_elements = 16;
  /// A larger document is parsed in fragments of about this many bytes of minified text, so
  /// simdjson's index of it (4 bytes per structural character) stays small
  /// (json_fragments.cpp); 0: whole.
  std::size_t fragment_bytes = std::size_t{256} << 10;
  /// Threads the fragments are walked on, the caller's among them (json_fragment_walk.cpp):
  /// 1, the caller's alone.
  unsigned threads = 1;
};

/// What Python's json accepts silently but is worth a warning: filled by parse_json when asked.
struct JsonParseNotes {
  bool bom = false;                          ///< a byte-order mark was skipped
  std::string_view encoding = "utf-8";       ///< as Python's json.detect_encoding names it
  std::uint64_t duplicate_keys = 0;          ///< keys repeating an earlier key of the same object
  std::vector<std::string> first_duplicate;  ///< path segments to the first repeated key
  std::uint64_t values = 0;                  ///< values in the document (root, elements and members)
  std::uint64_t parts_joined = 0;            ///< fragments walked on other threads (json_fragment_walk.cpp)
};

/// Parse a complete JSON document from bytes, as Python's json.loads(bytes) does: the
/// encoding is detected (UTF-8, UTF-8 with BOM, UTF-16 and UTF-32 by BOM or NUL pattern),
/// surrogates are accepted ('surrogatepass'), and strings keep them as 3-byte sequences
/// (generalized UTF-8) that write_json prints back as backslash-u escapes. Duplicate keys keep
/// their first position and take the last value, like a Python dict. `what` names the
/// document in error messages (a member name). Throws zanj::Error on invalid JSON, or when
/// nesting exceeds max_depth or the value count max_values.
JsonDocument parse_document(std::string text, std::string_view what, const JsonLimits& limits = {},
                            JsonParseNotes* notes = nullptr);
/// A member's text as read_json_text hands it over (array/member_reader.hpp): `minified` when
/// JsonMinifier (json_text.hpp) found UTF-8 and minified it as it was decoded, so the parse
/// need not pass over it again.
class TextPlanner;  // json_builder.hpp
struct JsonText {
  std::string bytes;
  bool minified = false;
  bool bom = false;  ///< minified: the text as written started with a UTF-8 byte-order mark
  /// The plan of the text parse_document makes first, begun as the text was minified
  /// (JsonMinifier::plan_for); null: made after.
  std::shared_ptr<TextPlanner> plan;
};
JsonDocument parse_document(JsonText text, std::string_view what, const JsonLimits& limits = {},
                            JsonParseNotes* notes = nullptr);
/// The same as a Json value of its own, for code that builds or edits a tree (pack) or
/// keeps a small value (a .jsonl line).
Json parse_json(std::string_view text, std::string_view what, const JsonLimits& limits = {},
                JsonParseNotes* notes = nullptr);

/// Why a document could not be parsed, as parse_document's Error says it, and whether it was
/// over a limit (JsonLimitError) rather than invalid.
struct JsonFailure {
  std::string why;
  std::optional<JsonLimitError::Limit> over;
};
/// parse_document and parse_json for callers to whom a document that does not parse is an
/// answer, not an error (verify's problems, an optional field of a service's reply).
base::Result<JsonDocument, JsonFailure> read_json_document(std::string text, std::string_view what,
                                                           const JsonLimits& limits = {},
                                                           JsonParseNotes* notes = nullptr);
base::Result<JsonDocument, JsonFailure> read_json_document(JsonText text, std::string_view what,
                                                           const JsonLimits& limits = {},
                                                           JsonParseNotes* notes = nullptr);
base::Result<Json> read_json(std::string_view text, std::string_view what, const JsonLimits& limits = {},
                             JsonParseNotes* notes = nullptr);

/// "simdjson VERSION (KERNEL kernel)" for --version: the library and the stage-1 kernel it chose
/// for this CPU at run time (haswell, icelake, westmere or fallback on x86-64).
std::string json_library_version_line();

}  // namespace zanj::json
