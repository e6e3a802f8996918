#include "remote/remote_source.hpp"

#include <cstdlib>
#include <mutex>

#include "io/spool_file.hpp"
#include "remote/gcs_address.hpp"
#include "remote/s3_address.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

// The first request: the last 64 KiB + 22 bytes, where the directory reader looks for end
// records (as Python's zipfile does); a small central directory fits too.
constexpr std::size_t kTailBytes = (64 << 10) + 22;

}  // namespace

std::string set_aside_url_credentials(const std::string& url, RemoteOptions& options) {
  if (!is_remote_url(url)) return url;
  std::string display = remote::without_credentials(url);
  if (display != url) options.url_credentials[display] = url;
  return display;
}

remote::FetchTarget remote::fetch_target(const remote::RemoteUrl& url, const RemoteOptions& options) {
  const remote::Environment environment = [](const char* name) { return std::getenv(name); };
  if (url.scheme == remote::RemoteUrl::Scheme::gs) return remote::gcs_fetch_target(url, environment, options);
  remote::FetchTarget target;
  target.display = url.display;
  if (url.scheme != remote::RemoteUrl::Scheme::s3) {
    target.url = url.text;
    if (const auto it = options.url_credentials.find(url.text); it != options.url_credentials.end())
      target.url = it->second;
    return target;
  }
  remote::S3Access access = remote::s3_access(url, url.display, environment, options);
  target.url = std::move(access.url);
  target.credentials = std::move(access.credentials);
  return target;
}

remote::RemoteSource::RemoteSource(const remote::RemoteUrl& url, const RemoteOptions& options)
    : fetcher_(std::make_unique<remote::RangeFetcher>(remote::fetch_target(url, options), options)) {
  if (options.insecure && options.warn)
    options.warn(url.display + ": --insecure: the server's TLS certificate is not verified");
  std::unique_ptr<io::SpoolFile> spool;
  const auto opening = fetcher_->open(kTailBytes, [&](std::string_view chunk) {
    if (!spool) spool = std::make_unique<io::SpoolFile>();
    spool->append(chunk);
  });
  size_ = opening.size;
  if (opening.whole) {
    downloaded_ = spool ? std::move(spool) : std::unique_ptr<io::ByteSource>(std::make_unique<io::MemorySource>(""));
    return;
  }
  const remote::RangeFetcher* fetcher = fetcher_.get();
  cache_ = std::make_unique<remote::BlockCache>(
      size_, [fetcher](std::uint64_t offset, char* out, std::size_t n) { fetcher->fetch(offset, out, n); });
  cache_->insert(opening.tail_offset, opening.tail);
}

remote::RemoteSource::~RemoteSource() = default;

template <class Read>
auto remote::RemoteSource::remembering(Read read) const {
  try {
    return read();
  } catch (const Error&) {  // cleanup: kept for rethrow_failure, then rethrown
    std::lock_guard lock(failure_mutex_);
    if (!failure_) failure_ = std::current_exception();
    throw;
  }
}

void remote::RemoteSource::rethrow_failure() const {
  std::lock_guard lock(failure_mutex_);
  if (failure_) std::rethrow_exception(failure_);
}

std::size_t remote::RemoteSource::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (downloaded_) return downloaded_->read_some(offset, buffer, n);
  if (offset >= size_) return 0;
  n = static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - offset));
  if (n > 0) remembering([&] { cache_->read(offset, static_cast<char*>(buffer), n); });
  return n;
}

void remote::RemoteSource::read_at(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (downloaded_) return downloaded_->read_at(offset, buffer, n);
  if (offset > size_ || n > size_ - offset)
    throw Error("unexpected end of file (wanted " + std::to_string(n) + " bytes at offset " + std::to_string(offset) +
                ", file has " + std::to_string(size_) + ")");
  if (n > 0) remembering([&] { cache_->read(offset, static_cast<char*>(buffer), n); });
}

void remote::RemoteSource::will_need(std::uint64_t offset, std::uint64_t n) const {
  if (cache_) remembering([&] { cache_->will_need(offset, n); });
}

}  // namespace zanj
