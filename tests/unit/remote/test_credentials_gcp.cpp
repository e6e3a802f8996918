#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>

#include "remote/credentials_gcp.hpp"
#include "environment_fixture.hpp"
#include "temp_dir.hpp"
#include "zanj/error.hpp"

using zanj::test::environment_table;

TEST_CASE("an access token in the environment comes first, with no request") {
  const auto c =
      zanj::remote::gcp_credentials(environment_table({{"CLOUDSDK_AUTH_ACCESS_TOKEN", "ya29.b"},
                                                       {"GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent.json"}}),
                                    {});
  CHECK(c.token == "ya29.b");
  CHECK(c.source == "CLOUDSDK_AUTH_ACCESS_TOKEN");
  CHECK(zanj::remote::gcp_credentials(
            environment_table({{"GOOGLE_OAUTH_ACCESS_TOKEN", "ya29.a"}, {"CLOUDSDK_AUTH_ACCESS_TOKEN", "ya29.b"}}), {})
            .source == "GOOGLE_OAUTH_ACCESS_TOKEN");
}

TEST_CASE("GOOGLE_APPLICATION_CREDENTIALS naming no file, or an unsupported kind, is an error") {
  CHECK_THROWS_WITH_AS(
      zanj::remote::gcp_credentials(environment_table({{"GOOGLE_APPLICATION_CREDENTIALS", "/nonexistent.json"}}), {}),
      doctest::Contains("no such file"), zanj::Error);
  zanj::test::TempDir tmp;
  std::ofstream(tmp / "external.json") << R"({"type": "external_account"})";
  CHECK_THROWS_WITH_AS(
      zanj::remote::gcp_credentials(environment_table({{"GOOGLE_APPLICATION_CREDENTIALS", tmp / "external.json"}}), {}),
      doctest::Contains("'external_account' are not supported"), zanj::Error);
  // Text that is not JSON, and JSON that is not an object, are told apart (the text itself,
  // which may hold a secret, is never quoted).
  std::ofstream(tmp / "broken.json") << R"({"type": "service_account", "private_key": "SECRET)";
  CHECK_THROWS_WITH_AS(
      zanj::remote::gcp_credentials(environment_table({{"GOOGLE_APPLICATION_CREDENTIALS", tmp / "broken.json"}}), {}),
      doctest::Contains("is not valid JSON"), zanj::Error);
  std::ofstream(tmp / "list.json") << R"(["SECRET"])";
  CHECK_THROWS_WITH_AS(
      zanj::remote::gcp_credentials(environment_table({{"GOOGLE_APPLICATION_CREDENTIALS", tmp / "list.json"}}), {}),
      doctest::Contains("is not a JSON object"), zanj::Error);
}

TEST_CASE("small files: missing is nullopt; the tried note lists the sources in order") {
  CHECK_FALSE(zanj::remote::read_small_file("/nonexistent/file").has_value());
  CHECK(zanj::remote::tried_note({"A: not set", "B: none"}, "anonymous") ==
        " (credentials tried: A: not set; B: none; used: anonymous)");
}
