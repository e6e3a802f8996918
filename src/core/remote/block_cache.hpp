#pragma once
// The bytes of a remote file already fetched, so that no byte is fetched twice in one command
// and small reads do not each cost a request. Misses are fetched as aligned ranges, gaps
// between pieces already held are filled in one request, and a reader going forward through
// the file (verify, extract, a long member) gets growing read-ahead. Memory is bounded: past
// `max_held`, pieces a stream has read through go first (they are not read again), then the
// least recently used of the others, and last the windows a stream has not reached yet. Safe to use from several
// threads: a range being fetched by one thread is waited for, not fetched again, by another. A stream's next window is
// fetched in the background while the reader works on the current one, so fetching and checking overlap.
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"

namespace zanj::remote {

class BlockCache {
 public:
  /// Fetches exactly n bytes at offset into out (never past the size given); may throw.
  using Fetch = std::function<void(std::uint64_t offset, char* out, std::size_t n)>;
  struct Settings {
    std::size_t alignment = 4096;            ///< fetched ranges start and end on multiples of this
    std::uint64_t stream_after = 256 << 10;  ///< bytes read in sequence before read-ahead starts
    std::size_t max_read_ahead = 2 << 20;    ///< read-ahead grows with the stream up to this
    std::size_t max_held = 16 << 20;         ///< bytes kept between reads
  };

  BlockCache(std::uint64_t size, Fetch fetch);
  BlockCache(std::uint64_t size, Fetch fetch, Settings settings);

  /// Keep bytes obtained otherwise (the tail the first request brought) at `offset`.
  void insert(std::uint64_t offset, const std::string& bytes);
  /// Copy [offset, offset + n) into out, fetching what is missing. The caller keeps within size.
  void read(std::uint64_t offset, char* out, std::size_t n);
  /// Fetch what is missing of [offset, offset + n) now (clipped to the size), without read-ahead.
  void will_need(std::uint64_t offset, std::uint64_t n);
  /// Bytes held now.
  std::uint64_t held() const;

 private:
  struct Extent {
    std::string bytes;
    std::uint64_t last_use = 0;
    bool streamed = false;  ///< fetched with read-ahead: a stream passes over it once
    bool passed = false;    ///< a stream has read through its end: the first to go
  };
  struct Range {
    std::uint64_t begin, end;
  };
  struct Stream {
    std::uint64_t begin = 0, end = 0, run = 0;  ///< last read, bytes read in sequence so far
  };

  /// Read-ahead for a read of [offset, offset + n): grows with the stream it continues.
  std::uint64_t read_ahead(std::uint64_t offset, std::size_t n);
  /// Copy what is held and fetch what is missing of [offset, end); out may be null.
  void fill(std::uint64_t offset, std::uint64_t end, char* out, std::uint64_t ahead,
            std::unique_lock<std::mutex>& lock);
  /// The extent holding `at`, or end().
  std::map<std::uint64_t, Extent>::iterator holding(std::uint64_t at);
  bool in_flight(std::uint64_t at) const;
  /// Where the held or in-flight bytes nearest after `at` start, or size_.
  std::uint64_t next_boundary(std::uint64_t at) const;
  /// Where the held or in-flight bytes nearest before `at` end, or 0.
  std::uint64_t previous_boundary(std::uint64_t at) const;
  void evict();
  /// Remember that [begin, end) was fetched once (merged into fetched_ever_).
  void note_fetched(std::uint64_t begin, std::uint64_t end);
  /// The first byte at or after `at` fetched before (held or not), or size_: read-ahead stops
  /// there, so a stream running into bytes another reader fetched (and the cache since
  /// dropped) does not fetch them again.
  std::uint64_t next_fetched(std::uint64_t at) const;
  /// Start fetching the window after [.., end) in the background, unless it is held, on its
  /// way, or more than one window ahead of the reader.
  void prefetch(std::uint64_t end, std::uint64_t ahead);

  const std::uint64_t size_;
  const Fetch fetch_;
  const Settings settings_;
  mutable std::mutex mutex_;
  std::condition_variable fetched_;
  std::map<std::uint64_t, Extent> extents_;  // by first byte; never overlapping
  std::vector<Range> in_flight_;
  std::vector<Stream> streams_;
  std::size_t next_stream_ = 0;
  std::uint64_t held_ = 0, clock_ = 0;
  bool exact_ = false;
  std::map<std::uint64_t, std::uint64_t>
      fetched_ever_;  // begin -> end, merged, never overlapping  // will_need: fetch exactly what was named
  // Last: destroyed (its prefetch finished) before the state it uses.
  base::ThreadPool prefetcher_{1};
};

}  // namespace zanj::remote
