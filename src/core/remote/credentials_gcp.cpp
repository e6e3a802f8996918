#include "remote/credentials_gcp.hpp"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>

#include "json/json_parse.hpp"
#include "remote/http_call.hpp"
#include "remote/jwt.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj::remote {
namespace {

constexpr const char* kDefaultTokenUri = "https://oauth2.googleapis.com/token";
// A service account's token may do only what its scope allows, and one token serves a whole
// command (the credential cache), reads and uploads alike: read_only would refuse every
// `pack -o gs://` (403). What the account may touch is still bounded by its IAM roles.
constexpr const char* kScope = "https://www.googleapis.com/auth/devstorage.read_write";
constexpr double kMetadataConnectTimeout = 1;  // seconds: off Google Cloud, nothing answers
constexpr double kMetadataTimeout = 5;

[[noreturn]] void gcp_fail(const std::string& source, const std::string& what) {
  throw Error("Google Cloud credentials from " + source + ": " + what, Exit::usage);
}

/// A JSON document from a credentials file or a token endpoint. The parser's message could
/// quote the text (a secret), so it is replaced.
Json parse_private_json(const std::string& text, const std::string& source, const std::string& what) {
  base::Result<Json> value = json::read_json(text, what);
  if (!value) gcp_fail(source, what + " is not valid JSON");  // the parser's own words are never shown
  if (!value->is_object()) gcp_fail(source, what + " is not a JSON object");
  return std::move(*value);
}

/// An OAuth error code ("invalid_grant") is safe to show; anything else in the body may not be.
std::string oauth_error(const std::string& body) {
  const base::Result<Json> value = json::read_json(body, "response");
  if (!value) return "";
  const std::string_view code = value->string_at("error");
  if (!code.empty() && code.size() < 64 &&
      code.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string_view::npos)
    return " (" + std::string(code) + ")";
  return "";
}

std::string form(std::initializer_list<std::pair<const char*, std::string>> fields) {
  std::string out;
  for (const auto& [name, value] : fields)
    out += (out.empty() ? "" : "&") + std::string(name) + "=" + percent_encode(value);
  return out;
}

/// POST a token request; the access token from the answer.
GcpCredentials exchange(const std::string& token_uri, const std::string& body, const std::string& source,
                        const RemoteOptions& options) {
  HttpCall call;
  call.method = "POST";
  call.url = token_uri;
  call.display = token_uri;
  call.headers = {"Content-Type: application/x-www-form-urlencoded"};
  call.body = body;
  const HttpReply reply = http_call(call, options);
  if (options.log)
    options.log("POST " + token_uri + ": " +
                (reply.status ? std::to_string(reply.status) : std::string("no response")));
  if (reply.status == 0) gcp_fail(source, "the token endpoint " + token_uri + " did not answer: " + reply.problem);
  if (reply.status != 200)
    gcp_fail(source, "the token endpoint " + token_uri + " answered " + http_status_text(reply.status) +
                         oauth_error(reply.body));
  return gcp_token_answer(reply.body, source);
}

std::string json_text(std::initializer_list<std::pair<const char*, Json>> members) {
  JsonObject object;
  for (const auto& [name, value] : members) object.emplace_back(name, value);
  return to_json(Json(std::move(object)));
}

/// The access token a credentials file (authorized_user or service_account) gives.
GcpCredentials token_from_file(const std::string& text, const std::string& source, const RemoteOptions& options) {
  const Json file = parse_private_json(text, source, "the file");
  const std::string type(file.string_at("type"));
  std::string token_uri(file.string_at("token_uri"));
  if (token_uri.empty()) token_uri = kDefaultTokenUri;
  if (type == "authorized_user") {
    const std::string_view id = file.string_at("client_id"), secret = file.string_at("client_secret"),
                           refresh = file.string_at("refresh_token");
    if (id.empty() || refresh.empty()) gcp_fail(source, "the authorized_user file lacks client_id or refresh_token");
    return exchange(token_uri,
                    form({{"grant_type", "refresh_token"},
                          {"client_id", std::string(id)},
                          {"client_secret", std::string(secret)},
                          {"refresh_token", std::string(refresh)}}),
                    source, options);
  }
  if (type == "service_account") {
    const std::string_view email = file.string_at("client_email"), key = file.string_at("private_key"),
                           key_id = file.string_at("private_key_id");
    if (email.empty() || key.empty()) gcp_fail(source, "the service_account key lacks client_email or private_key");
    const auto now =
        std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
    JsonObject header{{"alg", Json("RS256")}, {"typ", Json("JWT")}};
    if (!key_id.empty()) header.emplace_back("kid", Json(std::string(key_id)));
    const std::string claims = json_text({{"iss", Json(std::string(email))},
                                          {"scope", Json(kScope)},
                                          {"aud", Json(token_uri)},
                                          {"iat", Json(std::int64_t{now})},
                                          {"exp", Json(std::int64_t{now + 3600})}});
    const std::string assertion = rs256_jwt(to_json(Json(std::move(header))), claims, std::string(key));
    return exchange(token_uri,
                    form({{"grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"}, {"assertion", assertion}}),
                    source, options);
  }
  gcp_fail(source, type.empty() ? "the file names no credentials type"
                                : "credentials of type '" + type +
                                      "' are not supported (authorized_user and service_account are)");
}

}  // namespace

