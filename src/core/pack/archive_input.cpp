#include "pack/archive_input.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "array/member_reader.hpp"
#include "io/archive_library.hpp"
#include "io/spool_file.hpp"
#include "json/json_parse.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zip/member_name.hpp"

namespace zanj {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

/// libarchive's reader, freed on every path out.
struct Reader {
  ::archive* a = nullptr;
  ~Reader() {
    if (a) archive_library().read_free(a);
  }
};

std::string entry_kind(unsigned type) {
  switch (type) {
    case AE_IFLNK:
      return "a symbolic link";
    case AE_IFCHR:
      return "a character device";
    case AE_IFBLK:
      return "a block device";
    case AE_IFIFO:
      return "a FIFO";
    case AE_IFSOCK:
      return "a socket";
    default:
      return "not a regular file";
  }
}

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
  EntryWalker(const std::string& archive, const ResourceLimits& limits)
      : lib_(archive_library()), archive_(archive), limits_(limits) {
    struct stat st {};
    if (::stat(archive.c_str(), &st) != 0) throw Error(archive + ": cannot read it", Exit::usage);
    // A bomb: more bytes than the ratio limit allows for an archive this size.
    max_bytes_ = std::min<std::uint64_t>(
        limits.max_total_bytes, static_cast<std::uint64_t>(st.st_size) * limits.max_ratio + (std::uint64_t{1} << 20));
    r_.a = lib_.read_new();
    lib_.read_support_format_all(r_.a);
    lib_.read_support_filter_all(r_.a);
    if (lib_.read_open_filename(r_.a, archive.c_str(), 1 << 16) != ARCHIVE_OK)
      throw Error(archive + ": " + why("not an archive libarchive reads"), Exit::usage);
  }

  /// The next regular file or folder (the current entry's unread data is skipped), or nothing
  /// at the end of the archive.
  std::optional<CheckedEntry> next() {
    for (;;) {
      archive_entry* e = nullptr;
      const int h = lib_.read_next_header(r_.a, &e);
      if (h == ARCHIVE_EOF) return std::nullopt;
      if (h < ARCHIVE_WARN) throw Error(archive_ + ": " + why("unreadable entry"), Exit::invalid);
      const char* raw = lib_.entry_pathname_utf8(e);
      if (!raw) raw = lib_.entry_pathname(e);
      CheckedEntry entry{raw ? raw : "", false, std::nullopt, ""};
      std::string& name = entry.name;
      entry.shown = archive_ + ": entry '" + terminal_safe(name) + "'";
      if (++entries_ > limits_.max_entries)
        throw Error(archive_ + ": more than " + std::to_string(limits_.max_entries) + " entries", Exit::invalid);
      while (name.rfind("./", 0) == 0) name.erase(0, 2);
      const unsigned type = lib_.entry_filetype(e);
      if (type == AE_IFDIR) {
        while (!name.empty() && name.back() == '/') name.pop_back();
        if (name.empty() || name == ".") continue;
      }
      if (auto problem = member_name_problem(name))
        throw Error(entry.shown + ": " + *problem + "; nothing packed", Exit::invalid);
      if (lib_.entry_hardlink(e)) throw Error(entry.shown + " is a hard link; nothing packed", Exit::invalid);
      if (type == AE_IFDIR) {
        entry.directory = true;
        return entry;
      }
      if (type != AE_IFREG) throw Error(entry.shown + " is " + entry_kind(type) + "; nothing packed", Exit::invalid);
      if (lib_.entry_size_is_set(e)) {
        const auto size = static_cast<std::uint64_t>(std::max<la_int64_t>(lib_.entry_size(e), 0));
        if (size > max_bytes_ - total_)
          throw Error(entry.shown + " declares more bytes than the archive's size allows (--max-ratio); nothing packed",
                      Exit::invalid);
        total_ += size;
        entry.size = size;
      }
      current_ = entry;
      return entry;
    }
  }

