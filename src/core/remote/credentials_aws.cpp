#include "remote/credentials_aws.hpp"

#include <map>
#include <optional>

#include "base/text_trim.hpp"
#include "json/json_parse.hpp"
#include "remote/credentials_gcp.hpp"
#include "remote/http_call.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj::remote {
namespace {

constexpr double kLocalConnectTimeout = 1;  // seconds: metadata endpoints answer at once or never
constexpr double kLocalTimeout = 5;

[[noreturn]] void aws_fail(const std::string& source, const std::string& what) {
  throw Error("AWS credentials from " + source + ": " + what, Exit::usage);
}

bool is_true(const std::string& value) { return value == "true" || value == "True" || value == "TRUE" || value == "1"; }

using Ini = std::map<std::string, std::map<std::string, std::string>>;

/// The sections of an AWS credentials or config file ("key = value" under "[name]").
Ini parse_ini(const std::string& text) {
  Ini sections;
  std::string section;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    const std::string line = std::string(base::trim_line(std::string_view(text).substr(at, end - at)));
    at = end + 1;
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[' && line.back() == ']') {
      section = std::string(base::trim_line(std::string_view(line).substr(1, line.size() - 2)));
      sections[section];
      continue;
    }
    if (const std::size_t equals = line.find('='); equals != std::string::npos && !section.empty())
      sections[section][std::string(base::trim_line(std::string_view(line).substr(0, equals)))] =
          std::string(base::trim_line(std::string_view(line).substr(equals + 1)));
  }
  return sections;
}

std::string home_file(const Environment& environment, const char* variable_name, const char* under_home) {
  if (std::string path = variable(environment, variable_name); !path.empty()) return path;
  const std::string home = variable(environment, "HOME");
  return home.empty() ? std::string() : home + "/" + under_home;
}

std::string profile_name(const Environment& environment) {
  std::string name = first_set(environment, {"AWS_PROFILE", "AWS_DEFAULT_PROFILE"});
  return name.empty() ? "default" : name;
}

/// The profile's section of the config file ("[profile NAME]", or "[default]").
std::optional<std::map<std::string, std::string>> config_profile(const Environment& environment) {
  const std::string path = home_file(environment, "AWS_CONFIG_FILE", ".aws/config");
  if (path.empty()) return std::nullopt;
  const auto text = read_small_file(path);
  if (!text) return std::nullopt;
  const Ini ini = parse_ini(*text);
  const std::string name = profile_name(environment);
  for (const std::string& section : {"profile " + name, name == "default" ? name : std::string()}) {
    if (section.empty()) continue;
    if (const auto it = ini.find(section); it != ini.end()) return it->second;
  }
  return std::nullopt;
}

std::string value_of(const std::map<std::string, std::string>& section, const std::string& key) {
  const auto it = section.find(key);
  return it == section.end() ? std::string() : it->second;
}

/// The text between <tag> and </tag> in STS's XML answer, or "".
std::string xml_value(const std::string& xml, const std::string& tag) {
  const std::size_t open = xml.find("<" + tag + ">");
  if (open == std::string::npos) return {};
  const std::size_t start = open + tag.size() + 2;
  const std::size_t close = xml.find("</" + tag + ">", start);
  return close == std::string::npos ? std::string()
                                    : std::string(base::trim_line(std::string_view(xml).substr(start, close - start)));
}

void log_reply(const RemoteOptions& options, const std::string& method, const std::string& display,
               const HttpReply& reply) {
  if (options.log)
    options.log(method + " " + display + ": " +
                (reply.status ? std::to_string(reply.status) : "no response: " + reply.problem));
}

