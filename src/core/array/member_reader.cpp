#include "array/member_reader.hpp"

#include <algorithm>
#include <string>

#include "zanj/error.hpp"
#include "base/thread_pool.hpp"
#include "io/chunk_puller.hpp"
#include "json/json_parse.hpp"
#include "json/json_text.hpp"
#include "zip/archive_access.hpp"
#include "zip/member_name.hpp"

namespace zanj::array {

namespace {
constexpr std::uint64_t kBesideFrom = std::uint64_t{4} << 20;  // below, a thread costs more than it saves
constexpr std::size_t kDecodedChunkBytes = std::size_t{256} << 10;
constexpr std::size_t kBesideQueueBytes = 2 * kDecodedChunkBytes + 256;

bool decoding_beside_pays(const ZipEntry& entry) {
  return entry.method != 0 && entry.uncompressed_size >= kBesideFrom && base::available_cpus() > 1;
}
}  // namespace

json::JsonText read_json_text(const Archive& archive, const ZipEntry& entry, std::uint64_t max_bytes,
                              std::uint64_t* decoded, bool alone, const json::JsonLimits* plan_for) {
  if (entry.uncompressed_size > max_bytes)
    return {archive.read_all(entry, max_bytes), false, false, nullptr};  // its error
  // Minified as it is decoded: an indented document never sits whole in memory. Reserved at
  // its full size, the string costs only the pages the minified text fills.
  std::string out;
  out.reserve(static_cast<std::size_t>(entry.uncompressed_size));
  json::JsonMinifier minifier;
  if (plan_for) minifier.plan_for(*plan_for, static_cast<std::size_t>(entry.uncompressed_size));
  std::uint64_t bytes = 0;
  const auto take = [&](std::string_view chunk) {
    bytes += chunk.size();
    minifier.append(out, chunk);
  };
  if (alone && decoding_beside_pays(entry)) {
    // Decoded on a second thread while this one minifies: inflating was 40% of reading an
    // indented member (zlib 261M of 580M instructions for a 20 MB one), and the two overlap.
    // The queue holds two chunks, in buffers allocated on this thread (the decoder passes
    // chunks of up to 256 KiB), so memory stays as it was.
    io::ChunkPuller decoded_chunks([&](const io::ChunkPuller::Sink& sink) { archive.read(entry, sink); },
                                   kBesideQueueBytes, kDecodedChunkBytes);
    std::string chunk;
    while (decoded_chunks.next(chunk)) take(chunk);
  } else {
    archive.read(entry, [&](std::string_view chunk) {
      take(chunk);
      return true;
    });
  }
  minifier.finish(out);
  if (decoded) *decoded = bytes;
  return {std::move(out), minifier.minified(), minifier.bom(), minifier.plan()};
}
namespace {
constexpr std::size_t kNpyPrefix = 12;  // magic, version and the longest (4-byte) header length
// numpy pads headers to 64 bytes and rarely writes more than 128: one read of this much
// almost always holds the whole header, so the member is decoded from its start only once.
constexpr std::size_t kUsualHeader = 4096;
}  // namespace

NpyHeader read_npy_member_header(const Archive& archive, const ZipEntry& entry, const NpyLimits& limits) {
  try {
    // The fixed part (magic, version, length) says how much the header holds.
    std::string header = archive.read_prefix(entry, kUsualHeader);
    const std::uint64_t need = npy_header_size(std::string_view(header).substr(0, kNpyPrefix), limits);
    if (need > header.size()) header = archive.read_prefix(entry, static_cast<std::size_t>(need));
    header.resize(std::min<std::uint64_t>(header.size(), need));
    NpyHeader h = parse_npy_header(header, limits);
    if (h.data_offset > entry.uncompressed_size) throw Error("header runs past the end of the member");
    return h;
  } catch (const Error& e) {          // context: the member and the archive join npy errors
    if (!e.archive().empty()) throw;  // the archive's errors say where already; npy errors do not
    throw e.in_member(InMember{entry.name}).in_archive(archive.name());
  }
}

base::Result<std::size_t> NpyHeaderCollector::try_feed(std::string_view chunk) {
  std::size_t used = 0;
  while (!header_ && used < chunk.size()) {
    const std::uint64_t want = need_ ? need_ : kNpyPrefix;
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(want - bytes_.size(), chunk.size() - used));
    bytes_.append(chunk.substr(used, take));
    used += take;
    if (bytes_.size() < want) break;
    if (!need_) {
      const base::Result<std::uint64_t> size = read_npy_header_size(bytes_, limits_);  // bounded by max_header_bytes
      if (!size) return base::Failure{size.why()};
      need_ = *size;
      // Only a 0- or 1-byte dict is shorter than the prefix, and no such dict is valid.
      if (need_ < bytes_.size()) return base::Failure{"bad npy header: header dict too short"};
    }
    if (bytes_.size() == need_) {
      base::Result<NpyHeader> header = read_npy_header(bytes_, limits_);
      if (!header) return base::Failure{header.why()};
      header_ = std::move(*header);
    }
  }
  return used;
}