std::optional<std::string> read_small_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    if (errno == ENOENT) return std::nullopt;
    throw Error(path + ": " + std::strerror(errno), Exit::usage);
  }
  std::string text;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > (1 << 20)) throw Error(path + ": larger than 1 MiB; not a credentials file", Exit::usage);
  }
  return text;
}

std::string tried_note(const std::vector<std::string>& tried, const std::string& used) {
  std::string note = " (credentials tried: ";
  for (const std::string& line : tried) note += line + "; ";
  return note + "used: " + used + ")";
}

namespace {

/// Source 2: the file GOOGLE_APPLICATION_CREDENTIALS names (nullopt when it is not set).
std::optional<GcpCredentials> application_credentials(const Environment& environment, const RemoteOptions& options) {
  const std::string path = variable(environment, "GOOGLE_APPLICATION_CREDENTIALS");
  if (path.empty()) return std::nullopt;
  const std::string source = "GOOGLE_APPLICATION_CREDENTIALS (" + path + ")";
  const auto text = read_small_file(path);
  if (!text) gcp_fail(source, "no such file");
  GcpCredentials out = token_from_file(*text, source, options);
  out.kind = GcpSource::credentials_file;
  return out;
}

/// Source 3's file, or "" without CLOUDSDK_CONFIG or HOME.
std::string gcloud_file(const Environment& environment) {
  std::string directory = variable(environment, "CLOUDSDK_CONFIG");
  if (directory.empty()) {
    const std::string home = variable(environment, "HOME");
    if (!home.empty()) directory = home + "/.config/gcloud";
  }
  return directory.empty() ? std::string() : directory + "/application_default_credentials.json";
}

/// Source 3: gcloud's application default credentials (nullopt when the file is not there).
std::optional<GcpCredentials> gcloud_credentials(const std::string& path, const RemoteOptions& options) {
  const std::string source = "gcloud application default credentials (" + path + ")";
  const auto text = read_small_file(path);
  if (!text) return std::nullopt;
  GcpCredentials out = token_from_file(*text, source, options);
  out.kind = GcpSource::gcloud_file;
  return out;
}

/// Source 4: the metadata server; nullopt with what it answered when it gives no token.
std::optional<GcpCredentials> metadata_server(const Environment& environment, const RemoteOptions& options,
                                              std::optional<SourceMiss>& miss) {
  std::string host = variable(environment, "GCE_METADATA_HOST");
  if (host.empty()) host = "metadata.google.internal";
  const std::string source = "the metadata server (" + host + ")";
  HttpCall call;
  call.url = "http://" + host + "/computeMetadata/v1/instance/service-accounts/default/token";
  call.display = call.url;
  call.headers = {"Metadata-Flavor: Google"};
  call.connect_timeout = kMetadataConnectTimeout;
  call.total_timeout = kMetadataTimeout;
  const HttpReply reply = http_call(call, options);
  if (options.log)
    options.log("GET " + call.display + ": " +
                (reply.status ? std::to_string(reply.status) : "no response: " + reply.problem));
  if (reply.status == 200 && reply.header("metadata-flavor") == "Google") {
    GcpCredentials out = gcp_token_answer(reply.body, source);
    out.kind = GcpSource::metadata_server;
    return out;
  }
  miss = SourceMiss{source, reply.status ? http_status_text(reply.status) : "no answer"};
  return std::nullopt;
}

}  // namespace

