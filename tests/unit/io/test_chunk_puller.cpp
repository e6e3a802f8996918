#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "test_support.hpp"
#include "zanj/archive.hpp"
#include "io/chunk_puller.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::io;

TEST_SUITE("chunk_puller") {
  TEST_CASE("chunks arrive in order, empty ones included, then the end") {
    ChunkPuller puller([](const ChunkPuller::Sink& sink) {
      for (const char* s : {"a", "", "bcd", "e"})
        if (!sink(s)) return;
    });
    std::vector<std::string> got;
    std::string chunk;
    while (puller.next(chunk)) got.push_back(chunk);
    CHECK(got == std::vector<std::string>{"a", "", "bcd", "e"});
    CHECK_FALSE(puller.next(chunk));  // stays at the end
  }

  TEST_CASE("the producer cannot run ahead of the byte budget") {
    std::atomic<int> offered{0};
    ChunkPuller puller(
        [&](const ChunkPuller::Sink& sink) {
          for (int i = 0; i < 100; ++i) {
            ++offered;
            if (!sink(std::string(1000, static_cast<char>('a' + i % 26)))) return;
          }
        },
        2000);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    // two chunks fit the budget; the third is the one the producer is blocked on
    CHECK(offered.load() <= 3);
    std::string chunk;
    int count = 0;
    while (puller.next(chunk)) {
      CHECK(chunk == std::string(1000, static_cast<char>('a' + count % 26)));
      ++count;
    }
    CHECK(count == 100);
  }

  TEST_CASE("chunks copied into buffers made beforehand: any size, nothing left of the last") {
    // Sizes below, at and above the buffers' (64): a reused buffer must hold only its chunk.
    std::vector<std::string> sent;
    for (int i = 0; i < 200; ++i)
      sent.emplace_back(static_cast<std::size_t>((i * 37) % 150), static_cast<char>('a' + i % 26));
    ChunkPuller puller(
        [&](const ChunkPuller::Sink& sink) {
          for (const std::string& s : sent)
            if (!sink(s)) return;
        },
        200, 64);
    std::vector<std::string> got;
    std::string chunk;
    while (puller.next(chunk)) got.push_back(chunk);
    CHECK(got == sent);
  }

  TEST_CASE("a chunk larger than the budget still passes") {
    ChunkPuller puller([](const ChunkPuller::Sink& sink) { sink(std::string(10000, 'x')); }, 100);
    std::string chunk;
    REQUIRE(puller.next(chunk));
    CHECK(chunk.size() == 10000);
    CHECK_FALSE(puller.next(chunk));
  }

  TEST_CASE("the producer's error comes after the chunks it queued") {
    ChunkPuller puller([](const ChunkPuller::Sink& sink) {
      sink("first");
      throw Error("member is corrupt");
    });
    std::string chunk;
    REQUIRE(puller.next(chunk));
    CHECK(chunk == "first");
    CHECK_THROWS_WITH_AS(puller.next(chunk), "member is corrupt", Error);
    CHECK_FALSE(puller.next(chunk));  // the error is reported once
  }

  TEST_CASE("destroying the puller stops an endless producer") {
    std::atomic<bool> stopped{false};
    {
      ChunkPuller puller([&](const ChunkPuller::Sink& sink) {
        while (sink("more")) {
        }
        stopped = true;
      });
      std::string chunk;
      CHECK(puller.next(chunk));
    }
    CHECK(stopped.load());
  }

  TEST_CASE("pulls a real member in lockstep with another") {
    Archive a(test::corpus("basic.zanj"));
    Archive b(test::corpus("basic.zanj"));
    const ZipEntry& entry = *a.find("big_array.npy");
    std::string pushed;
    a.read(entry, [&](std::string_view c) {
      pushed.append(c);
      return true;
    });
    ChunkPuller puller([&](const ChunkPuller::Sink& sink) { b.read(*b.find("big_array.npy"), sink); });
    std::string pulled, chunk;
    while (puller.next(chunk)) pulled += chunk;
    CHECK(pulled.size() == entry.uncompressed_size);
    CHECK(pulled == pushed);
  }
}
