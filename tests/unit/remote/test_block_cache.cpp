#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "remote/block_cache.hpp"

using zanj::remote::BlockCache;

namespace {

/// A file of `size` bytes whose byte i is i % 251, and a log of the ranges fetched from it.
struct FakeFile {
  explicit FakeFile(std::uint64_t n) : size(n) {}
  std::uint64_t size;
  std::mutex mutex;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> fetched;  // offset, length
  std::vector<unsigned> times_fetched = std::vector<unsigned>(size, 0);

  BlockCache::Fetch fetch() {
    return [this](std::uint64_t offset, char* out, std::size_t n) {
      REQUIRE(offset + n <= size);
      for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<char>((offset + i) % 251);
      std::lock_guard lock(mutex);
      fetched.emplace_back(offset, n);
      for (std::size_t i = 0; i < n; ++i) ++times_fetched[offset + i];
    };
  }
  bool correct(std::uint64_t offset, const std::string& bytes) const {
    for (std::size_t i = 0; i < bytes.size(); ++i)
      if (bytes[i] != static_cast<char>((offset + i) % 251)) return false;
    return true;
  }
  std::uint64_t total() const {
    std::uint64_t t = 0;
    for (const auto& f : fetched) t += f.second;
    return t;
  }
  unsigned most_fetched() const {
    unsigned m = 0;
    for (unsigned t : times_fetched) m = std::max(m, t);
    return m;
  }
};

std::string read(BlockCache& cache, std::uint64_t offset, std::size_t n) {
  std::string out(n, '\0');
  cache.read(offset, out.data(), n);
  return out;
}

}  // namespace

TEST_CASE("a miss is fetched as one aligned range and then served from memory") {
  FakeFile file(100'000);
  BlockCache cache(file.size, file.fetch());
  CHECK(file.correct(5000, read(cache, 5000, 100)));
  REQUIRE(file.fetched.size() == 1);
  CHECK(file.fetched[0] == std::pair<std::uint64_t, std::uint64_t>(4096, 4096));
  CHECK(file.correct(4096, read(cache, 4096, 4096)));
  CHECK(file.fetched.size() == 1);
}

TEST_CASE("gaps between held pieces are filled without fetching a byte twice") {
  FakeFile file(1 << 20);
  BlockCache cache(file.size, file.fetch());
  cache.insert(file.size - 16384, std::string(16384, '\0'));  // what the first request brought
  read(cache, 0, 10);
  read(cache, 20000, 10);
  CHECK(file.correct(0, read(cache, 0, 30000)));  // spans held, missing, held, missing
  CHECK(file.most_fetched() == 1);
  CHECK(file.fetched.size() == 4);  // [0,4K), [16K,20K), the gap between them, one more after
  read(cache, static_cast<std::size_t>(file.size) - 100, 100);  // the tail is never fetched
  CHECK(file.times_fetched[file.size - 1] == 0);
}

TEST_CASE("a sequential reader gets growing read-ahead, and memory stays bounded") {
  FakeFile file(64 << 20);
  BlockCache::Settings settings;
  settings.max_held = 4 << 20;
  settings.max_read_ahead = 1 << 20;
  BlockCache cache(file.size, file.fetch(), settings);
  for (std::uint64_t at = 0; at < file.size; at += 65536) {
    CHECK(file.correct(at, read(cache, at, 65536)));
    CHECK(cache.held() <= settings.max_held + settings.max_read_ahead);
  }
  CHECK(file.total() == file.size);  // every byte exactly once
  CHECK(file.most_fetched() == 1);
  CHECK(file.fetched.size() < 100);  // 1024 reads, far fewer requests
}

TEST_CASE("will_need fetches a range in one request") {
  FakeFile file(1 << 20);
  BlockCache cache(file.size, file.fetch());
  cache.will_need(1000, 50'000);
  CHECK(file.fetched.size() == 1);
  CHECK(file.correct(30'000, read(cache, 30'000, 20'000)));
  CHECK(file.fetched.size() == 1);
  cache.will_need(file.size - 10, 1000);  // clipped to the size
  CHECK(file.fetched.back().first + file.fetched.back().second == file.size);
}

TEST_CASE("reads from several threads see the right bytes and share fetches") {
  FakeFile file(8 << 20);
  BlockCache cache(file.size, file.fetch());
  std::atomic<bool> wrong{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (std::uint64_t at = static_cast<std::uint64_t>(t) * 1000; at + 70'000 < file.size; at += 70'000) {
        std::string out(70'000, '\0');
        cache.read(at, out.data(), out.size());
        if (!file.correct(at, out)) wrong = true;
      }
    });
  for (auto& thread : threads) thread.join();
  CHECK_FALSE(wrong);
  CHECK(file.most_fetched() == 1);
}

TEST_CASE("a failed fetch reaches the reader and leaves nothing behind") {
  bool fail = true;
  BlockCache cache(100'000, [&](std::uint64_t, char* out, std::size_t n) {
    if (fail) throw std::runtime_error("reset");
    std::memset(out, 'x', n);
  });
  std::string out(10, '\0');
  CHECK_THROWS_AS(cache.read(0, out.data(), 10), std::runtime_error);
  fail = false;
  cache.read(0, out.data(), 10);
  CHECK(out == std::string(10, 'x'));
}

TEST_CASE("read-ahead stops at bytes fetched before, held or not") {
  FakeFile file(4 << 20);
  BlockCache::Settings settings;
  settings.stream_after = 16 << 10;
  settings.max_read_ahead = 64 << 10;
  settings.max_held = 128 << 10;
  BlockCache cache(file.size, file.fetch(), settings);
  read(cache, 200 << 10, 16 << 10);  // another reader was there first
  for (std::uint64_t at = 0; at < (400 << 10); at += 8 << 10) CHECK(file.correct(at, read(cache, at, 8 << 10)));
  CHECK(file.most_fetched() == 1);
  CHECK(cache.held() <= settings.max_held + settings.max_read_ahead);  // a window may still land
}
