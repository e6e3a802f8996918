#include "manual_pages.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "manual_sources.hpp"
#include "option_model.hpp"
#include "zanj/version.hpp"

namespace zanj::cli::manual {
namespace {

constexpr std::size_t kHelpWidth = 90;

const EmbeddedPage* embedded(std::string_view name) {
  for (std::size_t i = 0; i < kEmbeddedPageCount; ++i)
    if (kEmbeddedPages[i].name == name) return &kEmbeddedPages[i];
  return nullptr;
}

/// A section title as help shows it: "EXIT STATUS" -> "Exit status", "JSON OUTPUT" -> "JSON output".
std::string help_heading(std::string_view title) {
  std::string out;
  for (std::size_t at = 0; at < title.size();) {
    std::size_t end = std::min(title.find(' ', at), title.size());
    std::string word(title.substr(at, end - at));
    // Acronyms keep their capitals; other words are lower case, the heading's first letter not.
    if (word != "JSON" && word != "URL" && word != "ZIP")
      std::transform(word.begin() + (out.empty() ? 1 : 0), word.end(), word.begin() + (out.empty() ? 1 : 0),
                     [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
    out += (out.empty() ? "" : " ") + word;
    at = end + 1;
  }
  return out;
}

/// The roff of one option's entry: .TP, its names and value, its description and default.
std::string option_entry(const CLI::Option& option) {
  std::string names;
  for (const std::string& name : option.get_snames())
    names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff_escape("-" + name) + "\\fR";
  for (const std::string& name : option.get_lnames())
    names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff_escape("--" + name) + "\\fR";
  if (takes_value(option)) names += " \\fI" + roff_escape(value_name(option)) + "\\fR";
  std::string text = roff_escape(option.get_description());
  if (!text.empty() && text.back() != '.') text += '.';
  if (takes_value(option) && !option.get_default_str().empty())
    text += " Default: \\fB" + roff_escape(option.get_default_str()) + "\\fR.";
  return ".TP\n" + names + "\n" + text + "\n";
}

/// The option details of a page's OPTIONS section, by option name, and the prose before them.
struct OptionDetails {
  std::vector<Block> preface;
  std::map<std::string, std::vector<Block>, std::less<>> by_option;
};

OptionDetails option_details(const Page& page, const CLI::App& command) {
  OptionDetails details;
  const Section* section = page.section("OPTIONS");
  if (!section) return details;
  std::vector<Block>* into = &details.preface;
  for (const Block& block : section->blocks) {
    if (block.kind != Block::Kind::subheading) {
      into->push_back(block);
      continue;
    }
    const std::string name = inline_text(block.text);
    if (!name.starts_with("-") || !command.get_option_no_throw(name))
      throw SyntaxError(page.name + ".md: OPTIONS has details for '" + name + "', which " +
                        (command.get_parent() ? "zanj " + command.get_name() : std::string("zanj")) +
                        " does not have (a detail's title is one of the option's names)");
    into = &details.by_option[command.get_option_no_throw(name)->get_name()];
  }
  return details;
}

std::string options_section(const Page& page, const CLI::App& command) {
  const OptionDetails details = option_details(page, command);
  std::string out = ".SH OPTIONS\n" + roff_blocks(details.preface);
  for (const CLI::Option* option : named_options(command)) {
    out += option_entry(*option);
    if (const auto found = details.by_option.find(option->get_name()); found != details.by_option.end())
      out += roff_blocks(found->second, true);
  }
  return out;
}

std::string commands_section(const Page& page, const CLI::App& root) {
  std::string out = ".SH COMMANDS\n";
  if (const Section* prose = page.section("COMMANDS")) out += roff_blocks(prose->blocks);
  for (const CLI::App* command : root.get_subcommands([](const CLI::App*) { return true; })) {
    const std::string name = command->get_name();
    out += ".TP\n\\fBzanj " + roff_escape(name) + "\\fR\n" + roff_escape(command->get_description()) + ": \\fBzanj\\-" +
           roff_escape(name) + "\\fR(1).\n";
  }
  return out;
}

std::string synopsis(const CLI::App& root, const CLI::App& command) {
  if (&command == &root) return "\\fBzanj\\fR [\\fIOPTIONS\\fR] \\fICOMMAND\\fR [\\fIARGUMENTS\\fR]\n";
  std::string out = "\\fBzanj " + roff_escape(command.get_name()) + "\\fR [\\fIOPTIONS\\fR]";
  for (const CLI::Option* positional : positional_arguments(command)) {
    std::string name = "\\fI" + roff_escape(positional->get_name()) + "\\fR";
    if (positional->get_items_expected_max() > 1) name += "...";
    out += " " + (positional->get_required() ? name : "[" + name + "]");
  }
  return out + "\n";
}

std::string upper(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](char c) { return static_cast<char>(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c); });
  return text;
}

}  // namespace

std::vector<std::string_view> page_names() {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < kEmbeddedPageCount; ++i) names.push_back(kEmbeddedPages[i].name);
  std::sort(names.begin(), names.end());
  return names;
}

