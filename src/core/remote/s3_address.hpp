#pragma once
// Where an s3://bucket/key URL is fetched from and how its requests are signed. The signing
// itself is libcurl's (CURLOPT_AWS_SIGV4); this only chooses the endpoint, the region and
// the credentials, from the environment variables the AWS tools read.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "remote/credential_provider.hpp"
#include "remote/credentials_aws.hpp"
#include "remote/environment.hpp"
#include "remote/url.hpp"

namespace zanj::remote {

struct S3Address {
  std::string url;     ///< the https:// (or endpoint's) URL of the object
  std::string region;  ///< AWS_REGION, else AWS_DEFAULT_REGION, else the profile's, else us-east-1
  /// CURLOPT_AWS_SIGV4's value ("aws:amz:REGION:s3"), empty for anonymous requests.
  std::string sigv4;
  std::string user_password;         ///< "KEY_ID:SECRET" for CURLOPT_USERPWD; empty when anonymous
  std::vector<std::string> headers;  ///< x-amz-security-token with a session token
};

/// The address of an s3:// URL. With ZANJ_S3_ENDPOINT (or AWS_ENDPOINT_URL_S3, then
/// AWS_ENDPOINT_URL) the object is ENDPOINT/BUCKET/KEY (path style, what S3-compatible servers
/// such as MinIO, s3rver and Google Cloud Storage's https://storage.googleapis.com expect);
/// without, https://BUCKET.s3.REGION.amazonaws.com/KEY (path style on AWS for bucket names with
/// dots, which a wildcard certificate does not cover). Requests are signed with `credentials`
/// (anonymous when they have no key id); the region is AWS_REGION, else AWS_DEFAULT_REGION,
/// else the profile's (credentials.region), else us-east-1.
S3Address s3_address(const RemoteUrl& url, const Environment& environment, const AwsCredentials& credentials);
/// The same with the environment variables' credentials only (no request is made).
S3Address s3_address(const RemoteUrl& url, const Environment& environment);

/// An s3:// URL's object URL and the credentials that sign requests to it, found
/// (credentials_aws.hpp; -v names the source) and kept current for as long as the provider
/// lives: its sigv4, user_password and headers are s3_address's. A refresh asks the same
/// source, so the region, and the URL with it, stay.
struct S3Access {
  std::string url;
  std::shared_ptr<CredentialProvider> credentials;
};
/// `what` names the URL or pattern in messages. Throws Error(InArchive{what}, ..., usage) when
/// a source of credentials is set up but broken.
S3Access s3_access(const RemoteUrl& url, const std::string& what, const Environment& environment,
                   const RemoteOptions& options, CredentialClock clock = {});

/// `key` with every byte but unreserved ones and '/' percent-encoded, as S3 paths are.
std::string s3_encode_key(const std::string& key);

}  // namespace zanj::remote
