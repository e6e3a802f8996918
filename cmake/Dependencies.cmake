# Every dependency is a Debian 12 package (scripts/install-deps); nothing is downloaded here.
find_package(PkgConfig REQUIRED)
# Member data is decoded by zanj itself (src/core/zip/member_decoder.cpp) with these libraries.
find_package(BZip2 REQUIRED)
find_package(LibLZMA REQUIRED)
pkg_check_modules(LIBZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)  # pack: fast whole-block deflate
find_package(ZLIB REQUIRED)
find_package(simdjson REQUIRED)  # every JSON member and .jsonl line (src/core/json/json_parse.cpp)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(Threads REQUIRED)
# URLs (src/core/remote): libcurl's header for its types only; the library is opened with
# dlopen when a URL is read, never linked (base/shared_library.hpp).
find_path(CURL_HEADER_DIR curl/curl.h)
if(NOT CURL_HEADER_DIR)
  message(FATAL_ERROR "curl/curl.h not found: install libcurl4-openssl-dev (scripts/install-deps)")
endif()
# Tar and other archive formats (export): libarchive's headers for types only; the library is
# opened with dlopen when such an archive is written, never linked (io/archive_library.hpp).
find_path(LIBARCHIVE_HEADER_DIR archive.h)
if(NOT LIBARCHIVE_HEADER_DIR)
  message(FATAL_ERROR "archive.h not found: install libarchive-dev (scripts/install-deps)")
endif()
if(BUILD_TESTING OR NOT DEFINED BUILD_TESTING)
  find_package(doctest REQUIRED)
endif()
