#include "manual.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <span>
#include <utility>

namespace zanj::cli::manual {
namespace {

struct Line {
  std::string_view text;
  std::size_t number;  ///< 1-based, for messages
};

[[noreturn]] void syntax_error(std::string_view file, std::size_t line, std::string_view what) {
  throw SyntaxError(std::string(file) + ":" + std::to_string(line) + ": " + std::string(what));
}

bool is_blank(std::string_view text) { return text.find_first_not_of(' ') == std::string_view::npos; }

bool indented_by(std::string_view text, std::size_t n) {
  return text.size() > n && text.substr(0, n) == std::string(n, ' ');
}

std::string_view trimmed(std::string_view text) {
  const std::size_t first = text.find_first_not_of(' ');
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(' ') - first + 1);
}

enum class Style { plain, bold, italic, code };

struct Span {
  Style style;
  std::string text;
};

/// The inline markup of `text` as styled spans. Throws SyntaxError (without a location) on a
/// marker that is never closed.
std::vector<Span> inline_spans(std::string_view text) {
  std::vector<Span> spans;
  std::string plain;
  const auto flush = [&] {
    if (!plain.empty()) spans.push_back({Style::plain, std::move(plain)});
    plain.clear();
  };
  // The text up to `close`, with backslash escapes resolved unless it is code.
  const auto until = [&](std::size_t from, std::string_view close, bool escapes, std::size_t& end) {
    std::string out;
    for (std::size_t i = from; i < text.size(); ++i) {
      if (escapes && text[i] == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (text.substr(i, close.size()) == close) {
        end = i + close.size();
        return out;
      } else {
        out += text[i];
      }
    }
    throw SyntaxError("'" + std::string(close) + "' opened and never closed (write \\" + std::string(1, close[0]) +
                      " for the character itself)");
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    std::size_t end = 0;
    if (c == '\\' && i + 1 < text.size()) {
      plain += text[i + 1];
      i += 2;
    } else if (c == '`') {
      std::string code = until(i + 1, "`", false, end);
      flush();
      spans.push_back({Style::code, std::move(code)});
      i = end;
    } else if (text.substr(i, 2) == "**") {
      std::string bold = until(i + 2, "**", true, end);
      flush();
      spans.push_back({Style::bold, std::move(bold)});
      i = end;
    } else if (c == '*') {
      std::string italic = until(i + 1, "*", true, end);
      flush();
      spans.push_back({Style::italic, std::move(italic)});
      i = end;
    } else {
      plain += c;
      ++i;
    }
  }
  flush();
  return spans;
}

void check_inline(std::string_view text, std::string_view file, std::size_t line) {
  try {
    (void)inline_spans(text);
  } catch (const SyntaxError& e) {  // boundary: the span parser knows no file or line
    syntax_error(file, line, e.what());
  }
}

/// Moves `i` past the lines that continue an item begun on the line before: lines indented by
/// two spaces, and blank lines followed by one. They are added to `body`, the two spaces gone.
void take_continuation(std::span<const Line> lines, std::size_t& i, std::vector<Line>& body) {
  while (i < lines.size()) {
    if (indented_by(lines[i].text, 2)) {
      body.push_back({lines[i].text.substr(2), lines[i].number});
      ++i;
      continue;
    }
    if (!is_blank(lines[i].text)) return;
    std::size_t next = i;
    while (next < lines.size() && is_blank(lines[next].text)) ++next;
    if (next == lines.size() || !indented_by(lines[next].text, 2)) return;
    for (; i < next; ++i) body.push_back({"", lines[i].number});
  }
}

bool is_term(std::span<const Line> lines, std::size_t i) {
  return i + 1 < lines.size() && lines[i + 1].text.starts_with(": ");
}

std::vector<Block> parse_blocks(std::span<const Line> lines, std::string_view file) {
  std::vector<Block> blocks;
  for (std::size_t i = 0; i < lines.size();) {
    const Line& line = lines[i];
    const std::string_view text = line.text;
    if (is_blank(text)) {
      ++i;
    } else if (indented_by(text, 4)) {
      Block code{Block::Kind::code, {}, {}};
      for (std::size_t last = i; i < lines.size(); ++i) {
        if (indented_by(lines[i].text, 4)) {
          for (; last < i; ++last) code.text += "\n";  // blank lines inside the block
          code.text += (code.text.empty() ? "" : "\n") + std::string(lines[i].text.substr(4));
          last = i + 1;
        } else if (!is_blank(lines[i].text)) {
          break;
        }
      }
      while (!code.text.empty() && code.text.back() == '\n') code.text.pop_back();
      blocks.push_back(std::move(code));
    } else if (text.starts_with("### ")) {
      check_inline(text.substr(4), file, line.number);
      blocks.push_back({Block::Kind::subheading, std::string(trimmed(text.substr(4))), {}});
      ++i;
    } else if (text.starts_with("#")) {
      syntax_error(file, line.number, "a heading inside a section is '### Title' ('## TITLE' starts a section)");
    } else if (text.starts_with("- ")) {
      std::vector<Line> body{{text.substr(2), line.number}};
      ++i;
      take_continuation(lines, i, body);
      blocks.push_back({Block::Kind::bullet, {}, parse_blocks(body, file)});
    } else if (text.starts_with(": ")) {
      syntax_error(file, line.number, "a definition (': ') needs its term on the line before");
    } else if (text.starts_with(" ")) {
      syntax_error(file, line.number,
                   "unexpected indentation (four spaces start code; two continue a list item or definition)");
    } else if (is_term(lines, i)) {
      check_inline(text, file, line.number);
      Block definition{Block::Kind::definition, std::string(trimmed(text)), {}};
      std::vector<Line> body{{lines[i + 1].text.substr(2), lines[i + 1].number}};
      i += 2;
      take_continuation(lines, i, body);
      definition.children = parse_blocks(body, file);
      blocks.push_back(std::move(definition));
    } else {
      Block paragraph{Block::Kind::paragraph, {}, {}};
      const std::size_t first_line = line.number;
      for (; i < lines.size(); ++i) {
        const std::string_view next = lines[i].text;
        if (is_blank(next) || next.starts_with(" ") || next.starts_with("#") || next.starts_with("- ") ||
            next.starts_with(": ") || (!paragraph.text.empty() && is_term(lines, i)))
          break;
        paragraph.text += (paragraph.text.empty() ? "" : " ") + std::string(trimmed(next));
      }
      check_inline(paragraph.text, file, first_line);  // markup may run across a line break
      blocks.push_back(std::move(paragraph));
    }
  }
  return blocks;
}

bool is_section_title(std::string_view title) {
  return !title.empty() && std::all_of(title.begin(), title.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ' ';
  });
}

/// The next code point of UTF-8 `text` at `i` (advancing `i`); U+FFFD for a broken sequence.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto byte = static_cast<unsigned char>(text[i++]);
  const int extra = byte >= 0xF0 ? 3 : byte >= 0xE0 ? 2 : byte >= 0xC0 ? 1 : 0;
  char32_t cp = extra == 3 ? byte & 0x07u : extra == 2 ? byte & 0x0Fu : byte & 0x1Fu;
  if (extra == 0) return 0xFFFD;
  for (int k = 0; k < extra; ++k) {
    if (i >= text.size() || (static_cast<unsigned char>(text[i]) & 0xC0u) != 0x80u) return 0xFFFD;
    cp = (cp << 6) | (static_cast<unsigned char>(text[i++]) & 0x3Fu);
  }
  return cp;
}

