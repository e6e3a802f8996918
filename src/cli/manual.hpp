#pragma once
// The manual's pages as written in docs/man/*.md (the Markdown subset docs/man/README.md
// defines), parsed once into blocks, and rendered two ways: roff for the man pages and plain
// text for --help. Only the command line uses it, so it lives here and not in the core.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace zanj::cli::manual {

/// A page that breaks the subset: the build's man-page step stops on it, with file and line.
struct SyntaxError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Block {
  enum class Kind {
    paragraph,   ///< text: the paragraph's lines joined by single spaces
    code,        ///< text: the lines as written, joined by '\n'
    bullet,      ///< children: the item's blocks
    definition,  ///< text: the term; children: the definition's blocks
    subheading,  ///< text: the title (### Title)
  };
  Kind kind = Kind::paragraph;
  std::string text;
  std::vector<Block> children;
};

struct Section {
  std::string title;  ///< as written: "DESCRIPTION", "EXIT STATUS", ...
  std::vector<Block> blocks;
};

struct Page {
  std::string name;     ///< "zanj-ls"
  std::string summary;  ///< the NAME line's text after "--"
  std::vector<Section> sections;

  /// The section titled `title`, or nullptr.
  const Section* section(std::string_view title) const;
};

/// Parses one page; `file` names it in errors. Throws SyntaxError.
Page parse_page(std::string_view source, std::string_view file);

/// Inline markup (**bold**, *italic*, `code`, \x) as roff, with roff's special characters
/// escaped and characters outside ASCII written as \[uXXXX].
std::string inline_roff(std::string_view text);
/// Inline markup as plain text: the markers removed.
std::string inline_text(std::string_view text);

/// Blocks as roff body text. `indented`: inside a .TP or .IP item, so paragraphs continue its
/// indentation (.IP) rather than start at the margin (.PP).
std::string roff_blocks(const std::vector<Block>& blocks, bool indented = false);
/// Blocks as plain text, wrapped at `width` columns, every line starting with `indent` spaces.
std::string text_blocks(const std::vector<Block>& blocks, std::size_t indent, std::size_t width);

/// A string as roff text: backslash, hyphen and a leading '.' or '\'' escaped, characters
/// outside ASCII as \[uXXXX].
std::string roff_escape(std::string_view text);

}  // namespace zanj::cli::manual
