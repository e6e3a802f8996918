#pragma once
#include <string>

#include "command.hpp"
#include "zanj/pack.hpp"

namespace zanj::cli {
/// `zanj edit FILE [PATH]`: the object, or the node at PATH, in $VISUAL or $EDITOR; the archive
/// rewritten with the result once it checks, every other member copied as stored.
Command setup_edit(CLI::App& parent);

/// What edit and set share: where the archive goes and how it is checked.
struct RewriteCliOptions {
  std::string output;  ///< -o: another file; empty: the archive itself
  bool force = false;  ///< --force: -o may replace an existing file
  unsigned jobs = 0;   ///< verify's threads; 0: ZANJ_JOBS, else the CPUs
};
/// Add -o/--output, --force and --jobs to a command.
void add_rewrite_options(CLI::App* app, RewriteCliOptions& options);
/// Refuse an existing -o file without --force before any work (rewrite_object checks again).
void check_output(const RewriteCliOptions& options);
/// rewrite_object with the command line's limits and options.
RewriteOutcome rewrite_with(const std::string& file, const Json& root, const RewriteCliOptions& options);
/// The problems that stopped a rewrite, on one line ("[CODE] MEMBER (at PATH): MESSAGE; ...").
std::string rewrite_problems(const RewriteOutcome& outcome);
}  // namespace zanj::cli
