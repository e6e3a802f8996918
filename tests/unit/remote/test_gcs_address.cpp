#include <doctest/doctest.h>

#include <map>
#include <string>

#include "remote/gcs_address.hpp"
#include "environment_fixture.hpp"
#include "remote/http_call.hpp"
#include "test_support.hpp"
#include "zanj/error.hpp"

using zanj::test::environment_table;

TEST_CASE("the GCS endpoint: Google's, or STORAGE_EMULATOR_HOST with or without a scheme") {
  CHECK(zanj::gcs_endpoint(environment_table({})) == "https://storage.googleapis.com");
  CHECK(zanj::gcs_endpoint(environment_table({{"STORAGE_EMULATOR_HOST", "127.0.0.1:4443"}})) ==
        "http://127.0.0.1:4443");
  CHECK(zanj::gcs_endpoint(environment_table({{"STORAGE_EMULATOR_HOST", "https://gcs.local/"}})) ==
        "https://gcs.local");
}

TEST_CASE("object names are percent-encoded whole, '/' included, as the JSON API wants") {
  CHECK(zanj::gcs_object_url("https://storage.googleapis.com", "b", "run 7/model+1.zanj") ==
        "https://storage.googleapis.com/storage/v1/b/b/o/run%207%2Fmodel%2B1.zanj");
}