/// `text` as lines of at most `width` columns (a longer word stands alone), each starting with
/// `indent` spaces; the first line starts with `first` instead when given.
std::string wrapped(std::string_view text, std::size_t indent, std::size_t width, std::string_view first = {}) {
  std::string out;
  std::string line = first.empty() ? std::string(indent, ' ') : std::string(first);
  bool empty_line = true;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t start = text.find_first_not_of(' ', at);
    if (start == std::string_view::npos) break;
    const std::size_t end = std::min(text.find(' ', start), text.size());
    const std::string_view word = text.substr(start, end - start);
    if (!empty_line && line.size() + 1 + word.size() > width) {
      out += line + "\n";
      line = std::string(indent, ' ');
      empty_line = true;
    }
    line += (empty_line ? "" : " ") + std::string(word);
    empty_line = false;
    at = end;
  }
  return out + line + "\n";
}

/// A roff text line: a leading '.' or '\'' would be read as a request.
std::string roff_line(std::string text) {
  if (!text.empty() && (text[0] == '.' || text[0] == '\'')) text.insert(0, "\\&");
  return text + "\n";
}

std::string roff_paragraph_text(const Block& block) {
  return block.kind == Block::Kind::paragraph ? roff_line(inline_roff(block.text)) : "";
}

}  // namespace

