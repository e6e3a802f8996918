#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include "remote/curl_setup.hpp"

namespace curl_setup_test {

std::vector<std::string> lines(const zanj::remote::CurlHeaders& headers) {
  std::vector<std::string> out;
  for (const curl_slist* item = headers.list(); item != nullptr; item = item->next) out.emplace_back(item->data);
  return out;
}

/// `setup` performed with `options` on a fresh handle: libcurl's result, and its reason in
/// the error buffer set_up_curl gives it.
std::pair<CURLcode, std::string> perform(zanj::remote::CurlSetup setup, const zanj::RemoteOptions& options) {
  const zanj::remote::CurlLibrary& curl = zanj::remote::curl_library();
  std::unique_ptr<CURL, decltype(curl.easy_cleanup)> handle(curl.easy_init(), curl.easy_cleanup);
  char error[CURL_ERROR_SIZE] = {};
  setup.error = error;
  zanj::remote::set_up_curl(handle.get(), setup, options);
  const CURLcode code = curl.easy_perform(handle.get());
  return {code, error};
}

/// A loopback port that takes connections (into its backlog) and never answers; closed when
/// it goes.
struct SilentPort {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  int port = 0;
  SilentPort() {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&address), size) == 0);
    REQUIRE(::listen(fd, 4) == 0);
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) == 0);
    port = ntohs(address.sin_port);
  }
  SilentPort(const SilentPort&) = delete;
  SilentPort& operator=(const SilentPort&) = delete;
  ~SilentPort() { ::close(fd); }
};

}  // namespace curl_setup_test

TEST_CASE("a curl header list keeps its lines in order") {
  zanj::remote::CurlHeaders headers;
  CHECK(headers.list() == nullptr);
  headers.add("x-amz-security-token: T");
  headers.add("Expect:");
  CHECK(curl_setup_test::lines(headers) == std::vector<std::string>{"x-amz-security-token: T", "Expect:"});
}

TEST_CASE("set_up_curl allows http and https only, and fills the error buffer") {
  const std::string url = "file:///etc/hostname";
  zanj::remote::CurlSetup setup;
  setup.url = &url;
  const auto [code, reason] = curl_setup_test::perform(setup, zanj::RemoteOptions{});
  CHECK(code == CURLE_UNSUPPORTED_PROTOCOL);
  CHECK(!reason.empty());
}

TEST_CASE("set_up_curl gives a passed deadline to the request, which ends at once") {
  const curl_setup_test::SilentPort silent;
  const std::string url = "http://127.0.0.1:" + std::to_string(silent.port) + "/";
  zanj::remote::CurlSetup setup;
  setup.url = &url;
  zanj::RemoteOptions options;
  options.connect_timeout = 30;
  options.deadline = 0.001;
  options.start = std::chrono::steady_clock::now() - std::chrono::seconds(1);
  const auto started = std::chrono::steady_clock::now();
  const auto [code, reason] = curl_setup_test::perform(setup, options);
  CHECK(code == CURLE_OPERATION_TIMEDOUT);
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(5));
  CHECK(zanj::remote::seconds_left(options) < 0);
}
