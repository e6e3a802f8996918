#include <doctest/doctest.h>

#include <string>

#include "remote/jwt.hpp"
#include "zanj/error.hpp"

TEST_CASE("base64url without padding, as JWTs encode") {
  CHECK(zanj::remote::base64url("") == "");
  CHECK(zanj::remote::base64url("f") == "Zg");
  CHECK(zanj::remote::base64url("fo") == "Zm8");
  CHECK(zanj::remote::base64url("foo") == "Zm9v");
  CHECK(zanj::remote::base64url("\xfb\xff") == "-_8");
}

TEST_CASE("a private key that is not one is refused without being quoted") {
  const std::string key = "-----BEGIN PRIVATE KEY-----\nTOPSECRETBYTES\n-----END PRIVATE KEY-----\n";
  try {
    zanj::remote::rs256_jwt("{}", "{}", key);
    FAIL("no error");
  } catch (const zanj::Error& e) {
    CHECK(e.exit() == zanj::Exit::usage);
    CHECK(std::string(e.what()).find("TOPSECRET") == std::string::npos);
  }
}
