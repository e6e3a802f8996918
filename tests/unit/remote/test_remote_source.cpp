#include <doctest/doctest.h>

#include <string>
#include <thread>
#include <vector>

#include "http_fixture.hpp"
#include "remote/remote_source.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using zanj::remote::RemoteSource;
using zanj::test::HttpFixture;

TEST_CASE("a URL reads like a file, from several threads") {
  std::string body;
  for (int i = 0; i < 200'000; ++i) body += static_cast<char>(i % 251);
  HttpFixture server(body, {}, 64);
  const RemoteSource source(*zanj::remote::parse_remote_url(server.url()), zanj::RemoteOptions{});
  CHECK(source.size() == body.size());
  std::vector<std::thread> threads;
  std::vector<int> right(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      std::string out(30'000, '\0');
      source.read_at(static_cast<std::uint64_t>(t) * 40'000, out.data(), out.size());
      right[static_cast<std::size_t>(t)] = out == body.substr(static_cast<std::size_t>(t) * 40'000, 30'000);
    });
  for (auto& thread : threads) thread.join();
  CHECK(right == std::vector<int>(4, 1));
  char c = 0;
  CHECK(source.read_some(body.size(), &c, 1) == 0);
  CHECK_THROWS_AS(source.read_at(body.size() - 1, &c, 2), zanj::Error);
  CHECK(source.transfer()->requests <= 6);
}

TEST_CASE("an unreachable URL is a usage error that shows no password") {
  int port = 0;
  {
    HttpFixture closed("x", {}, 0);  // listens, then stops: the port is free again
    port = std::stoi(closed.url().substr(17));
  }
  zanj::RemoteOptions options;
  options.retries = 0;
  const std::string url = "http://alice:s3cret@127.0.0.1:" + std::to_string(port) + "/a.zanj";
  try {
    RemoteSource source(*zanj::remote::parse_remote_url(url), options);
    FAIL("opened a closed port");
  } catch (const zanj::Error& e) {
    CHECK(e.exit() == zanj::Exit::usage);
    CHECK(std::string(e.what()).rfind("http://127.0.0.1:" + std::to_string(port) + "/a.zanj: ", 0) == 0);
    CHECK(std::string(e.what()).find("s3cret") == std::string::npos);
  }
}
