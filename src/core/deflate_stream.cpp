#include "zanj/deflate_stream.hpp"

#include <sched.h>
#include <zlib.h>

#include <algorithm>
#include <exception>

#include "zanj/error.hpp"

namespace zanj {
namespace {

constexpr std::size_t kWindow = 32 * 1024;        // deflate's window: the useful dictionary
constexpr std::size_t kOutChunk = 256 * 1024;     // sequential mode's output buffer
constexpr int kMemLevel = 8;                      // zlib's default, as Python uses it
constexpr int kRawDeflate = -15;                  // negative window bits: no zlib header

[[noreturn]] void zlib_failed(const char* what, int code) {
  throw Error(std::string("deflate: ") + what + " failed (zlib error " + std::to_string(code) + ")");
}

void init_raw_deflate(z_stream& zs, int level) {
  zs = z_stream{};
  const int r = deflateInit2(&zs, level, Z_DEFLATED, kRawDeflate, kMemLevel, Z_DEFAULT_STRATEGY);
  if (r != Z_OK) zlib_failed("deflateInit2", r);
}

/// Feed `input` to `zs` with `flush`, appending everything it produces to `out`.
void deflate_into(z_stream& zs, std::string_view input, int flush, std::string& out) {
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(input.data()));
  zs.avail_in = static_cast<uInt>(input.size());
  for (;;) {
    const std::size_t before = out.size();
    out.resize(before + kOutChunk);
    zs.next_out = reinterpret_cast<Bytef*>(out.data() + before);
    zs.avail_out = static_cast<uInt>(kOutChunk);
    const int r = deflate(&zs, flush);
    out.resize(out.size() - zs.avail_out);
    if (r == Z_STREAM_END) return;
    if (r != Z_OK && r != Z_BUF_ERROR) zlib_failed("deflate", r);
    // Done when zlib had output room left over: it has nothing more to say for this flush.
    if (zs.avail_out != 0 && zs.avail_in == 0 && flush != Z_FINISH) return;
  }
}

}  // namespace

// ---- DeflatePool -------------------------------------------------------------

DeflatePool::DeflatePool(unsigned threads) {
  for (unsigned i = 0; i < std::max(threads, 1u); ++i) workers_.emplace_back([this] { work(); });
}

DeflatePool::~DeflatePool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void DeflatePool::submit(std::function<void()> job) {
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(std::move(job));
  }
  wake_.notify_one();
}

void DeflatePool::work() {
  for (;;) {
    std::function<void()> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping, and nothing left to do
      job = std::move(jobs_.front());
      jobs_.pop_front();
    }
    job();
  }
}

unsigned available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// ---- DeflateStream -------------------------------------------------------------

struct DeflateStream::ZStream {
  z_stream zs{};
  explicit ZStream(int level) { init_raw_deflate(zs, level); }
  ~ZStream() { deflateEnd(&zs); }
};

/// One block compressed on a worker.
struct DeflateStream::Block {
  std::string input, dictionary, output;
  bool last = false;
  bool done = false;
  std::exception_ptr error;
};

/// What the workers share with the stream: they signal completion here. Held by shared_ptr
/// so a job finishing after an exception unwound the stream still has somewhere to report.
struct DeflateStream::Shared {
  std::mutex mutex;
  std::condition_variable finished;
};

DeflateStream::DeflateStream(int level, DeflatePool* pool, Sink sink)
    : level_(level), pool_(pool && pool->threads() > 1 ? pool : nullptr), sink_(std::move(sink)),
      shared_(std::make_shared<Shared>()) {
  if (level < 0 || level > 9) throw Error("deflate level must be 0-9, not " + std::to_string(level), Exit::usage);
}

DeflateStream::~DeflateStream() {
  // Do not leave workers compressing into blocks nobody will read; wait for them.
  std::unique_lock lock(shared_->mutex);
  shared_->finished.wait(lock, [this] {
    return std::all_of(in_flight_.begin(), in_flight_.end(), [](const auto& b) { return b->done; });
  });
}

