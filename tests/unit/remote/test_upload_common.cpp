#include <doctest/doctest.h>

#include "remote/upload_common.hpp"
#include "zanj/error.hpp"

using namespace zanj;
using namespace zanj::remote;

TEST_SUITE("upload_common") {
  TEST_CASE("fields of S3's XML replies, entities undone") {
    const std::string reply =
        "<?xml version=\"1.0\"?><InitiateMultipartUploadResult><Bucket>b</Bucket>"
        "<UploadId>abc&amp;def</UploadId><ETag>&quot;9b2c&quot;</ETag></InitiateMultipartUploadResult>";
    CHECK(xml_field(reply, "UploadId") == "abc&def");
    CHECK(xml_field(reply, "ETag") == "\"9b2c\"");
    CHECK(xml_field(reply, "Message").empty());
    CHECK(xml_field("<Message>unterminated", "Message").empty());
  }

  TEST_CASE("part sizes S3 allows, held in memory") {
    CHECK_NOTHROW(check_part_size(kMinPartSize));
    CHECK_NOTHROW(check_part_size(kMaxPartSize));
    CHECK_THROWS_WITH_AS(check_part_size(kMinPartSize - 1), doctest::Contains("--part-size"), Error);
    CHECK_THROWS_AS(check_part_size(kMaxPartSize + 1), Error);
  }

  TEST_CASE("a part read as a byte source") {
    const ViewSource source("0123456789");
    char buffer[8] = {};
    CHECK(source.size() == 10);
    CHECK(source.read_some(6, buffer, sizeof buffer) == 4);
    CHECK(std::string(buffer, 4) == "6789");
    CHECK(source.read_some(10, buffer, 1) == 0);
  }

  TEST_CASE("an unexpected reply becomes an error naming the step, not the request") {
    HttpReply reply;
    reply.status = 403;
    reply.body = "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>";
    CHECK_THROWS_WITH_AS(upload_failed("s3://b/k", "part 2", reply, " (credentials tried: x)"),
                         doctest::Contains("part 2: HTTP 403 Forbidden: Access Denied (credentials tried: x)"), Error);
    reply.status = 412;
    try {
      upload_failed("s3://b/k", "completing the upload", reply);
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.exit() == Exit::invalid);
      CHECK(std::string(e.what()).find("already exists") != std::string::npos);
    }
  }
}
