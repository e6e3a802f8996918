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

# Link options of the zanj executable (not of libzanj.a, whose consumers link as they choose).
# A local `zanj info` is a few milliseconds, so the dynamic loader's work counts (bench/RESULTS.md;
# measured with callgrind and LD_DEBUG=statistics on `zanj info` of a small archive):
# - -static-libstdc++ -static-libgcc: binding the ~2,000 symbols the program takes from
#   libstdc++.so cost about 2.1M of 6.2M instructions; linked in, they are relative
#   relocations. Left out under ZANJ_SANITIZE: ASan intercepts __cxa_throw in a shared libstdc++.
#   Debian ships simdjson only as libsimdjson.so, which needs libstdc++.so: that library is now
#   mapped too (zanj info of a small archive: 2.46M instructions before simdjson, 4.42M after),
#   but the program's own ~2,000 symbols still bind inside the executable.
# - -Wl,--as-needed: a library no code path calls is not loaded at all; -Wl,-O1 optimizes
#   the hash tables the loader searches.
# - lazy binding (the default, no -z now): `-z now` resolves every PLT slot at start-up,
#   measured at +170k instructions per run for nothing a short command uses.
# Libraries that only some inputs need stay off the local path. When URLs (libcurl) and
# hashes (libcrypto) come, do not link them into the executable: a NEEDED library is mapped
# and relocated on every run, and --as-needed cannot drop one that the program calls (tried:
# Debian's libcurl.so.4 and libcrypto.so.3 linked in bring 28 more libraries and take a local
# `info` from 3.0M to 15.6M instructions, 2 ms to 8 ms). Open them (or a small zanj module
# that links them) with dlopen/dlsym the first time a URL or a hash is asked for, so a local
# `info` never loads them; `ldd build/zanj` and LD_DEBUG=statistics on a local `info` show
# whether that still holds.
add_library(zanj_executable_settings INTERFACE)
target_link_options(zanj_executable_settings INTERFACE -Wl,-O1,--as-needed)
if(NOT ZANJ_SANITIZE)
  target_link_options(zanj_executable_settings INTERFACE -static-libstdc++ -static-libgcc)
else()
  # Under the sanitizers the executable is linked at a fixed address (-no-pie). UBSan's source
  # locations and ASan's global descriptors make a 22 MB .data with about 785,000 relative
  # relocations, which a position-independent zanj applied on every start: 10,100 page faults
  # and 68 ms for `zanj info` of a small archive, against 4,800 and 35 ms without them (perf
  # stat). The end-to-end suite starts zanj for every case it checks: test_verify.py took 95 s
  # instead of 141 s.
  target_link_options(zanj_executable_settings INTERFACE -no-pie)
endif()

# ccache, when installed, makes rebuilds and the several build trees of scripts/test (normal,
# sanitizer, fuzz) and of parallel worktrees share their unchanged objects.
find_program(ZANJ_CCACHE ccache)
if(ZANJ_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER ${ZANJ_CCACHE})
endif()
