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
#include "object/tree_json.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zip/member_name.hpp"

namespace zanj {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

/// libarchive's reader, freed on every path out.
struct Reader {
  ::archive* a = nullptr;
  Reader() = default;
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
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

/// Members met before their turn, kept in one unnamed temporary file until it comes.
class MemberSpool {
 public:
  bool has(const std::string& name) const { return ranges_.count(name) != 0; }
  /// Keep member `name`: `fill` streams its bytes to the sink it is given.
  void add(const std::string& name, const std::function<void(const ChunkSink&)>& fill) {
    if (!file_) file_ = std::make_unique<SpoolFile>();
    const std::uint64_t offset = file_->size();
    fill([&](std::string_view chunk) {
      file_->append(chunk);
      return true;
    });
    ranges_[name] = Range{offset, file_->size() - offset};
  }
  /// Stream member `name` (has()) to `sink`, once.
  void read(const std::string& name, const ChunkSink& sink) {
    const auto it = ranges_.find(name);
    const Range range = it->second;
    ranges_.erase(it);
    const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
    for (std::uint64_t done = 0; done < range.size;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, range.size - done));
      file_->read_at(range.offset + done, buffer.get(), n);
      if (!sink(std::string_view(buffer.get(), n))) return;
      done += n;
    }
  }

 private:
  struct Range {
    std::uint64_t offset = 0, size = 0;
  };
  std::unique_ptr<SpoolFile> file_;
  std::map<std::string, Range> ranges_;
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
    if (spool_.has(name)) return spool_.read(name, sink);
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
      spool_.add(e->name, [&](const ChunkSink& to) { copy(*e, known->second, to); });
      wanted_.erase(e->name);
    }
  }

 private:
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

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, std::uint64_t> sizes_;  ///< every regular file the first pass saw
  std::set<std::string> wanted_;                ///< members not yet read
  std::optional<EntryWalker> walker_;
  MemberSpool spool_;
};

/// What a pass keeps of one regular file.
struct FileFacts {
  std::uint64_t size = 0;
  std::optional<std::string> text;  ///< __zanj__.json and __zanj_meta__.json, within max_json_bytes
  std::optional<NpyHeader> npy;
  std::optional<Error> npy_error;  ///< why it is no .npy
  std::uint64_t lines = 0;
  std::optional<std::string> first_line;
  std::optional<Error> jsonl_error;  ///< why it is no JSON lines
};

/// Looks at a file's bytes as they pass, as an .npy (its header) and as JSON lines (its line
/// count and first line) at once, until it is clearly neither or its header is read. Errors
/// are kept, not thrown: each matters only if the plan uses the file that way.
class FactsReader {
 public:
  FactsReader(std::string what, const ResourceLimits& limits, FileFacts& facts)
      : what_(std::move(what)),
        facts_(facts),
        npy_(NpyLimits{limits.max_npy_header_bytes}),
        lines_(
            [this](std::uint64_t index, std::string_view line) {
              if (index == 0) facts_.first_line = std::string(line);
              return true;
            },
            limits.max_jsonl_line_bytes, what_, limits.max_jsonl_rows) {}

  /// Whether more bytes would tell it anything.
  bool open() const { return npy_open_ || lines_open_; }
  void feed(std::string_view chunk) {
    if (npy_open_) as_npy(chunk, false);
    if (lines_open_) as_lines(chunk, false);
  }
  /// The file ended (all of it was fed).
  void finish() {
    if (npy_open_) as_npy({}, true);
    if (lines_open_) as_lines({}, true);
  }

 private:
  void as_npy(std::string_view chunk, bool end) {
    try {
      if (end) {
        npy_.finish();
      } else {
        npy_.feed(chunk);
      }
      if (npy_.header()) {
        facts_.npy = *npy_.header();
        facts_.jsonl_error = Error(what_ + ": an .npy file, not JSON lines");
        lines_open_ = false;
      } else if (end) {
        facts_.npy_error = Error(what_ + ": not an .npy file");
      }
    } catch (const Error& err) {  // context: the file joins the message
      facts_.npy_error = Error(what_ + ": " + err.what());
    }
    npy_open_ = npy_open_ && !end && !facts_.npy && !facts_.npy_error;
  }
  void as_lines(std::string_view chunk, bool end) {
    try {
      if (end) {
        lines_.finish();
        facts_.lines = lines_.lines();
      } else {
        lines_.feed(chunk);
      }
    } catch (const Error& err) {  // the splitter's errors name the file
      facts_.jsonl_error = err;
    }
    lines_open_ = lines_open_ && !end && !facts_.jsonl_error;
  }

