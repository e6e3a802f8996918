#pragma once
// How every request zanj sends is set up on its libcurl handle, in one place: the URL and the
// protocols allowed (http and https only), no signals (threads), the connect timeout, the
// low-speed limit (--idle-timeout, or --speed-limit/--speed-time), --deadline, the user agent,
// --insecure, S3's SigV4 signing, the request headers and the error buffer. The range fetcher
// (archive bytes) and http_call (credentials, metadata, listings, uploads) both use it; what
// differs between them is a field of CurlSetup. Secrets (user:password in the URL, keys,
// tokens, headers) go to libcurl only: no -v line or message is made from a handle's settings.
#include <string>

#include "remote/curl_library.hpp"
#include "zanj/archive.hpp"

namespace zanj::remote {

/// A libcurl header list, freed when it goes.
class CurlHeaders {
 public:
  CurlHeaders() = default;
  CurlHeaders(const CurlHeaders&) = delete;
  CurlHeaders& operator=(const CurlHeaders&) = delete;
  ~CurlHeaders();
  /// Appends "Name: value" (copied by libcurl).
  void add(const std::string& header);
  curl_slist* list() const { return list_; }

 private:
  curl_slist* list_ = nullptr;
};

/// What differs between requests.
struct CurlSetup {
  const std::string* url = nullptr;  ///< what libcurl fetches (may hold user:password)
  double connect_timeout = 0;        ///< seconds; 0: --connect-timeout
  double total_timeout = 0;          ///< seconds for the whole exchange; 0: none beyond --deadline
  /// Range reads: follow a few redirects, never from https down to http.
  bool follow_redirects = false;
  bool netrc = false;                          ///< ~/.netrc may give the host's user and password
  const std::string* sigv4 = nullptr;          ///< CURLOPT_AWS_SIGV4's value; null or empty: unsigned
  const std::string* user_password = nullptr;  ///< "KEY_ID:SECRET" with sigv4
  const CurlHeaders* headers = nullptr;        ///< the request's headers; null: none
  char* error = nullptr;                       ///< CURL_ERROR_SIZE bytes for libcurl's reason
};

/// Set `handle` up for `setup` with `options`' timeouts, speed limit, deadline and TLS
/// setting. The strings and the header list must outlive the transfer (libcurl copies strings,
/// not the list).
void set_up_curl(CURL* handle, const CurlSetup& setup, const RemoteOptions& options);

/// Seconds until options.deadline (from options.start); +infinity without a deadline.
double seconds_left(const RemoteOptions& options);
/// "the --deadline of N s passed": the message once seconds_left() is spent.
std::string deadline_passed(const RemoteOptions& options);

}  // namespace zanj::remote
