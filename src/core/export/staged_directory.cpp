#include "export/staged_directory.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>

#include "io/temp_file.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"

namespace zanj::exporter {
namespace {

[[noreturn]] void staging_fail(const std::string& what) {
  throw Error(what + ": " + std::strerror(errno), Exit::usage);
}

void remove_tree(const std::string& path) noexcept {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);  // symlinks inside are removed, never followed
}

}  // namespace

void write_all(int fd, std::string_view bytes, const std::string& what) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      staging_fail(what);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

StagedDirectory::StagedDirectory(const std::string& out, bool replace) : out_(out), replace_(replace) {
  std::string trimmed = out;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  const std::size_t slash = trimmed.rfind('/');
  parent_ = slash == std::string::npos ? "." : (slash == 0 ? "/" : trimmed.substr(0, slash));
  leaf_ = slash == std::string::npos ? trimmed : trimmed.substr(slash + 1);
  if (leaf_.empty() || leaf_ == "." || leaf_ == "..")
    throw Error(out + ": not a directory name to create", Exit::usage);
  parent_fd_ = open_user_directory(parent_, CreateDirs::yes);
  if (entry_type_at(parent_fd_.get(), leaf_) != EntryType::missing && !replace)
    throw Error(terminal_safe(out) + ": already exists (--force replaces it)", Exit::usage);
  for (int attempt = 0; attempt < 100 && !live_; ++attempt) {
    staging_ = "." + leaf_.substr(0, 200) + ".zanj-tmp-" + io::random_suffix();
    if (cleanup_.create(parent_fd_.get(), staging_))
      live_ = true;
    else if (errno != EEXIST)
      staging_fail("cannot create a directory beside '" + out + "'");
  }
  if (!live_) throw Error("cannot create a directory beside '" + out + "': too many name collisions", Exit::usage);
  const int fd = ::openat(parent_fd_.get(), staging_.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    const int saved = errno;
    ::unlinkat(parent_fd_.get(), staging_.c_str(), AT_REMOVEDIR);
    cleanup_.release();
    live_ = false;
    errno = saved;
    staging_fail("cannot open a directory beside '" + out + "'");
  }
  staging_fd_ = UniqueFd(fd);
}

StagedDirectory::~StagedDirectory() {
  if (live_) remove_tree(parent_ + "/" + staging_);
  cleanup_.release();
}

UniqueFd StagedDirectory::create_file(const std::string& name) {
  const std::size_t slash = name.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : name.substr(0, slash);
  const std::string leaf = slash == std::string::npos ? name : name.substr(slash + 1);
  const std::optional<UniqueFd> parent = io::open_below(staging_fd_.get(), dir, CreateDirs::yes);
  const int fd = ::openat(parent->get(), leaf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) staging_fail(out_ + "/" + name);
  return UniqueFd(fd);
}

void StagedDirectory::commit() {
  if (!live_) throw Error("internal: staged directory committed twice");
  int r = ::renameat2(parent_fd_.get(), staging_.c_str(), parent_fd_.get(), leaf_.c_str(), RENAME_NOREPLACE);
  if (r != 0 && errno == EEXIST && replace_) {
    // Move the old target aside first: a directory cannot be renamed over a non-empty one.
    const std::string old = "." + leaf_.substr(0, 200) + ".zanj-old-" + io::random_suffix();
    if (::renameat(parent_fd_.get(), leaf_.c_str(), parent_fd_.get(), old.c_str()) != 0)
      staging_fail("cannot move the existing '" + out_ + "' aside");
    r = ::renameat2(parent_fd_.get(), staging_.c_str(), parent_fd_.get(), leaf_.c_str(), RENAME_NOREPLACE);
    if (r != 0) {
      const int saved = errno;
      ::renameat(parent_fd_.get(), old.c_str(), parent_fd_.get(), leaf_.c_str());  // put it back
      errno = saved;
    } else {
      remove_tree(parent_ + "/" + old);
    }
  }
  if (r == 0) cleanup_.release();  // the name it had is gone; OUT is complete
  if (r != 0) {
    if (errno == EEXIST) throw Error(terminal_safe(out_) + ": already exists (--force replaces it)", Exit::usage);
    staging_fail("cannot rename into '" + out_ + "'");
  }
  live_ = false;
}

}  // namespace zanj::exporter
