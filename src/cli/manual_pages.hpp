#pragma once
// The manual as the program shows it: each command's --help footer and man page, made from
// its page in docs/man (embedded at build time) and from CLI11's model of its options, which is
// where every option is defined.
#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "manual.hpp"

namespace zanj::cli::manual {

/// The names of the embedded pages ("zanj", "zanj-ls", ...), in file-name order.
std::vector<std::string_view> page_names();
/// The embedded page `name`, parsed. Throws SyntaxError for a page the build should refuse,
/// and std::out_of_range for a name with no page.
Page page(std::string_view name);
/// The summary on the page's title line, read without parsing the page (so that setting up a
/// command at start-up stays cheap); "" for a name with no page.
std::string_view page_summary(std::string_view name);

/// The text --help shows under the options: the first paragraph of DESCRIPTION, then EXAMPLES,
/// JSON OUTPUT and EXIT STATUS, and where the rest is.
std::string help_footer(std::string_view name);

/// The man page (roff) of `command`: `root` is the whole program; `command` is `root` itself
/// for zanj(1). Throws SyntaxError for an option detail naming an option the command lacks.
std::string man_page(const CLI::App& root, const CLI::App& command);

/// The page name of `command`: "zanj" for the root, "zanj-ls" for ls.
std::string page_name(const CLI::App& root, const CLI::App& command);

}  // namespace zanj::cli::manual