const Section* Page::section(std::string_view title) const {
  for (const Section& s : sections)
    if (s.title == title) return &s;
  return nullptr;
}

Page parse_page(std::string_view source, std::string_view file) {
  std::vector<Line> lines;
  for (std::size_t at = 0, number = 1; at < source.size(); ++number) {
    std::size_t end = source.find('\n', at);
    if (end == std::string_view::npos) end = source.size();
    std::string_view text = source.substr(at, end - at);
    if (text.ends_with('\r')) text.remove_suffix(1);
    if (text.find('\t') != std::string_view::npos) syntax_error(file, number, "a tab (indent with spaces)");
    lines.push_back({text, number});
    at = end + 1;
  }
  std::size_t i = 0;
  while (i < lines.size() && is_blank(lines[i].text)) ++i;
  Page page;
  const std::string_view title = i < lines.size() ? lines[i].text : std::string_view{};
  const std::size_t open = title.find("(1) -- ");
  if (!title.starts_with("# ") || open == std::string_view::npos)
    syntax_error(file, i < lines.size() ? lines[i].number : 1, "the page must start with '# NAME(1) -- summary'");
  page.name = std::string(title.substr(2, open - 2));
  page.summary = std::string(trimmed(title.substr(open + 7)));
  for (++i; i < lines.size();) {
    if (is_blank(lines[i].text)) {
      ++i;
      continue;
    }
    if (!lines[i].text.starts_with("## "))
      syntax_error(file, lines[i].number, "text before the first section ('## TITLE')");
    Section section{std::string(trimmed(lines[i].text.substr(3))), {}};
    if (!is_section_title(section.title))
      syntax_error(file, lines[i].number, "a section title is in capitals: '## EXIT STATUS'");
    if (section.title == "NAME" || section.title == "SYNOPSIS")
      syntax_error(file, lines[i].number, "the " + section.title + " section is generated; do not write it");
    if (page.section(section.title)) syntax_error(file, lines[i].number, "a second " + section.title + " section");
    const std::size_t begin = ++i;
    while (i < lines.size() && !lines[i].text.starts_with("## ")) ++i;
    section.blocks = parse_blocks(std::span<const Line>(lines).subspan(begin, i - begin), file);
    page.sections.push_back(std::move(section));
  }
  return page;
}

std::string roff_escape(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      char buffer[16];
      std::snprintf(buffer, sizeof buffer, "\\[u%04X]", static_cast<unsigned>(next_code_point(text, i)));
      out += buffer;
      continue;
    }
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    ++i;
  }
  return out;
}

std::string inline_roff(std::string_view text) {
  std::string out;
  for (const Span& span : inline_spans(text)) {
    switch (span.style) {
      case Style::plain:
        out += roff_escape(span.text);
        break;
      case Style::bold:
      case Style::code:
        out += "\\fB" + roff_escape(span.text) + "\\fR";
        break;
      case Style::italic:
        out += "\\fI" + roff_escape(span.text) + "\\fR";
        break;
    }
  }
  return out;
}

std::string inline_text(std::string_view text) {
  std::string out;
  for (const Span& span : inline_spans(text)) out += span.text;
  return out;
}

