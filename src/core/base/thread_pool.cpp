#include "base/thread_pool.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <charconv>
#include <fstream>
#include <optional>
#include <string>
#include <utility>

namespace zanj::base {

ThreadPool::ThreadPool(unsigned threads) {
  workers_.reserve(std::max(threads, 1u));
  for (unsigned i = 0; i < std::max(threads, 1u); ++i) workers_.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& worker : workers_) worker.join();
}

void ThreadPool::submit(std::function<void()> task) {
  {
    const std::lock_guard lock(mutex_);
    tasks_.push_back(std::move(task));
    ++unfinished_;
  }
  wake_.notify_one();
}

void ThreadPool::wait() {
  std::unique_lock lock(mutex_);
  idle_.wait(lock, [this] { return unfinished_ == 0; });
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

void for_each_index(ThreadPool* pool, std::size_t count, std::size_t block,
                    const std::function<void(std::size_t)>& fn) {
  for_each_index_per_thread(pool, count, block, [&] { return fn; });
}

void for_each_index_per_thread(ThreadPool* pool, std::size_t count, std::size_t block,
                               const std::function<std::function<void(std::size_t)>()>& per_thread) {
  block = std::max<std::size_t>(block, 1);
  std::atomic<std::size_t> next{0};
  const auto work = [&] {
    try {
      const std::function<void(std::size_t)> fn = per_thread();
      for (std::size_t from; (from = next.fetch_add(block)) < count;)
        for (std::size_t i = from; i < std::min(count, from + block); ++i) fn(i);
    } catch (...) {  // cleanup: the other threads take no further blocks
      next.store(count);
      throw;
    }
  };
  const unsigned helpers = pool && count > block ? pool->threads() : 0;
  for (unsigned t = 0; t < helpers; ++t) pool->submit(work);
  std::exception_ptr failed;
  try {
    work();
  } catch (...) {  // cleanup: the helpers use `next` and `fn`: waited for, then rethrown
    failed = std::current_exception();
  }
  if (helpers) pool->wait();
  if (failed) std::rethrow_exception(failed);
}

void ThreadPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !tasks_.empty(); });
    if (tasks_.empty()) return;  // stopping, and nothing left to do
    std::function<void()> task = std::move(tasks_.front());
    tasks_.pop_front();
    lock.unlock();
    std::exception_ptr error;
    try {
      task();
    } catch (...) {  // boundary: a worker's failure returns to the caller
      error = std::current_exception();
    }
    task = nullptr;  // release what it captured before reporting it done
    lock.lock();
    if (error && !error_) error_ = error;
    if (--unfinished_ == 0) idle_.notify_all();
  }
}

namespace {

/// The number at the start of `text` as std::stoull reads it (leading space and a sign
/// skipped, anything after the digits ignored), or nothing when there is none or it overflows.
std::optional<unsigned long long> leading_number(std::string_view text) {
  std::size_t at = 0;
  while (at < text.size() && std::isspace(static_cast<unsigned char>(text[at]))) ++at;
  const bool negative = at < text.size() && text[at] == '-';
  if (at < text.size() && (text[at] == '+' || text[at] == '-')) ++at;
  unsigned long long value = 0;
  const auto [end, error] = std::from_chars(text.data() + at, text.data() + text.size(), value);
  if (error != std::errc()) return std::nullopt;
  return negative ? 0 - value : value;
}

}  // namespace

unsigned cgroup_cpu_limit(std::string_view cpu_max) {
  const std::size_t space = cpu_max.find(' ');
  if (space == std::string_view::npos || cpu_max.substr(0, space) == "max") return 0;
  const auto quota = leading_number(cpu_max.substr(0, space));
  const auto period = leading_number(cpu_max.substr(space + 1));
  if (!quota || !period) return 0;  // not numbers: no quota we understand
  if (*quota == 0 || *period == 0) return 0;
  return static_cast<unsigned>(std::min<unsigned long long>((*quota + *period - 1) / *period, 1u << 16));
}

namespace {

// The cgroup v2 CPU quota of this process: the smallest cpu.max on the way from its cgroup up
// to the root (a container's limit is often set on an ancestor), 0 when there is none.
unsigned cgroup_quota_cpus() {
  std::ifstream self("/proc/self/cgroup");
  std::string line, path;
  while (std::getline(self, line))
    if (line.rfind("0::", 0) == 0) path = line.substr(3);  // the v2 hierarchy's entry
  if (path.empty()) return 0;
  unsigned limit = 0;
  for (;;) {
    std::ifstream file("/sys/fs/cgroup" + (path == "/" ? std::string() : path) + "/cpu.max");
    std::string cpu_max;
    if (file && std::getline(file, cpu_max))
      if (const unsigned here = cgroup_cpu_limit(cpu_max); here && (!limit || here < limit)) limit = here;
    if (path == "/" || path.empty()) break;
    const std::size_t slash = path.find_last_of('/');
    path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
  }
  return limit;
}

}  // namespace

unsigned available_cpus() {
  unsigned cpus = std::max(1u, std::thread::hardware_concurrency());
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) cpus = static_cast<unsigned>(std::max(1, CPU_COUNT(&set)));
  if (const unsigned quota = cgroup_quota_cpus(); quota) cpus = std::min(cpus, quota);
  return std::max(cpus, 1u);
}

}  // namespace zanj::base
