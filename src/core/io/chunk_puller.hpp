#pragma once
// Pulling chunks from a push-style reader. Archive::read, for_each_jsonl_line and the array
// readers call a sink with each chunk; `diff` needs chunks from two such readers in lockstep.
// A ChunkPuller runs one reader on a worker thread that hands its chunks over through a
// bounded queue: the caller asks for the next chunk when it wants it, memory stays bounded by
// the queue's byte budget (plus one chunk), and the second core decodes while the first
// compares.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "base/thread_pool.hpp"

namespace zanj::io {

class ChunkPuller {
 public:
  /// Receives chunks on the worker thread; returns false when the consumer wants no more.
  using Sink = std::function<bool(std::string_view chunk)>;
  /// Streams everything to the sink, stopping early when the sink returns false. Runs on the
  /// worker thread; whatever it throws is rethrown by next() after the chunks queued before.
  using Producer = std::function<void(const Sink& sink)>;

  /// Starts the producer at once. The queue holds chunks up to `max_queued_bytes` in total,
  /// and always at least one chunk, however large. With `chunk_bytes` (the largest chunk the
  /// producer passes), the buffers every chunk is copied into are allocated here, on the
  /// caller's thread, before the producer starts: what a thread allocates is freed into its own
  /// malloc arena, where it stays resident and the caller's later allocations cannot use it.
  explicit ChunkPuller(Producer producer, std::size_t max_queued_bytes = std::size_t{4} << 20,
                       std::size_t chunk_bytes = 0);
  /// Stops the producer (its sink returns false from then on) and waits for the thread.
  ~ChunkPuller();
  ChunkPuller(const ChunkPuller&) = delete;
  ChunkPuller& operator=(const ChunkPuller&) = delete;

  /// The next chunk (possibly empty, when the producer passed an empty one) into `chunk`; false
  /// once the producer has finished and every chunk was taken. Rethrows the producer's error.
  bool next(std::string& chunk);

 private:
  bool push(std::string_view chunk);  // the sink, on the worker thread
  void run(const Producer& producer);

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queue_;
  std::vector<std::string> spare_;  ///< buffers of chunks taken, for the producer to fill again
  std::size_t queued_bytes_ = 0;
  const std::size_t max_queued_bytes_;
  bool finished_ = false;  // the producer returned or threw
  bool stopping_ = false;  // the consumer is gone
  std::exception_ptr error_;
  // A pool of its own, of one worker, rather than a shared one: the producer blocks until
  // the consumer takes its chunks, for as long as the stream lasts, so on a shared bounded
  // pool two pullers (diff reads both archives in lockstep) could take every worker and the
  // task feeding the other side would never start. Last: destroyed (joined) first.
  base::ThreadPool worker_{1};
};

}  // namespace zanj::io
