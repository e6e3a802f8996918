#pragma once
// Reading the data members of a .zanj: the header of an .npy member, and the lines of a
// .jsonl member, streamed. Written once here; cat, verify, diff and extract share them.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "array/npy_header.hpp"
#include "json/json_parse.hpp"

namespace zanj::array {

/// The whole text of a JSON member (__zanj__.json, the meta) in one buffer of the size the
/// central directory declares, bounded by `max_bytes` (--max-json-bytes, checked first):
/// no growing copies of a 20 MB text. Reserved pages cost memory only once bytes arrive, so a
/// size that lies costs nothing, and decoding stops at the declared size.
/// The text comes minified when it is UTF-8 (json_text.hpp): `decoded`, when given, receives
/// the bytes decoded. `alone`: nothing else is read beside this member, so a large compressed
/// one is decoded on a second thread (when the process may use two CPUs) while this one minifies.
/// `plan_for`: the limits the text will be parsed with (parse_document), to plan it as it is
/// minified (JsonText::plan).
json::JsonText read_json_text(const Archive& archive, const ZipEntry& entry, std::uint64_t max_bytes,
                              std::uint64_t* decoded = nullptr, bool alone = false,
                              const json::JsonLimits* plan_for = nullptr);

/// Parse the header of an .npy member, decoding only its first bytes.
/// Throws Error naming the archive and member when it is not a valid .npy header.
NpyHeader read_npy_member_header(const Archive& archive, const ZipEntry& entry, const NpyLimits& limits = {});

/// Collects the header of an .npy member from its first chunks (push-style, like
/// JsonlLineSplitter below), then parses it with parse_npy_header.
class NpyHeaderCollector {
 public:
  explicit NpyHeaderCollector(const NpyLimits& limits = {}) : limits_(limits) {}
  /// Take what belongs to the header from the start of `chunk`; returns how many bytes that
  /// was (the rest is array data), or why the header is malformed.
  base::Result<std::size_t> try_feed(std::string_view chunk);
  /// The same, throwing the failure as an Error.
  std::size_t feed(std::string_view chunk);
  /// The member ended: why that is wrong (it ended inside the header), or nothing.
  std::optional<std::string> end_problem() const;
  /// The same, throwing the problem as an Error.
  void finish() const;
  /// The header, once complete.
  const std::optional<NpyHeader>& header() const { return header_; }

 private:
  NpyLimits limits_;
  std::string bytes_;
  std::uint64_t need_ = 0;  ///< whole header size, once the fixed prefix has been seen
  std::optional<NpyHeader> header_;
};

/// Splits bytes arriving chunk by chunk into lines, without the "\n". Push-style, so code that
/// already streams a member for other reasons (verify reads each member once) uses the same
/// splitter as for_each_jsonl_line. Memory is one line: chunks are not kept.
class JsonlLineSplitter {
 public:
  /// Return false to stop: later feed()/finish() calls then do nothing.
  using LineHandler = std::function<bool(std::uint64_t index, std::string_view line)>;
  /// `what` names the input in the Error thrown for a line longer than max_line_bytes, or for
  /// more lines than max_rows (--max-jsonl-line-bytes, --max-jsonl-rows); "" names none (the
  /// caller says where).
  JsonlLineSplitter(LineHandler on_line, std::uint64_t max_line_bytes, std::string what, std::uint64_t max_rows);
  /// Split the next chunk; false once the handler has asked to stop. Fails on a line over
  /// max_line_bytes or more lines than max_rows.
  base::Result<bool> try_feed(std::string_view chunk);
  /// End of input: hands over a last line that has no "\n" (an empty one is not a line).
  base::Result<bool> try_finish();
  /// The same two, throwing the failure as an Error.
  bool feed(std::string_view chunk);
  bool finish();
  /// Lines handed to the handler so far.
  std::uint64_t lines() const { return index_; }

 private:
  base::Failure too_long() const;
  base::Result<bool> hand_over(std::string_view line);
  LineHandler on_line_;
  std::uint64_t max_line_bytes_;
  std::uint64_t max_rows_;
  std::string what_;
  std::string pending_;  ///< the start of a line split across chunks
  std::uint64_t index_ = 0;
  bool stopped_ = false;
};

/// Call `on_line(index, text)` for each line of a .jsonl member, without the trailing "\n"
/// (a final line without "\n" is passed too; an empty final segment is not). Return false to
/// stop. A line longer than the archive's limits().max_jsonl_line_bytes, or more lines than its
/// max_jsonl_rows, throws Error. Streams: memory is one line plus a chunk.
void for_each_jsonl_line(const Archive& archive, const ZipEntry& entry,
                         const std::function<bool(std::uint64_t index, std::string_view line)>& on_line);

/// Same, with each line parsed as JSON like Python's json.loads(line_bytes): a BOM at a line's
/// start is skipped, NaN/Infinity accepted, and each line may hold what the archive's loaded
/// documents left of its max_json_values (json_values_left). Parse errors throw Error naming the
/// member and line number.
void for_each_jsonl_value(const Archive& archive, const ZipEntry& entry,
                          const std::function<bool(std::uint64_t index, const Json& value)>& on_value);

}  // namespace zanj::array
