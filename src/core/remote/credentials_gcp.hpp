#pragma once
// Google Cloud credentials for gs:// URLs, found as Google's own client libraries find them,
// first source first:
//   1. an access token in GOOGLE_OAUTH_ACCESS_TOKEN or CLOUDSDK_AUTH_ACCESS_TOKEN;
//   2. the file GOOGLE_APPLICATION_CREDENTIALS names: an `authorized_user` file (its refresh
//      token traded for an access token) or a `service_account` key (an RS256 JWT, jwt.hpp,
//      traded at the key's token_uri);
//   3. gcloud's application_default_credentials.json (under CLOUDSDK_CONFIG, else
//      ~/.config/gcloud), the same two kinds;
//   4. the GCE metadata server (GCE_METADATA_HOST, else metadata.google.internal);
//   5. none: anonymous requests, for public buckets.
// A source that is there but does not work (an unreadable key, a refused refresh token) is an
// error, not a silent fall to the next: anonymous requests where credentials were meant are a
// trap. Tokens, refresh tokens and keys are never put in a message. Sources 2 to 4 give tokens
// that expire (expires_in, about an hour); gcp_credentials_again asks the same source for a new
// one (credential_provider.hpp decides when).
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "remote/environment.hpp"
#include "zanj/archive.hpp"

namespace zanj::remote {

/// Where the token came from (the numbers above).
enum class GcpSource { anonymous, environment, credentials_file, gcloud_file, metadata_server };

struct GcpCredentials {
  std::string token;   ///< the OAuth 2 access token; empty for anonymous requests
  std::string source;  ///< which source gave it, for -v and messages ("anonymous" for none)
  /// What was looked at, in order, each with what was found ("GOOGLE_OAUTH_ACCESS_TOKEN: not
  /// set"): a 401 or 403 lists them.
  std::vector<std::string> tried;
  GcpSource kind = GcpSource::anonymous;
  /// The answer's expires_in: how long the token is good for from when it was handed out.
  std::optional<std::chrono::seconds> expires_in;
  /// Whether asking the source again gives a new token (the files and the metadata server).
  bool temporary() const;
};

/// The first source that has credentials (see above). Throws Error(Exit::usage) when a source
/// is present but broken.
GcpCredentials gcp_credentials(const Environment& environment, const RemoteOptions& options);

/// A new token from the source that gave `previous` (that source only, never another or
/// anonymous requests). Throws Error(Exit::usage) when it fails.
GcpCredentials gcp_credentials_again(const GcpCredentials& previous, const Environment& environment,
                                     const RemoteOptions& options);

/// The access_token and expires_in of a token endpoint's or the metadata server's JSON answer.
/// Throws Error naming `source` when there is no token.
GcpCredentials gcp_token_answer(const std::string& body, const std::string& source);

/// The contents of a small file (credentials, configuration), or nullopt when it does not exist.
/// Throws Error(Exit::usage) naming the file when it cannot be read or exceeds 1 MiB.
std::optional<std::string> read_small_file(const std::string& path);

/// A source that was looked at and gave nothing, and why: the chain lists it in `tried` as
/// "SOURCE: WHY"; asking that source again (a refresh) says WHY of the source it already names.
struct SourceMiss {
  std::string source, why;
  std::string text() const { return source + ": " + why; }
};

/// "(credentials tried: A: ...; B: ...)": appended to 401 and 403 errors.
std::string tried_note(const std::vector<std::string>& tried, const std::string& used);

}  // namespace zanj::remote