std::string roff_blocks(const std::vector<Block>& blocks, bool indented) {
  std::string out;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const Block& block = blocks[i];
    const bool item = block.kind == Block::Kind::bullet || block.kind == Block::Kind::definition;
    // Nested lists are set in from the item that holds them; .RE restores its indentation.
    const bool opens_run = item && indented && (i == 0 || blocks[i - 1].kind != block.kind);
    const bool closes_run = item && indented && (i + 1 == blocks.size() || blocks[i + 1].kind != block.kind);
    if (opens_run) out += ".RS\n";
    switch (block.kind) {
      case Block::Kind::paragraph:
        out += indented ? ".IP\n" : ".PP\n";
        out += roff_paragraph_text(block);
        break;
      case Block::Kind::code: {
        out += indented ? ".IP\n.nf\n" : ".PP\n.RS 4\n.nf\n";
        for (std::size_t at = 0; at <= block.text.size();) {
          const std::size_t end = std::min(block.text.find('\n', at), block.text.size());
          out += roff_line(roff_escape(std::string_view(block.text).substr(at, end - at)));
          at = end + 1;
        }
        out += indented ? ".fi\n" : ".fi\n.RE\n";
        break;
      }
      case Block::Kind::subheading:
        out += ".SS " + inline_roff(block.text) + "\n";
        break;
      case Block::Kind::bullet:
      case Block::Kind::definition: {
        out += block.kind == Block::Kind::bullet ? ".IP \\(bu 2\n" : ".TP\n" + roff_line(inline_roff(block.text));
        const bool lead = !block.children.empty() && block.children.front().kind == Block::Kind::paragraph;
        if (lead) out += roff_paragraph_text(block.children.front());
        out += roff_blocks(std::vector<Block>(block.children.begin() + (lead ? 1 : 0), block.children.end()), true);
        break;
      }
    }
    if (closes_run) out += ".RE\n";
  }
  return out;
}

std::string text_blocks(const std::vector<Block>& blocks, std::size_t indent, std::size_t width) {
  std::string out;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    const Block& block = blocks[i];
    // Items of one list follow each other without a blank line, and so does code the sentence
    // before it introduces (as examples are written); other blocks are set apart.
    const bool tight = i > 0 && ((block.kind == blocks[i - 1].kind &&
                                  (block.kind == Block::Kind::bullet || block.kind == Block::Kind::definition)) ||
                                 (block.kind == Block::Kind::code && blocks[i - 1].kind == Block::Kind::paragraph));
    if (i > 0 && !tight) out += "\n";
    switch (block.kind) {
      case Block::Kind::paragraph:
        out += wrapped(inline_text(block.text), indent, width);
        break;
      case Block::Kind::code:
        for (std::size_t at = 0; at <= block.text.size();) {
          const std::size_t end = std::min(block.text.find('\n', at), block.text.size());
          out += std::string(indent + 2, ' ') + block.text.substr(at, end - at) + "\n";
          at = end + 1;
        }
        break;
      case Block::Kind::subheading:
        out += std::string(indent, ' ') + inline_text(block.text) + ":\n";
        break;
      case Block::Kind::bullet:
      case Block::Kind::definition: {
        // A short term shares the first line with its definition ("  0   valid"), as in a table.
        const std::string term = block.kind == Block::Kind::bullet ? "- " : inline_text(block.text);
        const std::size_t body = block.kind == Block::Kind::bullet ? indent + 2 : indent + 6;
        const bool fits = block.kind == Block::Kind::bullet || term.size() + 2 <= body - indent;
        const bool same_line = fits && !block.children.empty() && block.children.front().kind == Block::Kind::paragraph;
        std::string first = std::string(indent, ' ') + term;
        first.resize(body, ' ');
        if (same_line) {
          out += wrapped(inline_text(block.children.front().text), body, width, first);
          if (block.children.size() > 1)
            out +=
                "\n" + text_blocks(std::vector<Block>(block.children.begin() + 1, block.children.end()), body, width);
        } else {
          out += std::string(indent, ' ') + term + "\n" + text_blocks(block.children, body, width);
        }
        break;
      }
    }
  }
  return out;
}

}  // namespace zanj::cli::manual
