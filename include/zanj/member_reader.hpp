#pragma once
// Reading the data members of a .zanj: the header of an .npy member, and the lines of a
// .jsonl member, streamed. Written once here; cat, verify, diff and extract share them.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/npy.hpp"

namespace zanj {

/// Parse the header of an .npy member, decoding only its first bytes.
/// Throws Error naming the archive and member when it is not a valid .npy header.
NpyHeader read_npy_member_header(const Archive& archive, const ZipEntry& entry, const NpyLimits& limits = {});

/// Call `on_line(index, text)` for each line of a .jsonl member, without the trailing "\n"
/// (a final line without "\n" is passed too; an empty final segment is not). Return false to
/// stop. Lines longer than max_line_bytes throw Error. Streams: memory is one line plus a chunk.
void for_each_jsonl_line(const Archive& archive, const ZipEntry& entry,
                         const std::function<bool(std::uint64_t index, std::string_view line)>& on_line,
                         std::uint64_t max_line_bytes = std::uint64_t{1} << 30);

/// The same splitting over any stream of chunks: `stream` feeds its sink every chunk in order
/// (a .jsonl file on disk, for `pack`). `where` names the stream in messages.
void for_each_line(const std::function<void(const ChunkSink&)>& stream, const std::string& where,
                   const std::function<bool(std::uint64_t index, std::string_view line)>& on_line,
                   std::uint64_t max_line_bytes = std::uint64_t{1} << 30);

/// Same, with each line parsed as JSON (Python's NaN/Infinity accepted). Parse errors throw
/// Error naming the member and line number.
void for_each_jsonl_value(const Archive& archive, const ZipEntry& entry,
                          const std::function<bool(std::uint64_t index, const Json& value)>& on_value,
                          std::uint64_t max_line_bytes = std::uint64_t{1} << 30);

}  // namespace zanj
