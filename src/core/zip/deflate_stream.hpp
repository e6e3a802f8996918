#pragma once
// Raw deflate (RFC 1951 without a zlib header: what a ZIP member holds) of bytes arriving in
// chunks, with libdeflate: at the same level it compresses numeric arrays many times faster
// than zlib, as well or better. libdeflate only compresses whole buffers, so input is cut into
// 1 MiB blocks, each compressed on its own (on a ThreadPool's workers when there are several CPUs).
// Every block but a member's last is then made continuable: the final-block bit of its last
// deflate block is cleared and an empty stored block added so that it ends on a byte boundary
// (what zlib's Z_SYNC_FLUSH emits). The blocks, concatenated in order, are one valid deflate
// stream. Memory stays at a few blocks.
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "base/thread_pool.hpp"

namespace zanj::zip {

/// Make a complete raw deflate stream continuable: clear the final-block bit of its last
/// block and append an empty stored block, so that it ends on a byte boundary and another
/// deflate stream may follow it as the rest of the same stream. Throws Error when `stream`
/// is not a complete deflate stream.
void unfinish_deflate_stream(std::string& stream);

class DeflateStream {
 public:
  using Sink = std::function<void(std::string_view compressed)>;
  /// Input is compressed in blocks of this size.
  static constexpr std::size_t kBlockSize = std::size_t{1} << 20;

  /// `level` 0-9 (libdeflate's scale, like zlib's: 0 stores, 6 is the default). With `pool`
  /// null (or of one thread) blocks are compressed on the calling thread. `sink` receives the
  /// compressed bytes in order, always on the calling thread.
  DeflateStream(int level, base::ThreadPool* pool, Sink sink);
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

  int level_;
  base::ThreadPool* pool_;
  Sink sink_;
  std::string pending_;  ///< input not yet handed to a block
  std::shared_ptr<Shared> shared_;
  std::deque<std::shared_ptr<Block>> in_flight_;
};

}  // namespace zanj::zip
