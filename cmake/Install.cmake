# What `cmake --install` puts under the prefix, in three components that cmake/Package.cmake
# turns into three Debian packages:
# - runtime: bin/zanj (installed by src/cli/CMakeLists.txt; it links the library statically),
#   the man pages (written at build time from docs/man/*.md, src/cli/CMakeLists.txt) and the
#   completions, each where its consumer looks: man, bash-completion, zsh's fpath, fish's
#   vendor directory;
# - libraries: the shared library, libzanj.so.0 and the file it names;
# - development: libzanj.so (the link to it), the static library libzanj.a, the public headers
#   include/zanj/*.hpp, a CMake package (find_package(zanj) -> zanj::zanj, static, and
#   zanj::zanj_shared) and a pkg-config file (zanj.pc: the shared library, or with --static
#   what the static one needs).
include(CMakePackageConfigHelpers)

install(FILES ${ZANJ_GENERATED_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/completions/zanj.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME zanj COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/completions/_zanj
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions COMPONENT runtime)
install(FILES ${PROJECT_SOURCE_DIR}/completions/zanj.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d COMPONENT runtime)

# The library as consumers see it: libzanj.a, target zanj::zanj, and C++20 (the headers need it;
# CMake consumers get the flag from the target, pkg-config ones must pass -std=c++20).
set_target_properties(zanj_core PROPERTIES OUTPUT_NAME zanj EXPORT_NAME zanj)
set_property(TARGET zanj_core APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
install(TARGETS zanj_core EXPORT zanjTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT development)
set_target_properties(zanj_shared PROPERTIES EXPORT_NAME zanj_shared)
set_property(TARGET zanj_shared APPEND PROPERTY INTERFACE_COMPILE_FEATURES cxx_std_20)
install(TARGETS zanj_shared EXPORT zanjTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libraries NAMELINK_COMPONENT development)
# Every header in include/zanj is public; private headers sit beside their sources in src/core.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/zanj DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT development FILES_MATCHING PATTERN "*.hpp")
# ... and zanj/version.hpp, generated from the project's VERSION (src/core/CMakeLists.txt).
install(FILES ${PROJECT_BINARY_DIR}/include/zanj/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/zanj
        COMPONENT development)

set(ZANJ_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/zanj)
install(EXPORT zanjTargets NAMESPACE zanj:: DESTINATION ${ZANJ_CMAKE_DIR} COMPONENT development)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/zanjConfig.cmake.in
  ${PROJECT_BINARY_DIR}/zanjConfig.cmake INSTALL_DESTINATION ${ZANJ_CMAKE_DIR})
# 0.x releases may break the API between minor versions; SameMajorVersion still lets
# find_package(zanj 0.1) accept any 0.y.z >= 0.1.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/zanjConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/zanjConfig.cmake ${PROJECT_BINARY_DIR}/zanjConfigVersion.cmake
        DESTINATION ${ZANJ_CMAKE_DIR} COMPONENT development)

# zanj.pc finds its prefix from its own place (${pcfiledir}), so an install moved elsewhere, or
# made with `cmake --install --prefix`, still points at its own headers and library.
file(RELATIVE_PATH ZANJ_PC_TO_PREFIX /prefix/${CMAKE_INSTALL_LIBDIR}/pkgconfig /prefix)
string(REGEX REPLACE "/$" "" ZANJ_PC_TO_PREFIX "${ZANJ_PC_TO_PREFIX}")
configure_file(${PROJECT_SOURCE_DIR}/cmake/zanj.pc.in ${PROJECT_BINARY_DIR}/zanj.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/zanj.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig
        COMPONENT development)
