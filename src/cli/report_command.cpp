#include "report_command.hpp"

#include <unistd.h>

#include <memory>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "output_target.hpp"
#include "zanj/diff.hpp"
#include "zanj/error.hpp"
#include "zanj/report.hpp"
#include "zanj/safe_files.hpp"
#include "zanj/summary.hpp"

namespace zanj::cli {
namespace {

struct ReportCliOptions {
  std::string file, new_file;      ///< FILE, or OLD NEW
  std::vector<std::string> files;  ///< the one or two of them
  std::string output;
  OutputOptions output_options;  ///< --no-clobber, --part-size
  std::string atol = "0", rtol = "0";
  std::vector<std::string> tol, exclude;
  bool nan_unequal = false;
  unsigned jobs = 0;  ///< 0: ZANJ_JOBS, else the CPUs this process may use
};

/// The page of one archive, written as it is produced (never held whole: on 50,000 members it
/// is 4.5 MiB); returns its size.
std::uint64_t single_page(const ReportCliOptions& opt) {
  const ZanjFile z = open_zanj(opt.files[0]);
  for (const auto& p : z.problems()) warn(z.name() + ": " + p);
  ReportOptions options;  // verified from what was read: standard input too
  options.threads = jobs_or_default(opt.jobs);
  if (opt.output.empty() || opt.output == "-") {
    std::uint64_t size = 0;
    write_report_page(z, options, [&](std::string_view text) {
      write_out(text);
      size += text.size();
    });
    return size;
  }
  install_interrupt_cleanup();
  return save_streamed_page(
      opt.output, [&](const PageWriter& write) { write_report_page(z, options, write); },
      with_remote_options(opt.output_options));
}

std::string comparison(const ReportCliOptions& opt) {
  if (is_stdin_path(opt.files[0]) && is_stdin_path(opt.files[1]))
    throw Error("OLD and NEW cannot both be standard input", Exit::usage);
  DiffOptions options;
  options.tolerance.atol = parse_tolerance_value(opt.atol, "--atol");
  options.tolerance.rtol = parse_tolerance_value(opt.rtol, "--rtol");
  for (const auto& spec : opt.tol) options.rules.push_back(parse_tolerance_rule(spec));
  options.excludes = opt.exclude;
  options.nan_equal = !opt.nan_unequal;
  options.threads = jobs_or_default(opt.jobs);
  const ZanjFile a = open_zanj(opt.files[0]);
  const ZanjFile b = open_zanj(opt.files[1], a.limits_left());  // one JSON budget for both, as diff has
  for (const ZanjFile* f : {&a, &b})
    for (const auto& p : f->problems()) warn(f->name() + ": " + p);
  return comparison_page(a, b, options);
}

/// Where the page goes without -o: "" for standard output when that is not a terminal (a pipe
/// or a file), else STEM.html in the current directory (OLD-vs-NEW.html for two archives),
/// which must not exist yet. Never the terminal: a page is up to megabytes of HTML.
std::string default_output(const ReportCliOptions& opt) {
  if (!stdout_is_terminal()) return "";
  const auto stem = [](const std::string& file) {
    std::string name = file.substr(file.find_last_of('/') + 1);
    if (const std::size_t q = name.find_first_of("?#"); q != std::string::npos) name.resize(q);  // a URL's query
    if (name.size() > 5 && name.ends_with(".zanj")) name.resize(name.size() - 5);
    return name;
  };
  for (const std::string& file : opt.files)
    if (is_stdin_path(file) || stem(file).empty() || stem(file) == "." || stem(file) == "..")
      throw Error("standard output is a terminal: name the page with -o OUT.html (or -o - to print it)", Exit::usage);
  std::string name = stem(opt.files[0]) + (opt.files.size() == 2 ? "-vs-" + stem(opt.files[1]) : "") + ".html";
  if (::access(name.c_str(), F_OK) == 0)
    throw Error(
        "standard output is a terminal and " + name + " exists: -o " + name + " replaces it (or -o - prints the page)",
        Exit::usage);
  return name;
}

int run_report(ReportCliOptions opt) {
  opt.files = {opt.file};
  if (!opt.new_file.empty()) opt.files.push_back(opt.new_file);
  const bool diff_options =
      opt.atol != "0" || opt.rtol != "0" || !opt.tol.empty() || !opt.exclude.empty() || opt.nan_unequal;
  if (opt.files.size() == 1 && diff_options)
    throw Error("--atol, --rtol, --tol, --exclude and --nan-unequal need two archives (OLD NEW)", Exit::usage);
  const bool chosen = !opt.output.empty();
  if (!chosen) opt.output = default_output(opt);  // before the work: a refusal costs nothing
  std::uint64_t size = 0;
  if (opt.files.size() == 1) {
    size = single_page(opt);
  } else {
    const std::string page = comparison(opt);
    size = page.size();
    if (opt.output.empty() || opt.output == "-") {
      write_out(page);
    } else {
      install_interrupt_cleanup();
      save_page(opt.output, page, with_remote_options(opt.output_options));
    }
  }
  if (!opt.output.empty() && opt.output != "-") {
    const std::string wrote = "wrote " + opt.output + " (" + human_bytes(size) + ")";
    if (chosen)
      info(wrote);
    else
      note(wrote);  // said unless -q: no -o named the file
  }
  return 0;
}

}  // namespace

Command setup_report(CLI::App& parent) {
  auto opt = std::make_shared<ReportCliOptions>();
  CLI::App* app = parent.add_subcommand("report", "A self-contained HTML page of an archive, or of two compared");
  app->add_option("FILE", opt->file, "The archive, or OLD to compare with NEW (- reads it from standard input)")
      ->required()
      ->transform(input_file());
  app->add_option("NEW", opt->new_file, "With OLD: the archive to compare it with")->transform(input_file());
  app->add_option("-o,--output", opt->output,
                  "Write the page to this file (atomically) or s3://, gs:// or http(s):// URL; '-' prints it (default: "
                  "stdout, or STEM.html on a terminal)")
      ->transform(output_target())
      ->type_name("OUT.html");
  add_output_options(app, opt->output_options);
  app->add_option("--atol", opt->atol, "Comparison: absolute tolerance (default 0)")->type_name("X");
  app->add_option("--rtol", opt->rtol, "Comparison: relative tolerance, times |b| (default 0)")->type_name("X");
  app->add_option("--tol", opt->tol, "Comparison: tolerances for the paths matching a glob (repeatable)")
      ->type_name("PATH_GLOB=RTOL[,ATOL]");
  app->add_option("--exclude", opt->exclude, "Comparison: skip the paths matching a glob, and below (repeatable)")
      ->type_name("GLOB");
  app->add_flag("--nan-unequal", opt->nan_unequal, "Comparison: NaN differs from NaN");
  add_jobs_option(app, opt->jobs, "reading members and comparing arrays");
  return {app, [opt] { return run_report(*opt); }};  // a copy: run_report fills in files
}

}  // namespace zanj::cli