Page page(std::string_view name) {
  const EmbeddedPage* source = embedded(name);
  if (!source) throw std::out_of_range("no manual page " + std::string(name));
  Page parsed = parse_page(source->source, std::string(name) + ".md");
  if (parsed.name != name)
    throw SyntaxError(std::string(name) + ".md: its title names '" + parsed.name + "', not '" + std::string(name) +
                      "'");
  return parsed;
}

std::string_view page_summary(std::string_view name) {
  const EmbeddedPage* source = embedded(name);
  if (!source) return {};
  const std::string_view text = source->source;
  const std::string_view title = text.substr(0, text.find('\n'));
  const std::size_t at = title.find(" -- ");
  return at == std::string_view::npos ? std::string_view{} : title.substr(at + 4);
}

std::string help_footer(std::string_view name) {
  const Page doc = page(name);
  std::string out;
  if (const Section* description = doc.section("DESCRIPTION"))
    if (!description->blocks.empty() && description->blocks.front().kind == Block::Kind::paragraph)
      out += text_blocks({description->blocks.front()}, 0, kHelpWidth) + "\n";
  for (const std::string_view title : {"EXAMPLES", "JSON OUTPUT", "EXIT STATUS"})
    if (const Section* section = doc.section(title))
      out += help_heading(title) + ":\n" + text_blocks(section->blocks, 2, kHelpWidth) + "\n";
  out += name == "zanj" ? "Run 'zanj COMMAND --help' for a command's options and examples, and 'man zanj' for the "
                          "whole manual."
                        : "The whole manual: man " + std::string(name);
  return out;
}

std::string page_name(const CLI::App& root, const CLI::App& command) {
  return &command == &root ? "zanj" : "zanj-" + command.get_name();
}

std::string man_page(const CLI::App& root, const CLI::App& command) {
  const std::string name = page_name(root, command);
  const Page doc = page(name);
  std::string out = ".\\\" " + name + "(1), generated by 'zanj --generate man' from docs/man/" + name +
                    ".md and the command's options. Do not edit.\n";
  out += ".TH " + upper(name) + " 1 \"\" \"zanj " + std::string(version()) + "\" \"User Commands\"\n";
  out += ".SH NAME\n" + roff_escape(name) + " \\- " + roff_escape(doc.summary) + "\n";
  out += ".SH SYNOPSIS\n" + synopsis(root, command);
  const bool root_page = &command == &root;
  bool options_written = false;
  for (const Section& section : doc.sections) {
    if (section.title == "OPTIONS") {
      out += options_section(doc, command);
      options_written = true;
    } else if (section.title == "COMMANDS" && root_page) {
      out += commands_section(doc, root);
    } else {
      out += ".SH " + roff_escape(section.title) + "\n" + roff_blocks(section.blocks);
    }
    if (section.title == "DESCRIPTION") {
      if (root_page && !doc.section("COMMANDS")) out += commands_section(doc, root);
      if (!doc.section("OPTIONS")) {
        out += options_section(doc, command);
        options_written = true;
      }
    }
  }
  if (!options_written) out += options_section(doc, command);
  return out;
}

}  // namespace zanj::cli::manual
