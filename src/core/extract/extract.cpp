// Writing what plan_extract accepted: the members split over --jobs threads, each thread one
// pass through the archive (reads are independent: the byte source is read with pread), each
// member to a temporary file in its own directory, renamed into place once complete and checked.
#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_set>

#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "base/thread_pool.hpp"
#include "zip/member_name.hpp"
#include "io/temp_file.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

/// Opens (creating) the member's directory, reusing the last one: members of one directory
/// usually follow each other.
class DirectoryCache {
 public:
  explicit DirectoryCache(int root) : root_(root) {}
  int open(const std::string& parent) {
    if (!fd_ || parent != parent_) {
      fd_ = *io::open_below(root_, parent, CreateDirs::yes);
      parent_ = parent;
    }
    return fd_.get();
  }

 private:
  int root_;
  std::string parent_;
  UniqueFd fd_;
};

/// An error's message without the archive name the reader puts first (the caller names it).
std::string reason(const Archive& archive, const Error& err) {
  const std::string what = err.what();
  const std::string prefix = archive.name() + ": ";
  return what.rfind(prefix, 0) == 0 ? what.substr(prefix.size()) : what;
}

/// What every thread shares: the progress it reports, under one lock.
class SharedState {
 public:
  SharedState(const std::function<void(const ExtractProgress&)>& progress, std::uint64_t members, std::uint64_t bytes)
      : progress_(progress) {
    state_.members_total = members;
    state_.bytes_total = bytes;
  }
  void add(std::uint64_t bytes, std::uint64_t members) {
    if (!progress_) return;
    const std::lock_guard lock(mutex_);
    state_.bytes_done += bytes;
    state_.members_done += members;
    progress_(state_);
  }

 private:
  const std::function<void(const ExtractProgress&)>& progress_;
  std::mutex mutex_;
  ExtractProgress state_;
};

/// One thread's share of the members: written in one pass through the archive, each to a
/// temporary file in its directory, renamed into place once complete and checked.
class GroupWriter {
 public:
  GroupWriter(const Archive& archive, int root, Replace replace, SharedState& shared)
      : archive_(archive), dirs_(root), replace_(replace), shared_(shared) {}

  void run(const std::vector<const ZipEntry*>& files) {
    std::unordered_set<const ZipEntry*> attempted;
    // One pass normally. If the pass itself breaks (the reader loses its place in a damaged
    // archive), the members it did not reach get another pass, until one makes no progress.
    for (;;) {
      std::vector<const ZipEntry*> remaining;
      for (const ZipEntry* e : files)
        if (!attempted.count(e)) remaining.push_back(e);
      if (remaining.empty()) break;
      const std::size_t before = attempted.size();
      try {
        archive_.read_each(remaining, [&](const ZipEntry& e, const Archive::MemberReader& read) {
          attempted.insert(&e);
          write_member(e, read);
        });
      } catch (const Error& err) {  // boundary: a pass that breaks; the rest get another
        if (attempted.size() == before) {
          for (const ZipEntry* e : remaining)
            failed.push_back({e, {zip::printable_name(e->name), reason(archive_, err)}});
          break;
        }
      }
    }
  }

  std::vector<const ZipEntry*> written;
  std::vector<std::pair<const ZipEntry*, RefusedMember>> failed;

 private:
  void write_member(const ZipEntry& e, const Archive::MemberReader& read) {
    const std::size_t slash = e.name.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : e.name.substr(0, slash);
    const std::string leaf = e.name.substr(slash == std::string::npos ? 0 : slash + 1);
    try {
      io::TempFile temp(dirs_.open(parent), leaf);
      // read() checks the size and CRC-32 after the last chunk and throws on a mismatch;
      // then `temp` is removed on the way out and nothing appears under the real name.
      read([&](std::string_view chunk) {
        temp.write(chunk);
        shared_.add(chunk.size(), 0);
        return true;
      });
      temp.commit(leaf, replace_);
      written.push_back(&e);
    } catch (const Error& err) {  // boundary: one member fails, the rest go on
      failed.push_back({&e, {zip::printable_name(e.name), reason(archive_, err)}});
    }
    shared_.add(0, 1);
  }

  const Archive& archive_;
  DirectoryCache dirs_;
  Replace replace_;
  SharedState& shared_;
};

ExtractResult extract_members(const Archive& archive, const ExtractPlan& plan, int root, Replace replace,
                              unsigned threads, const std::function<void(const ExtractProgress&)>& progress) {
  ExtractResult result;
  std::vector<const ZipEntry*> files;
  for (const ZipEntry* e : plan.members) {
    if (!e->is_directory()) {
      files.push_back(e);
      continue;
    }
    try {
      io::open_below(root, e->name, CreateDirs::yes);
    } catch (const Error& err) {  // boundary: one member fails, the rest go on
      result.failed.push_back({zip::printable_name(e->name), err.what()});
    }
  }
  SharedState shared(progress, files.size(), plan.total_bytes);
  const auto groups = zip::split_for_threads(files, threads, 512);  // a small member still costs its file
  std::vector<std::unique_ptr<GroupWriter>> writers;
  for (std::size_t g = 0; g < groups.size(); ++g)
    writers.push_back(std::make_unique<GroupWriter>(archive, root, replace, shared));
  {
    // The calling thread writes the first group. Parent directories are created as members
    // need them, by several threads at once: open_below takes a directory another thread
    // has just made as it finds it.
    std::optional<base::ThreadPool> pool;
    if (groups.size() > 1) pool.emplace(static_cast<unsigned>(groups.size() - 1));
    for (std::size_t g = 1; g < groups.size(); ++g) pool->submit([&, g] { writers[g]->run(groups[g]); });
    writers[0]->run(groups[0]);
    if (pool) pool->wait();
  }
  // The report lists members in storage order, whatever thread wrote them.
  std::vector<const ZipEntry*> written;
  std::vector<std::pair<const ZipEntry*, RefusedMember>> failed;
  for (const auto& w : writers) {
    written.insert(written.end(), w->written.begin(), w->written.end());
    failed.insert(failed.end(), w->failed.begin(), w->failed.end());
  }
  const auto in_storage_order = [](const ZipEntry* a, const ZipEntry* b) {
    return a->local_header_offset < b->local_header_offset;
  };
  std::sort(written.begin(), written.end(), in_storage_order);
  std::stable_sort(failed.begin(), failed.end(),
                   [&](const auto& a, const auto& b) { return in_storage_order(a.first, b.first); });
  for (const ZipEntry* e : written) result.written.push_back(e->name);
  for (auto& f : failed) result.failed.push_back(std::move(f.second));
  return result;
}

}  // namespace

ExtractResult write_extract(const Archive& archive, const ExtractPlan& plan, int root, Replace replace,
                            const std::function<void(const ExtractProgress&)>& progress, unsigned threads) {
  ExtractResult result = extract_members(archive, plan, root, replace, base::threads_or_cpus(threads), progress);
  zip::archive_source(archive).rethrow_failure();  // a URL that failed: exit 2, not members "refused"
  return result;
}

}  // namespace zanj