  std::string what_;
  FileFacts& facts_;
  NpyHeaderCollector npy_;
  JsonlLineSplitter lines_;
  bool npy_open_ = true, lines_open_ = true;
};

/// What a pass over the archive learns, entry by entry, and the checks on the whole.
class Scan {
 public:
  Scan(std::string archive, const ResourceLimits& limits) : archive_(std::move(archive)), limits_(limits) {}

  /// Learn the current entry `e` of `walker`. `copy`, when given, gets all of its bytes too
  /// (a member written as it is read); otherwise only what planning needs is read, and the
  /// rest of an .npy is skipped.
  void take(EntryWalker& walker, const CheckedEntry& e, const ChunkSink* copy = nullptr) {
    if (e.directory) {
      folders_.insert(e.name);
      return;
    }
    if (sizes_.count(e.name)) throw Error(e.shown + " appears twice; nothing packed", Exit::invalid);
    const std::size_t slash = e.name.rfind('/');
    if (is_leftover_temp_name(slash == std::string::npos ? e.name : e.name.substr(slash + 1))) {
      notes_.push_back("skipped '" + printable_name(e.name) + "', a temporary file left by an interrupted run");
      sizes_[e.name] = e.size ? *e.size : walker.read([](std::string_view) { return true; });
      return;
    }
    FileFacts& facts = files_[e.name];
    sizes_[e.name] = facts.size = learn(walker, e, facts, copy);
  }

  /// After the last entry: a folder holds no file of the same name (the archive must be a
  /// folder tree).
  void check_folders() const {
    const auto refuse = [&](const std::string& name) {
      throw Error(archive_ + ": '" + printable_name(name) + "' is both a file and a folder; nothing packed",
                  Exit::invalid);
    };
    for (const auto& [name, facts] : files_)
      for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
        if (files_.count(name.substr(0, slash))) refuse(name.substr(0, slash));
    for (const std::string& folder : folders_)
      if (files_.count(folder)) refuse(folder);
  }

  bool has(const std::string& name) const { return sizes_.count(name) != 0; }
  std::map<std::string, FileFacts>& files() { return files_; }
  const std::map<std::string, std::uint64_t>& sizes() const { return sizes_; }
  const std::vector<std::string>& notes() const { return notes_; }

 private:
  std::string shown(const std::string& file) const { return archive_ + ": '" + printable_name(file) + "'"; }

  std::uint64_t learn(EntryWalker& walker, const CheckedEntry& e, FileFacts& facts, const ChunkSink* copy) {
    if (!copy && (e.name == kMainMember || e.name == kMetaMember)) {
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
    FactsReader reader(shown(e.name), limits_, facts);
    bool whole = true;  // read to its end
    const std::uint64_t size = walker.read([&](std::string_view chunk) {
      if (reader.open()) reader.feed(chunk);
      if (copy) return (*copy)(chunk);
      whole = reader.open() || !e.size;  // a size not declared is counted to the end
      return whole;
    });
    if (whole) reader.finish();
    return e.size ? *e.size : size;
  }

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, FileFacts> files_;
  std::map<std::string, std::uint64_t> sizes_;  ///< every regular file, skipped ones too
  std::set<std::string> folders_;
  std::vector<std::string> notes_;
};

/// The archive as a folder, from a complete Scan; its sources read the archive again.
class ArchiveTree final : public PackTree {
 public:
  ArchiveTree(const std::string& archive, const ResourceLimits& limits, Scan& scan)
      : archive_(archive),
        limits_(limits),
        files_(std::move(scan.files())),
        notes_(scan.notes()),
        stream_(std::make_shared<ArchiveStream>(archive, limits, scan.sizes())) {}

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

  std::optional<NpyHeader> npy_header(const std::string& file, const NpyLimits&) override {
    const FileFacts& facts = files_.at(file);
    if (facts.npy_error) throw *facts.npy_error;
    check_npy_size(*facts.npy, facts.size, shown(file));
    return *facts.npy;
  }

