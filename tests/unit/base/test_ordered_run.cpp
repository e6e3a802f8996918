#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "zanj/many_archives.hpp"

TEST_CASE("run_in_order emits in order whatever order the work finishes in") {
  for (const unsigned at_once : {1u, 2u, 4u, 16u}) {
    std::vector<int> done(10, 0);
    std::vector<std::size_t> emitted;
    std::atomic<int> running{0}, most{0};
    zanj::run_in_order(
        10, at_once,
        [&](std::size_t i) {
          const int now = ++running;
          for (int seen = most; now > seen && !most.compare_exchange_weak(seen, now);) {
          }
          std::this_thread::sleep_for(std::chrono::milliseconds(i % 2 ? 1 : 8));  // odd ones finish first
          done[i] = 1;
          --running;
        },
        [&](std::size_t i) {
          CHECK(done[i] == 1);
          emitted.push_back(i);
        });
    CHECK(emitted == std::vector<std::size_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    CHECK(most <= static_cast<int>(at_once));  // the window bounds what is in flight
  }
}

TEST_CASE("run_in_order rethrows a failure in its turn, after the earlier ones were emitted") {
  std::vector<std::size_t> emitted;
  CHECK_THROWS_AS(zanj::run_in_order(
                      6, 3,
                      [](std::size_t i) {
                        if (i == 3) throw std::runtime_error("fourth");
                      },
                      [&](std::size_t i) { emitted.push_back(i); }),
                  std::runtime_error);
  CHECK(emitted == std::vector<std::size_t>{0, 1, 2});
}

TEST_CASE("one -j budget: all to one archive, shared among several") {
  CHECK(zanj::split_jobs(8, 1).archives_at_once == 1);
  CHECK(zanj::split_jobs(8, 1).threads_each == 8);
  CHECK(zanj::split_jobs(8, 20).archives_at_once == 8);
  CHECK(zanj::split_jobs(8, 20).threads_each == 1);
  CHECK(zanj::split_jobs(8, 2).archives_at_once == 2);
  CHECK(zanj::split_jobs(8, 2).threads_each == 4);
  CHECK(zanj::split_jobs(0, 3).archives_at_once >= 1);  // 0: the CPUs this process may use
}