std::optional<AwsCredentials> web_identity(const Environment& environment, const RemoteOptions& options) {
  const std::string token_file = variable(environment, "AWS_WEB_IDENTITY_TOKEN_FILE");
  const std::string role = variable(environment, "AWS_ROLE_ARN");
  if (token_file.empty() || role.empty()) return std::nullopt;
  const std::string source = "web identity (AWS_WEB_IDENTITY_TOKEN_FILE, role " + role + ")";
  const auto token = read_small_file(token_file);
  if (!token) aws_fail(source, token_file + ": no such file");
  std::string session = variable(environment, "AWS_ROLE_SESSION_NAME");
  if (session.empty()) session = "zanj";
  std::string endpoint = first_set(environment, {"AWS_ENDPOINT_URL_STS", "AWS_ENDPOINT_URL"});
  if (endpoint.empty()) {
    const std::string region = first_set(environment, {"AWS_REGION", "AWS_DEFAULT_REGION"});
    endpoint = region.empty() ? "https://sts.amazonaws.com" : "https://sts." + region + ".amazonaws.com";
  }
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  HttpCall call;
  call.method = "POST";  // the token goes in the body, not in a URL that could be logged
  call.url = endpoint + "/";
  call.display = call.url;
  call.headers = {"Content-Type: application/x-www-form-urlencoded", "Accept: application/xml"};
  call.body = "Action=AssumeRoleWithWebIdentity&Version=2011-06-15&RoleArn=" + percent_encode(role) +
              "&RoleSessionName=" + percent_encode(session) +
              "&WebIdentityToken=" + percent_encode(std::string(base::trim_line(*token)));
  const HttpReply reply = http_call(call, options);
  log_reply(options, "POST", call.display + " AssumeRoleWithWebIdentity", reply);
  if (reply.status == 0) aws_fail(source, "STS (" + call.display + ") did not answer: " + reply.problem);
  if (reply.status != 200) {
    const std::string code = xml_value(reply.body, "Code");
    const bool safe =
        !code.empty() && code.size() < 64 &&
        code.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") == std::string::npos;
    aws_fail(source,
             "STS (" + call.display + ") answered " + http_status_text(reply.status) + (safe ? " (" + code + ")" : ""));
  }
  AwsCredentials out = aws_sts_answer(reply.body, source);
  out.kind = AwsSource::web_identity;
  return out;
}

std::optional<AwsCredentials> shared_files(const Environment& environment, std::vector<std::string>& tried) {
  const std::string name = profile_name(environment);
  const bool named = !first_set(environment, {"AWS_PROFILE", "AWS_DEFAULT_PROFILE"}).empty();
  const std::string credentials_path = home_file(environment, "AWS_SHARED_CREDENTIALS_FILE", ".aws/credentials");
  std::map<std::string, std::string> section;
  bool found = false;
  if (!credentials_path.empty()) {
    if (const auto text = read_small_file(credentials_path)) {
      const Ini ini = parse_ini(*text);
      if (const auto it = ini.find(name); it != ini.end()) section = it->second, found = true;
    }
  }
  const auto config = config_profile(environment);
  if (config) {
    found = true;
    for (const auto& [key, value] : *config) section.emplace(key, value);  // the credentials file wins
  }
  const std::string source = "profile " + name + " of the shared files";
  if (!found) {
    if (named) aws_fail(source, "no such profile in " + credentials_path + " or the config file");
    tried.push_back(source + ": none");
    return std::nullopt;
  }
  AwsCredentials out;
  out.access_key_id = value_of(section, "aws_access_key_id");
  out.secret_access_key = value_of(section, "aws_secret_access_key");
  out.session_token = value_of(section, "aws_session_token");
  out.region = value_of(section, "region");
  if (out.access_key_id.empty() || out.secret_access_key.empty()) {
    for (const char* unsupported : {"role_arn", "credential_process", "sso_session", "sso_start_url"})
      if (!value_of(section, unsupported).empty())
        aws_fail(source, std::string(unsupported) +
                             " is not supported; export the credentials (aws configure export-credentials)");
    tried.push_back(source + ": no aws_access_key_id");
    return std::nullopt;
  }
  out.source = source;
  out.kind = AwsSource::shared_files;
  return out;
}