void DeflateStream::sequential(std::string_view data, bool finish) {
  if (!stream_) stream_ = std::make_unique<ZStream>(level_);
  std::string out;
  // Bounded memory: hand zlib at most one output chunk's worth of input per round.
  do {
    const std::string_view piece = data.substr(0, kOutChunk);
    data.remove_prefix(piece.size());
    deflate_into(stream_->zs, piece, finish && data.empty() ? Z_FINISH : Z_NO_FLUSH, out);
    if (!out.empty()) sink_(out);
    out.clear();
  } while (!data.empty());
}

void DeflateStream::write(std::string_view data) {
  if (!pool_) {
    if (!data.empty()) sequential(data, false);
    return;
  }
  while (!data.empty()) {
    const std::size_t take = std::min(data.size(), kBlockSize - pending_.size());
    pending_.append(data.substr(0, take));
    data.remove_prefix(take);
    if (pending_.size() == kBlockSize) submit_block(false);
  }
}

void DeflateStream::finish() {
  if (!pool_ || !parallel_) {
    // One zlib stream for the whole member: the same bytes Python's zipfile writes.
    sequential(pending_, true);
    pending_.clear();
    return;
  }
  submit_block(true);
  while (!in_flight_.empty()) emit_ready(true);
}

void DeflateStream::submit_block(bool last) {
  parallel_ = true;
  auto block = std::make_shared<Block>();
  block->input = std::move(pending_);
  block->dictionary = dictionary_;
  block->last = last;
  const std::size_t keep = std::min(block->input.size(), kWindow);
  // The next block's dictionary: the end of this block, topped up from the old dictionary.
  if (keep < kWindow) {
    dictionary_.append(block->input);
    if (dictionary_.size() > kWindow) dictionary_.erase(0, dictionary_.size() - kWindow);
  } else {
    dictionary_.assign(block->input, block->input.size() - keep, keep);
  }
  pending_ = std::string();
  pending_.reserve(kBlockSize);
  in_flight_.push_back(block);
  pool_->submit([block, shared = shared_, level = level_] {
    try {
      z_stream zs{};
      init_raw_deflate(zs, level);
      try {
        if (!block->dictionary.empty()) {
          const int r = deflateSetDictionary(&zs, reinterpret_cast<const Bytef*>(block->dictionary.data()),
                                             static_cast<uInt>(block->dictionary.size()));
          if (r != Z_OK) zlib_failed("deflateSetDictionary", r);
        }
        block->output.reserve(deflateBound(&zs, static_cast<uLong>(block->input.size())) + 16);
        // A sync flush ends the block on a byte boundary without ending the stream, so the
        // next block's output can simply follow it.
        deflate_into(zs, block->input, block->last ? Z_FINISH : Z_SYNC_FLUSH, block->output);
      } catch (...) {
        deflateEnd(&zs);
        throw;
      }
      deflateEnd(&zs);
    } catch (...) {
      block->error = std::current_exception();
    }
    block->input = std::string();
    std::lock_guard lock(shared->mutex);
    block->done = true;
    shared->finished.notify_all();
  });
  // Keep a few blocks in flight per worker, no more: that bounds memory.
  while (in_flight_.size() >= 2 * pool_->threads()) emit_ready(true);
  emit_ready(false);
}

void DeflateStream::emit_ready(bool wait_for_one) {
  while (!in_flight_.empty()) {
    std::shared_ptr<Block> front = in_flight_.front();
    {
      std::unique_lock lock(shared_->mutex);
      if (!front->done) {
        if (!wait_for_one) return;
        shared_->finished.wait(lock, [&] { return front->done; });
      }
    }
    in_flight_.pop_front();
    if (front->error) std::rethrow_exception(front->error);
    if (!front->output.empty()) sink_(front->output);
    if (wait_for_one) return;
  }
}

}  // namespace zanj
