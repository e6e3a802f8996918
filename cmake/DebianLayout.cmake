# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) on the staging tree (one subdirectory per component)
# before the .deb files are made, for what Debian expects and `cmake --install` does not do:
# - man pages are gzipped (Debian policy 12.1; -n: no name or time stamp, reproducible);
# - the zsh completion moves to /usr/share/zsh/vendor-completions, the directory Debian's zsh
#   has on its fpath (share/zsh/site-functions is only on it under /usr/local);
# - static libraries lose their debug sections, as dh_strip does (CPACK_STRIP_FILES strips
#   only executables and shared libraries): libzanj.a goes from about 100 MB to a few.
set(staging ${CPACK_TEMPORARY_INSTALL_DIRECTORY})

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "DebianLayout: `${ARGN}` failed: ${status}")
  endif()
endfunction()

file(GLOB_RECURSE man_pages ${staging}/*.1)
list(FILTER man_pages INCLUDE REGEX "/share/man/man1/[^/]+\\.1$")
foreach(page IN LISTS man_pages)
  run(gzip -9nf ${page})
endforeach()

file(GLOB_RECURSE zsh_completions ${staging}/_zanj)
list(FILTER zsh_completions INCLUDE REGEX "/share/zsh/site-functions/_zanj$")
foreach(completion IN LISTS zsh_completions)
  string(REGEX REPLACE "/site-functions/_zanj$" "" share_zsh ${completion})
  file(MAKE_DIRECTORY ${share_zsh}/vendor-completions)
  file(RENAME ${completion} ${share_zsh}/vendor-completions/_zanj)
  file(REMOVE_RECURSE ${share_zsh}/site-functions)
endforeach()

file(GLOB_RECURSE static_libraries ${staging}/*.a)
foreach(library IN LISTS static_libraries)
  run(${CPACK_ZANJ_STRIP} --strip-debug --enable-deterministic-archives ${library})
endforeach()