  std::optional<JsonlStats> jsonl_stats(const std::string& file, const ResourceLimits& limits) override {
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

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, FileFacts> files_;
  std::vector<std::string> notes_;
  std::shared_ptr<ArchiveStream> stream_;
};

/// A whole pass of the archive, checked and learnt.
Scan scan_all(const std::string& archive, const ResourceLimits& limits) {
  EntryWalker walker(archive, limits);
  Scan scan(archive, limits);
  while (const std::optional<CheckedEntry> e = walker.next()) scan.take(walker, *e);
  scan.check_folders();
  return scan;
}

/// Whether two plans write the same archive (but for the meta's timestamp).
bool same_archive(const PackPlan& a, const PackPlan& b) {
  if (a.method != b.method || a.members.size() != b.members.size()) return false;
  for (std::size_t i = 0; i < a.members.size(); ++i)
    if (a.members[i].name != b.members[i].name) return false;
  const auto root_text = [](const PackPlan& p) { return p.root_text ? *p.root_text : zanj_json_text(p.root); };
  if (root_text(a) != root_text(b)) return false;
  Json meta = b.meta;
  if (const Json* stamp = a.meta.find("timestamp"); stamp && meta.is_object())
    for (auto& [key, value] : meta.as_object())
      if (key == "timestamp") value = *stamp;
  return zanj_json_text(meta) == zanj_json_text(a.meta);
}

/// The members of every reference in `json`, and the keys of its externals_info.
void add_referenced(const Json& json, std::map<std::string, std::uint64_t>& files) {
  for (const Reference& ref : collect_references(json)) files.emplace(ref.node.member(), 0);
  if (const Json* info = json.find("externals_info"); info && info->is_object())
    for (const auto& [member, entry] : info->as_object()) files.emplace(member, 0);
}

/// One pass: the members are written as the archive reaches them, from a plan made once
/// __zanj__.json and the meta have been read, taking the object's nodes and the meta's entries
/// at their word (the .npy headers and line counts of files not read yet are not known). Files
/// the archive holds before the two JSON members, and members it holds before their turn, are
/// spooled (MemberSpool) until then: none when it holds them in the plan's order, as `zanj
/// export` writes it. Every entry is still checked and learnt as it passes; once the members
/// are written, the rest of the archive is, and the plan made from all of it must be the one
/// written, else that plan is written instead (a second pass): an .npy edited since, a file
/// the plan lacks.
class OnePass final : public SequentialMembers {
 public:
  OnePass(const std::string& archive, const PackSettings& settings)
      : archive_(archive), settings_(settings), walker_(archive, settings.limits), scan_(archive, settings.limits) {}

  /// The plan, once the archive's two JSON members are read (files before them spooled);
  /// nothing when it holds no readable __zanj__.json (two passes then say what is wrong).
  std::optional<PackPlan> plan(const std::shared_ptr<OnePass>& self) {
    const auto seen = [&](std::string_view name) { return scan_.has(std::string(name)); };
    for (advance(); pending_ && !(seen(kMainMember) && seen(kMetaMember)); advance()) spool_pending();
    const auto main = scan_.files().find(std::string(kMainMember));
    if (main == scan_.files().end() || !main->second.text) return std::nullopt;
    const auto meta = scan_.files().find(std::string(kMetaMember));
    try {
      const JsonLimits limits{settings_.limits.max_json_depth};
      std::map<std::string, std::uint64_t> files;
      for (const auto& [name, facts] : scan_.files()) files.emplace(name, facts.size);  // read so far
      add_referenced(parse_json(*main->second.text, archive_, limits), files);
      if (meta != scan_.files().end() && meta->second.text) {
        files.emplace(meta->first, 0);
        add_referenced(parse_json(*meta->second.text, archive_, limits), files);
      }
      HeadTree tree(archive_, std::move(files), scan_.files(), self);
      return plan_repack(tree, settings_);
    } catch (const Error&) {  // two passes say what is wrong, with every check
      return std::nullopt;
    }
  }

  /// `name` will be asked for (a member of the plan).
  void want(const std::string& name) { wanted_.insert(name); }

  void read(const std::string& name, const ChunkSink& sink) override {
    if (diverged_) return;
    if (spool_.has(name)) return spool_.read(name, sink);
    for (; pending_; advance()) {
      if (pending_->name == name) {
        scan_.take(walker_, *pending_, &sink);
        wanted_.erase(name);
        advance();
        return;
      }
      if (wanted_.count(pending_->name)) {
        spool_pending();
      } else {
        scan_.take(walker_, *pending_);  // a file the plan lacks: it proves the plan wrong
      }
    }
    diverged_ = true;  // asked for twice, or not in the archive: the plan is wrong, written again
  }

