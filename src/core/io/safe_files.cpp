#include "zanj/safe_files.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <random>

#include "zanj/error.hpp"
#include "io/temp_file.hpp"

namespace zanj {
namespace {

[[noreturn]] void fail(const std::string& what, Exit exit = Exit::usage) {
  throw Error(what + ": " + std::strerror(errno), exit);
}

// ---- interrupt cleanup: a fixed table the signal handler can read without locks ----------

constexpr int kSlots = 1024;  // one live temporary file per --jobs thread at most (1 to 1024)
constexpr std::size_t kNameMax = 255;
struct Slot {
  std::atomic<int> dir{-1};  ///< -1 free, -2 being filled, else the directory fd
  bool tree = false;         ///< a directory, removed with all it holds (export's staging directory)
  char name[kNameMax + 1] = {};
};
Slot g_slots[kSlots];

int claim_slot(int dir, const std::string& name, bool tree = false) {
  for (int i = 0; i < kSlots; ++i) {
    int expected = -1;
    if (g_slots[i].dir.compare_exchange_strong(expected, -2)) {
      std::snprintf(g_slots[i].name, sizeof g_slots[i].name, "%s", name.c_str());
      g_slots[i].tree = tree;
      g_slots[i].dir.store(dir);
      return i;
    }
  }
  return -1;  // table full: the file is still removed by the destructor, just not on a signal
}

void release_slot(int slot) {
  if (slot >= 0) g_slots[slot].dir.store(-1);
}

/// Set by the signal handler: no temporary file may be created any more (TempFile waits).
std::atomic<bool> g_dying{false};

bool is_dot_or_dotdot(const char* name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/// `name` in `dir` and, for a directory, everything below it; only async-signal-safe calls
/// (openat, getdents64, unlinkat, close), never following a symlink. Each directory is read
/// again from its start until a pass finds nothing left, since entries removed while reading
/// may make the kernel skip others.
void remove_tree_at(int dir, const char* name, int depth) {
  if (::unlinkat(dir, name, 0) == 0 || errno == ENOENT) return;  // a file, or gone
  const int fd = depth < 128 ? ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
  if (fd >= 0) {
    alignas(8) char buffer[2048];
    for (int pass = 0; pass < 16; ++pass) {
      bool found = false;
      ::lseek(fd, 0, SEEK_SET);
      for (long n; (n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer)) > 0;) {
        for (long at = 0; at < n;) {
          const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
          at += entry->d_reclen;
          if (is_dot_or_dotdot(entry->d_name)) continue;
          found = true;
          remove_tree_at(fd, entry->d_name, depth + 1);
        }
      }
      if (!found) break;
    }
    ::close(fd);
  }
  ::unlinkat(dir, name, AT_REMOVEDIR);
}

void remove_registered_files() {
  for (Slot& s : g_slots) {
    const int dir = s.dir.load();
    if (dir < 0) continue;
    if (s.tree)
      remove_tree_at(dir, s.name, 0);
    else
      ::unlinkat(dir, s.name, 0);
  }
}

/// InterruptDeferral: how many are alive, and the signal that came meanwhile (0: none).
std::atomic<int> g_deferrals{0};
std::atomic<int> g_pending_signal{0};

extern "C" void remove_temp_files_and_die(int sig) {
  if (g_deferrals.load() > 0) {  // an upload cancels itself first (SA_RESETHAND: a second signal kills)
    g_pending_signal.store(sig);
    return;
  }
  // Other threads (extract --jobs) keep running while this handler does. Once g_dying is set,
  // none creates another file; one that looked before may still create the file it registered
  // a moment ago, so the table is swept twice, the second time after a pause far longer than
  // that step takes.
  g_dying.store(true);
  remove_registered_files();
  timespec pause{0, 50'000'000};
  ::nanosleep(&pause, nullptr);
  remove_registered_files();
  // SA_RESETHAND restored the default action: die of the same signal.
  ::raise(sig);
}

/// Why `name` in `dir` cannot be used as a directory: "a symbolic link", "not a directory".
std::string what_blocks(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return std::strerror(errno);
  return S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory";
}

}  // namespace

UniqueFd::~UniqueFd() {
  if (fd_ >= 0) ::close(fd_);
}

bool UniqueFd::close() { return ::close(release()) == 0; }

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

UniqueFd open_user_directory(const std::string& path, CreateDirs create) {
  if (path.empty()) throw Error("empty directory name", Exit::usage);
  if (create == CreateDirs::yes) {
    // mkdir -p: each prefix in turn; existing ones are fine.
    for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
      const std::string prefix = path.substr(0, slash);
      struct stat st {};
      if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST &&
          !(::stat(prefix.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
        fail(prefix);
      if (slash == std::string::npos) break;
    }
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) fail(path);
  return UniqueFd(fd);
}

std::optional<UniqueFd> io::open_below(int root, std::string_view relative, CreateDirs create) {
  UniqueFd current(::fcntl(root, F_DUPFD_CLOEXEC, 0));
  if (!current) fail("cannot duplicate a directory descriptor");
  std::string walked;
  while (!relative.empty()) {
    const std::size_t slash = relative.find('/');
    const std::string part(relative.substr(0, slash));
    relative.remove_prefix(slash == std::string_view::npos ? relative.size() : slash + 1);
    if (part.empty()) continue;
    walked += walked.empty() ? part : "/" + part;
    if (part == "." || part == "..") throw Error("'" + walked + "': '.' and '..' are not allowed in a path");
    int fd = ::openat(current.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT) {
      if (create == CreateDirs::no) return std::nullopt;
      if (::mkdirat(current.get(), part.c_str(), 0777) != 0 && errno != EEXIST) fail("cannot create '" + walked + "'");
      fd = ::openat(current.get(), part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    }
    if (fd < 0) {
      if (errno == ELOOP || errno == ENOTDIR)
        throw Error("'" + walked + "' is " + what_blocks(current.get(), part), Exit::invalid);
      fail("cannot open '" + walked + "'");
    }
    current = UniqueFd(fd);
  }
  return current;
}

EntryType entry_type_at(int dir, const std::string& name) {
  struct stat st {};
  if (::fstatat(dir, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT) return EntryType::missing;
    fail("cannot look at '" + name + "'");
  }
  if (S_ISREG(st.st_mode)) return EntryType::regular;
  if (S_ISDIR(st.st_mode)) return EntryType::directory;
  if (S_ISLNK(st.st_mode)) return EntryType::symlink;
  return EntryType::other;
}

// ---- TempFile ----------------------------------------------------------------------------

std::string io::random_suffix() {
  static constexpr char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  thread_local std::mt19937_64 rng{std::random_device{}()};
  std::string s(8, 'x');
  for (char& c : s) c = alphabet[rng() % (sizeof alphabet - 1)];
  return s;
}

namespace {

/// Holds off the cleanup signals while a temporary file is created and registered, so that an
/// interrupt cannot fall between the two and leave the file behind.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &saved_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &saved_, nullptr); }
  SignalsHeld(const SignalsHeld&) = delete;
  SignalsHeld& operator=(const SignalsHeld&) = delete;

 private:
  sigset_t saved_;
};

}  // namespace

io::TempFile::TempFile(int dir, std::string_view hint) {
  dir_ = UniqueFd(::fcntl(dir, F_DUPFD_CLOEXEC, 0));
  if (!dir_) fail("cannot duplicate a directory descriptor");
  const SignalsHeld held;
  constexpr std::size_t kHintMax = 200;  // leaves room for the dot and the suffix
  const std::string base = "." + std::string(hint.substr(0, kHintMax)) + ".zanj-tmp-";
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string name = base + io::random_suffix();
    // The name is registered before the file exists: the signals held here are held on this
    // thread only, and another thread (extract --jobs) may take one meanwhile; its handler then
    // removes a name not yet created (harmless), never misses a file that is.
    const int slot = claim_slot(dir_.get(), name);
    if (g_dying.load()) {  // the process is being killed: create nothing more
      release_slot(slot);
      for (;;) ::pause();
    }
    const int fd = ::openat(dir_.get(), name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      fd_ = UniqueFd(fd);
      name_ = std::move(name);
      target_ = std::string(hint);
      live_ = true;
      slot_ = slot;
      return;
    }
    const int error = errno;
    release_slot(slot);
    errno = error;
    if (errno != EEXIST) fail("cannot create a temporary file for '" + std::string(hint) + "'");
  }
  throw Error("cannot create a temporary file for '" + std::string(hint) + "': too many name collisions", Exit::usage);
}

io::TempFile::~TempFile() { discard(); }

void io::TempFile::discard() noexcept {
  if (!live_) return;
  live_ = false;
  ::unlinkat(dir_.get(), name_.c_str(), 0);
  release_slot(slot_);
  slot_ = -1;
  fd_ = UniqueFd();
}

void io::TempFile::write(std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_.get(), bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      // Named by the file it becomes: the temporary name means nothing to the user.
      throw Error(target_ + ": " + std::strerror(errno), Exit::usage);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
}

void io::TempFile::commit(const std::string& final_name, Replace replace) {
  if (!live_) throw Error("internal: temporary file committed twice");
  // close() reports delayed write errors (NFS, quotas): a file that failed is not committed.
  if (!fd_.close()) fail("cannot write '" + final_name + "'");
  int r = 0;
  if (replace == Replace::yes) {
    r = ::renameat(dir_.get(), name_.c_str(), dir_.get(), final_name.c_str());
  } else {
    r = ::renameat2(dir_.get(), name_.c_str(), dir_.get(), final_name.c_str(), RENAME_NOREPLACE);
    if (r != 0 && (errno == EINVAL || errno == ENOSYS)) {
      // Filesystems without RENAME_NOREPLACE: a hard link also refuses to replace.
      r = ::linkat(dir_.get(), name_.c_str(), dir_.get(), final_name.c_str(), 0);
      if (r == 0) ::unlinkat(dir_.get(), name_.c_str(), 0);
    }
  }
  if (r != 0) {
    const int saved = errno;
    discard();
    errno = saved;
    if (saved == EEXIST) throw Error("'" + final_name + "' already exists", Exit::invalid);
    fail("cannot rename into '" + final_name + "'");
  }
  live_ = false;
  release_slot(slot_);
  slot_ = -1;
}

// ---- CleanupDirectory ----------------------------------------------------------------------

bool io::CleanupDirectory::create(int dir, const std::string& name) {
  release();
  const SignalsHeld held;  // as for a TempFile: no interrupt between creating and registering
  const int slot = claim_slot(dir, name, true);
  if (g_dying.load()) {
    release_slot(slot);
    for (;;) ::pause();
  }
  if (::mkdirat(dir, name.c_str(), 0777) != 0) {
    const int error = errno;
    release_slot(slot);
    errno = error;
    return false;
  }
  slot_ = slot;
  return true;
}

void io::CleanupDirectory::release() noexcept {
  release_slot(slot_);
  slot_ = -1;
}

// ---- InterruptDeferral ---------------------------------------------------------------------

io::InterruptDeferral::InterruptDeferral() { g_deferrals.fetch_add(1); }

io::InterruptDeferral::~InterruptDeferral() {
  if (g_deferrals.fetch_sub(1) == 1) {
    if (const int sig = g_pending_signal.exchange(0)) {
      remove_registered_files();
      ::signal(sig, SIG_DFL);
      ::raise(sig);
    }
  }
}

bool io::interrupt_pending() { return g_pending_signal.load() != 0; }

void install_interrupt_cleanup() {
  struct sigaction action {};
  action.sa_handler = remove_temp_files_and_die;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
  // Past a file size limit (RLIMIT_FSIZE) the kernel sends SIGXFSZ, whose default action kills
  // the process with no message and its temporary file left behind. Ignored, the write fails
  // with EFBIG instead, which is reported and cleaned up like a full disk.
  ::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace zanj
