// diagnostics: the one stderr channel's format and levels, read back from a captured stderr.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "diagnostics.hpp"
#include "zanj/safe_files.hpp"

using namespace zanj;
using namespace zanj::cli;

namespace {

/// What `emit` writes on stderr, captured through a temporary file.
std::string captured_stderr(const std::function<void()>& emit) {
  std::fflush(stderr);
  const std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::tmpfile(), &std::fclose);
  REQUIRE(file);
  const int capture = ::fileno(file.get());
  UniqueFd saved(::fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0));
  ::dup2(capture, STDERR_FILENO);
  emit();
  std::fflush(stderr);
  ::dup2(saved.get(), STDERR_FILENO);
  std::string text(static_cast<std::size_t>(::lseek(capture, 0, SEEK_CUR)), '\0');
  if (!text.empty()) REQUIRE(::pread(capture, text.data(), text.size(), 0) == static_cast<ssize_t>(text.size()));
  return text;
}

void emit_all() {
  error("broken");
  warn("odd");
  info("said");
  debug("detail");
}

}  // namespace

TEST_SUITE("diagnostics") {
  TEST_CASE("one line per message, 'zanj: <level>: ', escaped") {
    configure_diagnostics(2, false, false);
    CHECK(captured_stderr(emit_all) ==
          "zanj: error: broken\nzanj: warning: odd\nzanj: info: said\nzanj: debug: detail\n");
    CHECK(captured_stderr([] { error("a\x1b[31m name"); }) == "zanj: error: a\\x1B[31m name\n");
    CHECK(captured_stderr([] { usage_error("no FILE"); }) == "zanj: error: no FILE\nRun 'zanj --help' for usage.\n");
    configure_diagnostics(0, false, false);
  }

  TEST_CASE("errors always, warnings unless -q, info at -v, debug at -vv") {
    configure_diagnostics(0, true, false);
    CHECK(captured_stderr(emit_all) == "zanj: error: broken\n");
    CHECK_FALSE(warnings_shown());
    configure_diagnostics(0, false, false);
    CHECK(captured_stderr(emit_all) == "zanj: error: broken\nzanj: warning: odd\n");
    CHECK(warnings_shown());
    configure_diagnostics(1, false, false);
    CHECK(captured_stderr(emit_all) == "zanj: error: broken\nzanj: warning: odd\nzanj: info: said\n");
    configure_diagnostics(0, false, false);
  }

  TEST_CASE("with colour only the level name is coloured") {
    configure_diagnostics(0, false, true);
    const std::string text = captured_stderr([] { warn("odd"); });
    CHECK(text.rfind("zanj: \x1b[", 0) == 0);
    CHECK(text.find("warning\x1b[m: odd\n") != std::string::npos);
    configure_diagnostics(0, false, false);
  }
}
