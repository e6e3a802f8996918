#pragma once
// The one way the core runs work on other threads: a fixed set of workers taking tasks from a
// queue. verify reads groups of members on it, the pack deflater compresses blocks on it, and
// each ChunkPuller runs its producer on a pool of its own (one worker: that producer blocks
// until the consumer takes its chunks, so it must never wait behind, or hold up, other tasks).
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

namespace zanj::base {

class ThreadPool {
 public:
  /// Start `threads` workers (at least one).
  explicit ThreadPool(unsigned threads);
  /// Runs every task already submitted, then joins the workers. An exception a task threw and
  /// nobody collected with wait() is dropped.
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }

  /// Queue `task` for the next free worker. Tasks run in submission order when there is one
  /// worker. A task must not wait for a task queued after it on the same pool: with every
  /// worker waiting, nothing would run it.
  void submit(std::function<void()> task);

  /// Block until every task submitted so far has finished, then rethrow the first exception
  /// any of them threw since the last wait() (the others are dropped).
  void wait();

 private:
  void work();

  std::mutex mutex_;
  std::condition_variable wake_;  // a task was queued, or the pool is stopping
  std::condition_variable idle_;  // the last running task finished
  std::deque<std::function<void()>> tasks_;
  std::size_t unfinished_ = 0;  // queued or running
  std::exception_ptr error_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;  // last: they start once everything above is ready
};

/// fn(i) for every i in [0, count), on the calling thread and on `pool`'s workers (on the
/// calling thread alone without a pool, or for count <= block), in blocks of `block` indices
/// taken in turn: which thread takes which block must change nothing that fn writes (each i
/// writes its own slot). Returns once every call has returned; after an exception no thread
/// takes another block, and the first is rethrown then. The pool must have no other tasks
/// waiting on it.
void for_each_index(ThreadPool* pool, std::size_t count, std::size_t block, const std::function<void(std::size_t)>& fn);
/// The same where each thread's calls need something of their own that no other thread may
/// use (a hasher): the calling thread and each task put on the pool call `per_thread()` once,
/// first, then call what it returned, on that same thread.
void for_each_index_per_thread(ThreadPool* pool, std::size_t count, std::size_t block,
                               const std::function<std::function<void(std::size_t)>()>& per_thread);

/// CPUs this process may use, at least 1: its affinity mask, capped by the cgroup v2 CPU quota
/// (cpu.max of its cgroup and every ancestor, rounded up) where one is set. The default number
/// of threads of every command that has --jobs (verify, pack, hash, ...).
unsigned available_cpus();
/// The threads an API option asks for: `given`, or available_cpus() for 0 (what every
/// `threads` option of the API means by 0).
inline unsigned threads_or_cpus(unsigned given) { return given ? given : available_cpus(); }
/// The CPUs a cgroup v2 cpu.max line ("QUOTA PERIOD", or "max PERIOD") allows, rounded up; 0
/// for no limit or a line it cannot read.
unsigned cgroup_cpu_limit(std::string_view cpu_max);

}  // namespace zanj::base
