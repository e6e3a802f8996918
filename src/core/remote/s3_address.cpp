#include "remote/s3_address.hpp"

#include "remote/credential_cache.hpp"
#include "remote/http_call.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {
namespace {

RequestCredentials request_credentials(const AwsCredentials& credentials, const RemoteUrl& url,
                                       const Environment& environment) {
  S3Address address = s3_address(url, environment, credentials);
  RequestCredentials out;
  out.sigv4 = std::move(address.sigv4);
  out.user_password = std::move(address.user_password);
  out.headers = std::move(address.headers);
  out.expires = credentials.expires;
  out.temporary = credentials.temporary();
  out.source = credentials.source;
  out.tried = credentials.tried;
  return out;
}

}  // namespace

S3Access s3_access(const RemoteUrl& url, const std::string& what, const Environment& environment,
                   const RemoteOptions& options, CredentialClock clock) {
  const SharedCredentials shared = shared_credentials(options, "s3", [&] {
    const AwsCredentials credentials = credentials_for(what, [&] { return aws_credentials(environment, options); });
    if (options.log) options.log(what + ": credentials: " + credentials.source);
    // The provider may outlive this call in options' cache: it keeps options without the cache
    // (which would hold it in turn).
    RemoteOptions own = options;
    own.credential_cache.reset();
    auto again = [credentials, url, what, environment, own] {
      return credentials_for(what, [&] {
        return request_credentials(aws_credentials_again(credentials, environment, own), url, environment);
      });
    };
    return SharedCredentials{std::make_shared<CredentialProvider>(request_credentials(credentials, url, environment),
                                                                  std::move(again), what, own.log, std::move(clock)),
                             credentials.region};
  });
  AwsCredentials addressed;  // the address depends on the region only
  addressed.region = shared.region;
  return S3Access{s3_address(url, environment, addressed).url, shared.provider};
}

std::string s3_encode_key(const std::string& key) { return percent_encode(key, "/"); }

S3Address s3_address(const RemoteUrl& url, const Environment& environment) {
  return s3_address(url, environment, aws_environment_credentials(environment));
}

S3Address s3_address(const RemoteUrl& url, const Environment& environment, const AwsCredentials& credentials) {
  S3Address address;
  address.region = first_set(environment, {"AWS_REGION", "AWS_DEFAULT_REGION"});
  if (address.region.empty()) address.region = credentials.region;
  if (address.region.empty()) address.region = "us-east-1";
  std::string endpoint = first_set(environment, {"ZANJ_S3_ENDPOINT", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL"});
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  const std::string key = s3_encode_key(url.key);
  if (!endpoint.empty())
    address.url = endpoint + "/" + url.bucket + "/" + key;
  else if (url.bucket.find('.') != std::string::npos)
    address.url = "https://s3." + address.region + ".amazonaws.com/" + url.bucket + "/" + key;
  else
    address.url = "https://" + url.bucket + ".s3." + address.region + ".amazonaws.com/" + key;
  const std::string& id = credentials.access_key_id;
  const std::string& secret = credentials.secret_access_key;
  if (!id.empty() && !secret.empty()) {
    address.sigv4 = "aws:amz:" + address.region + ":s3";
    address.user_password = id + ":" + secret;
    // S3 wants the payload's hash named (a GET has none: SHA-256 of nothing); libcurl before
    // 8.1 does not add it, and signs it along with the other x-amz-* headers.
    address.headers.push_back("x-amz-content-sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    if (!credentials.session_token.empty())
      address.headers.push_back("x-amz-security-token: " + credentials.session_token);
  }
  return address;
}

}  // namespace zanj::remote
