#pragma once
// `zanj --complete WORD...`: the answers behind the shell completions in completions/. The
// scripts hold no command, option or value names: they pass the words typed after `zanj` (the
// last one being completed, unquoted) and offer what this prints, so they never drift from
// the program. It reads the same CLI11 model that parses the command line.
//
// Output: one directive line, then candidates, one per line:
//   words     candidates replace the word being completed; an option or a command is followed
//             by a tab and its one-line description, which shells that show one keep;
//   paths     object paths of the archive named earlier on the line; a node with children ends
//             with '/' (the script offers it without a trailing space, to go on);
//   archives  the shell completes file names, offering *.zanj and directories;
//   files     the shell completes any file name;
//   dirs      the shell completes directory names.
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace zanj::cli {

struct Completion {
  std::string directive;
  std::vector<std::string> candidates;
};

/// What to offer for `words.back()`; `words` are the words after "zanj" (never empty: the word
/// being completed may be ""). Never throws for anything typed: an unreadable archive offers no
/// paths.
Completion complete(const CLI::App& root, const std::vector<std::string>& words);

/// The completion as the scripts read it: the directive line, then the candidates.
std::string completion_text(const Completion& completion);

}  // namespace zanj::cli
