#include <doctest/doctest.h>

#include "zanj/many_archives.hpp"

TEST_CASE("bucket patterns are s3:// and gs:// URLs whose object name holds * or ?") {
  CHECK(zanj::is_bucket_pattern("s3://bucket/run/*.zanj"));
  CHECK(zanj::is_bucket_pattern("GS://bucket/**"));
  CHECK_FALSE(zanj::is_bucket_pattern("s3://bucket/run/model.zanj"));
  CHECK_FALSE(zanj::is_bucket_pattern("https://host/a*.zanj?x=1"));  // a web URL is never listed
  CHECK_FALSE(zanj::is_bucket_pattern("local/*.zanj"));
  CHECK_FALSE(zanj::is_bucket_pattern("s3://bucket"));
}
