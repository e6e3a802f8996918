#include "verify_command.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "json_output.hpp"
#include "operands.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/limits.hpp"
#include "zanj/many_archives.hpp"
#include "zanj/report.hpp"  // save_page
#include "zanj/verify.hpp"

namespace zanj::cli {
namespace {

struct VerifyCliOptions {
  std::vector<std::string> files;
  bool quiet = false;
  bool verbose = false;  ///< -v: every problem on its own line, not grouped by code
  bool json = false;
  bool strict = false;
  std::string junit;  ///< --junit FILE: also write a JUnit XML report there
  unsigned jobs = 0;  ///< 0: ZANJ_JOBS, else the CPUs this process may use
  std::string shard;  ///< --shard K/N
  ResourceLimits limits;
};

std::string plural(std::size_t n, const char* word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

/// Where a problem is: "MEMBER (at PATH)", "MEMBER", "at PATH" or "".
std::string problem_place(const Problem& p) {
  std::string where = p.member;
  if (!p.path.empty()) where += (where.empty() ? "at " : " (at ") + p.path + (where.empty() ? "" : ")");
  return where;
}

std::string problem_line(const char* severity, const Problem& p) {
  const std::string where = problem_place(p);
  return std::string("  ") + severity + " [" + p.code + "] " + (where.empty() ? "" : where + ": ") + p.message + "\n";
}

/// How many members a grouped line names before "…".
constexpr std::size_t kNamedPerGroup = 3;

/// A code that repeats, on two lines: the count and the first few places, then the first
/// problem as an example: "  error [dtype_mismatch] ×31: a.npy, b.npy, c.npy, … (-v lists all)".
std::string group_lines(const char* severity, const ProblemGroup& g) {
  if (g.count == 1) return problem_line(severity, *g.listed.front());
  const bool utf8 = locale_is_utf8();
  std::string names;
  std::size_t named = 0, placed = 0;
  for (const Problem* p : g.listed) {
    const std::string where = p->member.empty() ? p->path : p->member;
    if (where.empty()) continue;
    ++placed;
    if (named == kNamedPerGroup) continue;
    names += (named++ ? ", " : "") + where;
  }
  if (named && (placed > named || g.count > placed)) names += utf8 ? ", \u2026" : ", ...";
  std::string out = std::string("  ") + severity + " [" + g.code + "] " + (utf8 ? "\u00d7" : "x") +
                    std::to_string(g.count) + (names.empty() ? "" : ": " + names) + " (-v lists all)\n";
  const Problem& first = *g.listed.front();
  const std::string where = problem_place(first);
  return out + "    " + (where.empty() ? "" : where + ": ") + first.message + "\n";
}

std::string report_text(const VerifyReport& r, bool strict, bool verbose) {
  std::string out = r.file + ": ";
  if (r.ok(strict)) {
    out += r.warnings.empty() ? "ok\n" : "ok (" + plural(r.warnings.size(), "warning") + ")\n";
  } else if (r.errors.empty()) {  // only --strict fails it
    out += "INVALID (" + plural(r.warnings.size(), "warning") + ", --strict)\n";
  } else {
    out += "INVALID (" + plural(r.errors.size(), "error") +
           (r.warnings.empty() ? std::string() : ", " + plural(r.warnings.size(), "warning")) + ")\n";
  }
  if (verbose) {
    for (const Problem& p : r.errors) out += problem_line("error", p);
    for (const Problem& p : r.warnings) out += problem_line("warning", p);
    return out;
  }
  for (const ProblemGroup& g : group_problems(r, r.errors)) out += group_lines("error", g);
  for (const ProblemGroup& g : group_problems(r, r.warnings)) out += group_lines("warning", g);
  return out;
}

/// verify_file with a progress bar over the member data (erased again before returning, so the
/// report that follows starts on a clean line).
VerifyReport verify_with_progress(const std::string& file, VerifyOptions options) {
  const std::string name = file == "-" ? "stdin" : file.substr(file.find_last_of('/') + 1);
  Progress progress("verify " + name, 0);
  if (progress.enabled())  // else no callback: the reading threads need not take its lock
    options.progress = progress.reporter();
  return verify_file(file, options);
}

/// Running as a GitHub Actions step: the runner sets GITHUB_ACTIONS=true.
bool under_github_actions() {
  const char* value = std::getenv("GITHUB_ACTIONS");
  return value && std::strcmp(value, "true") == 0;
}

int run_verify(const VerifyCliOptions& opt) {
  VerifyOptions options;
  options.limits = opt.limits;
  options.limits.take_global_limits(open_options().limits);  // --max-json-*, --max-ratio, --max-member-bytes
  options.remote = open_options().remote;
  // Annotations are workflow commands read from stdout; --json's lines own stdout, and -q
  // asks for nothing there, so not then.
  const bool annotate = under_github_actions() && !opt.json && !opt.quiet;
  int status = 0;
  const auto error_line = [&](const std::string& file, const Error& e) {
    if (!opt.json || opt.quiet) return;  // every operand has its line, so a script sees what was not checked
    JsonObject line = operand_error_json(input_display_name(file), e);
    line.insert(line.begin() + 1, {{"ok", false}, {"strict", opt.strict}});
    write_out(to_json(Json(std::move(line))) + "\n");
  };
  const std::vector<std::string> files = expand_operands(opt.files, opt.shard, status, error_line);
  const JobSplit split = split_jobs(jobs_or_default(opt.jobs), files.size());
  options.threads = split.threads_each;
  std::vector<VerifyOutcome> outcomes;  // one per archive; kept after its turn for --junit only
  outcomes.reserve(files.size());
  std::vector<std::optional<Error>> failures(files.size());  // an archive that could not be read
  for (const std::string& file : files) outcomes.push_back(VerifyOutcome{file, std::nullopt, {}});
  run_in_order(
      files.size(), split.archives_at_once,
      [&](std::size_t i) {
        try {  // several at once: no progress bar (they would overwrite one another)
          outcomes[i].report =
              split.archives_at_once > 1 ? verify_file(files[i], options) : verify_with_progress(files[i], options);
        } catch (const Error& e) {  // the file could not be read after all: go on with the others
          if (is_output_closed(e)) throw;
          outcomes[i].error = e.what();
          failures[i] = e;
        }
      },
      [&](std::size_t i) {
        VerifyOutcome& outcome = outcomes[i];
        if (failures[i]) {
          error(outcome.error);
          status = std::max(status, failures[i]->exit_code());
          error_line(outcome.file, *failures[i]);
          failures[i].reset();
        }
        if (outcome.report && !outcome.report->ok(opt.strict))
          status = std::max(status, static_cast<int>(Exit::invalid));
        if (outcome.report && !opt.quiet)
          write_out(opt.json ? to_json(verify_json(*outcome.report, opt.strict)) + "\n"
                             : report_text(*outcome.report, opt.strict, opt.verbose));
        if (annotate) write_out(github_annotations(outcome, opt.strict));
        if (opt.junit.empty()) outcome.report.reset();  // printed: its memory goes back
      });
  if (!opt.junit.empty()) {
    try {
      save_page(opt.junit, junit_xml(outcomes, opt.strict));
    } catch (const Error& e) {
      throw Error(opt.junit + ": cannot write the JUnit report: " + e.what(), Exit::usage);
    }
  }
  return status;
}

}  // namespace

Command setup_verify(CLI::App& parent) {
  auto opt = std::make_shared<VerifyCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "verify", "Check that archives are whole, consistent and safe; exit status for CI (0 valid, 1 invalid)");
  app->add_option("FILE", opt->files, "Archives to check ('-' for standard input)")
      ->required()
      ->transform(input_file());
  app->add_flag("-q,--quiet", opt->quiet, "Print nothing; the exit status says it all");
  app->add_flag("-v,--verbose", opt->verbose, "List every problem on its own line, not grouped by code");
  app->add_flag("--json", opt->json, "One JSON report per file, one per line");
  app->add_flag("--strict", opt->strict, "Warnings make a file invalid too (exit 1)");
  app->add_option("--junit", opt->junit, "Also write a JUnit XML report to FILE (one test case per archive)")
      ->type_name("FILE");
  add_jobs_option(app, opt->jobs, "reading archives, inflating members and parsing a large document");
  add_shard_option(app, opt->shard);
  app->add_option("--max-total-bytes", opt->limits.max_total_bytes,
                  "Refuse to inflate archives whose members declare more bytes in total")
      ->capture_default_str()
      ->type_name("BYTES");
  app->add_option("--max-entries", opt->limits.max_entries, "Most ZIP entries accepted")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("N");
  app->add_option("--max-json-depth", opt->limits.max_json_depth, "Deepest JSON nesting accepted")
      ->capture_default_str()
      ->check(CLI::Range(1, 4096))
      ->type_name("N");  // deeper would risk the stack (the walks are recursive)
  app->add_option("--max-npy-header", opt->limits.max_npy_header_bytes, "Longest .npy header accepted, in bytes")
      ->capture_default_str()
      ->check(CLI::Range(16, 1 << 20))
      ->type_name("BYTES");
  return {app, [opt] { return run_verify(*opt); }};
}

}  // namespace zanj::cli
