# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) on the staging tree before the .deb files are made:
# - man pages are gzipped (Debian policy 12.1; -n: no name or time stamp, reproducible);
# - the zsh completion moves to /usr/share/zsh/vendor-completions, the directory Debian's zsh
#   has on its fpath (share/zsh/site-functions is only on it under /usr/local).
file(GLOB_RECURSE zanj_man_pages "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/man/man1/*.1")
foreach(page IN LISTS zanj_man_pages)
  execute_process(COMMAND gzip -9nf ${page} RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${page} failed: ${status}")
  endif()
endforeach()

file(GLOB_RECURSE zanj_zsh "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/*/share/zsh/site-functions/_zanj")
foreach(completion IN LISTS zanj_zsh)
  get_filename_component(zsh_dir ${completion} DIRECTORY)
  get_filename_component(share_zsh ${zsh_dir} DIRECTORY)
  file(MAKE_DIRECTORY ${share_zsh}/vendor-completions)
  file(RENAME ${completion} ${share_zsh}/vendor-completions/_zanj)
  file(REMOVE ${zsh_dir})
endforeach()
