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
  bool json = false;   ///< --json: what was written, on stdout
};
/// Add -o/--output, --force and --jobs to a command.
void add_rewrite_options(CLI::App* app, RewriteCliOptions& options);
/// Refuse an existing -o file without --force before any work (rewrite_object checks again).
void check_output(const RewriteCliOptions& options);
/// rewrite_object with the command line's limits and options.
RewriteOutcome rewrite_with(const std::string& file, const Json& root, const RewriteCliOptions& options);
/// ": N members ... dropped ..." when the rewrite dropped members (said after the output's
/// name), else "".
std::string dropped_note(const RewriteOutcome& outcome);
/// The problems that stopped a rewrite, on one line ("[CODE] MEMBER (at PATH): MESSAGE; ...").
std::string rewrite_problems(const RewriteOutcome& outcome);
/// The --json of set and edit, without the command's own fields: {"file", "output", "path",
/// "written", "members_copied", "members_dropped", "externals_moved"} ("output" is FILE itself
/// when replaced in place; nothing written: "written" false and no member counted).
JsonObject rewrite_json(const std::string& file, const RewriteCliOptions& options, const std::string& path,
                        const RewriteOutcome& outcome);
}  // namespace zanj::cli
