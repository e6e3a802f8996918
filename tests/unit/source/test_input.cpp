#include <doctest/doctest.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>

#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "source/input.hpp"

using namespace zanj;
using namespace zanj::source;
using test::corpus;
using test::exit_of;
using test::read_file;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

/// Sets an environment variable for the test's duration, restoring the old value after.
struct ScopedEnv {
  std::string name;
  std::optional<std::string> saved;
  ScopedEnv(std::string n, const std::string& value) : name(std::move(n)) {
    if (const char* old = std::getenv(name.c_str())) saved = old;
    ::setenv(name.c_str(), value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (saved)
      ::setenv(name.c_str(), saved->c_str(), 1);
    else
      ::unsetenv(name.c_str());
  }
};

/// Puts `fd` on standard input for the test's duration (taking ownership of it).
struct StdinFrom {
  int saved = ::dup(STDIN_FILENO);
  explicit StdinFrom(int fd) {
    ::dup2(fd, STDIN_FILENO);
    ::close(fd);
  }
  ~StdinFrom() {
    ::dup2(saved, STDIN_FILENO);
    ::close(saved);
  }
};

/// `size` bytes with a pattern that shifts every chunk, so misplaced chunks are detected.
std::string pattern(std::size_t size) {
  std::string out(size, '\0');
  for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<char>((i * 7 + i / 4093) & 0xff);
  return out;
}

/// Everything a source holds, read back through read_some in odd-sized steps.
std::string read_back(const io::ByteSource& source) {
  std::string out;
  char buffer[70001];
  for (;;) {
    const std::size_t got = source.read_some(out.size(), buffer, sizeof buffer);
    if (got == 0) return out;
    out.append(buffer, got);
  }
}

/// A pipe whose write end is fed `bytes` by a thread, then closed. The thread blocks SIGPIPE:
/// when a test closes the read end early, its writes fail instead of killing the test run.
struct FedPipe {
  int read_end = -1;
  std::thread writer;
  explicit FedPipe(std::string bytes) {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    read_end = fds[0];
    writer = std::thread([fd = fds[1], data = std::move(bytes)] {
      sigset_t pipe_signal;
      sigemptyset(&pipe_signal);
      sigaddset(&pipe_signal, SIGPIPE);
      pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
      std::size_t done = 0;
      while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::close(fd);
    });
  }
  ~FedPipe() { writer.join(); }
};

}  // namespace

TEST_SUITE("input") {
  TEST_CASE("'-' names standard input") {
    CHECK(is_stdin_path("-"));
    CHECK_FALSE(is_stdin_path("--"));
    CHECK_FALSE(is_stdin_path("./-"));
    CHECK(input_display_name("-") == "<stdin>");
    CHECK(input_display_name("model.zanj") == "model.zanj");
  }

  TEST_CASE("input_problem explains paths that cannot be opened") {
    TempDir dir;
    CHECK(input_problem("-") == "");
    CHECK(input_problem(corpus("basic.zanj")) == "");
    CHECK(input_problem(dir / "missing.zanj") == "No such file or directory");
    CHECK(input_problem(dir.path()) == "Is a directory");
    CHECK(input_problem(dir / "missing/x.zanj") == "No such file or directory");
  }

  TEST_CASE("a pipe is spooled whole, in several chunks, into a file with no name") {
    TempDir dir;
    ScopedEnv tmpdir("TMPDIR", dir.path());
    const std::string bytes = pattern((3u << 20) + 12345);  // more than one spool chunk
    FedPipe pipe(bytes);
    const auto source = spool_to_temporary_file(pipe.read_end, "<pipe>");
    ::close(pipe.read_end);
    CHECK(source->size() == bytes.size());
    CHECK(read_back(*source) == bytes);
    std::string middle(10, '\0');
    source->read_at(2'000'000, middle.data(), middle.size());
    CHECK(middle == bytes.substr(2'000'000, 10));
    CHECK(dir.empty());  // nothing left behind, even while the source is open
  }

  TEST_CASE("an empty pipe spools to an empty source") {
    FedPipe pipe("");
    const auto source = spool_to_temporary_file(pipe.read_end, "<pipe>");
    ::close(pipe.read_end);
    CHECK(source->size() == 0);
  }

  TEST_CASE("spooling into a missing temporary directory is a usage error") {
    TempDir dir;
    ScopedEnv tmpdir("TMPDIR", dir / "does-not-exist");
    FedPipe pipe("some bytes");
    CHECK_THROWS_WITH_AS(spool_to_temporary_file(pipe.read_end, "<pipe>"),
                         doctest::Contains("cannot create a temporary file"), Error);
    CHECK(exit_of([&] { spool_to_temporary_file(pipe.read_end, "<pipe>"); }) == Exit::usage);
    ::close(pipe.read_end);
  }

  TEST_CASE("open_input reads files, and '-' from a redirected file or a pipe") {
    const Archive direct(corpus("basic.zanj"));
    {
      StdinFrom redirect(::open(corpus("basic.zanj").c_str(), O_RDONLY));
      const Archive from_stdin("-");
      CHECK(from_stdin.name() == "<stdin>");
      CHECK(from_stdin.file_size() == direct.file_size());
      CHECK(from_stdin.entries().size() == direct.entries().size());
    }
    const std::string bytes = read_file(corpus("model.zanj"));
    FedPipe pipe(bytes);
    StdinFrom redirect(pipe.read_end);
    const auto source = open_input("-", {});
    CHECK(read_back(*source) == bytes);
  }

  TEST_CASE("standard input positioned past its start is read from there, not rewound") {
    const std::string path = corpus("basic.zanj");
    const int fd = ::open(path.c_str(), O_RDONLY);
    REQUIRE(::lseek(fd, 100, SEEK_SET) == 100);
    StdinFrom redirect(fd);
    const auto source = open_input("-", {});
    CHECK(source->size() == fs::file_size(path) - 100);
  }

  TEST_CASE("a named pipe is spooled; one nobody writes to reads as empty instead of hanging") {
    TempDir dir;
    const std::string fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(input_problem(fifo) == "");
    CHECK(open_input(fifo, {})->size() == 0);
    // A writer already there, as with process substitution: its bytes arrive whole.
    const std::string bytes = pattern((1u << 20) + 999);
    const int writer_end = ::open(fifo.c_str(), O_RDWR);  // O_RDWR: does not wait for a reader
    REQUIRE(writer_end >= 0);
    std::thread writer([&] {
      std::size_t done = 0;
      while (done < bytes.size()) {
        const ssize_t n = ::write(writer_end, bytes.data() + done, bytes.size() - done);
        if (n <= 0) break;
        done += static_cast<std::size_t>(n);
      }
      ::close(writer_end);
    });
    const auto source = open_input(fifo, {});
    writer.join();
    CHECK(read_back(*source) == bytes);
  }

  TEST_CASE("open_input errors are usage errors naming the path") {
    CHECK_THROWS_WITH_AS(open_input("/nonexistent/x.zanj", {}), "/nonexistent/x.zanj: No such file or directory",
                         Error);
    CHECK(exit_of([] { open_input("/nonexistent/x.zanj", {}); }) == Exit::usage);
    CHECK(exit_of([] { open_input("/", {}); }) == Exit::usage);
  }
}
