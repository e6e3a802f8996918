# What `cmake --install` puts under the prefix besides bin/zanj (src/cli/CMakeLists.txt): the
# man pages (every man/*.1, so new pages install without editing this) and the completions,
# each where its consumer looks: man, bash-completion, zsh's fpath, fish's vendor directory.
file(GLOB ZANJ_MAN_PAGES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/man/*.1)
install(FILES ${ZANJ_MAN_PAGES} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_SOURCE_DIR}/completions/zanj.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME zanj)
install(FILES ${PROJECT_SOURCE_DIR}/completions/_zanj DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/site-functions)
install(FILES ${PROJECT_SOURCE_DIR}/completions/zanj.fish
        DESTINATION ${CMAKE_INSTALL_DATADIR}/fish/vendor_completions.d)
