// ThreadPool: tasks run, errors reach the waiter, destruction finishes the queue and joins.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "base/thread_pool.hpp"

using namespace zanj;
using namespace zanj::base;

TEST_SUITE("thread_pool") {
  TEST_CASE("every submitted task runs before wait() returns") {
    ThreadPool pool(3);
    CHECK(pool.threads() == 3);
    std::atomic<int> sum{0};
    for (int i = 1; i <= 100; ++i) pool.submit([&sum, i] { sum += i; });
    pool.wait();
    CHECK(sum == 5050);
    // The pool is reusable after a wait().
    pool.submit([&sum] { sum += 1; });
    pool.wait();
    CHECK(sum == 5051);
  }

  TEST_CASE("at least one worker; one worker runs tasks in submission order") {
    ThreadPool pool(0);
    CHECK(pool.threads() == 1);
    std::vector<int> order;
    for (int i = 0; i < 20; ++i) pool.submit([&order, i] { order.push_back(i); });
    pool.wait();
    REQUIRE(order.size() == 20);
    for (int i = 0; i < 20; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
  }

  TEST_CASE("an exception reaches wait(), once, after the other tasks finished") {
    ThreadPool pool(2);
    std::atomic<int> ran{0};
    pool.submit([] { throw std::runtime_error("task failed"); });
    for (int i = 0; i < 10; ++i)
      pool.submit([&ran] {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ++ran;
      });
    CHECK_THROWS_WITH_AS(pool.wait(), "task failed", std::runtime_error);
    CHECK(ran == 10);
    pool.wait();  // the error was collected: nothing more to throw
  }

  TEST_CASE("destruction runs the queued tasks and joins the workers") {
    std::atomic<int> ran{0};
    {
      ThreadPool pool(2);
      for (int i = 0; i < 50; ++i)
        pool.submit([&ran] {
          std::this_thread::sleep_for(std::chrono::microseconds(200));
          ++ran;
        });
      pool.submit([] { throw std::runtime_error("nobody waits for this"); });
    }
    CHECK(ran == 50);
  }

  TEST_CASE("a task may wait for a task submitted before it when workers remain free") {
    // The documented rule: never wait for a task queued after you. Waiting on an earlier one
    // is fine with two workers: the earlier task is already running or runs on the other.
    ThreadPool pool(2);
    std::atomic<bool> first_done{false};
    std::atomic<bool> second_saw{false};
    pool.submit([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      first_done = true;
    });
    pool.submit([&] {
      while (!first_done) std::this_thread::yield();
      second_saw = true;
    });
    pool.wait();
    CHECK(second_saw);
  }

  TEST_CASE("available_cpus: the affinity mask, capped by a cgroup v2 quota") {
    CHECK(available_cpus() >= 1);
    CHECK(available_cpus() <= std::max(1u, std::thread::hardware_concurrency()));
    CHECK(cgroup_cpu_limit("max 100000") == 0);
    CHECK(cgroup_cpu_limit("200000 100000") == 2);
    CHECK(cgroup_cpu_limit("150000 100000") == 2);  // 1.5 CPUs: both are used, part of the time
    CHECK(cgroup_cpu_limit("50000 100000") == 1);
    CHECK(cgroup_cpu_limit("") == 0);
    CHECK(cgroup_cpu_limit("lots 100000") == 0);
    CHECK(cgroup_cpu_limit("100000 0") == 0);
  }

  TEST_CASE("for_each_index calls fn once for every index, on the pool's threads and the caller's") {
    ThreadPool pool(3);
    for (const std::size_t count : {std::size_t{0}, std::size_t{5}, std::size_t{1000}}) {
      CAPTURE(count);
      std::vector<std::atomic<int>> calls(count);
      for_each_index(&pool, count, 7, [&](std::size_t i) { ++calls[i]; });
      CHECK(std::all_of(calls.begin(), calls.end(), [](const std::atomic<int>& c) { return c == 1; }));
    }
    std::vector<int> alone(100, 0);
    for_each_index(nullptr, alone.size(), 16, [&](std::size_t i) { alone[i] = static_cast<int>(i); });
    CHECK(alone[99] == 99);
  }

  TEST_CASE("for_each_index rethrows a failure once every thread has stopped") {
    ThreadPool pool(2);
    std::atomic<int> done{0};
    CHECK_THROWS_WITH(for_each_index(&pool, 10000, 1,
                                     [&](std::size_t i) {
                                       if (i == 5000) throw std::runtime_error("five thousand");
                                       ++done;
                                     }),
                      "five thousand");
    const int after = done;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    CHECK(done == after);  // nothing still running
    CHECK(after < 10000);
    pool.submit([] {});  // the pool is still usable
    pool.wait();
  }

  TEST_CASE("for_each_index_per_thread: each taker makes its own state once, first, and only its thread uses it") {
    ThreadPool pool(3);
    std::mutex mutex;
    std::vector<std::thread::id> makers;
    std::vector<std::atomic<int>> calls(2000);
    for_each_index_per_thread(&pool, calls.size(), 3, [&] {
      const std::thread::id me = std::this_thread::get_id();
      {
        const std::lock_guard lock(mutex);
        makers.push_back(me);
      }
      auto mine = std::make_shared<std::thread::id>(me);
      return [&calls, mine](std::size_t i) {
        CHECK(*mine == std::this_thread::get_id());  // a state made on this thread
        ++calls[i];
      };
    });
    CHECK(std::all_of(calls.begin(), calls.end(), [](const std::atomic<int>& c) { return c == 1; }));
    CHECK(makers.size() <= 4);  // once per part the calls were shared into: the caller and 3 tasks
    CHECK_THROWS_WITH(
        for_each_index_per_thread(&pool, 100, 1,
                                  []() -> std::function<void(std::size_t)> { throw std::runtime_error("no state"); }),
        "no state");
  }
}
