#pragma once
// One small HTTP request and its whole (small) response, for what is asked before an object is
// read: credentials from a token endpoint or a metadata server, an object's metadata. Archive
// bytes never go through here (range_fetcher does that). Bodies may hold secrets: callers
// keep them out of messages, and so does this (errors name the `display` text only).
#include <string>
#include <vector>

#include "io/byte_source.hpp"
#include "remote/credential_provider.hpp"
#include "remote/curl_setup.hpp"  // seconds_left, deadline_passed
#include "zanj/archive.hpp"

namespace zanj::remote {

struct HttpCall {
  std::string method = "GET";        ///< GET, POST, PUT or DELETE
  std::string url;                   ///< what libcurl fetches
  std::string display;               ///< what messages name (no secret in it)
  std::vector<std::string> headers;  ///< "Name: value"
  std::string body;                  ///< sent with POST and PUT
  double connect_timeout = 0;        ///< seconds; 0: the options' --connect-timeout
  double total_timeout = 0;          ///< seconds for the whole exchange; 0: none beyond --idle-timeout
  /// Sent with PUT instead of `body` when set (uploads: a staged file, a part), read from 0.
  const io::ByteSource* upload = nullptr;
  /// S3: CURLOPT_AWS_SIGV4's value and "KEY_ID:SECRET" (s3_address.hpp); empty: unsigned.
  std::string sigv4, user_password;
  /// When set, each attempt is signed or authorized with its current credentials (their
  /// signing, and their headers but those `headers` already name), and a response that rejects
  /// them (credentials_rejected) gets one refresh and one retry when the source can refresh.
  CredentialProvider* credentials = nullptr;
  /// Requests stop when an interrupt is pending (io/temp_file.hpp), except this one: the
  /// request that cancels an upload after it.
  bool despite_interrupt = false;
};

struct HttpReply {
  long status = 0;      ///< 0: no response (then `problem` says why)
  std::string body;     ///< at most 1 MiB; a longer response is an error
  std::string problem;  ///< libcurl's reason when there was no response
  /// The value of response header `name` (lower case), or "".
  std::string header(const std::string& name) const;
  std::vector<std::pair<std::string, std::string>> headers;  ///< names in lower case
};

/// Perform `call` with the timeouts, TLS and proxy settings of `options` (not its extra
/// headers: those are meant for the archive's server). Retries a reset or a 5xx up to
/// options.retries times. Never throws for an HTTP status; returns status 0 with `problem`
/// when no response came. Throws Error when call.credentials must be refreshed and cannot be.
HttpReply http_call(const HttpCall& call, const RemoteOptions& options);

/// `text` with every byte but unreserved ones (and those in `keep`) percent-encoded: form
/// fields and GCS object names keep nothing else, S3 paths keep '/'.
std::string percent_encode(std::string_view text, std::string_view keep = {});

/// "HTTP 404 Not Found" and the like.
std::string http_status_text(long status);

}  // namespace zanj::remote
