#pragma once
// Credentials kept valid for as long as a command runs. Temporary credentials (STS, the
// container endpoint, IMDS, Google's OAuth tokens and metadata server) come with an expiry,
// and a long command (verify -j over many archives, a multi-GB multipart upload, a long read)
// can outlive them. A CredentialProvider hands out the current credentials and resolves the
// same source again when they come within a margin of their expiry (5 minutes, or a quarter of
// their lifetime when that is shorter), or once when a server rejects them (401, 403, S3's
// ExpiredToken). There is one per command and kind of URL when its options hold a
// CredentialCache (credential_cache.hpp; else one per opened URL, upload or listing), shared
// by the threads that send its requests: one thread refreshes, under a mutex, while the others wait for the
// result. The clock is passed in, so tests can move time on. Nothing here is process-wide.
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/error.hpp"

namespace zanj::remote {

using CredentialTime = std::chrono::system_clock::time_point;
/// What time it is; the system clock in the program, a variable in the tests.
using CredentialClock = std::function<CredentialTime()>;

/// What one resolution of credentials adds to a request. Never printed, but `source`.
struct RequestCredentials {
  std::string sigv4, user_password;       ///< S3 SigV4 signing (CURLOPT_AWS_SIGV4, CURLOPT_USERPWD); empty: none
  std::vector<std::string> headers;       ///< x-amz-security-token, "Authorization: Bearer ..."
  std::optional<CredentialTime> expires;  ///< nullopt: they do not expire (environment, shared files)
  bool temporary = false;                 ///< the source hands out new ones when asked again
  std::string source;                     ///< which source gave them, for -v and messages
  std::vector<std::string> tried;         ///< what was looked at before (for 401 and 403 messages)
};

/// `resolve()`'s result; an Error it throws is said of `what` (the URL being opened) and made a
/// usage error: what finding or refreshing credentials for one URL reports.
template <class Resolve>
auto credentials_for(const std::string& what, Resolve&& resolve) -> decltype(resolve()) {
  try {
    return resolve();
  } catch (const Error& e) {  // context: the URL joins the message
    throw Error(InArchive{what}, e.what(), Exit::usage);
  }
}

/// How long before `expires` credentials obtained at `obtained` are refreshed: 5 minutes, or a
/// quarter of their lifetime when that is less (a token good for a minute lasts 45 seconds).
std::chrono::milliseconds refresh_margin(CredentialTime obtained, CredentialTime expires);

/// An ISO 8601 UTC time as AWS writes Expiration ("2026-11-27T10:00:00Z", fractional seconds
/// and "+00:00" allowed), or nullopt.
std::optional<CredentialTime> parse_utc_time(std::string_view text);

/// Whether a response says the credentials were refused or have expired: 401, 403, or S3's
/// 400 with ExpiredToken (or TokenRefreshRequired) in its body.
bool credentials_rejected(long status, std::string_view body);

class CredentialProvider {
 public:
  /// Resolves the same source again (throws Error when it fails).
  using Resolve = std::function<RequestCredentials()>;
  using Log = std::function<void(const std::string&)>;

  /// `first`: the credentials already found; `again` resolves their source again (only
  /// called for temporary ones); `what` names the URL in the -v line a refresh logs.
  CredentialProvider(RequestCredentials first, Resolve again, std::string what, Log log = {},
                     CredentialClock clock = {});

  /// The credentials to send now: refreshed first when they are within the margin of their
  /// expiry (by one thread; the others wait for it). When a refresh fails while the old ones
  /// are still valid, those are kept and the refresh is tried again a little later.
  std::shared_ptr<const RequestCredentials> current();

  /// After a server rejected `rejected` (401, 403, ExpiredToken): new credentials to retry
  /// with, or nullptr when the source cannot give new ones. When another thread already
  /// replaced `rejected`, its replacement is returned without another refresh.
  std::shared_ptr<const RequestCredentials> after_rejection(const std::shared_ptr<const RequestCredentials>& rejected,
                                                            const std::string& why);

  /// " (credentials tried: ...; used: SOURCE)", for 401 and 403 messages.
  std::string auth_note() const;
  /// How many times the credentials were resolved again.
  int refreshes() const;

 private:
  void refresh(const std::string& why);  // with mutex_ held

  mutable std::mutex mutex_;
  std::shared_ptr<const RequestCredentials> credentials_;
  CredentialTime obtained_, next_try_;
  Resolve again_;
  std::string what_;
  Log log_;
  CredentialClock clock_;
  int refreshes_ = 0;
};

}  // namespace zanj::remote
