#include "pack/archive_input.hpp"

#if defined(__GLIBC__)
#include <malloc.h>  // malloc_trim
#endif

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json/json_parse.hpp"
#include "array/dtype.hpp"
#include "json/json_document.hpp"
#include "pack/archive_scan.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/tree.hpp"
#include "zip/member_name.hpp"

namespace zanj::pack {
namespace {

using namespace archive_scan;

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
      if (!e) throw changed("'" + zip::printable_name(name) + "' is gone");
      if (e->directory) continue;
      const auto known = sizes_.find(e->name);
      if (known == sizes_.end()) throw changed("'" + zip::printable_name(e->name) + "' is new");
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
      if (done > size) throw changed("'" + zip::printable_name(e.name) + "' grew");
      return sink(chunk);
    });
    if (done != size) throw changed("'" + zip::printable_name(e.name) + "' shrank");
  }

  std::string archive_;
  ResourceLimits limits_;
  std::map<std::string, std::uint64_t> sizes_;  ///< every regular file the first pass saw
  std::set<std::string> wanted_;                ///< members not yet read
  std::optional<EntryWalker> walker_;
  MemberSpool spool_;
};

/// Names to be taken out one by one, the set fixed when it is made: one string of the names,
/// sorted, found by their offsets (a std::set of 50,000 member names was 4 MiB, held through
/// the write).
class NameSet {
 public:
  NameSet() = default;
  explicit NameSet(std::vector<std::string_view> names) {
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    std::size_t bytes = 0;
    for (std::string_view name : names) bytes += name.size();
    text_.reserve(bytes);
    starts_.reserve(names.size() + 1);
    for (std::string_view name : names) {
      starts_.push_back(text_.size());
      text_ += name;
    }
    starts_.push_back(text_.size());
    taken_.assign(names.size(), false);
  }

  bool has(std::string_view name) const {
    const std::size_t i = find(name);
    return i != kNone && !taken_[i];
  }
  /// Take `name` out, if it is in.
  void take(std::string_view name) {
    if (const std::size_t i = find(name); i != kNone) taken_[i] = true;
  }

 private:
  static constexpr std::size_t kNone = ~std::size_t{0};
  std::string_view at(std::size_t i) const {
    return std::string_view(text_).substr(starts_[i], starts_[i + 1] - starts_[i]);
  }
  std::size_t find(std::string_view name) const {
    std::size_t first = 0, count = taken_.size();
    while (count > 0) {  // the first name not less than `name`
      const std::size_t half = count / 2;
      if (at(first + half) < name) {
        first += half + 1;
        count -= half + 1;
      } else {
        count = half;
      }
    }
    return first < taken_.size() && at(first) == name ? first : kNone;
  }

  std::string text_;
  std::vector<std::size_t> starts_;  ///< where each name starts in text_, and its end
  std::vector<bool> taken_;
};

/// The archive as a folder, from a complete Scan, whose files and sizes it takes; its sources
/// read the archive again.
class ArchiveTree final : public PackTree {
 public:
  ArchiveTree(const std::string& archive, const ResourceLimits& limits, Scan& scan)
      : archive_(archive),
        limits_(limits),
        files_(std::move(scan.files())),
        notes_(scan.notes()),
        stream_(std::make_shared<ArchiveStream>(archive, limits, std::move(scan.sizes()))) {}

  const std::string& name() const override { return archive_; }
  bool has_main() const override { return files_.count(std::string(kMainMember)) != 0; }

  std::map<std::string, std::uint64_t> files(std::vector<std::string>& notes) override {
    notes.insert(notes.end(), notes_.begin(), notes_.end());
    std::map<std::string, std::uint64_t> out;
    for (const auto& [name, facts] : files_) out.emplace(name, facts.size);
    return out;
  }

  /// Hands the text over: plan_repack asks for each JSON member once, and a copy beside the
  /// scan's would be megabytes more while the plan is made.
  std::string text(const std::string& file, std::uint64_t max_bytes) override {
    FileFacts& facts = files_.at(file);
    if (facts.size > max_bytes || !facts.text)
      throw Error(shown(file) + ": " + std::to_string(facts.size) + " bytes, over the limit of " +
                  std::to_string(max_bytes));
    std::string text = std::move(*facts.text);
    facts.text.reset();
    return text;
  }

