// The manual's Markdown subset (docs/man/README.md), its two renderings, and the pages made
// from the embedded sources and the program's own options.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "manual.hpp"
#include "manual_pages.hpp"
#include "program_fixture.hpp"
#include "zanj/verify.hpp"

using zanj::cli::manual::Block;
using zanj::cli::manual::inline_roff;
using zanj::cli::manual::inline_text;
using zanj::cli::manual::parse_page;
using zanj::cli::manual::roff_blocks;
using zanj::cli::manual::roff_escape;
using zanj::cli::manual::SyntaxError;
using zanj::cli::manual::text_blocks;

namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_SUITE("cli manual") {
  TEST_CASE("a page: title, sections, and each kind of block") {
    const auto page = parse_page(
        "# zanj-x(1) -- do a thing\n\n## DESCRIPTION\nFirst line\nsame **bold\nacross** lines.\n\n    code  line\n\n"
        "    more\n\nterm\n: its definition\n  continued\n\n  second paragraph\n- item one\n- item two\n\n### Sub\n"
        "## SEE ALSO\n**zanj**(1)\n",
        "zanj-x.md");
    CHECK(page.name == "zanj-x");
    CHECK(page.summary == "do a thing");
    REQUIRE(page.sections.size() == 2);
    const auto& blocks = page.sections[0].blocks;
    REQUIRE(blocks.size() == 6);
    CHECK(blocks[0].text == "First line same **bold across** lines.");
    CHECK(blocks[1].kind == Block::Kind::code);
    CHECK(blocks[1].text == "code  line\n\nmore");
    CHECK(blocks[2].kind == Block::Kind::definition);
    CHECK(blocks[2].text == "term");
    REQUIRE(blocks[2].children.size() == 2);
    CHECK(blocks[2].children[0].text == "its definition continued");
    CHECK(blocks[2].children[1].text == "second paragraph");
    CHECK(blocks[3].kind == Block::Kind::bullet);
    CHECK(blocks[4].children[0].text == "item two");
    CHECK(blocks[5].kind == Block::Kind::subheading);
    CHECK(page.section("SEE ALSO") != nullptr);
    CHECK(page.section("OPTIONS") == nullptr);
  }

  TEST_CASE("what the subset refuses, with the file and line") {
    const auto refused = [](const std::string& body) {
      try {
        (void)parse_page("# zanj-x(1) -- s\n## DESCRIPTION\n" + body, "zanj-x.md");
      } catch (const SyntaxError& e) {
        return std::string(e.what());
      }
      return std::string("accepted");
    };
    CHECK(refused("an *open emphasis\n").starts_with("zanj-x.md:3: '*' opened and never closed"));
    CHECK(refused("`open code\n").starts_with("zanj-x.md:3:"));
    CHECK(refused(": no term\n").starts_with("zanj-x.md:3:"));
    CHECK(refused("# heading\n").starts_with("zanj-x.md:3:"));
    CHECK(refused("  stray indent\n").starts_with("zanj-x.md:3:"));
    CHECK(refused("text\n## NAME\n").starts_with("zanj-x.md:4: the NAME section is generated"));
    CHECK(refused("text\n## Lower\n").starts_with("zanj-x.md:4: a section title is in capitals"));
    CHECK(refused("a \\*literal\\* star and `*code*`\n") == "accepted");
    CHECK_THROWS_AS((void)parse_page("no title\n", "zanj-x.md"), SyntaxError);
  }

  TEST_CASE("inline markup in roff and in text") {
    CHECK(inline_roff("**zanj ls** *FILE* `-d 1` a\\*b") == "\\fBzanj ls\\fR \\fIFILE\\fR \\fB\\-d 1\\fR a*b");
    CHECK(inline_text("**zanj ls** *FILE* `-d 1` a\\*b") == "zanj ls FILE -d 1 a*b");
    CHECK(inline_roff("back\\\\slash \xE2\x80\x94 dash") == "back\\eslash \\[u2014] dash");
    CHECK(inline_roff("`*` is literal in code") == "\\fB*\\fR is literal in code");
  }

  TEST_CASE("roff: a leading dot is not a request; lists nest inside definitions") {
    const auto page =
        parse_page("# zanj-x(1) -- s\n## DESCRIPTION\n.zanj files\n\nterm\n: text\n\n      .hidden code\n\n  - inner\n",
                   "zanj-x.md");
    const std::string roff = roff_blocks(page.sections[0].blocks);
    CHECK(contains(roff, ".PP\n\\&.zanj files\n"));
    CHECK(contains(roff, ".TP\nterm\ntext\n.IP\n.nf\n\\&.hidden code\n.fi\n.RS\n.IP \\(bu 2\ninner\n.RE\n"));
  }

  TEST_CASE("text: wrapped at the width, short terms beside their definitions") {
    const auto page = parse_page(
        "# zanj-x(1) -- s\n## EXIT STATUS\n**0**\n: the archive is valid\n**1**\n: invalid\n## DESCRIPTION\n"
        "one two three four five six seven eight nine ten\n",
        "zanj-x.md");
    CHECK(text_blocks(page.sections[0].blocks, 2, 80) == "  0     the archive is valid\n  1     invalid\n");
    CHECK(text_blocks(page.sections[1].blocks, 0, 20) == "one two three four\nfive six seven eight\nnine ten\n");
  }

  TEST_CASE("every embedded page parses, and every command and option of the program has its page") {
    zanj::test::Program program;
    const auto names = zanj::cli::manual::page_names();
    CHECK(names.size() == program.commands.size() + 1);
    const std::string root = zanj::cli::manual::man_page(program.app, program.app);
    for (const auto& command : program.commands) {
      CAPTURE(command.app->get_name());
      CHECK(contains(root, "\\fBzanj " + command.app->get_name() + "\\fR"));
      const std::string page = zanj::cli::manual::man_page(program.app, *command.app);
      CHECK(contains(page, ".SH SYNOPSIS\n\\fBzanj " + command.app->get_name() + "\\fR"));
      for (const CLI::Option* option : command.app->get_options()) {
        for (const std::string& name : option->get_lnames())
          CHECK(contains(page, "\\fB" + roff_escape("--" + name) + "\\fR"));
      }
      const std::string help = zanj::cli::manual::help_footer("zanj-" + command.app->get_name());
      CHECK(contains(help, "Examples:\n"));
      CHECK(contains(help, "Exit status:\n"));
      CHECK(!command.app->get_description().empty());
    }
    for (const CLI::Option* option : program.app.get_options())
      for (const std::string& name : option->get_lnames())
        CHECK(contains(root, "\\fB" + roff_escape("--" + name) + "\\fR"));
  }

  TEST_CASE("zanj-verify(1) documents every problem code, each as an error or a warning") {
    const auto page = zanj::cli::manual::page("zanj-verify");
    const auto* section = page.section("PROBLEM CODES");
    REQUIRE(section != nullptr);
    std::vector<std::string> documented;
    for (const Block& block : section->blocks)
      if (block.kind == Block::Kind::definition) documented.push_back(inline_text(block.text));
    std::vector<std::string> codes;
    for (const auto& code : zanj::problem_codes()) codes.emplace_back(code.name);
    std::sort(documented.begin(), documented.end());
    std::sort(codes.begin(), codes.end());
    CHECK(documented == codes);
  }
}
