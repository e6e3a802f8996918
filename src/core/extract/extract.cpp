// Writing what plan_extract accepted: one pass through the archive, each member to a
// temporary file in its own directory, renamed into place once complete and checked.
#include <algorithm>
#include <unordered_set>

#include "zanj/error.hpp"
#include "zanj/extract.hpp"
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
      fd_ = *open_below(root_, parent, CreateDirs::yes);
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

class Extractor {
 public:
  Extractor(const Archive& archive, int root, Replace replace,
            const std::function<void(const ExtractProgress&)>& progress)
      : archive_(archive), dirs_(root), root_(root), replace_(replace), progress_(progress) {}

  ExtractResult run(const ExtractPlan& plan) {
    std::vector<const ZipEntry*> files;
    for (const ZipEntry* e : plan.members) {
      if (e->is_directory()) {
        make_directory(*e);
      } else {
        files.push_back(e);
      }
    }
    state_.members_total = files.size();
    state_.bytes_total = plan.total_bytes;
    std::unordered_set<const ZipEntry*> attempted;
    // One pass normally. If the pass itself breaks (libarchive loses its place in a damaged
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
      } catch (const Error& err) {
        if (attempted.size() == before) {
          for (const ZipEntry* e : remaining) result_.failed.push_back({printable_name(e->name), reason(archive_, err)});
          break;
        }
      }
    }
    return std::move(result_);
  }

 private:
  void make_directory(const ZipEntry& e) {
    try {
      open_below(root_, e.name, CreateDirs::yes);
    } catch (const Error& err) {
      result_.failed.push_back({printable_name(e.name), err.what()});
    }
  }

  void write_member(const ZipEntry& e, const Archive::MemberReader& read) {
    const std::size_t slash = e.name.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : e.name.substr(0, slash);
    const std::string leaf = e.name.substr(slash == std::string::npos ? 0 : slash + 1);
    try {
      TempFile temp(dirs_.open(parent), leaf);
      // read() checks the size and CRC-32 after the last chunk and throws on a mismatch;
      // then `temp` is removed on the way out and nothing appears under the real name.
      read([&](std::string_view chunk) {
        temp.write(chunk);
        state_.bytes_done += chunk.size();
        report();
        return true;
      });
      temp.commit(leaf, replace_);
      result_.written.push_back(e.name);
    } catch (const Error& err) {
      result_.failed.push_back({printable_name(e.name), reason(archive_, err)});
    }
    ++state_.members_done;
    report();
  }

  void report() {
    if (progress_) progress_(state_);
  }

  const Archive& archive_;
  DirectoryCache dirs_;
  int root_;
  Replace replace_;
  const std::function<void(const ExtractProgress&)>& progress_;
  ExtractProgress state_;
  ExtractResult result_;
};

}  // namespace

ExtractResult write_extract(const Archive& archive, const ExtractPlan& plan, int root, Replace replace,
                            const std::function<void(const ExtractProgress&)>& progress) {
  ExtractResult result = Extractor(archive, root, replace, progress).run(plan);
  archive_source(archive).rethrow_failure();  // a URL that failed: exit 2, not members "refused"
  return result;
}

}  // namespace zanj
