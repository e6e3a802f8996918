#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <vector>

#include "base/thread_pool.hpp"
#include "zanj/many_archives.hpp"

namespace zanj {

JobSplit split_jobs(unsigned jobs, std::size_t archives) {
  const unsigned budget = base::threads_or_cpus(jobs);
  if (archives <= 1) return {1, budget};
  const unsigned at_once = static_cast<unsigned>(std::min<std::size_t>(budget, archives));
  return {at_once, std::max(1u, budget / at_once)};
}

void run_in_order(std::size_t count, unsigned at_once, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& emit) {
  if (count == 0) return;
  if (at_once <= 1 || count == 1) {  // the serial case takes no thread at all
    for (std::size_t i = 0; i < count; ++i) {
      work(i);
      emit(i);
    }
    return;
  }
  struct Slot {
    bool done = false;
    std::exception_ptr failure;
  };
  std::vector<Slot> slots(count);
  std::mutex mutex;
  std::condition_variable finished;
  bool abandon = false;
  base::ThreadPool pool(static_cast<unsigned>(std::min<std::size_t>(at_once, count)));
  const auto start = [&](std::size_t i) {
    pool.submit([&, i] {
      {
        std::lock_guard lock(mutex);
        if (abandon) {
          slots[i].done = true;
          finished.notify_all();
          return;
        }
      }
      std::exception_ptr failure;
      try {
        work(i);
      } catch (...) {  // boundary: a worker's failure is carried to the thread that prints
        failure = std::current_exception();
      }
      std::lock_guard lock(mutex);
      slots[i].done = true;
      slots[i].failure = failure;
      finished.notify_all();
    });
  };
  // A window of `at_once` archives: the next one starts when the oldest has been printed, so
  // no more than that many outputs are ever held.
  const std::size_t window = std::min<std::size_t>(at_once, count);
  for (std::size_t i = 0; i < window; ++i) start(i);
  try {
    for (std::size_t i = 0; i < count; ++i) {
      std::exception_ptr failure;
      {
        std::unique_lock lock(mutex);
        finished.wait(lock, [&] { return slots[i].done; });
        failure = slots[i].failure;
      }
      if (failure) std::rethrow_exception(failure);
      emit(i);
      if (i + window < count) start(i + window);
    }
  } catch (...) {  // cleanup: the others stop and are waited for, then the failure goes on
    {
      std::lock_guard lock(mutex);
      abandon = true;
    }
    pool.wait();  // the archives still being read finish (their results are dropped)
    throw;
  }
  pool.wait();
}

}  // namespace zanj