  std::optional<array::NpyHeader> npy_header(const std::string& file, const NpyLimits&) override {
    const FileFacts& facts = files_.at(file);
    if (facts.npy_error) throw *facts.npy_error;
    check_npy_size(*facts.npy, facts.size, shown(file));
    return *facts.npy;
  }

  std::optional<JsonlStats> jsonl_stats(const std::string& file, const ResourceLimits& limits) override {
    const FileFacts& facts = files_.at(file);
    if (facts.npy) throw Error(shown(file) + ": an .npy file, not JSON lines");
    if (facts.jsonl_error) throw *facts.jsonl_error;
    JsonlStats stats;
    stats.lines = facts.lines;
    if (facts.first_line)
      stats.first =
          json::parse_json(*facts.first_line, shown(file) + " line 1", json::JsonLimits{limits.max_json_depth});
    return stats;
  }

  MemberSource source(const std::string& file) override {
    stream_->want(file);
    return SequentialMemberSource{stream_};
  }

 private:
  std::string shown(const std::string& file) const { return archive_ + ": '" + zip::printable_name(file) + "'"; }

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

/// What a plan took the files it knew nothing of to hold (ExpectedFile), one record a
/// reference, kept compactly for each of thousands of files: the names, shapes and first
/// values one after another in pools, the JSON lines' counts apart from the .npy's dtypes (a
/// name, a vector and a string each were 144 bytes a file, then a name and both kinds' fields
/// 80, 4 MiB of the plan's peak on 50,000; now 40 and the name's bytes).
class Expectations {
 public:
  void reserve(std::size_t files) { records_.reserve(files); }
  void add(std::string_view file, const ExpectedFile& e) {
    Record r;
    r.name_at = names_.size();
    r.name_size = file.size();
    r.kind = e.kind;
    r.dtype = e.dtype;
    names_ += file;
    if (e.kind == ExpectedFile::Kind::lines) {
      r.at = static_cast<std::uint32_t>(lines_.size());
      lines_.push_back({e.lines, firsts_.size(), e.first.size(), e.has_first});
      firsts_ += e.first;
    } else {
      r.at = static_cast<std::uint32_t>(shapes_.size());
      r.rank = static_cast<std::uint32_t>(e.shape.size());
      shapes_.insert(shapes_.end(), e.shape.begin(), e.shape.end());
    }
    records_.push_back(r);
  }
  /// Orders them by file, for held(); once all are added.
  void sort() {
    std::stable_sort(records_.begin(), records_.end(),
                     [&](const Record& a, const Record& b) { return name(a) < name(b); });
  }
  /// Whether what was learnt of `file` holds what every expectation of it says: then the plan
  /// all of the archive makes places its references the same way, throwing nothing
  /// (ArchiveTree's npy_header and jsonl_stats would give what the plan took).
  bool held(std::string_view file, const FileFacts& facts, const ResourceLimits& limits) const {
    auto it = std::lower_bound(records_.begin(), records_.end(), file,
                               [&](const Record& r, std::string_view f) { return name(r) < f; });
    for (; it != records_.end() && name(*it) == file; ++it)
      if (!holds(facts, *it, limits)) return false;
    return true;
  }

 private:
  struct Record {
    std::size_t name_at = 0;  ///< its file's name in names_
    std::size_t name_size = 0;
    std::uint32_t at = 0;    ///< npy: its shape in shapes_; lines: its entry in lines_
    std::uint32_t rank = 0;  ///< npy
    ExpectedFile::Kind kind = ExpectedFile::Kind::unprovable;
    array::Dtype dtype;  ///< npy
  };
  struct Lines {
    std::uint64_t lines = 0;
    std::size_t first_at = 0, first_size = 0;  ///< data[0]'s text in firsts_
    bool has_first = false;
  };

  std::string_view name(const Record& r) const { return std::string_view(names_).substr(r.name_at, r.name_size); }

