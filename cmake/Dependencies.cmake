# Every dependency is a Debian 12 package (scripts/install-deps); nothing is downloaded here.
find_package(PkgConfig REQUIRED)
# Member data is decoded by zanj itself (src/core/member_decoder.cpp) with these libraries.
find_package(BZip2 REQUIRED)
find_package(LibLZMA REQUIRED)
pkg_check_modules(LIBZSTD REQUIRED IMPORTED_TARGET libzstd)
pkg_check_modules(LIBDEFLATE REQUIRED IMPORTED_TARGET libdeflate)  # pack: fast whole-block deflate
find_package(ZLIB REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(Threads REQUIRED)
if(BUILD_TESTING OR NOT DEFINED BUILD_TESTING)
  find_package(doctest REQUIRED)
endif()
