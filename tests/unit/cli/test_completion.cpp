// `zanj --complete`: how the words typed so far decide what is offered (the e2e tests drive
// the shell scripts and the object paths of real archives).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "completion.hpp"
#include "program_fixture.hpp"

using zanj::cli::complete;
using zanj::cli::Completion;

namespace {

/// The candidates without their descriptions.
std::vector<std::string> names(const Completion& completion) {
  std::vector<std::string> out;
  for (const std::string& candidate : completion.candidates) out.push_back(candidate.substr(0, candidate.find('\t')));
  return out;
}

}  // namespace

TEST_SUITE("cli completion") {
  TEST_CASE("commands, then options of the command and the global ones") {
    zanj::test::Program program;
    CHECK(names(complete(program.app, {"ve"})) == std::vector<std::string>{"verify"});
    CHECK(names(complete(program.app, {"-q", "--color", "never", "in"})) == std::vector<std::string>{"info"});
    const auto options = names(complete(program.app, {"ls", "--w"}));
    CHECK(options == std::vector<std::string>{"--wide"});
    const auto global = names(complete(program.app, {"ls", "--verb"}));
    CHECK(global == std::vector<std::string>{"--verbose"});
    CHECK(complete(program.app, {"ls", "--j"}).candidates.front() == "--json\tMachine-readable output");
  }

  TEST_CASE("an option's value: its choices, or the kind of file it names") {
    zanj::test::Program program;
    CHECK(names(complete(program.app, {"ls", "--kind", "ta"})) == std::vector<std::string>{"table"});
    CHECK(names(complete(program.app, {"cat", "-f", "js"})) == std::vector<std::string>{"json", "jsonl"});
    CHECK(names(complete(program.app, {"--progress=n"})) == std::vector<std::string>{"--progress=never"});
    CHECK(complete(program.app, {"extract", "-C", ""}).directive == "dirs");
    CHECK(complete(program.app, {"extract", "-C", "out", "a.zanj", ""}).directive == "paths");
    // A value that follows its option in the same word (-d3) is not awaited.
    CHECK(complete(program.app, {"ls", "-d3", ""}).directive == "archives");
    CHECK(complete(program.app, {"ls", "-d", ""}).directive == "words");
    CHECK(complete(program.app, {"ls", "-d", ""}).candidates.empty());
  }

  TEST_CASE("positional arguments: archives, then object paths in the first") {
    zanj::test::Program program;
    CHECK(complete(program.app, {"ls", ""}).directive == "archives");
    CHECK(complete(program.app, {"ls", "/nonexistent.zanj", ""}).directive == "paths");
    CHECK(complete(program.app, {"ls", "/nonexistent.zanj", ""}).candidates.empty());
    CHECK(complete(program.app, {"diff", "a.zanj", ""}).directive == "archives");
    CHECK(complete(program.app, {"hash", "a.zanj", "b.zanj", ""}).directive == "archives");
    CHECK(complete(program.app, {"pack", "x.npz", ""}).directive == "files");
    CHECK(complete(program.app, {"ls", "--", "-odd.zanj", ""}).directive == "paths");  // after --, no options
  }
}