  bool holds(const FileFacts& facts, const Record& expected, const ResourceLimits& limits) const {
    switch (expected.kind) {
      case ExpectedFile::Kind::npy: {
        if (!facts.npy || facts.npy_error) return false;
        const array::NpyHeader& h = *facts.npy;
        const base::Result<std::uint64_t> bytes = h.checked_data_bytes();
        const auto shape = shapes_.begin() + expected.at;
        return bytes && facts.size == h.data_offset + *bytes &&
               std::equal(h.shape.begin(), h.shape.end(), shape, shape + expected.rank) &&
               array::dtypes_compatible(expected.dtype, h.dtype);
      }
      case ExpectedFile::Kind::lines: {
        const Lines& e = lines_[expected.at];
        if (facts.npy || facts.jsonl_error || facts.lines != e.lines) return false;
        if (!facts.first_line) return true;
        const base::Result<Json> first =
            json::read_json(*facts.first_line, "line 1", json::JsonLimits{limits.max_json_depth});
        return e.has_first && first && to_json(*first) == std::string_view(firsts_).substr(e.first_at, e.first_size);
      }
      case ExpectedFile::Kind::unprovable:
        break;
    }
    return false;
  }

  std::vector<Record> records_;
  std::string names_;
  std::vector<std::uint64_t> shapes_;
  std::vector<Lines> lines_;
  std::string firsts_;
};

/// The members of every reference in JSON `text`, and the keys of its externals_info. Read as
/// a document, not a tree (a tree of an object with 50,000 references is over 50 MB), and
/// walked, the references not collected (each one's node and path, megabytes more).
void add_referenced(const std::string& text, const std::string& what, const json::JsonLimits& limits,
                    std::map<std::string, std::uint64_t>& files) {
  const JsonDocument json = json::parse_document(std::string(text), what, limits);
  walk_tree(json.root(), {}, [&](const TreeVisit& v) {
    if (v.node.is_reference() || (v.node.array && v.node.array->external())) files.emplace(v.node.member(), 0);
    return true;
  });
  if (const JsonView info = json.root().find("externals_info"); info.is_object())
    for (auto [member, entry] : info.members()) files.emplace(std::string(member), 0);
}

/// Bytes of files an archive holds before its two JSON members that one pass spools: past
/// them it reads the archive twice instead, rather than fill $TMPDIR with an archive that may
/// have no __zanj__.json at all (it is known only at its end).
constexpr std::uint64_t kMaxSpoolBeforeJson = std::uint64_t{64} << 20;

/// One pass: the members are written as the archive reaches them, from a plan made once
/// __zanj__.json and the meta have been read, taking the object's nodes and the meta's entries
/// at their word (the .npy headers and line counts of files not read yet are not known). Files
/// the archive holds before the two JSON members, and members it holds before their turn, are
/// spooled (MemberSpool) until then: none when it holds them in the plan's order, as `zanj
/// export` writes it. Every entry is still checked and learnt as it passes; once the members
/// are written, the rest of the archive is, and the plan must prove right: every member found
/// in its turn, no file it lacks, and each file it took at its word holding what the plan took
/// it to (ExpectedFile, checked against what was learnt of it; no second plan is made, nor
/// the documents parsed again). Else the plan all of the archive makes (read again) is written
/// instead, in another pass: an .npy edited since, a file the plan lacks.
class OnePass final : public SequentialMembers {
 public:
  OnePass(const std::string& archive, const PackSettings& settings)
      : archive_(archive), settings_(settings), walker_(archive, settings.limits), scan_(archive, settings.limits) {}