std::optional<AwsCredentials> container(const Environment& environment, const RemoteOptions& options) {
  std::string url = variable(environment, "AWS_CONTAINER_CREDENTIALS_FULL_URI");
  if (url.empty()) {
    const std::string relative = variable(environment, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    if (relative.empty()) return std::nullopt;
    url = "http://169.254.170.2" + relative;
  }
  const std::string source = "the container endpoint";
  HttpCall call;
  call.url = url;
  call.display = "the container credentials endpoint";
  call.connect_timeout = kLocalConnectTimeout;
  call.total_timeout = kLocalTimeout;
  std::string authorization = variable(environment, "AWS_CONTAINER_AUTHORIZATION_TOKEN");
  if (const std::string file = variable(environment, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE"); !file.empty()) {
    const auto text = read_small_file(file);
    if (!text) aws_fail(source, file + ": no such file");
    authorization = std::string(base::trim_line(*text));
  }
  if (!authorization.empty()) call.headers.push_back("Authorization: " + authorization);
  const HttpReply reply = http_call(call, options);
  log_reply(options, "GET", call.display, reply);
  if (reply.status != 200)
    aws_fail(source,
             reply.status ? "it answered " + http_status_text(reply.status) : "it did not answer: " + reply.problem);
  AwsCredentials out = aws_json_answer(reply.body, source);
  out.kind = AwsSource::container;
  return out;
}

std::optional<AwsCredentials> instance_metadata(const Environment& environment, const RemoteOptions& options,
                                                std::optional<SourceMiss>& miss) {
  if (is_true(variable(environment, "AWS_EC2_METADATA_DISABLED"))) {
    miss = SourceMiss{"IMDS", "AWS_EC2_METADATA_DISABLED"};
    return std::nullopt;
  }
  std::string endpoint = variable(environment, "AWS_EC2_METADATA_SERVICE_ENDPOINT");
  if (endpoint.empty()) endpoint = "http://169.254.169.254";
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  const std::string source = "IMDSv2 (" + endpoint + ")";
  HttpCall call;
  call.method = "PUT";
  call.url = endpoint + "/latest/api/token";
  call.display = call.url;
  call.headers = {"X-aws-ec2-metadata-token-ttl-seconds: 21600"};
  call.connect_timeout = kLocalConnectTimeout;
  call.total_timeout = kLocalTimeout;
  HttpReply reply = http_call(call, options);
  log_reply(options, "PUT", call.display, reply);
  if (reply.status != 200 || reply.body.empty()) {
    miss = SourceMiss{source, reply.status ? http_status_text(reply.status) : "no answer"};
    return std::nullopt;
  }
  const std::string session = std::string(base::trim_line(reply.body));
  call.method = "GET";
  call.headers = {"X-aws-ec2-metadata-token: " + session};
  call.url = endpoint + "/latest/meta-data/iam/security-credentials/";
  call.display = call.url;
  reply = http_call(call, options);
  log_reply(options, "GET", call.display, reply);
  if (reply.status == 404) {
    miss = SourceMiss{source, "no instance role"};
    return std::nullopt;
  }
  if (reply.status != 200)
    aws_fail(source, reply.status ? "it answered " + http_status_text(reply.status) : reply.problem);
  const std::string role = std::string(base::trim_line(std::string_view(reply.body).substr(0, reply.body.find('\n'))));
  if (role.empty() || role.find('/') != std::string::npos) aws_fail(source, "it names no instance role");
  call.url += percent_encode(role);
  call.display = call.url;
  reply = http_call(call, options);
  log_reply(options, "GET", call.display, reply);
  if (reply.status != 200)
    aws_fail(source, reply.status ? "it answered " + http_status_text(reply.status) : reply.problem);
  AwsCredentials out = aws_json_answer(reply.body, source);
  out.kind = AwsSource::instance_metadata;
  return out;
}

}  // namespace

bool AwsCredentials::temporary() const {
  return kind == AwsSource::web_identity || kind == AwsSource::container || kind == AwsSource::instance_metadata;
}

AwsCredentials aws_sts_answer(const std::string& xml, const std::string& source) {
  AwsCredentials out;
  out.access_key_id = xml_value(xml, "AccessKeyId");
  out.secret_access_key = xml_value(xml, "SecretAccessKey");
  out.session_token = xml_value(xml, "SessionToken");
  if (out.access_key_id.empty() || out.secret_access_key.empty()) aws_fail(source, "STS's answer holds no credentials");
  out.expires = parse_utc_time(xml_value(xml, "Expiration"));
  out.source = source;
  return out;
}

/// {"AccessKeyId", "SecretAccessKey", "Token", "Expiration"} as the container endpoint and IMDS answer.
AwsCredentials aws_json_answer(const std::string& body, const std::string& source) {
  AwsCredentials out;
  const base::Result<Json> answer = json::read_json(body, "answer");
  if (!answer) aws_fail(source, "the answer is not valid JSON");
  out.access_key_id = answer->string_at("AccessKeyId");
  out.secret_access_key = answer->string_at("SecretAccessKey");
  out.session_token = answer->string_at("Token");
  if (out.access_key_id.empty() || out.secret_access_key.empty())
    aws_fail(source, "the answer has no AccessKeyId or SecretAccessKey");
  out.expires = parse_utc_time(answer->string_at("Expiration"));
  out.source = source;
  return out;
}

AwsCredentials aws_environment_credentials(const Environment& environment) {
  AwsCredentials out;
  out.access_key_id = variable(environment, "AWS_ACCESS_KEY_ID");
  out.secret_access_key = variable(environment, "AWS_SECRET_ACCESS_KEY");
  if (out.access_key_id.empty() || out.secret_access_key.empty()) {
    out = AwsCredentials{};
    out.source = "anonymous";
    return out;
  }
  out.session_token = variable(environment, "AWS_SESSION_TOKEN");
  out.source = "the environment (AWS_ACCESS_KEY_ID)";
  out.kind = AwsSource::environment;
  return out;
}

std::string aws_profile_region(const Environment& environment) {
  const auto profile = config_profile(environment);
  return profile ? value_of(*profile, "region") : std::string();
}

AwsCredentials aws_credentials(const Environment& environment, const RemoteOptions& options) {
  std::vector<std::string> tried;
  const auto finish = [&](AwsCredentials found) {
    found.tried = tried;
    if (found.region.empty()) found.region = aws_profile_region(environment);
    return found;
  };
  if (AwsCredentials found = aws_environment_credentials(environment); !found.access_key_id.empty())
    return finish(found);
  tried.push_back("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: not both set");
  if (auto found = web_identity(environment, options)) return finish(*found);
  tried.push_back("web identity: AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN not both set");
  if (auto found = shared_files(environment, tried)) return finish(*found);
  if (auto found = container(environment, options)) return finish(*found);
  tried.push_back("container credentials: AWS_CONTAINER_CREDENTIALS_FULL_URI and _RELATIVE_URI not set");
  std::optional<SourceMiss> miss;
  if (auto found = instance_metadata(environment, options, miss)) return finish(*found);
  if (miss) tried.push_back(miss->text());
  AwsCredentials none;
  none.source = "anonymous";
  return finish(none);
}

AwsCredentials aws_credentials_again(const AwsCredentials& previous, const Environment& environment,
                                     const RemoteOptions& options) {
  std::optional<AwsCredentials> fresh;
  std::optional<SourceMiss> miss;
  switch (previous.kind) {
    case AwsSource::web_identity:
      fresh = web_identity(environment, options);
      break;
    case AwsSource::container:
      fresh = container(environment, options);
      break;
    case AwsSource::instance_metadata:
      fresh = instance_metadata(environment, options, miss);
      break;
    default:
      return previous;  // keys that do not expire: nothing new to ask for
  }
  if (!fresh) {
    aws_fail(previous.source, miss ? miss->why : "it gave no credentials");
  }
  fresh->tried = previous.tried;
  fresh->region = previous.region;
  return *fresh;
}

}  // namespace zanj::remote
