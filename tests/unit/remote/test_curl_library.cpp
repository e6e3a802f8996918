#include <doctest/doctest.h>

#include <string>

#include "remote/curl_library.hpp"

TEST_CASE("libcurl is opened at run time, once, with every function zanj calls") {
  const zanj::remote::CurlLibrary& curl = zanj::remote::curl_library();
  CHECK(&curl == &zanj::remote::curl_library());
  REQUIRE(static_cast<bool>(curl.version_info));
  const curl_version_info_data* version = curl.version_info(CURLVERSION_NOW);
  REQUIRE(version != nullptr);
  CHECK(version->version_num >= 0x074b00);  // 7.75: AWS SigV4
  CHECK((version->features & CURL_VERSION_SSL) != 0);
  CURL* handle = curl.easy_init();
  REQUIRE(handle != nullptr);
  CHECK(curl.easy_setopt(handle, CURLOPT_URL, "http://127.0.0.1:1/") == CURLE_OK);
  curl.easy_cleanup(handle);
  CHECK(std::string(curl.easy_strerror(CURLE_OK)).size() > 0);
}
