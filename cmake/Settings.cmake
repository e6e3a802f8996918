# Warnings and sanitizers live on one INTERFACE target that every zanj target links,
# so the sanitizer build covers the core, the CLI and the tests alike.
add_library(zanj_settings INTERFACE)
target_compile_options(zanj_settings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
  -Wno-sign-conversion)
if(ZANJ_WERROR)
  target_compile_options(zanj_settings INTERFACE -Werror)
endif()
if(ZANJ_SANITIZE)
  target_compile_options(zanj_settings INTERFACE -fsanitize=address,undefined
    -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(zanj_settings INTERFACE -fsanitize=address,undefined)
endif()
