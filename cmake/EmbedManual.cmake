# Writes OUTPUT, a C++ file holding the text of each page in PAGES (docs/man/*.md) as a raw
# string literal (manual_sources.hpp declares the table). Run at build time by
# src/cli/CMakeLists.txt: cmake -DOUTPUT=... -DPAGES=a.md;b.md -P EmbedManual.cmake
# The file is replaced only when its text changes, so an unchanged page rebuilds nothing.
set(text "// Generated from docs/man/*.md by cmake/EmbedManual.cmake. Do not edit.\n")
string(APPEND text "// clang-format off\n#include \"manual_sources.hpp\"\n\nnamespace zanj::cli::manual {\n\n")
string(APPEND text "const EmbeddedPage kEmbeddedPages[] = {\n")
set(count 0)
foreach(page IN LISTS PAGES)
  get_filename_component(name ${page} NAME_WE)
  file(READ ${page} source)
  string(FIND "${source}" ")zanjmd\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "${page} contains the raw-string delimiter )zanjmd\"")
  endif()
  string(APPEND text "    {\"${name}\", R\"zanjmd(${source})zanjmd\"},\n")
  math(EXPR count "${count} + 1")
endforeach()
string(APPEND text "};\nconst std::size_t kEmbeddedPageCount = ${count};\n\n}  // namespace zanj::cli::manual\n")
file(WRITE ${OUTPUT}.tmp "${text}")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.tmp)
