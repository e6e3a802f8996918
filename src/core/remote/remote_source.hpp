#pragma once
// A URL as a ByteSource: the first request fetches the file's tail (where a ZIP keeps its end
// record and, usually, its central directory) and learns the size; every read after that goes
// through the block cache, which fetches only what it does not hold. A server that ignores
// ranges is downloaded once into an unlinked temporary file and read there (up to
// --download-max, or any size with --download).
#include <exception>
#include <memory>
#include <mutex>
#include <string>

#include "io/byte_source.hpp"
#include "remote/block_cache.hpp"
#include "remote/range_fetcher.hpp"
#include "remote/url.hpp"

namespace zanj::remote {

class RemoteSource final : public io::ByteSource {
 public:
  /// Opens `url` with `options` (the first request). Throws Error(display + ": ...", usage).
  RemoteSource(const RemoteUrl& url, const RemoteOptions& options);
  ~RemoteSource() override;

  std::uint64_t size() const override { return size_; }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override;
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;
  void will_need(std::uint64_t offset, std::uint64_t n) const override;
  std::optional<TransferCount> transfer() const override { return fetcher_->transfer(); }
  void rethrow_failure() const override;

 private:
  /// Run `read`, keeping the first Error it throws for rethrow_failure().
  template <class Read>
  auto remembering(Read read) const;

  std::unique_ptr<RangeFetcher> fetcher_;
  std::unique_ptr<BlockCache> cache_;
  std::unique_ptr<io::ByteSource> downloaded_;  // --download from a server ignoring ranges
  std::uint64_t size_ = 0;
  mutable std::mutex failure_mutex_;
  mutable std::exception_ptr failure_;
};

/// What libcurl is given for `url`: the URL itself, for s3:// the endpoint's URL and SigV4
/// signing from the environment (s3_address.hpp), for gs:// the media URL pinned to the
/// object's generation and a bearer token (gcs_address.hpp).
FetchTarget fetch_target(const RemoteUrl& url, const RemoteOptions& options);

}  // namespace zanj::remote
