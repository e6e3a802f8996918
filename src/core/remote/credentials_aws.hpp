#pragma once
// AWS credentials for s3:// URLs, found in the order the AWS SDKs use, first source first:
//   1. AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (with AWS_SESSION_TOKEN);
//   2. web identity: the token in AWS_WEB_IDENTITY_TOKEN_FILE traded for AWS_ROLE_ARN's
//      credentials at STS (AssumeRoleWithWebIdentity; AWS_ENDPOINT_URL_STS overrides STS);
//   3. the shared files: AWS_SHARED_CREDENTIALS_FILE (~/.aws/credentials) and AWS_CONFIG_FILE
//      (~/.aws/config), profile AWS_PROFILE (else "default"), which also gives the region;
//   4. container credentials: AWS_CONTAINER_CREDENTIALS_FULL_URI, or _RELATIVE_URI under
//      http://169.254.170.2 (with AWS_CONTAINER_AUTHORIZATION_TOKEN[_FILE]);
//   5. IMDSv2 (a session token first), unless AWS_EC2_METADATA_DISABLED=true;
//      AWS_EC2_METADATA_SERVICE_ENDPOINT overrides http://169.254.169.254;
//   6. none: anonymous requests, for public buckets.
// A source that is set up but fails (STS refuses the token, a profile named but missing) is an
// error rather than a fall to anonymous. Keys and tokens never appear in a message.
// Sources 2, 4 and 5 give temporary credentials with an Expiration; aws_credentials_again asks
// the same source for new ones (credential_provider.hpp decides when).
#include <optional>
#include <string>
#include <vector>

#include "remote/credential_provider.hpp"
#include "remote/environment.hpp"
#include "zanj/archive.hpp"

namespace zanj::remote {

/// Where credentials came from (the numbers above).
enum class AwsSource { anonymous, environment, web_identity, shared_files, container, instance_metadata };

struct AwsCredentials {
  std::string access_key_id, secret_access_key, session_token;  ///< empty id: anonymous
  std::string region;              ///< the profile's region, when a profile was read ("" otherwise)
  std::string source;              ///< which source gave them, for -v and messages ("anonymous" for none)
  std::vector<std::string> tried;  ///< what was looked at before, each with what was found
  AwsSource kind = AwsSource::anonymous;
  std::optional<CredentialTime> expires;  ///< Expiration, for temporary credentials (nullopt: none given)
  /// Whether asking the source again gives new credentials (web identity, container, IMDS).
  bool temporary() const;
};

/// Only the environment variables (source 1), without any request: what s3_address's
/// two-argument form uses.
AwsCredentials aws_environment_credentials(const Environment& environment);

/// The first source that has credentials (see above). Throws Error(Exit::usage) when a source
/// is present but broken.
AwsCredentials aws_credentials(const Environment& environment, const RemoteOptions& options);

/// New credentials from the source that gave `previous` (the same source only: a refresh
/// never falls to another one, or to anonymous requests). Throws Error(Exit::usage) when it
/// fails.
AwsCredentials aws_credentials_again(const AwsCredentials& previous, const Environment& environment,
                                     const RemoteOptions& options);

/// The credentials in STS's AssumeRoleWithWebIdentity answer (XML), and in the JSON the
/// container endpoint and IMDS answer, with their Expiration. Throw Error naming `source`.
AwsCredentials aws_sts_answer(const std::string& xml, const std::string& source);
AwsCredentials aws_json_answer(const std::string& body, const std::string& source);

/// The region of profile AWS_PROFILE (else "default") in the config file, or "".
std::string aws_profile_region(const Environment& environment);

}  // namespace zanj::remote
