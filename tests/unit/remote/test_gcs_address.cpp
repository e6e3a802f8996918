#include <doctest/doctest.h>

#include <map>
#include <string>

#include "remote/gcs_address.hpp"
#include "remote/http_call.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

namespace {

zanj::Environment table(std::map<std::string, std::string> values) {
  return [values = std::move(values)](const char* name) -> const char* {
    const auto it = values.find(name);
    return it == values.end() ? nullptr : it->second.c_str();
  };
}

}  // namespace

TEST_CASE("the GCS endpoint: Google's, or STORAGE_EMULATOR_HOST with or without a scheme") {
  CHECK(zanj::gcs_endpoint(table({})) == "https://storage.googleapis.com");
  CHECK(zanj::gcs_endpoint(table({{"STORAGE_EMULATOR_HOST", "127.0.0.1:4443"}})) == "http://127.0.0.1:4443");
  CHECK(zanj::gcs_endpoint(table({{"STORAGE_EMULATOR_HOST", "https://gcs.local/"}})) == "https://gcs.local");
}

TEST_CASE("object names are percent-encoded whole, '/' included, as the JSON API wants") {
  CHECK(zanj::gcs_object_url("https://storage.googleapis.com", "b", "run 7/model+1.zanj") ==
        "https://storage.googleapis.com/storage/v1/b/b/o/run%207%2Fmodel%2B1.zanj");
}

