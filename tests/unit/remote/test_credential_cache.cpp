#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "remote/credential_cache.hpp"
#include "remote/s3_address.hpp"
#include "zanj/error.hpp"

using zanj::CredentialCache;
using zanj::remote::CredentialProvider;
using zanj::remote::RequestCredentials;
using zanj::remote::SharedCredentials;

namespace cache_test {

/// A provider whose credentials name how many times the source was resolved.
struct CountingResolve {
  std::atomic<int> calls{0};
  SharedCredentials operator()() {
    const int n = ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // callers meanwhile wait
    RequestCredentials credentials;
    credentials.source = "resolution " + std::to_string(n);
    return SharedCredentials{std::make_shared<CredentialProvider>(credentials, nullptr, "s3://b/k"), "eu-west-3"};
  }
};

}  // namespace cache_test

TEST_CASE("a credential cache resolves each kind once, for every thread") {
  const auto cache = zanj::make_credential_cache();
  cache_test::CountingResolve resolve;
  std::vector<std::shared_ptr<CredentialProvider>> got(8);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i)
    threads.emplace_back([&, i] { got[i] = cache->get("s3", [&] { return resolve(); }).provider; });
  for (auto& thread : threads) thread.join();
  CHECK(resolve.calls == 1);
  for (const auto& provider : got) CHECK(provider == got[0]);
  CHECK(cache->get("s3", [&] { return resolve(); }).region == "eu-west-3");
  CHECK(resolve.calls == 1);
  // Another kind is resolved on its own.
  CHECK(cache->get("gs", [&] { return resolve(); }).provider != got[0]);
  CHECK(resolve.calls == 2);
}

TEST_CASE("a failed resolution is not kept, and options without a cache resolve every time") {
  const auto cache = zanj::make_credential_cache();
  cache_test::CountingResolve resolve;
  CHECK_THROWS_AS(cache->get("gs", []() -> SharedCredentials { throw zanj::Error("no metadata server"); }),
                  zanj::Error);
  CHECK(cache->get("gs", [&] { return resolve(); }).provider->current()->source == "resolution 1");

  zanj::RemoteOptions options;  // no cache: nothing shared
  CHECK(zanj::remote::shared_credentials(options, "s3", [&] { return resolve(); }).provider->current()->source ==
        "resolution 2");
  CHECK(zanj::remote::shared_credentials(options, "s3", [&] { return resolve(); }).provider->current()->source ==
        "resolution 3");
  options.credential_cache = cache;  // copies of the options share it
  const zanj::RemoteOptions copy = options;
  const auto first = zanj::remote::shared_credentials(options, "s3", [&] { return resolve(); }).provider;
  CHECK(zanj::remote::shared_credentials(copy, "s3", [&] { return resolve(); }).provider == first);
  CHECK(resolve.calls == 4);
}

TEST_CASE("s3_access shares the cache's credentials across URLs and keeps each URL's address") {
  const zanj::remote::Environment environment = [](const char* name) -> const char* {
    const std::string n = name;
    if (n == "AWS_ACCESS_KEY_ID") return "AKID";
    if (n == "AWS_SECRET_ACCESS_KEY") return "SECRET";
    if (n == "AWS_REGION") return "eu-west-3";
    if (n == "AWS_SHARED_CREDENTIALS_FILE" || n == "AWS_CONFIG_FILE") return "/nonexistent";
    return nullptr;
  };
  zanj::RemoteOptions options;
  options.credential_cache = zanj::make_credential_cache();
  const auto a = zanj::remote::s3_access(*zanj::remote::parse_remote_url("s3://bucket/a.zanj"), "s3://bucket/a.zanj",
                                         environment, options);
  const auto b = zanj::remote::s3_access(*zanj::remote::parse_remote_url("s3://other/b.zanj"), "s3://other/b.zanj",
                                         environment, options);
  CHECK(a.credentials == b.credentials);
  CHECK(a.url == "https://bucket.s3.eu-west-3.amazonaws.com/a.zanj");
  CHECK(b.url == "https://other.s3.eu-west-3.amazonaws.com/b.zanj");
  CHECK(b.credentials->current()->sigv4 == "aws:amz:eu-west-3:s3");
}
