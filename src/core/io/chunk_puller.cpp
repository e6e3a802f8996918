#include "io/chunk_puller.hpp"

#include <algorithm>
#include <utility>

namespace zanj::io {

namespace {
// What a queued chunk costs besides its bytes (the string and the deque slot): a stream of
// one-byte jsonl lines must not queue millions of chunks inside a byte budget.
constexpr std::size_t kChunkOverhead = 64;
// Buffers kept for reuse: the queue's chunks, the one the consumer holds and the one being
// filled. More would only be memory; fewer, allocations on the producer's thread.
constexpr std::size_t kMostSpare = 8;
}  // namespace

ChunkPuller::ChunkPuller(Producer producer, std::size_t max_queued_bytes, std::size_t chunk_bytes)
    : max_queued_bytes_(max_queued_bytes) {
  if (chunk_bytes) {
    const std::size_t buffers = std::min(kMostSpare, max_queued_bytes / (chunk_bytes + kChunkOverhead) + 2);
    spare_.resize(buffers);
    for (std::string& buffer : spare_) buffer.reserve(chunk_bytes);
  }
  worker_.submit([this, p = std::move(producer)] { run(p); });
}

ChunkPuller::~ChunkPuller() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.wait();
}

void ChunkPuller::run(const Producer& producer) {
  std::exception_ptr error;
  try {
    producer([this](std::string_view chunk) { return push(chunk); });
  } catch (...) {  // boundary: the producer thread's failure returns to the puller
    error = std::current_exception();
  }
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
    error_ = error;
  }
  changed_.notify_all();
}

bool ChunkPuller::push(std::string_view chunk) {
  std::unique_lock lock(mutex_);
  // Wait for room; an empty queue always takes one chunk so oversized chunks cannot deadlock.
  changed_.wait(lock, [&] {
    return stopping_ || queue_.empty() || queued_bytes_ + chunk.size() + kChunkOverhead <= max_queued_bytes_;
  });
  if (stopping_) return false;
  std::string buffer;
  if (!spare_.empty()) {
    buffer = std::move(spare_.back());
    spare_.pop_back();
  }
  // Copied unlocked: the consumer takes chunks meanwhile, and only this thread adds them, so
  // the room found stays.
  lock.unlock();
  buffer.assign(chunk);
  lock.lock();
  if (stopping_) return false;
  const bool was_empty = queue_.empty();
  queue_.push_back(std::move(buffer));
  queued_bytes_ += chunk.size() + kChunkOverhead;
  lock.unlock();
  if (was_empty) changed_.notify_all();  // only an empty queue can have a waiting consumer
  return true;
}

bool ChunkPuller::next(std::string& chunk) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [&] { return !queue_.empty() || finished_; });
  if (queue_.empty()) {
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return false;
  }
  if (chunk.capacity() > 0 && spare_.size() < kMostSpare) spare_.push_back(std::move(chunk));
  chunk = std::move(queue_.front());
  queue_.pop_front();
  queued_bytes_ -= chunk.size() + kChunkOverhead;
  lock.unlock();
  changed_.notify_all();  // the producer may be waiting for room
  return true;
}

}  // namespace zanj::io
