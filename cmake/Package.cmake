# `cpack -G DEB` in the build directory: two Debian packages from the install components of
# cmake/Install.cmake, installed under /usr.
# - zanj_<version>_<arch>.deb (runtime): the program, its man pages and completions; its
#   Depends line is computed by dpkg-shlibdeps (dpkg-dev) from the libraries the binary links,
#   plus the libraries it opens with dlopen (named below).
# - zanj-dev_<version>_<arch>.deb (development): libzanj.a, the headers, the CMake package and
#   zanj.pc; it depends on the -dev packages of the libraries libzanj.a needs at link time.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME zanj)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # Debian ships stripped binaries
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime development)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # <name>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER
    "Seed 9ee91e92 maintainers <maintainers@users.noreply.a-seed-9ee91e92.example>")
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)

set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME zanj)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# Libraries opened with dlopen are invisible to dpkg-shlibdeps: named here, and CPack appends
# what dpkg-shlibdeps finds. libcrypto (libssl3) gives `zanj hash` its digests, libcurl4 reads
# URLs, libarchive13 writes and reads tar and the other non-ZIP formats (base/shared_library.hpp).
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "libssl3, libcurl4 (>= 7.75), libarchive13")
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "inspect, verify, diff and pack .zanj archives
zanj is the command-line tool for .zanj archives, the ZIP files the Python ZANJ
library writes for models, arrays and configs. It lists, prints, verifies,
diffs, extracts and packs them, streaming member by member.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME zanj-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "libsimdjson-dev, libdeflate-dev, zlib1g-dev, libbz2-dev, liblzma-dev, libzstd-dev, pkgconf | pkg-config")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "C++20 library for .zanj archives (static library and headers)
The core of the zanj tool as a static library, libzanj.a, with its public
headers, a CMake package (find_package(zanj), target zanj::zanj) and a
pkg-config file (zanj.pc).")

# Debian's layout differs from `cmake --install`'s: fixed in the staging tree.
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/DebianLayout.cmake)
set(CPACK_ZANJ_STRIP ${CMAKE_STRIP})  # for that script (CPack passes on CPACK_* variables)

include(CPack)