  /// Stream the current entry's data to `sink` until it ends or `sink` returns false; returns
  /// the bytes read.
  std::uint64_t read(const ChunkSink& sink) {
    if (!buffer_) buffer_ = std::make_unique_for_overwrite<char[]>(kChunk);
    std::uint64_t done = 0;
    for (;;) {
      const la_ssize_t n = lib_.read_data(r_.a, buffer_.get(), kChunk);
      if (n < 0) throw Error(current_.shown + ": " + why("unreadable data"), Exit::invalid);
      if (n == 0) return done;
      done += static_cast<std::uint64_t>(n);
      if (current_.size ? done > *current_.size : (total_ += static_cast<std::uint64_t>(n)) > max_bytes_)
        throw Error(
            current_.shown + ": the archive unpacks to more bytes than its size allows (--max-ratio); nothing packed",
            Exit::invalid);
      if (!sink(std::string_view(buffer_.get(), static_cast<std::size_t>(n)))) return done;
    }
  }

 private:
  std::string why(const char* fallback) const {
    const char* text = lib_.error_string(r_.a);
    return text ? text : fallback;
  }

  const ArchiveLibrary& lib_;
  std::string archive_;
  ResourceLimits limits_;
  Reader r_;
  std::uint64_t max_bytes_ = 0, total_ = 0, entries_ = 0;
  CheckedEntry current_;
  std::unique_ptr<char[]> buffer_;
};

/// The second pass: members handed out in the order writing asks for them. A member met
/// before it is asked for is spooled; one met after it was asked for cannot be, so each is
/// read once.
class ArchiveStream final : public SequentialMembers {
 public:
  ArchiveStream(std::string archive, const ResourceLimits& limits, std::map<std::string, std::uint64_t> sizes)
      : archive_(std::move(archive)), limits_(limits), sizes_(std::move(sizes)) {}

  /// `name` will be asked for (a member of the plan).
  void want(const std::string& name) { wanted_.insert(name); }

  void read(const std::string& name, const ChunkSink& sink) override {
    if (const auto it = spooled_.find(name); it != spooled_.end()) {
      read_spooled(it->second, sink);
      spooled_.erase(it);
      return;
    }
    if (!wanted_.count(name)) throw Error("internal: " + archive_ + ": '" + name + "' asked for twice");
    if (!walker_) walker_.emplace(archive_, limits_);
    for (;;) {
      const std::optional<CheckedEntry> e = walker_->next();
      if (!e) throw changed("'" + printable_name(name) + "' is gone");
      if (e->directory) continue;
      const auto known = sizes_.find(e->name);
      if (known == sizes_.end()) throw changed("'" + printable_name(e->name) + "' is new");
      if (e->name == name) {
        copy(*e, known->second, sink);
        wanted_.erase(name);
        return;
      }
      if (!wanted_.count(e->name)) continue;  // not a member written from here (the JSON), or skipped
      if (!spool_) spool_ = std::make_unique<SpoolFile>();
      const Range range{spool_->size(), known->second};
      copy(*e, known->second, [&](std::string_view chunk) {
        spool_->append(chunk);
        return true;
      });
      spooled_.emplace(e->name, range);
      wanted_.erase(e->name);
    }
  }

 private:
  struct Range {
    std::uint64_t offset = 0, size = 0;
  };

  Error changed(const std::string& what) const {
    return Error(archive_ + ": " + what + " (the archive changed while it was being packed)", Exit::invalid);
  }

  /// Stream the current entry, which the first pass found `size` bytes long.
  void copy(const CheckedEntry& e, std::uint64_t size, const ChunkSink& sink) {
    std::uint64_t done = 0;
    walker_->read([&](std::string_view chunk) {
      done += chunk.size();
      if (done > size) throw changed("'" + printable_name(e.name) + "' grew");
      return sink(chunk);
    });
    if (done != size) throw changed("'" + printable_name(e.name) + "' shrank");
  }

