#pragma once
// One URL's bytes, fetched one range per request (object stores and many CDNs serve no
// multi-range requests) through libcurl. The first response's ETag (else Last-Modified) is
// pinned: every later request carries If-Match/If-Range with it, and a response from another
// version of the file is an error, never mixed into the output. Each 206's Content-Range must
// be the range asked for. Resets, timeouts, 429 and 5xx are retried with backoff (Retry-After
// honoured), and a range cut short is resumed where it stopped.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "remote/credential_provider.hpp"
#include "remote/curl_library.hpp"
#include "remote/curl_setup.hpp"
#include "zanj/archive.hpp"

namespace zanj::remote {

/// What is fetched and how: the URL libcurl fetches and the one messages name.
struct FetchTarget {
  std::string url;                   ///< may hold user:password; never printed
  std::string display;               ///< the URL as messages show it
  std::vector<std::string> headers;  ///< "Name: value", sent with every request
  /// s3:// and gs://: what signs or authorizes each request (SigV4, a bearer token), kept
  /// current; a 401, 403 or ExpiredToken refreshes it once and retries. A 401 or 403 that
  /// stays names the sources tried.
  std::shared_ptr<CredentialProvider> credentials;
};

class RangeFetcher {
 public:
  RangeFetcher(FetchTarget target, RemoteOptions options);
  ~RangeFetcher();
  RangeFetcher(const RangeFetcher&) = delete;
  RangeFetcher& operator=(const RangeFetcher&) = delete;

  struct Opening {
    std::uint64_t size = 0;         ///< the file's size
    std::string tail;               ///< its last bytes (all of them when smaller than asked for)
    std::uint64_t tail_offset = 0;  ///< where `tail` starts (not always size - tail.size())
    bool whole = false;             ///< the server ignored the range; the body went to `whole_body`
  };
  /// The first request: the last `tail_bytes` bytes (Range: bytes=-N), which also tell the
  /// size and the validator pinned from then on. A server answering 200 with the whole file has
  /// the body streamed to `whole_body`, up to options.download_max bytes (no limit with
  /// options.download); past that it is an error saying --download fetches it.
  Opening open(std::size_t tail_bytes, const std::function<void(std::string_view)>& whole_body);
  /// Exactly n bytes at offset (n > 0, inside the size open() found). Throws
  /// Error(display + ": ...", Exit::usage) once retries are exhausted or on any mismatch.
  void fetch(std::uint64_t offset, char* out, std::size_t n) const;
  TransferCount transfer() const;
  const std::string& display() const { return target_.display; }

  /// One request and its response; libcurl's callbacks fill it.
  struct Exchange;
  /// Body bytes of `exchange` as they arrive (libcurl's write callback); false aborts it.
  bool take_body(Exchange& exchange, std::string_view data) const;

 private:
  struct Outcome;
  Outcome perform(Exchange& exchange) const;
  /// After an outcome whose credentials were rejected: whether to retry (once per range, with
  /// credentials refreshed); otherwise it fails with the status and the sources tried.
  bool retry_with_new_credentials(const Exchange& exchange, bool& refreshed) const;
  void configure(CURL* handle, Exchange& exchange, CurlHeaders& headers, char* error) const;
  bool check_response(Exchange& exchange) const;  // on the first body bytes
  std::string too_large_hint(std::uint64_t bytes) const;
  void log(const std::string& line) const;
  [[noreturn]] void fail(const std::string& what) const;
  void pause_before_retry(int failures, double retry_after) const;
  CURL* take_handle() const;
  void give_back(CURL* handle) const;

  FetchTarget target_;
  RemoteOptions options_;
  std::string etag_, last_modified_;  // pinned by open()
  std::uint64_t size_ = 0;
  mutable std::atomic<std::uint64_t> bytes_{0}, requests_{0};
  mutable std::mutex handles_mutex_, log_mutex_;
  mutable std::vector<CURL*> handles_;  // idle handles: reused, so connections are too
};

}  // namespace zanj::remote
