# `cpack -G DEB` in the build directory: three Debian packages from the install components of
# cmake/Install.cmake, installed under /usr, split as Debian splits a library:
# - zanj_<version>_<arch>.deb (runtime): the program, its man pages and completions; its
#   Depends line is computed by dpkg-shlibdeps (dpkg-dev) from the libraries the binary links,
#   plus the libraries it opens with dlopen (named below). The program links libzanj
#   statically, so it needs no libzanj0.
# - libzanj0_<version>_<arch>.deb (libraries): libzanj.so.0, named for its SONAME; Depends by
#   dpkg-shlibdeps, plus what it opens with dlopen.
# - libzanj-dev_<version>_<arch>.deb (development): the libzanj.so link, libzanj.a, the headers,
#   the CMake package and zanj.pc; it depends on libzanj0 of the same version and on the -dev
#   packages of the libraries libzanj.a needs at link time.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME zanj)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # Debian ships stripped binaries
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime libraries development)
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

set(CPACK_DEBIAN_LIBRARIES_PACKAGE_NAME libzanj0)
set(CPACK_DEBIAN_LIBRARIES_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_LIBRARIES_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_LIBRARIES_PACKAGE_DEPENDS "libssl3, libcurl4 (>= 7.75), libarchive13")
set(CPACK_COMPONENT_LIBRARIES_DESCRIPTION "C++20 library for .zanj archives (shared library)
The core of the zanj tool, libzanj.so.0: read, verify, diff, hash, extract
and pack .zanj archives from C++.")

set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_NAME libzanj-dev)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEVELOPMENT_PACKAGE_DEPENDS
    "libzanj0 (= ${PROJECT_VERSION}), libsimdjson-dev, libdeflate-dev, zlib1g-dev, libbz2-dev, liblzma-dev, libzstd-dev, pkgconf | pkg-config")
set(CPACK_COMPONENT_DEVELOPMENT_DESCRIPTION "C++20 library for .zanj archives (development files)
The headers of libzanj, the link to the shared library, the static library
libzanj.a, a CMake package (find_package(zanj), targets zanj::zanj and
zanj::zanj_shared) and a pkg-config file (zanj.pc).")

# Debian's layout differs from `cmake --install`'s: fixed in the staging tree.
set(CPACK_PRE_BUILD_SCRIPTS ${PROJECT_SOURCE_DIR}/cmake/DebianLayout.cmake)
set(CPACK_ZANJ_STRIP ${CMAKE_STRIP})  # for that script (CPack passes on CPACK_* variables)

include(CPack)
