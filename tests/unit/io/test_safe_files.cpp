#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <signal.h>
#include <unistd.h>

#include <filesystem>

#include "temp_dir.hpp"
#include "zanj/error.hpp"
#include "zanj/safe_files.hpp"
#include "io/temp_file.hpp"

using namespace zanj;
using namespace zanj::io;
using zanj::test::TempDir;
namespace fs = std::filesystem;

namespace {
std::size_t count_entries(const std::string& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(dir)) ++n;
  return n;
}
}  // namespace

TEST_SUITE("safe_files") {
  TEST_CASE("open_user_directory creates parents and opens existing ones") {
    TempDir tmp;
    CHECK_THROWS_AS(open_user_directory(tmp / "a/b/c", CreateDirs::no), Error);
    const UniqueFd fd = open_user_directory(tmp / "a/b/c", CreateDirs::yes);
    CHECK(fd);
    CHECK(fs::is_directory(tmp / "a/b/c"));
    CHECK(open_user_directory(tmp / "a/b/c/", CreateDirs::yes));
    zanj::test::write_file(tmp / "file", "x");
    CHECK_THROWS_AS(open_user_directory(tmp / "file", CreateDirs::yes), Error);
  }

  TEST_CASE("open_below walks, creates, and never follows symlinks") {
    TempDir tmp;
    const UniqueFd root = open_user_directory(tmp / "root", CreateDirs::yes);
    CHECK(!open_below(root.get(), "x/y", CreateDirs::no));
    CHECK(open_below(root.get(), "x/y", CreateDirs::yes));
    CHECK(fs::is_directory(tmp / "root/x/y"));
    CHECK(open_below(root.get(), "", CreateDirs::no));  // the root itself
    fs::create_directory(tmp / "outside");
    fs::create_directory_symlink(tmp / "outside", tmp / "root/link");
    CHECK_THROWS_WITH_AS(open_below(root.get(), "link/z", CreateDirs::yes), doctest::Contains("symbolic link"), Error);
    CHECK(fs::is_empty(tmp / "outside"));
    zanj::test::write_file(tmp / "root/plain", "x");
    CHECK_THROWS_WITH_AS(open_below(root.get(), "plain/z", CreateDirs::yes), doctest::Contains("not a directory"),
                         Error);
    CHECK_THROWS_AS(open_below(root.get(), "x/../..", CreateDirs::yes), Error);
  }

  TEST_CASE("entry_type_at tells files, directories and symlinks apart") {
    TempDir tmp;
    const UniqueFd root = open_user_directory(tmp.path(), CreateDirs::no);
    zanj::test::write_file(tmp / "f", "x");
    fs::create_directory(tmp / "d");
    fs::create_symlink(tmp / "f", tmp / "l");
    CHECK(entry_type_at(root.get(), "f") == EntryType::regular);
    CHECK(entry_type_at(root.get(), "d") == EntryType::directory);
    CHECK(entry_type_at(root.get(), "l") == EntryType::symlink);
    CHECK(entry_type_at(root.get(), "none") == EntryType::missing);
  }

  TEST_CASE("a temporary file becomes the real one only on commit") {
    TempDir tmp;
    const UniqueFd root = open_user_directory(tmp.path(), CreateDirs::no);
    {
      TempFile t(root.get(), "out.npy");
      CHECK(t.name().rfind(".out.npy.zanj-tmp-", 0) == 0);
      t.write("hello");
      CHECK(count_entries(tmp.path()) == 1);
      t.commit("out.npy", Replace::no);
    }
    CHECK(zanj::test::read_file(tmp / "out.npy") == "hello");
    CHECK(count_entries(tmp.path()) == 1);
    {
      TempFile t(root.get(), "abandoned");
      t.write("partial");
    }  // not committed: removed
    CHECK(count_entries(tmp.path()) == 1);
  }

  TEST_CASE("commit refuses or replaces an existing file as asked") {
    TempDir tmp;
    const UniqueFd root = open_user_directory(tmp.path(), CreateDirs::no);
    zanj::test::write_file(tmp / "x", "old");
    {
      TempFile t(root.get(), "x");
      t.write("new");
      CHECK_THROWS_WITH_AS(t.commit("x", Replace::no), doctest::Contains("already exists"), Error);
    }
    CHECK(zanj::test::read_file(tmp / "x") == "old");
    CHECK(count_entries(tmp.path()) == 1);
    fs::create_symlink("/nonexistent-target", tmp / "link");
    {
      TempFile t(root.get(), "link");
      t.write("new");
      t.commit("link", Replace::yes);  // replaces the symlink itself, never writes through it
    }
    CHECK(fs::is_regular_file(fs::symlink_status(tmp / "link")));
    CHECK(zanj::test::read_file(tmp / "link") == "new");
  }

  TEST_CASE("past a file size limit a write fails (EFBIG, SIGXFSZ ignored), named by its target") {
    install_interrupt_cleanup();
    struct sigaction current {};
    ::sigaction(SIGXFSZ, nullptr, &current);
    const bool ignored = current.sa_handler == SIG_IGN;
    CHECK(ignored);
    TempDir tmp;
    const UniqueFd root = open_user_directory(tmp.path(), CreateDirs::no);
    rlimit saved{};
    ::getrlimit(RLIMIT_FSIZE, &saved);
    const rlimit small{4096, saved.rlim_max};
    ::setrlimit(RLIMIT_FSIZE, &small);
    {
      TempFile t(root.get(), "big.npy");
      CHECK_THROWS_WITH_AS(t.write(std::string(10000, 'x')), doctest::Contains("big.npy: File too large"), Error);
    }
    ::setrlimit(RLIMIT_FSIZE, &saved);
    CHECK(count_entries(tmp.path()) == 0);
  }

  TEST_CASE("long hints are shortened to a valid file name") {
    TempDir tmp;
    const UniqueFd root = open_user_directory(tmp.path(), CreateDirs::no);
    TempFile t(root.get(), std::string(250, 'n'));
    CHECK(t.name().size() <= 255);
  }
}
