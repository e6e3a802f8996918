#include "remote/gcs_address.hpp"

#include "json/json_parse.hpp"
#include "remote/credential_cache.hpp"
#include "remote/credentials_gcp.hpp"
#include "remote/http_call.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj::remote {
namespace {

RequestCredentials request_credentials(const GcpCredentials& credentials, CredentialTime now) {
  RequestCredentials out;
  if (!credentials.token.empty()) out.headers.push_back("Authorization: Bearer " + credentials.token);
  if (credentials.expires_in) out.expires = now + *credentials.expires_in;
  out.temporary = credentials.temporary();
  out.source = credentials.source;
  out.tried = credentials.tried;
  return out;
}

}  // namespace

std::shared_ptr<CredentialProvider> gcs_credential_provider(const std::string& what, const Environment& environment,
                                                            const RemoteOptions& options, CredentialClock clock) {
  return shared_credentials(
             options, "gs",
             [&] {
               if (!clock) clock = [] { return std::chrono::system_clock::now(); };
               const GcpCredentials credentials =
                   credentials_for(what, [&] { return gcp_credentials(environment, options); });
               if (options.log) options.log(what + ": credentials: " + credentials.source);
               // Kept without options' cache, which may hold the provider (s3_address.cpp).
               RemoteOptions own = options;
               own.credential_cache.reset();
               auto again = [credentials, what, environment, own, clock] {
                 return credentials_for(what, [&] {
                   return request_credentials(gcp_credentials_again(credentials, environment, own), clock());
                 });
               };
               return SharedCredentials{std::make_shared<CredentialProvider>(request_credentials(credentials, clock()),
                                                                             std::move(again), what, own.log, clock),
                                        ""};
             })
      .provider;
}

std::string gcs_endpoint(const Environment& environment) {
  std::string endpoint = variable(environment, "STORAGE_EMULATOR_HOST");
  if (endpoint.empty()) return "https://storage.googleapis.com";
  if (endpoint.find("://") == std::string::npos) endpoint = "http://" + endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  return endpoint;
}

std::string gcs_object_url(const std::string& endpoint, const std::string& bucket, const std::string& object) {
  return endpoint + "/storage/v1/b/" + percent_encode(bucket) + "/o/" + percent_encode(object);
}

FetchTarget gcs_fetch_target(const RemoteUrl& url, const Environment& environment, const RemoteOptions& options) {
  const auto fail = [&](const std::string& what) -> void { throw Error(InArchive{url.display}, what, Exit::usage); };
  FetchTarget target;
  target.display = url.display;
  target.credentials = gcs_credential_provider(url.display, environment, options);

  HttpCall call;
  call.url = gcs_object_url(gcs_endpoint(environment), url.bucket, url.key);
  call.display = url.display;
  call.credentials = target.credentials.get();
  const HttpReply reply = http_call(call, options);
  if (options.log)
    options.log("GET " + url.display +
                " metadata: " + (reply.status ? std::to_string(reply.status) : "no response: " + reply.problem));
  if (reply.status == 0) fail(reply.problem);
  if (reply.status == 401 || reply.status == 403)
    fail(http_status_text(reply.status) + target.credentials->auth_note());
  if (reply.status != 200) fail(http_status_text(reply.status));
  const base::Result<Json> metadata = json::read_json(reply.body, "metadata");
  const std::string generation = metadata ? std::string(metadata->string_at("generation")) : std::string();
  if (generation.empty() || generation.find_first_not_of("0123456789") != std::string::npos)
    fail("the object's metadata names no generation");
  target.url = call.url + "?alt=media&ifGenerationMatch=" + generation;
  return target;
}

}  // namespace zanj::remote
