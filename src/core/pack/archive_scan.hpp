#pragma once
// Reading an archive libarchive reads (a tar, 7z, cpio) front to back, for `pack`
// (archive_input.hpp): each entry checked before it is handed out, a hostile one refused
// (EntryWalker); what planning needs learnt of each file as its bytes pass (Scan); members
// met before their turn kept aside until it comes (MemberSpool).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "array/member_reader.hpp"
#include "array/npy_header.hpp"
#include "io/archive_library.hpp"
#include "io/spool_file.hpp"
#include "pack/repack.hpp"
#include "zanj/error.hpp"
#include "zanj/limits.hpp"

namespace zanj::pack::archive_scan {

inline constexpr std::size_t kChunk = std::size_t{1} << 20;

/// libarchive's reader, freed on every path out.
struct Reader {
  ::archive* a = nullptr;
  Reader() = default;
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
  ~Reader();
};

/// An entry that passed the checks: a regular file or a folder, named as a member.
struct CheckedEntry {
  std::string name;
  bool directory = false;
  std::optional<std::uint64_t> size;  ///< declared in its header, when the format declares it
  std::string shown;                  ///< how messages name it
};

/// The entries of an archive, front to back, each checked before it is handed out (throws
/// Error for a hostile one), with the bomb limits kept over the whole pass.
class EntryWalker {
 public:
  /// Throws Error (usage) when the archive cannot be read or is not one libarchive reads.
  EntryWalker(const std::string& archive, const ResourceLimits& limits);

  /// The next regular file or folder (the current entry's unread data is skipped), or nothing
  /// at the end of the archive.
  std::optional<CheckedEntry> next();

  /// Stream the current entry's data to `sink` until it ends or `sink` returns false; returns
  /// the bytes read.
  std::uint64_t read(const ChunkSink& sink);

 private:
  std::string why(const char* fallback) const;

  const io::ArchiveLibrary& lib_;
  std::string archive_;
  ResourceLimits limits_;
  Reader r_;
  std::uint64_t max_bytes_ = 0, total_ = 0, entries_ = 0;
  CheckedEntry current_;
  std::unique_ptr<char[]> buffer_;
};

/// Members met before their turn, kept in one unnamed temporary file until it comes.
class MemberSpool {
 public:
  bool has(const std::string& name) const { return ranges_.count(name) != 0; }
  /// Bytes spooled so far (those read back included).
  std::uint64_t bytes() const { return file_ ? file_->size() : 0; }
  /// Keep member `name`: `fill` streams its bytes to the sink it is given.
  void add(const std::string& name, const std::function<void(const ChunkSink&)>& fill);
  /// Stream member `name` (has()) to `sink`, once.
  void read(const std::string& name, const ChunkSink& sink);

 private:
  struct Range {
    std::uint64_t offset = 0, size = 0;
  };
  std::unique_ptr<io::SpoolFile> file_;
  std::map<std::string, Range> ranges_;
};

/// What a pass keeps of one regular file: kept for every file of the archive, so small (an
/// Error is hundreds of bytes, held only where one was met; an .npy is no JSON lines without
/// one saying so).
struct FileFacts {
  std::uint64_t size = 0;
  std::optional<std::string> text;  ///< __zanj__.json and __zanj_meta__.json, within max_json_bytes
  std::optional<array::NpyHeader> npy;
  std::shared_ptr<const Error> npy_error;  ///< why it is no .npy
  std::uint64_t lines = 0;
  std::optional<std::string> first_line;
  std::shared_ptr<const Error> jsonl_error;  ///< why it is no JSON lines, unless it is an .npy
};

/// Looks at a file's bytes as they pass, as an .npy (its header) and as JSON lines (its line
/// count and first line) at once, until it is clearly neither or its header is read. Errors
/// are kept, not thrown: each matters only if the plan uses the file that way.
class FactsReader {
 public:
  FactsReader(std::string what, const ResourceLimits& limits, FileFacts& facts);

  /// Whether more bytes would tell it anything.
  bool open() const { return npy_open_ || lines_open_; }
  void feed(std::string_view chunk);
  /// The file ended (all of it was fed).
  void finish();

 private:
  void as_npy(std::string_view chunk, bool end);
  void as_lines(std::string_view chunk, bool end);

  std::string what_;
  FileFacts& facts_;
  array::NpyHeaderCollector npy_;
  array::JsonlLineSplitter lines_;
  bool npy_open_ = true, lines_open_ = true;
};

/// What a pass over the archive learns, entry by entry, and the checks on the whole.
class Scan {
 public:
  Scan(std::string archive, const ResourceLimits& limits) : archive_(std::move(archive)), limits_(limits) {}

  /// Learn the current entry `e` of `walker`. `copy`, when given, gets all of its bytes too
  /// (a member written as it is read); otherwise only what planning needs is read, and the
  /// rest of an .npy is skipped.
  void take(EntryWalker& walker, const CheckedEntry& e, const ChunkSink* copy = nullptr);

  /// After the last entry: a folder holds no file of the same name (the archive must be a
  /// folder tree).
  void check_folders() const;

  bool has(const std::string& name) const { return sizes_.count(name) != 0; }
  /// Drop what was learnt of `file` but its size (a pass that has used it keeps no more of each
  /// of thousands of files); files() no longer has it.
  void forget(const std::string& file) { files_.erase(file); }
  std::map<std::string, FileFacts>& files() { return files_; }
  std::map<std::string, std::uint64_t>& sizes() { return sizes_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::string shown(const std::string& file) const;
  std::uint64_t learn(EntryWalker& walker, const CheckedEntry& e, FileFacts& facts, const ChunkSink* copy);

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, FileFacts> files_;
  std::map<std::string, std::uint64_t> sizes_;  ///< every regular file, skipped ones too
  std::set<std::string> folders_;
  std::vector<std::string> notes_;
};

}  // namespace zanj::pack::archive_scan
