// The one version: the macros of the generated zanj/version.hpp, the library's version() and
// the first line of --version all say the CMake project's VERSION.
#include <doctest/doctest.h>

#include <string>

#include "zanj/archive.hpp"
#include "zanj/version.hpp"

namespace zanj {

TEST_CASE("version() is the library's ZANJ_VERSION_STRING, made of the three numbers") {
  CHECK(version() == ZANJ_VERSION_STRING);
  CHECK(std::string(ZANJ_VERSION_STRING) == std::to_string(ZANJ_VERSION_MAJOR) + "." +
                                                std::to_string(ZANJ_VERSION_MINOR) + "." +
                                                std::to_string(ZANJ_VERSION_PATCH));
}

TEST_CASE("--version's report starts with it") {
  const std::string report = version_report();
  CHECK(report.rfind("zanj " + std::string(version()) + "\n", 0) == 0);
}

}  // namespace zanj
