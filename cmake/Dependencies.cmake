# Every dependency is a Debian 12 package (scripts/install-deps); nothing is downloaded here.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBARCHIVE REQUIRED IMPORTED_TARGET libarchive)
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)  # pack: fast whole-block deflate
find_package(simdjson REQUIRED)
find_package(ZLIB REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(Threads REQUIRED)
if(BUILD_TESTING OR NOT DEFINED BUILD_TESTING)
  find_package(doctest REQUIRED)
endif()