  void read_spooled(const Range& range, const ChunkSink& sink) const {
    const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
    for (std::uint64_t done = 0; done < range.size;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, range.size - done));
      spool_->read_at(range.offset + done, buffer.get(), n);
      if (!sink(std::string_view(buffer.get(), n))) return;
      done += n;
    }
  }

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, std::uint64_t> sizes_;  ///< every regular file the first pass saw
  std::set<std::string> wanted_;                ///< members not yet read
  std::optional<EntryWalker> walker_;
  std::unique_ptr<SpoolFile> spool_;
  std::map<std::string, Range> spooled_;
};

/// What the first pass keeps of one regular file.
struct FileFacts {
  std::uint64_t size = 0;
  std::optional<std::string> text;  ///< __zanj__.json and __zanj_meta__.json, within max_json_bytes
  std::optional<NpyHeader> npy;
  std::optional<Error> npy_error;  ///< why it is no .npy
  std::uint64_t lines = 0;
  std::optional<std::string> first_line;
  std::optional<Error> jsonl_error;  ///< why it is no JSON lines
};

class ArchiveTree final : public PackTree {
 public:
  ArchiveTree(const std::string& archive, const ResourceLimits& limits) : archive_(archive), limits_(limits) {
    EntryWalker walker(archive, limits);
    std::set<std::string> folders;
    std::map<std::string, std::uint64_t> sizes;
    while (const std::optional<CheckedEntry> e = walker.next()) {
      if (e->directory) {
        folders.insert(e->name);
        continue;
      }
      if (sizes.count(e->name)) throw Error(e->shown + " appears twice; nothing packed", Exit::invalid);
      const std::size_t slash = e->name.rfind('/');
      if (is_leftover_temp_name(slash == std::string::npos ? e->name : e->name.substr(slash + 1))) {
        notes_.push_back("skipped '" + printable_name(e->name) + "', a temporary file left by an interrupted run");
        sizes[e->name] = e->size ? *e->size : walker.read([](std::string_view) { return true; });
        continue;
      }
      FileFacts& facts = files_[e->name];
      facts.size = learn(walker, *e, facts);
      sizes[e->name] = facts.size;
    }
    // A folder holds no file of the same name: the archive must be a folder tree.
    for (const auto& [name, facts] : files_)
      for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
        if (files_.count(name.substr(0, slash)))
          throw Error(
              archive + ": '" + printable_name(name.substr(0, slash)) + "' is both a file and a folder; nothing packed",
              Exit::invalid);
    for (const std::string& folder : folders)
      if (files_.count(folder))
        throw Error(archive + ": '" + printable_name(folder) + "' is both a file and a folder; nothing packed",
                    Exit::invalid);
    stream_ = std::make_shared<ArchiveStream>(archive, limits, std::move(sizes));
  }

  const std::string& name() const override { return archive_; }
  bool has_main() const override { return files_.count(std::string(kMainMember)) != 0; }

  std::map<std::string, std::uint64_t> files(std::vector<std::string>& notes) override {
    notes.insert(notes.end(), notes_.begin(), notes_.end());
    std::map<std::string, std::uint64_t> out;
    for (const auto& [name, facts] : files_) out.emplace(name, facts.size);
    return out;
  }

  std::string text(const std::string& file, std::uint64_t max_bytes) override {
    const FileFacts& facts = files_.at(file);
    if (facts.size > max_bytes || !facts.text)
      throw Error(shown(file) + ": " + std::to_string(facts.size) + " bytes, over the limit of " +
                  std::to_string(max_bytes));
    return *facts.text;
  }

  NpyHeader npy_header(const std::string& file, const NpyLimits&) override {
    const FileFacts& facts = files_.at(file);
    if (facts.npy_error) throw *facts.npy_error;
    check_npy_size(*facts.npy, facts.size, shown(file));
    return *facts.npy;
  }

