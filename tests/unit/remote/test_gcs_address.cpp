#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "credential_fixture.hpp"
#include "http_fixture.hpp"
#include "remote/gcs_address.hpp"
#include "environment_fixture.hpp"
#include "remote/http_call.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using namespace std::chrono_literals;

using zanj::test::environment_table;

TEST_CASE("the GCS endpoint: Google's, or STORAGE_EMULATOR_HOST with or without a scheme") {
  CHECK(zanj::remote::gcs_endpoint(environment_table({})) == "https://storage.googleapis.com");
  CHECK(zanj::remote::gcs_endpoint(environment_table({{"STORAGE_EMULATOR_HOST", "127.0.0.1:4443"}})) ==
        "http://127.0.0.1:4443");
  CHECK(zanj::remote::gcs_endpoint(environment_table({{"STORAGE_EMULATOR_HOST", "https://gcs.local/"}})) ==
        "https://gcs.local");
}

TEST_CASE("object names are percent-encoded whole, '/' included, as the JSON API wants") {
  CHECK(zanj::remote::gcs_object_url("https://storage.googleapis.com", "b", "run 7/model+1.zanj") ==
        "https://storage.googleapis.com/storage/v1/b/b/o/run%207%2Fmodel%2B1.zanj");
}

TEST_CASE("a refresh asks the same source only: a metadata server gone is an error, never anonymous requests") {
  std::atomic<bool> down{false};
  zanj::test::HttpFixture metadata("", [&](const std::string&, int n, const std::string&) {
    if (down) return zanj::test::http_response("503 Service Unavailable");
    return zanj::test::http_response("200 OK",
                                     R"({"access_token": "ya29.m)" + std::to_string(n) + R"(", "expires_in": 120})",
                                     "Metadata-Flavor: Google\r\n");
  });
  zanj::remote::CredentialTime now{};
  const std::string host = metadata.url("").substr(7);  // 127.0.0.1:PORT
  const auto environment = zanj::test::environment_table(
      {{"GCE_METADATA_HOST", host}, {"CLOUDSDK_CONFIG", "/nonexistent"}, {"HOME", "/nonexistent"}});
  zanj::RemoteOptions options = zanj::test::quick_remote_options();
  options.retries = 0;
  const auto provider = zanj::remote::gcs_credential_provider("gs://b/o", environment, options, [&] { return now; });
  CHECK(provider->current()->headers == std::vector<std::string>{"Authorization: Bearer ya29.m0"});
  CHECK(provider->current()->expires == now + 120s);
  now += 91s;  // within a quarter of the two minutes
  CHECK(provider->current()->headers == std::vector<std::string>{"Authorization: Bearer ya29.m1"});
  down = true;
  now += 200s;  // expired, and the source does not answer
  const std::string expected = "gs://b/o: Google Cloud credentials from the metadata server (" + host + "): HTTP 503";
  CHECK_THROWS_WITH_AS(provider->current(), doctest::Contains(expected.c_str()), zanj::Error);
}
