// Resource limits: the documented defaults, and a command's own limits take exactly the
// command line's global options (JSON, jsonl, ratio, member size), keeping their own.
#include <doctest/doctest.h>

#include "zanj/limits.hpp"

namespace zanj {

TEST_CASE("the documented defaults") {
  const ResourceLimits defaults;
  CHECK(defaults.max_json_bytes == std::uint64_t{1} << 30);
  CHECK(defaults.max_json_values == 100'000'000);
  CHECK(defaults.max_jsonl_line_bytes == std::uint64_t{8} << 20);
  CHECK(defaults.max_ratio == 10'000);
  CHECK(defaults.max_member_bytes == std::uint64_t{256} << 30);
  CHECK(ResourceLimits::max_deflate_ratio == 1032);
}

TEST_CASE("take_global_limits copies the global options and nothing else") {
  ResourceLimits global;
  global.max_ratio = 7;
  global.max_json_bytes = 11;
  global.max_json_values = 13;
  global.max_jsonl_line_bytes = 17;
  global.max_jsonl_rows = 19;
  global.max_member_bytes = 37;
  global.max_total_bytes = 23;  // a per-command option: not taken
  global.max_entries = 29;      // likewise
  global.max_npy_header_bytes = 31;

  ResourceLimits own;
  own.max_total_bytes = 1000;
  own.max_entries = 2000;
  own.take_global_limits(global);
  CHECK(own.max_ratio == 7);
  CHECK(own.max_json_bytes == 11);
  CHECK(own.max_json_values == 13);
  CHECK(own.max_jsonl_line_bytes == 17);
  CHECK(own.max_jsonl_rows == 19);
  CHECK(own.max_member_bytes == 37);
  CHECK(own.max_total_bytes == 1000);
  CHECK(own.max_entries == 2000);
  CHECK(own.max_npy_header_bytes == ResourceLimits{}.max_npy_header_bytes);
}

}  // namespace zanj
