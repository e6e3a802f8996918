#pragma once
// The pages of docs/man, embedded by the build (cmake/EmbedManual.cmake writes the table).
#include <cstddef>
#include <string_view>

namespace zanj::cli::manual {

struct EmbeddedPage {
  std::string_view name;    ///< the file's name without ".md": "zanj-ls"
  std::string_view source;  ///< the file's text
};

extern const EmbeddedPage kEmbeddedPages[];
extern const std::size_t kEmbeddedPageCount;

}  // namespace zanj::cli::manual
