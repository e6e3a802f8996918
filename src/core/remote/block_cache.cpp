#include "remote/block_cache.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <tuple>

namespace zanj::remote {
namespace {

constexpr std::size_t kStreams = 8;  // readers followed at once (verify's threads, diff's two sides)

std::uint64_t align_down(std::uint64_t x, std::uint64_t a) { return x - x % a; }
std::uint64_t align_up(std::uint64_t x, std::uint64_t a) { return x % a == 0 ? x : x + (a - x % a); }

}  // namespace

BlockCache::BlockCache(std::uint64_t size, Fetch fetch) : BlockCache(size, std::move(fetch), Settings{}) {}

BlockCache::BlockCache(std::uint64_t size, Fetch fetch, Settings settings)
    : size_(size), fetch_(std::move(fetch)), settings_(settings), streams_(kStreams) {}

std::uint64_t BlockCache::held() const {
  std::lock_guard lock(mutex_);
  return held_;
}

void BlockCache::insert(std::uint64_t offset, const std::string& bytes) {
  std::unique_lock lock(mutex_);
  // Only the part not held already: extents never overlap.
  std::uint64_t at = offset;
  const std::uint64_t end = std::min<std::uint64_t>(offset + bytes.size(), size_);
  while (at < end) {
    if (auto it = holding(at); it != extents_.end()) {
      at = it->first + it->second.bytes.size();
      continue;
    }
    const std::uint64_t stop = std::min(end, next_boundary(at));
    Extent extent;
    extent.bytes = bytes.substr(static_cast<std::size_t>(at - offset), static_cast<std::size_t>(stop - at));
    extent.last_use = ++clock_;
    held_ += extent.bytes.size();
    note_fetched(at, stop);
    extents_.emplace(at, std::move(extent));
    at = stop;
  }
  evict();
}

void BlockCache::read(std::uint64_t offset, char* out, std::size_t n) {
  if (n == 0) return;
  std::unique_lock lock(mutex_);
  const std::uint64_t ahead = read_ahead(offset, n);
  fill(offset, offset + n, out, ahead, lock);
  evict();
  if (ahead > 0) prefetch(offset + n, ahead);
}

void BlockCache::prefetch(std::uint64_t end, std::uint64_t ahead) {
  std::uint64_t from = end;
  for (auto it = holding(from); it != extents_.end(); it = holding(from)) from = it->first + it->second.bytes.size();
  if (from >= size_ || from - end >= ahead || in_flight(from)) return;
  std::uint64_t to = std::min({from + ahead, next_boundary(from), next_fetched(from)});
  // A window must fit beside what nobody has read through yet (pieces held for a reader, other
  // windows, bytes being fetched): landing, it would otherwise push such bytes out, and they
  // would be fetched a second time. Passed pieces go first, so they do not count.
  std::uint64_t unread = 0;
  for (const auto& [offset, extent] : extents_)
    if (!extent.passed) unread += extent.bytes.size();
  for (const Range& r : in_flight_) unread += r.end - r.begin;
  if (unread >= settings_.max_held) return;
  to = std::min(to, from + (settings_.max_held - unread));
  if (to <= from) return;
  in_flight_.push_back(Range{from, to});
  prefetcher_.submit([this, from, to] {
    std::string bytes(static_cast<std::size_t>(to - from), '\0');
    bool fetched = true;
    try {
      fetch_(from, bytes.data(), bytes.size());
    } catch (...) {     // boundary: a read-ahead thread; its reader retries
      fetched = false;  // the reader fetches these bytes itself and meets the error there
    }
    std::lock_guard lock(mutex_);
    in_flight_.erase(std::find_if(in_flight_.begin(), in_flight_.end(),
                                  [&](const Range& r) { return r.begin == from && r.end == to; }));
    if (fetched) {
      note_fetched(from, to);
      Extent extent;
      extent.bytes = std::move(bytes);
      extent.last_use = ++clock_;
      extent.streamed = true;
      held_ += extent.bytes.size();
      extents_.emplace(from, std::move(extent));
      evict();
    }
    fetched_.notify_all();
  });
}

void BlockCache::will_need(std::uint64_t offset, std::uint64_t n) {
  if (offset >= size_) return;
  std::unique_lock lock(mutex_);
  exact_ = true;  // the caller knows what it needs: no rounding to the alignment
  fill(offset, offset + std::min(n, size_ - offset), nullptr, 0, lock);
  exact_ = false;
  evict();
}

std::uint64_t BlockCache::read_ahead(std::uint64_t offset, std::size_t n) {
  // A read continuing one of the last few (starting inside it or just after its end) extends
  // that stream; anything else starts a new one, replacing the oldest.
  for (Stream& s : streams_) {
    if (s.end == 0 || offset < s.begin || offset > s.end + settings_.alignment) continue;
    s.run += offset + n > s.end ? offset + n - s.end : 0;
    s.begin = offset;
    s.end = std::max(s.end, offset + n);
    return s.run >= settings_.stream_after ? std::min<std::uint64_t>(s.run, settings_.max_read_ahead) : 0;
  }
  streams_[next_stream_] = Stream{offset, offset + n, n};
  next_stream_ = (next_stream_ + 1) % streams_.size();
  return 0;
}

std::map<std::uint64_t, BlockCache::Extent>::iterator BlockCache::holding(std::uint64_t at) {
  auto it = extents_.upper_bound(at);
  if (it == extents_.begin()) return extents_.end();
  --it;
  return at < it->first + it->second.bytes.size() ? it : extents_.end();
}

bool BlockCache::in_flight(std::uint64_t at) const {
  return std::any_of(in_flight_.begin(), in_flight_.end(), [&](const Range& r) { return r.begin <= at && at < r.end; });
}

std::uint64_t BlockCache::next_boundary(std::uint64_t at) const {
  std::uint64_t next = size_;
  if (auto it = extents_.upper_bound(at); it != extents_.end()) next = std::min(next, it->first);
  for (const Range& r : in_flight_)
    if (r.begin > at) next = std::min(next, r.begin);
  return next;
}

std::uint64_t BlockCache::previous_boundary(std::uint64_t at) const {
  std::uint64_t previous = 0;
  if (auto it = extents_.upper_bound(at); it != extents_.begin()) {
    --it;
    previous = std::max<std::uint64_t>(previous, it->first + it->second.bytes.size());
  }
  for (const Range& r : in_flight_)
    if (r.end <= at) previous = std::max(previous, r.end);
  return previous;
}

void BlockCache::fill(std::uint64_t offset, std::uint64_t end, char* out, std::uint64_t ahead,
                      std::unique_lock<std::mutex>& lock) {
  std::uint64_t at = offset;
  while (at < end) {
    if (auto it = holding(at); it != extents_.end()) {
      const std::uint64_t stop = std::min<std::uint64_t>(end, it->first + it->second.bytes.size());
      if (out)
        std::memcpy(out + (at - offset), it->second.bytes.data() + (at - it->first),
                    static_cast<std::size_t>(stop - at));
      it->second.last_use = ++clock_;
      if (ahead > 0 && stop == it->first + it->second.bytes.size()) it->second.passed = true;
      at = stop;
      continue;
    }
    if (in_flight(at)) {  // another thread is fetching these bytes: wait for them
      fetched_.wait(lock);
      continue;
    }
    // A miss: widen it to aligned bounds and the read-ahead, but never over bytes held or
    // being fetched, nor past the end.
    const std::uint64_t alignment = exact_ ? 1 : settings_.alignment;
    const std::uint64_t from = std::max(align_down(at, alignment), previous_boundary(at));
    std::uint64_t want = align_up(std::max(end, at + ahead), alignment);
    if (want > end) want = std::max(end, std::min(want, next_fetched(end)));  // read-ahead never refetches
    const std::uint64_t to = std::min(want, next_boundary(at));
    // A range too large to keep goes straight to the caller.
    const bool direct = out && to - from > settings_.max_held / 2;
    const std::uint64_t fetch_from = direct ? at : from, fetch_to = direct ? std::min(end, to) : to;
    in_flight_.push_back(Range{fetch_from, fetch_to});
    lock.unlock();
    std::string bytes;
    std::exception_ptr failure;
    try {
      if (direct) {
        fetch_(fetch_from, out + (at - offset), static_cast<std::size_t>(fetch_to - fetch_from));
      } else {
        bytes.resize(static_cast<std::size_t>(fetch_to - fetch_from));
        fetch_(fetch_from, bytes.data(), bytes.size());
      }
    } catch (...) {  // boundary: the fetching thread hands it to waiters
      failure = std::current_exception();
    }
    lock.lock();
    in_flight_.erase(std::find_if(in_flight_.begin(), in_flight_.end(),
                                  [&](const Range& r) { return r.begin == fetch_from && r.end == fetch_to; }));
    fetched_.notify_all();
    if (failure) std::rethrow_exception(failure);
    if (direct) {
      note_fetched(fetch_from, fetch_to);
      at = fetch_to;
      continue;
    }
    note_fetched(fetch_from, fetch_to);
    Extent extent;
    extent.bytes = std::move(bytes);
    extent.last_use = ++clock_;
    extent.streamed = ahead > 0;
    held_ += extent.bytes.size();
    extents_.emplace(fetch_from, std::move(extent));
  }
}

void BlockCache::note_fetched(std::uint64_t begin, std::uint64_t end) {
  // Merge with every interval touching [begin, end).
  auto it = fetched_ever_.upper_bound(begin);
  if (it != fetched_ever_.begin() && std::prev(it)->second >= begin) --it;
  while (it != fetched_ever_.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    it = fetched_ever_.erase(it);
  }
  fetched_ever_.emplace(begin, end);
}

std::uint64_t BlockCache::next_fetched(std::uint64_t at) const {
  auto it = fetched_ever_.upper_bound(at);
  if (it != fetched_ever_.begin() && std::prev(it)->second > at) return at;
  return it == fetched_ever_.end() ? size_ : it->first;
}

void BlockCache::evict() {
  while (held_ > settings_.max_held && !extents_.empty()) {
    // Pieces a stream has passed first (a stream does not come back), then the least recently
    // used, and only then windows a stream has yet to reach: they are what it reads next.
    const auto rank = [](const Extent& e) { return std::tuple(!e.passed, e.streamed, e.last_use); };
    auto victim = extents_.end();
    for (auto it = extents_.begin(); it != extents_.end(); ++it)
      if (victim == extents_.end() || rank(it->second) < rank(victim->second)) victim = it;
    held_ -= victim->second.bytes.size();
    extents_.erase(victim);
  }
}

}  // namespace zanj::remote
