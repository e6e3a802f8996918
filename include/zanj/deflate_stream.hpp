#pragma once
// Raw deflate (RFC 1951 without a zlib header: what a ZIP member holds) of bytes arriving in
// chunks. A member that fits in one block is compressed in one zlib stream on the calling
// thread, which gives exactly the bytes Python's zipfile writes at the same level. Longer
// members are cut into blocks compressed on worker threads, each primed with the 32 KiB
// before it as a preset dictionary and ended by a sync flush (the way pigz does it): both
// cores work and the result is still one valid deflate stream. Memory stays at a few blocks.
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace zanj {

/// Worker threads shared by the members of one archive.
class DeflatePool {
 public:
  explicit DeflatePool(unsigned threads);
  ~DeflatePool();
  DeflatePool(const DeflatePool&) = delete;
  DeflatePool& operator=(const DeflatePool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()); }
  /// Run `job` on a worker. Jobs must not throw (they report errors through their own state).
  void submit(std::function<void()> job);

 private:
  void work();
  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

/// CPUs this process may run on (its affinity mask), at least 1.
unsigned available_cpus();

class DeflateStream {
 public:
  using Sink = std::function<void(std::string_view compressed)>;
  /// Input is cut into blocks of this size when a pool is used.
  static constexpr std::size_t kBlockSize = std::size_t{1} << 20;

  /// `level` 0-9. With `pool` null (or of one thread) everything runs on the calling thread.
  /// `sink` receives the compressed bytes in order, always on the calling thread.
  DeflateStream(int level, DeflatePool* pool, Sink sink);
  ~DeflateStream();
  DeflateStream(const DeflateStream&) = delete;
  DeflateStream& operator=(const DeflateStream&) = delete;

  void write(std::string_view data);
  /// Compress what is left and end the deflate stream. Call once; no write() afterwards.
  void finish();

 private:
  struct Block;
  struct Shared;
  void submit_block(bool last);
  void emit_ready(bool wait_for_one);
  void sequential(std::string_view data, bool finish);

  int level_;
  DeflatePool* pool_;
  Sink sink_;
  std::string pending_;     ///< input not yet handed to a block
  std::string dictionary_;  ///< the last 32 KiB of input before `pending_`
  std::shared_ptr<Shared> shared_;
  std::deque<std::shared_ptr<Block>> in_flight_;
  bool parallel_ = false;   ///< blocks have been submitted for this member
  struct ZStream;
  std::unique_ptr<ZStream> stream_;  ///< the single zlib stream of sequential mode
};

}  // namespace zanj
