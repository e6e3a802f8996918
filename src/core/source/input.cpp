#include "source/input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "zanj/error.hpp"
#include "io/spool_file.hpp"
#include "remote/remote_source.hpp"
#include "remote/url.hpp"

namespace zanj {
namespace {

constexpr std::size_t kSpoolChunk = 1 << 20;  // bytes copied per read while spooling

std::unique_ptr<io::ByteSource> open_stdin() {
  const std::string name(kStdinName);
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) throw Error(InArchive{name}, std::strerror(errno), Exit::usage);
  // Waiting for someone to type a ZIP file would look like a hang.
  if (::isatty(STDIN_FILENO) == 1)
    throw Error(InArchive{name}, "standard input is a terminal; pipe an archive in or give a file name", Exit::usage);
  // `zanj info - < file.zanj`: the file itself is seekable, no copy needed.
  if (S_ISREG(st.st_mode) && ::lseek(STDIN_FILENO, 0, SEEK_CUR) == 0) {
    UniqueFd fd(::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0));
    if (!fd) throw Error(InArchive{name}, std::strerror(errno), Exit::usage);
    return std::make_unique<io::FileSource>(std::move(fd), name);
  }
  return source::spool_to_temporary_file(STDIN_FILENO, name);
}

}  // namespace

bool is_stdin_path(std::string_view path) { return path == "-"; }

std::string input_display_name(const std::string& path) {
  if (is_stdin_path(path)) return std::string(kStdinName);
  return is_remote_url(path) ? remote::without_credentials(path) : path;  // a URL's password is never shown
}

std::string input_problem(const std::string& path) {
  if (is_stdin_path(path) || is_remote_url(path)) return "";  // a URL is only known once fetched
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::strerror(errno);
  if (S_ISDIR(st.st_mode)) return std::strerror(EISDIR);
  if (::access(path.c_str(), R_OK) != 0) return std::strerror(errno);
  return "";
}

std::unique_ptr<io::ByteSource> source::open_input(const std::string& path, const RemoteOptions& remote) {
  if (is_stdin_path(path)) return open_stdin();
  if (const auto url = remote::parse_remote_url(path)) return std::make_unique<remote::RemoteSource>(*url, remote);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && S_ISFIFO(st.st_mode)) {
    // A pipe with a name (`zanj info <(curl ...)` passes /dev/fd/63) cannot seek either.
    // Opened without blocking so that a FIFO nobody writes to reads as empty, not forever.
    // Owned here: spooling can throw half-way.
    UniqueFd fifo(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC));
    if (!fifo) throw Error(path + ": " + std::strerror(errno), Exit::usage);
    ::fcntl(fifo.get(), F_SETFL, ::fcntl(fifo.get(), F_GETFL) & ~O_NONBLOCK);
    return source::spool_to_temporary_file(fifo.get(), path);
  }
  // The same message whether a command checked its FILE arguments up front or not.
  if (const std::string problem = input_problem(path); !problem.empty())
    throw Error(path + ": " + problem, Exit::usage);
  return std::make_unique<io::FileSource>(path);
}

std::unique_ptr<io::ByteSource> source::spool_to_temporary_file(int fd, const std::string& name) {
  try {
    auto spool = std::make_unique<io::SpoolFile>();
    std::vector<char> chunk(kSpoolChunk);
    for (;;) {
      const ssize_t got = ::read(fd, chunk.data(), chunk.size());
      if (got == 0) break;
      if (got < 0) {
        if (errno == EINTR) continue;
        throw Error(std::strerror(errno), Exit::usage);
      }
      spool->append(std::string_view(chunk.data(), static_cast<std::size_t>(got)));
    }
    return spool;
  } catch (const Error& e) {  // context: the input joins the message
    throw Error(InArchive{name}, e.what(), e.exit());
  }
}

}  // namespace zanj
