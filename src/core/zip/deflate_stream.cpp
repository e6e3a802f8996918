#include "zip/deflate_stream.hpp"

#include <libdeflate.h>

#include <algorithm>
#include <exception>
#include <memory>

#include "zanj/error.hpp"
#include "zip/deflate_blocks.hpp"

namespace zanj::zip {
namespace {

/// What a thread keeps for compressing: libdeflate compressors are costly to set up (one per
/// thread and level), and each block is compressed into a buffer kept with it and copied out
/// at its size. A buffer of the bound made for each block (a megabyte, the size of the block,
/// for a few kilobytes of output) was memory touched anew for each one in flight, and in a
/// worker's malloc arena, which nothing else reuses (4 MiB of the peak of pack on a
/// 50,000-member tar, which writes a 7 MB meta).
struct ThreadDeflater {
  int level = -1;
  libdeflate_compressor* compressor = nullptr;
  std::unique_ptr<char[]> scratch;
  std::size_t scratch_size = 0;
  ~ThreadDeflater() { libdeflate_free_compressor(compressor); }
};

ThreadDeflater& deflater_for(int level) {
  thread_local ThreadDeflater deflater;
  if (deflater.level != level) {
    libdeflate_free_compressor(deflater.compressor);
    deflater.compressor = libdeflate_alloc_compressor(level);
    deflater.level = deflater.compressor ? level : -1;
    if (!deflater.compressor) throw Error("deflate: cannot set up level " + std::to_string(level));
  }
  return deflater;
}

/// One complete raw deflate stream of `input`, in a string of its size.
std::string compress_whole(std::string_view input, int level) {
  ThreadDeflater& d = deflater_for(level);
  const std::size_t bound = libdeflate_deflate_compress_bound(d.compressor, input.size());
  if (d.scratch_size < bound) {
    d.scratch = std::make_unique_for_overwrite<char[]>(bound);
    d.scratch_size = bound;
  }
  const std::size_t n = libdeflate_deflate_compress(d.compressor, input.data(), input.size(), d.scratch.get(), bound);
  if (n == 0) throw Error("deflate: output larger than its bound");  // cannot happen with the bound
  return std::string(d.scratch.get(), n);
}

}  // namespace

void unfinish_deflate_stream(std::string& stream) {
  // Where the last block's header starts and how many bits are left after its end: the block
  // walker steps over the blocks without inflating them, in less than half the time zlib's
  // inflate took.
  const DeflateBlockEnds ends = find_deflate_block_ends(stream);
  const std::uint64_t last_header_bit = ends.last_header_bit;
  const auto unused_bits = static_cast<unsigned>((8 - ends.end_bit % 8) % 8);

  stream[last_header_bit / 8] = static_cast<char>(stream[last_header_bit / 8] & ~(1u << (last_header_bit % 8)));
  // An empty stored block: 3 header bits (not final, type 00) in the unused bits or a new
  // byte, padding to the byte boundary, then LEN 0 and NLEN 0xFFFF.
  stream.back() = static_cast<char>(stream.back() & ((1u << (8 - unused_bits)) - 1));
  if (unused_bits < 3) stream.push_back('\0');
  stream.append("\x00\x00\xff\xff", 4);
}

// ---- DeflateStream -------------------------------------------------------------

/// One block, compressed on a worker (or on the calling thread without a pool).
struct DeflateStream::Block {
  std::string input, output;
  bool last = false;
  bool done = false;
  std::exception_ptr error;

  void compress(int level) noexcept {
    try {
      output = compress_whole(input, level);
      if (!last) unfinish_deflate_stream(output);
    } catch (...) {  // boundary: a worker's failure returns to the caller
      error = std::current_exception();
    }
    input = std::string();
  }
};

/// What the workers share with the stream: they signal completion here. Held by shared_ptr
/// so a job finishing after an exception unwound the stream still has somewhere to report.
struct DeflateStream::Shared {
  std::mutex mutex;
  std::condition_variable finished;
};

DeflateStream::DeflateStream(int level, base::ThreadPool* pool, Sink sink)
    : level_(level),
      pool_(pool && pool->threads() > 1 ? pool : nullptr),
      sink_(std::move(sink)),
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

void DeflateStream::write(std::string_view data) {
  while (!data.empty()) {
    if (pending_.empty()) pending_.reserve(kBlockSize);
    const std::size_t take = std::min(data.size(), kBlockSize - pending_.size());
    pending_.append(data.substr(0, take));
    data.remove_prefix(take);
    if (pending_.size() == kBlockSize) submit_block(false);
  }
}

void DeflateStream::finish() {
  submit_block(true);
  while (!in_flight_.empty()) emit_ready(true);
}

void DeflateStream::submit_block(bool last) {
  auto block = std::make_shared<Block>();
  block->input = std::move(pending_);
  pending_ = std::string();
  block->last = last;
  in_flight_.push_back(block);
  if (!pool_) {
    block->compress(level_);
    block->done = true;
  } else {
    pool_->submit([block, shared = shared_, level = level_] {
      block->compress(level);
      std::lock_guard lock(shared->mutex);
      block->done = true;
      shared->finished.notify_all();
    });
  }
  // Keep a few blocks in flight per worker, no more: that bounds memory.
  while (in_flight_.size() > (pool_ ? 2 * pool_->threads() : 0)) emit_ready(true);
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

}  // namespace zanj::zip
