# Every dependency is a Debian 12 package (scripts/install-deps); nothing is downloaded here.
find_package(PkgConfig REQUIRED)
pkg_check_modules(LIBARCHIVE REQUIRED IMPORTED_TARGET libarchive)
# Debian's shared libarchive pulls in libxml2 and ICU at every start (for formats zanj never
# reads), which is most of `zanj info`'s run time on a small archive. The static library
# brings only the ZIP reader's objects; its compression libraries stay shared.
option(ZANJ_STATIC_LIBARCHIVE "Link libarchive statically when libarchive.a is installed" ON)
find_library(LIBARCHIVE_STATIC NAMES libarchive.a)
if(ZANJ_STATIC_LIBARCHIVE AND LIBARCHIVE_STATIC)
  add_library(zanj_libarchive INTERFACE)
  target_include_directories(zanj_libarchive INTERFACE ${LIBARCHIVE_INCLUDE_DIRS})
  target_link_libraries(zanj_libarchive INTERFACE ${LIBARCHIVE_STATIC} nettle lzma zstd bz2 z)
  target_link_options(zanj_libarchive INTERFACE "LINKER:--as-needed")
  message(STATUS "libarchive: static (${LIBARCHIVE_STATIC})")
else()
  add_library(zanj_libarchive INTERFACE)
  target_link_libraries(zanj_libarchive INTERFACE PkgConfig::LIBARCHIVE)
  message(STATUS "libarchive: shared")
endif()
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