  /// After the members are written: the rest of the archive, and the plan all of it makes.
  PlanCheck recheck(const PackPlan& written) {
    for (; pending_; pending_ = walker_.next()) scan_.take(walker_, *pending_);
    scan_.check_folders();
    ArchiveTree tree(archive_, settings_.limits, scan_);
    PackPlan real = plan_repack(tree, settings_);
    if (!diverged_ && same_archive(written, real)) return {nullptr, real.known_bytes()};
    return {std::make_shared<const PackPlan>(std::move(real)), 0};
  }

 private:
  /// The archive's first entries, for the plan: __zanj__.json, the meta, and nothing known of the rest.
  class HeadTree final : public PackTree {
   public:
    HeadTree(const std::string& archive, std::map<std::string, std::uint64_t> files,
             const std::map<std::string, FileFacts>& seen, std::shared_ptr<OnePass> pass)
        : archive_(archive), files_(std::move(files)), seen_(seen), pass_(std::move(pass)) {}
    const std::string& name() const override { return archive_; }
    bool has_main() const override { return true; }
    std::map<std::string, std::uint64_t> files(std::vector<std::string>&) override { return files_; }
    std::string text(const std::string& file, std::uint64_t max_bytes) override {
      const FileFacts& facts = seen_.at(file);
      if (!facts.text || facts.size > max_bytes) throw Error(archive_ + ": '" + file + "' is over the limit");
      return *facts.text;
    }
    std::optional<NpyHeader> npy_header(const std::string&, const NpyLimits&) override { return std::nullopt; }
    std::optional<JsonlStats> jsonl_stats(const std::string&, const ResourceLimits&) override { return std::nullopt; }
    MemberSource source(const std::string& file) override {
      pass_->want(file);
      return SequentialMemberSource{pass_, file};
    }

   private:
    const std::string& archive_;
    std::map<std::string, std::uint64_t> files_;
    const std::map<std::string, FileFacts>& seen_;
    std::shared_ptr<OnePass> pass_;
  };

  /// Learn the pending file and keep its bytes until its turn.
  void spool_pending() {
    const CheckedEntry e = *pending_;
    spool_.add(e.name, [&](const ChunkSink& to) { scan_.take(walker_, e, &to); });
    wanted_.erase(e.name);
  }

  /// Move past folders, the JSON members and skipped files (learnt) to the next other file.
  void advance() {
    for (; (pending_ = walker_.next()); scan_.take(walker_, *pending_)) {
      if (pending_->directory || pending_->name == kMainMember || pending_->name == kMetaMember) continue;
      const std::size_t slash = pending_->name.rfind('/');
      if (!is_leftover_temp_name(slash == std::string::npos ? pending_->name : pending_->name.substr(slash + 1)))
        return;
    }
  }

  std::string archive_;
  PackSettings settings_;
  EntryWalker walker_;
  Scan scan_;
  std::optional<CheckedEntry> pending_;  ///< the next file to write, its data not read yet
  std::set<std::string> wanted_;         ///< members of the plan not yet read
  MemberSpool spool_;
  bool diverged_ = false;  ///< a member was asked for that the archive did not hold then
};

}  // namespace

bool is_libarchive_input(const std::string& path) {
  for (const char* ext :
       {".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2", ".tbz2", ".7z", ".cpio"})
    if (path.ends_with(ext)) return true;
  return false;
}

std::unique_ptr<PackTree> scan_archive(const std::string& archive, const ResourceLimits& limits) {
  Scan scan = scan_all(archive, limits);
  return std::make_unique<ArchiveTree>(archive, limits, scan);
}

PackPlan plan_archive(const std::string& archive, const PackSettings& settings) {
  const auto pass = std::make_shared<OnePass>(archive, settings);
  if (std::optional<PackPlan> plan = pass->plan(pass)) {
    plan->recheck = [pass](const PackPlan& written) { return pass->recheck(written); };
    return std::move(*plan);
  }
  const std::unique_ptr<PackTree> tree = scan_archive(archive, settings.limits);
  return plan_repack(*tree, settings);
}

}  // namespace zanj