  /// The plan, once the archive's two JSON members are read (files before them spooled, up to
  /// kMaxSpoolBeforeJson bytes); nothing when two passes are needed: files before the JSON past
  /// that, or a __zanj__.json that does not parse (two passes then say what is wrong). An
  /// archive without __zanj__.json is refused here, at its end: its files are learnt but no
  /// longer spooled once the spool holds that much, and it is not read a second time.
  std::optional<PackPlan> plan(const std::shared_ptr<OnePass>& self) {
    const auto seen = [&](std::string_view name) { return scan_.has(std::string(name)); };
    bool passed_over = false;  // a file's data went by unspooled: this pass cannot write it
    for (advance(); pending_ && !(seen(kMainMember) && seen(kMetaMember)); advance()) {
      if (spool_.bytes() + pending_->size.value_or(0) <= kMaxSpoolBeforeJson) {  // the size its header declares
        spool_pending();
      } else {
        scan_.take(walker_, *pending_);
        passed_over = true;
      }
    }
    const auto main = scan_.files().find(std::string(kMainMember));
    if (!pending_ && main == scan_.files().end()) {  // the whole archive is read: certain now
      scan_.check_folders();
      ArchiveTree tree(archive_, settings_.limits, scan_);
      return plan_repack(tree, settings_);  // throws: no __zanj__.json
    }
    if (passed_over || main == scan_.files().end() || !main->second.text) return std::nullopt;
    const auto meta = scan_.files().find(std::string(kMetaMember));
    try {
      const json::JsonLimits limits{settings_.limits.max_json_depth};
      std::map<std::string, std::uint64_t> files;
      for (const auto& [name, facts] : scan_.files()) files.emplace(name, facts.size);  // read so far
      const std::size_t read_so_far = files.size();
      expected_.reserve(files.size());
      add_referenced(*main->second.text, archive_, limits, files);
      if (meta != scan_.files().end() && meta->second.text) add_referenced(*meta->second.text, archive_, limits, files);
      // Some sizes are not known yet, so neither is the total (progress shows no share done).
      if (files.size() != read_so_far)
        for (auto& [name, size] : files) size = 0;
      HeadTree tree(archive_, std::move(files), scan_.files(), self);
      PackPlan plan = plan_repack(tree, settings_);
      // Made now, not as the plan places each member: the plan's peak need not hold it too.
      std::vector<std::string_view> members;
      members.reserve(plan.members.size());
      for (const PlannedMember& m : plan.members) members.push_back(m.name);
      wanted_ = NameSet(std::move(members));
      expected_.sort();
      // Files learnt before the plan are checked now (what is learnt of a file never changes);
      // each file learnt after it, as it is (settle).
      for (const auto& [name, facts] : scan_.files()) check_expected(name, facts);
      planned_ = true;
      return plan;
    } catch (const Error&) {  // boundary: an early plan is a shortcut; two passes say what is wrong
      return std::nullopt;
    }
  }

  void read(const std::string& name, const ChunkSink& sink) override {
    if (diverged_) return;
    if (spool_.has(name)) return spool_.read(name, sink);
    for (; pending_; advance()) {
      if (pending_->name == name) {
        scan_.take(walker_, *pending_, &sink);
        settle(name);
        wanted_.take(name);
        advance();
        return;
      }
      if (wanted_.has(pending_->name)) {
        spool_pending();
      } else {
        scan_.take(walker_, *pending_);
        lacking_ = true;  // a file the plan lacks: it proves the plan wrong
      }
    }
    diverged_ = true;  // asked for twice, or not in the archive: the plan is wrong, written again
  }

  /// After the members are written: the rest of the archive, and whether the plan proved right;
  /// else the plan all of it makes, from a second read (the JSON members' text went to the
  /// plan written).
  PlanCheck recheck(const PackPlan& written) {
    for (; pending_; advance()) {
      scan_.take(walker_, *pending_);
      lacking_ = true;  // every member is written: a file left is one the plan lacks
    }
    scan_.check_folders();
    if (proved_right()) {
      std::uint64_t known = 0;
      for (const PlannedMember& m : written.members) known += scan_.sizes().at(m.name);
      return {nullptr, known, scan_.notes()};
    }
    scan_ = Scan(archive_, settings_.limits);  // its facts are no longer needed
    const std::unique_ptr<PackTree> tree = scan_archive(archive_, settings_.limits);
    return {std::make_shared<const PackPlan>(plan_repack(*tree, settings_)), 0, {}};
  }