bool GcpCredentials::temporary() const {
  return kind == GcpSource::credentials_file || kind == GcpSource::gcloud_file || kind == GcpSource::metadata_server;
}

GcpCredentials gcp_token_answer(const std::string& body, const std::string& source) {
  const Json answer = parse_private_json(body, source, "the token's answer");
  GcpCredentials out;
  out.token = std::string(answer.string_at("access_token"));
  if (out.token.empty()) gcp_fail(source, "the answer has no access_token");
  if (const Json* seconds = answer.find("expires_in"); seconds && seconds->is_number() && seconds->to_double() > 0)
    out.expires_in = std::chrono::seconds(static_cast<std::int64_t>(std::min(seconds->to_double(), 1e9)));
  out.source = source;
  return out;
}

GcpCredentials gcp_credentials(const Environment& environment, const RemoteOptions& options) {
  std::vector<std::string> tried;
  const auto found = [&](GcpCredentials out) {
    out.tried = tried;
    return out;
  };
  for (const char* name : {"GOOGLE_OAUTH_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN"}) {
    if (std::string token = variable(environment, name); !token.empty()) {
      GcpCredentials out;
      out.token = std::move(token);
      out.source = name;
      out.kind = GcpSource::environment;
      return out;
    }
  }
  tried.push_back("GOOGLE_OAUTH_ACCESS_TOKEN and CLOUDSDK_AUTH_ACCESS_TOKEN: not set");
  if (auto out = application_credentials(environment, options)) return found(std::move(*out));
  tried.push_back("GOOGLE_APPLICATION_CREDENTIALS: not set");
  if (const std::string path = gcloud_file(environment); !path.empty()) {
    if (auto out = gcloud_credentials(path, options)) return found(std::move(*out));
    tried.push_back(path + ": no such file");
  }
  std::optional<SourceMiss> miss;
  if (auto out = metadata_server(environment, options, miss)) return found(std::move(*out));
  if (miss) tried.push_back(miss->text());
  GcpCredentials none;
  none.source = "anonymous";
  return found(std::move(none));
}

GcpCredentials gcp_credentials_again(const GcpCredentials& previous, const Environment& environment,
                                     const RemoteOptions& options) {
  std::optional<GcpCredentials> fresh;
  std::optional<SourceMiss> miss;
  switch (previous.kind) {
    case GcpSource::credentials_file:
      fresh = application_credentials(environment, options);
      break;
    case GcpSource::gcloud_file:
      fresh = gcloud_credentials(gcloud_file(environment), options);
      break;
    case GcpSource::metadata_server:
      fresh = metadata_server(environment, options, miss);
      break;
    default:
      return previous;  // a token from the environment: nothing new to ask for
  }
  if (!fresh) {
    gcp_fail(previous.source, miss ? miss->why : "it gave no token");
  }
  fresh->tried = previous.tried;
  return std::move(*fresh);
}

}  // namespace zanj::remote
