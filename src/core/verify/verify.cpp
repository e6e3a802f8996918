// verify(): the three passes (ZIP structure, ZANJ consistency, member data) over one archive.
// The data pass inflates every member once, streaming, split over a ThreadPool: each thread runs
// its own Archive (reads are independent; the ByteSource is read with pread),
// and each member's findings go to its own slot, merged in directory order at the end so the
// report does not depend on scheduling.
#include "zanj/verify.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "source/input.hpp"
#include "base/thread_pool.hpp"
#include "verify/verify_checks.hpp"
#include "json/json_parse.hpp"
#include "zip/archive_access.hpp"
#include "zip/local_scan.hpp"
#include "object/zanj_file_access.hpp"

namespace zanj {
namespace {

using Role = verify::MemberPlan::Role;

/// A read failure is recorded per member; should a pass still stop early, each restart skips
/// the members already seen. Bounded so that a hostile archive cannot make us loop.
constexpr int kMaxPasses = 64;

/// Bytes inflated by all reading threads together, passed on to VerifyOptions::progress.
class SharedProgress {
 public:
  using Callback = std::function<void(std::uint64_t, std::uint64_t)>;
  SharedProgress(const Callback& callback, std::uint64_t total) : callback_(callback), total_(total) {}
  void add(std::uint64_t bytes) {
    if (!callback_) return;
    const std::lock_guard lock(mutex_);
    done_ += bytes;
    callback_(done_, total_);
  }