 private:
  /// The archive's first entries, for the plan: __zanj__.json, the meta, and nothing known of the rest.
  class HeadTree final : public PackTree {
   public:
    HeadTree(const std::string& archive, std::map<std::string, std::uint64_t> files,
             std::map<std::string, FileFacts>& seen, std::shared_ptr<OnePass> pass)
        : archive_(archive), files_(std::move(files)), seen_(seen), pass_(std::move(pass)) {}
    const std::string& name() const override { return archive_; }
    bool has_main() const override { return true; }
    /// Handed over: plan_repack asks once.
    std::map<std::string, std::uint64_t> files(std::vector<std::string>&) override { return std::move(files_); }
    /// Hands the text over: the plan is checked without it (proved_right), and a plan made
    /// again reads the archive again.
    std::string text(const std::string& file, std::uint64_t max_bytes) override {
      FileFacts& facts = seen_.at(file);
      if (!facts.text || facts.size > max_bytes) throw Error(archive_ + ": '" + file + "' is over the limit");
      std::string text = std::move(*facts.text);
      facts.text.reset();
      return text;
    }
    std::optional<array::NpyHeader> npy_header(const std::string&, const NpyLimits&) override { return std::nullopt; }
    std::optional<JsonlStats> jsonl_stats(const std::string&, const ResourceLimits&) override { return std::nullopt; }
    /// Every member of the plan is one: the pass learns which once the plan is made.
    MemberSource source(const std::string&) override { return SequentialMemberSource{pass_}; }
    void expect(const std::string& file, const ExpectedFile& expected) override {
      pass_->expected_.add(file, expected);
    }

   private:
    const std::string& archive_;
    std::map<std::string, std::uint64_t> files_;
    std::map<std::string, FileFacts>& seen_;
    std::shared_ptr<OnePass> pass_;
  };

  /// The plan made from the head of the archive is the one all of it makes: every member was
  /// found in its turn, the archive holds no file the plan lacks, and every file the plan took
  /// at its word holds what it was taken to. With the same file names and the same JSON text,
  /// plan_repack differs only by what npy_header and jsonl_stats give.
  bool proved_right() const { return !diverged_ && !lacking_ && !unproved_; }

  /// Whether `file` holds what the plan took it to: unproved_ when not.
  void check_expected(const std::string& file, const FileFacts& facts) {
    if (!expected_.held(file, facts, settings_.limits)) unproved_ = true;
  }

  /// Once the plan is made: check `file`, just learnt, then forget what was learnt of it (kept
  /// for each of thousands of files to the end, it was megabytes). A file the plan expects that
  /// the archive lacks is a member never found (diverged_).
  void settle(const std::string& file) {
    if (!planned_) return;
    const auto facts = scan_.files().find(file);
    if (facts == scan_.files().end()) return;
    check_expected(file, facts->second);
    scan_.forget(file);
  }

  /// Learn the pending file and keep its bytes until its turn.
  void spool_pending() {
    const CheckedEntry e = *pending_;
    spool_.add(e.name, [&](const ChunkSink& to) { scan_.take(walker_, e, &to); });
    settle(e.name);
    wanted_.take(e.name);
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
  NameSet wanted_;                       ///< members of the plan not yet read, once it is made
  MemberSpool spool_;
  bool diverged_ = false;  ///< a member was asked for that the archive did not hold then
  bool lacking_ = false;   ///< the archive holds a file the plan lacks
  bool planned_ = false;   ///< the plan is made: files learnt since are settled
  bool unproved_ = false;  ///< a file settled does not hold what the plan took it to
  /// What the plan took the files it knew nothing of to hold, by file once the plan is made.
  Expectations expected_;
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
    // What the head of the archive says is not worth a warning yet: the recheck's plan's notes are.
    plan->notes.clear();
    plan->recheck = [pass](const PackPlan& written) { return pass->recheck(written); };
    // The plan's working memory (the two documents, the lookup tables) is freed now, but glibc
    // keeps its pages (about 25 MiB of 71 on 50,000 members) in holes that writing's buffers
    // do not fit: handed back here, what writing allocates adds less to the peak (on a
    // 50,000-member tar, 77.6 -> 75.3 MiB).
    // One walk of the free lists per pack.
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
    return std::move(*plan);
  }
  const std::unique_ptr<PackTree> tree = scan_archive(archive, settings.limits);
  return plan_repack(*tree, settings);
}

}  // namespace zanj::pack