  JsonlStats jsonl_stats(const std::string& file, const ResourceLimits& limits) override {
    const FileFacts& facts = files_.at(file);
    if (facts.jsonl_error) throw *facts.jsonl_error;
    JsonlStats stats;
    stats.lines = facts.lines;
    if (facts.first_line)
      stats.first = parse_json(*facts.first_line, shown(file) + " line 1", JsonLimits{limits.max_json_depth});
    return stats;
  }

  MemberSource source(const std::string& file) override {
    stream_->want(file);
    return SequentialMemberSource{stream_, file};
  }

 private:
  std::string shown(const std::string& file) const { return archive_ + ": '" + printable_name(file) + "'"; }

  /// Read what planning may need of the current entry into `facts`; returns its size. The
  /// JSON members are kept whole; any other file is looked at as an .npy (its header) and as
  /// JSON lines (its line count and first line) at once, until it is clearly neither or its
  /// header is read: the rest of an .npy is skipped.
  std::uint64_t learn(EntryWalker& walker, const CheckedEntry& e, FileFacts& facts) {
    const std::string what = shown(e.name);
    if (e.name == kMainMember || e.name == kMetaMember) {
      if (e.size && *e.size > limits_.max_json_bytes) return *e.size;
      std::string text;
      const std::uint64_t size = walker.read([&](std::string_view chunk) {
        if (text.size() + chunk.size() > limits_.max_json_bytes) return false;
        text += chunk;
        return true;
      });
      if (size == text.size()) facts.text = std::move(text);
      return e.size ? *e.size : size;
    }
    NpyHeaderCollector npy(NpyLimits{limits_.max_npy_header_bytes});
    JsonlLineSplitter lines(
        [&](std::uint64_t index, std::string_view line) {
          if (index == 0) facts.first_line = std::string(line);
          return true;
        },
        limits_.max_jsonl_line_bytes, what, limits_.max_jsonl_rows);
    bool npy_open = true, lines_open = true;
    // Errors are kept, not thrown: each matters only if the plan uses the file that way.
    const auto as_npy = [&](std::string_view chunk, bool end) {
      try {
        if (end) {
          npy.finish();
        } else {
          npy.feed(chunk);
        }
        if (npy.header()) {
          facts.npy = *npy.header();
          facts.jsonl_error = Error(what + ": an .npy file, not JSON lines");
          lines_open = false;
        } else if (end) {
          facts.npy_error = Error(what + ": not an .npy file");
        }
      } catch (const Error& err) {  // context: the file joins the message
        facts.npy_error = Error(what + ": " + err.what());
      }
      npy_open = npy_open && !end && !facts.npy && !facts.npy_error;
    };
    const auto as_lines = [&](std::string_view chunk, bool end) {
      try {
        if (end) {
          lines.finish();
          facts.lines = lines.lines();
        } else {
          lines.feed(chunk);
        }
      } catch (const Error& err) {  // the splitter's errors name the file
        facts.jsonl_error = err;
      }
      lines_open = lines_open && !end && !facts.jsonl_error;
    };
    const std::uint64_t size = walker.read([&](std::string_view chunk) {
      if (npy_open) as_npy(chunk, false);
      if (lines_open) as_lines(chunk, false);
      return npy_open || lines_open || !e.size;  // a size not declared is counted to the end
    });
    if (npy_open) as_npy({}, true);
    if (lines_open) as_lines({}, true);
    return e.size ? *e.size : size;
  }

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, FileFacts> files_;
  std::vector<std::string> notes_;
  std::shared_ptr<ArchiveStream> stream_;
};

}  // namespace

bool is_libarchive_input(const std::string& path) {
  for (const char* ext :
       {".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2", ".tbz2", ".7z", ".cpio"})
    if (path.ends_with(ext)) return true;
  return false;
}

std::unique_ptr<PackTree> scan_archive(const std::string& archive, const ResourceLimits& limits) {
  return std::make_unique<ArchiveTree>(archive, limits);
}

}  // namespace zanj