 private:
  const Callback& callback_;
  std::mutex mutex_;
  std::uint64_t done_ = 0;
  const std::uint64_t total_;
};

void add_counts(VerifyCounts& c, const VerifyCounts& d) {
  c.members_read += d.members_read, c.bytes_read += d.bytes_read, c.references += d.references;
  c.npy_members += d.npy_members, c.jsonl_members += d.jsonl_members, c.jsonl_rows += d.jsonl_rows;
  c.inline_arrays += d.inline_arrays;
}

/// What one group's members turned up: the counts, and the problems of each member that had
/// any, by entry index. Not one report per member: most have nothing to say, and on a
/// many-member archive a report per entry was megabytes.
struct GroupFindings {
  VerifyCounts counts;
  std::map<std::size_t, VerifyReport> problems;
  std::vector<verify::RowClaim> row_claims;                           ///< of reference nodes in .jsonl lines
  std::map<std::string, verify::RowTarget, std::less<>> row_targets;  ///< members those nodes refer to
};

/// Inflate one group's members through their value checks; findings go to `found`.
void read_group(const Archive& archive, const std::vector<const ZipEntry*>& group,
                const std::vector<verify::MemberPlan>& plans, const VerifyOptions& options, GroupFindings& found,
                SharedProgress& progress) {
  const ResourceLimits& limits = options.limits;
  const auto& entries = archive.entries();
  const auto index_of = [&](const ZipEntry& e) { return static_cast<std::size_t>(&e - entries.data()); };
  // A member's findings: counts into the group's, problems kept under its index.
  const auto keep = [&](std::size_t index, VerifyReport&& member) {
    add_counts(found.counts, member.checked);
    member.checked = {};
    if (member.errors.empty() && member.warnings.empty() && member.code_counts.empty()) return;
    const auto [at, fresh] = found.problems.try_emplace(index, std::move(member));
    if (!fresh) verify::merge_report(at->second, member);
  };
  std::vector<const ZipEntry*> pending = group;
  std::string gave_up;  // why the last pass stopped early
  // Which entries a pass has reached, by index: a bit each (a hash set of 50,000 pointers
  // showed in the profile of verify).
  std::vector<bool> seen;
  for (int pass = 0; !pending.empty() && pass < kMaxPasses; ++pass) {
    seen.assign(entries.size(), false);
    std::vector<const ZipEntry*> missing;
    try {
      missing = zip::read_each_found(archive, pending, [&](const ZipEntry& e, const Archive::MemberReader& read) {
        seen[index_of(e)] = true;
        VerifyReport slot;
        verify::MemberValueCheck check(e, plans[index_of(e)], limits);
        const auto also = options.member_data ? options.member_data(e.python_name) : nullptr;
        try {
          read([&](std::string_view chunk) {
            check.feed(chunk);
            if (also) also(chunk);
            progress.add(chunk.size());
            return true;
          });
        } catch (const Error& err) {  // boundary: an unreadable member is a problem
          verify::add_read_failure(slot, e, err, archive.name());
          keep(index_of(e), std::move(slot));
          return;
        }
        ++slot.checked.members_read;
        slot.checked.bytes_read += e.uncompressed_size;
        check.finish(slot);
        auto& claims = check.row_claims();
        found.row_claims.insert(found.row_claims.end(), std::make_move_iterator(claims.begin()),
                                std::make_move_iterator(claims.end()));
        if (plans[index_of(e)].in_rows) found.row_targets.emplace(e.name, check.row_target());
        keep(index_of(e), std::move(slot));
      });
    } catch (const Error& err) {                 // boundary: a pass that breaks; the rest get another
      gave_up = err.message_in(archive.name());  // the report names the archive
      std::vector<const ZipEntry*> rest;
      for (const ZipEntry* e : pending)
        if (!seen[index_of(*e)]) rest.push_back(e);
      const bool got_further = rest.size() < pending.size();
      pending = std::move(rest);
      if (got_further) continue;
      break;
    }
    for (const ZipEntry* e : missing) {
      VerifyReport slot;
      verify::add_problem(slot, verify::Code::entry_unreadable, e->name, "",
                          "the ZIP reader does not present this entry");
      keep(index_of(*e), std::move(slot));
    }
    pending.clear();
  }
  for (const ZipEntry* e : pending) {
    VerifyReport slot;
    verify::add_problem(slot, verify::Code::entry_unreadable, e->name, "",
                        "not checked: the ZIP reader stopped before this member (" + gave_up + ")");
    keep(index_of(*e), std::move(slot));
  }
}

/// Every inflatable member not read already (the JSON members were), once.
void check_member_data(const Archive& archive, const std::vector<verify::MemberPlan>& plans,
                       const std::vector<bool>& inflatable, const VerifyOptions& options, VerifyReport& report) {
  const auto& entries = archive.entries();
  std::vector<const ZipEntry*> todo;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (inflatable[i] && plans[i].role != Role::main_json && plans[i].role != Role::meta_json) {
      todo.push_back(&entries[i]);
      total += entries[i].uncompressed_size;  // inflatable: their sum is within --max-total-bytes
    }
  SharedProgress progress(options.progress, total);
  const unsigned threads = base::threads_or_cpus(options.threads);
  const auto groups = zip::split_for_threads(std::move(todo), threads, 1);
  std::vector<GroupFindings> found(groups.size());
  {
    // The calling thread reads the first group; an exception from another (e.g. out of
    // memory) is rethrown here by wait(), and the pool's destructor waits for the rest
    // should the first group throw.
    std::optional<base::ThreadPool> pool;
    if (groups.size() > 1) pool.emplace(static_cast<unsigned>(groups.size() - 1));
    for (std::size_t g = 1; g < groups.size(); ++g)
      pool->submit([&, g] { read_group(archive, groups[g], plans, options, found[g], progress); });
    read_group(archive, groups[0], plans, options, found[0], progress);
    if (pool) pool->wait();
  }
  // Merged in directory order, as if every member had its own report.
  std::vector<std::pair<std::size_t, const VerifyReport*>> problems;
  VerifyReport counts;
  for (const GroupFindings& g : found) {
    for (const auto& [index, part] : g.problems) problems.emplace_back(index, &part);
    add_counts(counts.checked, g.counts);
  }
  std::sort(problems.begin(), problems.end());
  for (const auto& [index, part] : problems) verify::merge_report(report, *part);
  verify::merge_report(report, counts);
  // The claims of reference nodes in .jsonl lines, against the members they name, wherever
  // each was read; sorted, so that the report does not depend on how the members were split.
  std::vector<verify::RowClaim> claims;
  std::map<std::string, verify::RowTarget, std::less<>> targets;
  for (GroupFindings& g : found) {
    claims.insert(claims.end(), std::make_move_iterator(g.row_claims.begin()),
                  std::make_move_iterator(g.row_claims.end()));
    targets.merge(g.row_targets);
  }
  std::sort(claims.begin(), claims.end(), [](const verify::RowClaim& a, const verify::RowClaim& b) {
    return std::tie(a.path, a.member) < std::tie(b.path, b.member);
  });
  verify::check_row_claims(claims, targets, report);
}

/// What `zanj extract --salvage` would recover from an archive whose directory cannot be read:
/// the members its local headers lead to, complete (their CRC-32 is checked only when read).
std::string salvage_note(const io::ByteSource& source, const ResourceLimits& limits) {
  const zip::LocalScan scan =
      zip::scan_local_headers(source, zip::LocalScanLimits{limits.max_entries, limits.max_ratio});
  if (scan.entries.empty()) return "";  // nothing to recover: chance signatures in a file that is no ZIP
  return "; zanj extract --salvage would recover " + std::to_string(scan.entries.size()) + " complete member" +
         (scan.entries.size() == 1 ? "" : "s") + " of the " + std::to_string(scan.entries.size() + scan.lost.size()) +
         " found by their local headers";
}

/// The checks of an opened archive: its ZIP structure, both documents (`documents` may give
/// them parsed already) and every member's data.
void verify_opened(const Archive& archive, verify::ZanjDocuments& documents, const VerifyOptions& options,
                   VerifyReport& report) {
  report.checked.members = archive.entries().size();
  // No ratio refusal: a member of any ratio is streamed, bounded by its declared size, which
  // check_sizes held to --max-member-bytes (check_entry warns above --max-ratio).
  const unsigned threads = base::threads_or_cpus(options.threads);
  const verify::ZipStructure zip = verify::check_zip_structure(
      zip::archive_source(archive), zip::archive_directory(archive), options.limits, threads, report);
  // `documents` outlives the plans, which point into it.
  const auto plans =
      verify::check_zanj_consistency(archive, zip.inflatable, options.limits, threads, documents, report);
  // A .jsonl line is parsed while both documents are loaded, by up to --jobs threads at once:
  // each line gets half of what the documents left of --max-json-values (as in diff), so the
  // verdict does not depend on -j (a larger -j may hold more lines at once).
  VerifyOptions data_options = options;
  std::uint64_t held = 0;
  for (const JsonDocument* document : {documents.main, documents.meta})
    if (document) held += document->values();
  data_options.limits.max_json_values =
      (options.limits.max_json_values - std::min(options.limits.max_json_values, held)) / 2;
  check_member_data(archive, plans, zip.inflatable, data_options, report);
  zip::archive_source(archive).rethrow_failure();  // a URL that failed is no verdict on the archive
  verify::finish_report(report);
  report.transfer = archive.transfer();
}

VerifyReport verify_source(std::unique_ptr<io::ByteSource> source, const std::string& name,
                           const VerifyOptions& options) {
  VerifyReport report;
  report.file = name;
  zip::ZipDirectory directory;
  const auto unreadable = [&](verify::Code code, const Error& e) {
    source->rethrow_failure();  // a URL that failed is no verdict on the archive
    verify::add_problem(report, code, "", "", e.what() + salvage_note(*source, options.limits));
    verify::finish_report(report);
    report.transfer = source->transfer();
    return report;
  };
  try {
    directory = zip::read_zip_directory(*source, zip::ZipLimits{options.limits.max_entries});
  } catch (const zip::DirectoryError& e) {  // boundary: an unreadable directory is a problem
    return unreadable(verify::directory_fault_code(e.fault()), e);
  } catch (const Error& e) {             // boundary: so is one whose bytes end too soon
    if (e.exit() == Exit::usage) throw;  // the file could not be read at all
    return unreadable(verify::Code::eocd_inconsistent, e);
  }
  const Archive archive = zip::open_archive(std::move(source), name, std::move(directory), options.limits);
  verify::ZanjDocuments documents;
  verify_opened(archive, documents, options, report);
  return report;
}

}  // namespace

VerifyReport verify_file(const std::string& path, const VerifyOptions& options) {
  return verify_source(source::open_input(path, options.remote), input_display_name(path), options);
}

VerifyReport verify_zanj_file(const ZanjFile& file, const VerifyOptions& options) {
  const Archive& archive = file.archive();
  VerifyReport report;
  report.file = archive.name();
  // The directory was read without verify's entry limit: held to it here, as verify_file's
  // reading would.
  if (const std::uint64_t count = archive.entries().size(); count > options.limits.max_entries) {
    verify::add_problem(report, verify::Code::too_many_entries, "", "",
                        "archive claims " + std::to_string(count) + " entries, more than the limit of " +
                            std::to_string(options.limits.max_entries) +
                            salvage_note(zip::archive_source(archive), options.limits));
    verify::finish_report(report);
    report.transfer = archive.transfer();
    return report;
  }
  const auto& opened = PrivateAccess::impl(file);
  verify::ZanjDocuments documents;
  documents.given_main = verify::ParsedMember{&opened.root, &opened.root_notes};
  if (opened.meta) documents.given_meta = verify::ParsedMember{&*opened.meta, &opened.meta_notes};
  verify_opened(archive, documents, options, report);
  return report;
}

VerifyReport verify_bytes(std::string bytes, const std::string& name, const VerifyOptions& options) {
  return verify_source(std::make_unique<io::MemorySource>(std::move(bytes)), name, options);
}

}  // namespace zanj