std::size_t NpyHeaderCollector::feed(std::string_view chunk) { return try_feed(chunk).value_or_throw(); }

std::optional<std::string> NpyHeaderCollector::end_problem() const {
  if (header_) return std::nullopt;
  if (!need_) {  // says what is wrong with a short prefix
    const base::Result<std::uint64_t> size = read_npy_header_size(bytes_, limits_);
    if (!size) return size.why();
  }
  return "bad npy header: the member ends inside its header";
}

void NpyHeaderCollector::finish() const {
  if (const auto problem = end_problem()) throw Error(*problem);
}

JsonlLineSplitter::JsonlLineSplitter(LineHandler on_line, std::uint64_t max_line_bytes, std::string what,
                                     std::uint64_t max_rows)
    : on_line_(std::move(on_line)), max_line_bytes_(max_line_bytes), max_rows_(max_rows), what_(std::move(what)) {}

base::Failure JsonlLineSplitter::too_long() const {
  return base::Failure{json::json_error(what_, "line " + std::to_string(index_ + 1) + " is longer than " +
                                                   std::to_string(max_line_bytes_) +
                                                   " bytes, the limit (raise with --max-jsonl-line-bytes)")
                           .what()};
}

base::Result<bool> JsonlLineSplitter::hand_over(std::string_view line) {
  if (index_ >= max_rows_)
    return base::Failure{json::json_error(what_, "the number of lines exceeds the limit of " +
                                                     std::to_string(max_rows_) + " (raise with --max-jsonl-rows)")
                             .what()};
  return on_line_(index_++, line);
}

base::Result<bool> JsonlLineSplitter::try_feed(std::string_view chunk) {
  while (!stopped_ && !chunk.empty()) {
    const std::size_t nl = chunk.find('\n');
    if (nl == std::string_view::npos) {
      if (pending_.size() + chunk.size() > max_line_bytes_) return too_long();
      pending_.append(chunk);
      return true;
    }
    std::string_view line = chunk.substr(0, nl);
    if (!pending_.empty()) {
      if (pending_.size() + line.size() > max_line_bytes_) return too_long();
      pending_.append(line);
      line = pending_;
    } else if (line.size() > max_line_bytes_) {
      return too_long();
    }
    base::Result<bool> go_on = hand_over(line);
    if (!go_on) return go_on;
    stopped_ = !*go_on;
    pending_.clear();
    chunk.remove_prefix(nl + 1);
  }
  return !stopped_;
}

base::Result<bool> JsonlLineSplitter::try_finish() {
  if (!stopped_ && !pending_.empty()) {
    base::Result<bool> go_on = hand_over(pending_);
    if (!go_on) return go_on;
    stopped_ = !*go_on;
    pending_.clear();
  }
  return !stopped_;
}

bool JsonlLineSplitter::feed(std::string_view chunk) { return try_feed(chunk).value_or_throw(); }

bool JsonlLineSplitter::finish() { return try_finish().value_or_throw(); }

void for_each_jsonl_line(const Archive& archive, const ZipEntry& entry,
                         const std::function<bool(std::uint64_t, std::string_view)>& on_line) {
  const ResourceLimits& limits = archive.limits();
  JsonlLineSplitter splitter(on_line, limits.max_jsonl_line_bytes,
                             archive.name() + ": member '" + zip::printable_name(entry.name) + "'",
                             limits.max_jsonl_rows);
  archive.read(entry, [&](std::string_view chunk) { return splitter.feed(chunk); });
  splitter.finish();
}

void for_each_jsonl_value(const Archive& archive, const ZipEntry& entry,
                          const std::function<bool(std::uint64_t, const Json&)>& on_value) {
  const json::JsonLimits line_limits = zip::json_line_limits(archive);
  for_each_jsonl_line(archive, entry, [&](std::uint64_t index, std::string_view line) {
    Json value;
    try {
      value = json::parse_json(line, entry.name + " line " + std::to_string(index + 1), line_limits);
    } catch (const Error& e) {  // context: the archive joins the message
      throw Error(InArchive{archive.name()}, e.what());
    }
    return on_value(index, value);
  });
}

}  // namespace zanj::array
