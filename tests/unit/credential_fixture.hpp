#pragma once
// Temporary credentials for the remote/ unit tests: a source that numbers its answers
// ("X-Test-Token: token-N"), each good for an hour from a clock the test moves by hand, and
// helpers for the loopback HttpFixture's responses.
#include <chrono>
#include <memory>
#include <string>

#include "http_fixture.hpp"
#include "remote/credential_provider.hpp"
#include "zanj/archive.hpp"

namespace zanj::test {

struct NumberedCredentials {
  remote::CredentialTime now = remote::CredentialTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27));
  int calls = 0;

  remote::RequestCredentials next() {
    remote::RequestCredentials c;
    c.headers = {"X-Test-Token: token-" + std::to_string(calls++)};
    c.expires = now + std::chrono::hours(1);
    c.temporary = true;
    c.source = "the test source";
    c.tried = {"A: not set"};
    return c;
  }
  /// A provider of these, reading `now` as its clock.
  std::shared_ptr<remote::CredentialProvider> provider() {
    return std::make_shared<remote::CredentialProvider>(
        next(), [this] { return next(); }, "test", nullptr, [this] { return now; });
  }
};

/// The token of the last request `server` received (call it from its respond function, on the
/// server's thread, where requests() is filled).
inline std::string test_token_of(const HttpFixture& server) {
  const std::string request = server.requests().back();
  const std::size_t at = request.find("X-Test-Token: ");
  return at == std::string::npos ? "" : request.substr(at + 14, request.find("\r\n", at) - at - 14);
}

/// A whole response: "HTTP/1.1 `line`", `headers` ("Name: value\r\n" each) and `body`.
inline std::string http_response(const std::string& line, const std::string& body = "",
                                 const std::string& headers = "") {
  return "HTTP/1.1 " + line + "\r\n" + headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

/// Short timeouts and one retry: a loopback server answers at once or not at all.
inline RemoteOptions quick_remote_options() {
  RemoteOptions options;
  options.retries = 1;
  options.connect_timeout = 2;
  options.idle_timeout = 2;
  return options;
}

}  // namespace zanj::test
