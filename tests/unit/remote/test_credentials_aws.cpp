#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <string>

#include "remote/credentials_aws.hpp"
#include "environment_fixture.hpp"
#include "temp_dir.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using zanj::remote::aws_credentials;

namespace {

/// No network: IMDS is off, and nothing else that asks a server is set unless a test sets it.
zanj::remote::Environment offline_table(std::map<std::string, std::string> values) {
  values.emplace("AWS_EC2_METADATA_DISABLED", "true");
  return zanj::test::environment_table(std::move(values));
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

}  // namespace

TEST_CASE("the environment's keys come first, with the session token") {
  zanj::test::TempDir tmp;
  write(tmp / "credentials", "[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = FILESECRET\n");
  const auto c = aws_credentials(offline_table({{"AWS_ACCESS_KEY_ID", "AKID"},
                                                {"AWS_SECRET_ACCESS_KEY", "SECRET"},
                                                {"AWS_SESSION_TOKEN", "TOKEN"},
                                                {"AWS_SHARED_CREDENTIALS_FILE", tmp / "credentials"}}),
                                 {});
  CHECK(c.access_key_id == "AKID");
  CHECK(c.secret_access_key == "SECRET");
  CHECK(c.session_token == "TOKEN");
  CHECK(c.source == "the environment (AWS_ACCESS_KEY_ID)");
}

TEST_CASE("the shared files: the profile's keys, the config's region, comments and spaces") {
  zanj::test::TempDir tmp;
  write(tmp / "credentials",
        "# comment\n[default]\naws_access_key_id=D\naws_secret_access_key=DS\n\n[work]\r\n"
        "  aws_access_key_id = W \r\naws_secret_access_key = WS\n; another\naws_session_token = WT\n");
  write(tmp / "config", "[default]\nregion = us-west-2\n[profile work]\nregion = eu-central-1\n");
  const std::map<std::string, std::string> files{{"AWS_SHARED_CREDENTIALS_FILE", tmp / "credentials"},
                                                 {"AWS_CONFIG_FILE", tmp / "config"}};
  const auto d = aws_credentials(offline_table(files), {});
  CHECK(d.access_key_id == "D");
  CHECK(d.region == "us-west-2");
  CHECK(d.source == "profile default of the shared files");
  auto with_profile = files;
  with_profile.emplace("AWS_PROFILE", "work");
  const auto w = aws_credentials(offline_table(with_profile), {});
  CHECK(w.access_key_id == "W");
  CHECK(w.secret_access_key == "WS");
  CHECK(w.session_token == "WT");
  CHECK(w.region == "eu-central-1");
  // Found under HOME as ~/.aws/credentials.
  std::filesystem::create_directories(tmp / "home/.aws");
  std::filesystem::copy_file(tmp / "credentials", tmp / "home/.aws/credentials");
  CHECK(aws_credentials(offline_table({{"HOME", tmp / "home"}}), {}).access_key_id == "D");
}

TEST_CASE("a named profile that is missing, or one zanj cannot use, is an error; none at all is anonymous") {
  zanj::test::TempDir tmp;
  write(tmp / "credentials", "[default]\naws_access_key_id = D\naws_secret_access_key = DS\n");
  write(tmp / "config", "[profile sso]\nsso_session = corp\n");
  const std::map<std::string, std::string> files{{"AWS_SHARED_CREDENTIALS_FILE", tmp / "credentials"},
                                                 {"AWS_CONFIG_FILE", tmp / "config"}};
  auto missing = files;
  missing.emplace("AWS_PROFILE", "nobody");
  CHECK_THROWS_WITH_AS(aws_credentials(offline_table(missing), {}), doctest::Contains("no such profile"), zanj::Error);
  auto sso = files;
  sso.emplace("AWS_PROFILE", "sso");
  CHECK_THROWS_WITH_AS(aws_credentials(offline_table(sso), {}), doctest::Contains("sso_session is not supported"),
                       zanj::Error);
  const auto none = aws_credentials(
      offline_table({{"AWS_SHARED_CREDENTIALS_FILE", tmp / "nowhere"}, {"AWS_CONFIG_FILE", tmp / "nowhere"}}), {});
  CHECK(none.access_key_id.empty());
  CHECK(none.source == "anonymous");
  REQUIRE(none.tried.size() == 5);
  CHECK(none.tried.back() == "IMDS: AWS_EC2_METADATA_DISABLED");
}

TEST_CASE("asking the instance metadata again names the source once, with why it gave nothing") {
  zanj::remote::AwsCredentials previous;
  previous.kind = zanj::remote::AwsSource::instance_metadata;
  previous.source = "IMDSv2 (http://127.0.0.1:9)";
  try {
    zanj::remote::aws_credentials_again(previous, offline_table({}), {});
    FAIL("a disabled IMDS gave credentials");
  } catch (const zanj::Error& e) {
    const std::string message = e.what();
    CHECK(message.find("IMDSv2 (http://127.0.0.1:9)") != std::string::npos);
    CHECK(message.find("AWS_EC2_METADATA_DISABLED") != std::string::npos);
    CHECK(message.find("IMDS: ") == std::string::npos);  // the miss's own source is not said again
  }
}
