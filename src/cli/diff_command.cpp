#include "diff_command.hpp"

#include <memory>
#include <new>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "json_output.hpp"
#include "output.hpp"
#include "zanj/diff.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/archive.hpp"

namespace zanj::cli {
namespace {

struct DiffCliOptions {
  std::string a, b;
  std::string atol = "0", rtol = "0";
  std::vector<std::string> tol, exclude;
  bool nan_unequal = false;
  bool strict = false;
  bool structure = false;
  bool json = false;
  bool brief = false;
  unsigned jobs = 0;  ///< 0: ZANJ_JOBS, else the CPUs this process may use
};

DiffOptions core_options(const DiffCliOptions& opt) {
  DiffOptions o;
  o.tolerance.atol = parse_tolerance_value(opt.atol, "--atol");
  o.tolerance.rtol = parse_tolerance_value(opt.rtol, "--rtol");
  for (const auto& spec : opt.tol) o.rules.push_back(parse_tolerance_rule(spec));
  o.excludes = opt.exclude;
  o.nan_equal = !opt.nan_unequal;
  o.strict = opt.strict;
  o.stop_at_first = opt.brief;
  o.structure_only = opt.structure;
  o.threads = jobs_or_default(opt.jobs);
  return o;
}

/// Open both archives and compare them. For diff, exit status 1 means "they differ", so an
/// archive that cannot be read is an error of status 2, as for diff(1) and h5diff.
DiffReport compare(const DiffCliOptions& opt, const DiffOptions& options) {
  if (is_stdin_path(opt.a) && is_stdin_path(opt.b)) throw Error("A and B cannot both be standard input", Exit::usage);
  try {
    // Both archives stay loaded: they share one --max-json-values and --max-json-bytes budget: B
    // gets what A's two documents left, so memory stays within what one archive at the limit costs.
    const ZanjFile a = open_object(opt.a);
    const ZanjFile b = open_object(opt.b, a.limits_left());
    if (!opt.brief)
      for (const ZanjFile* f : {&a, &b})
        for (const auto& p : f->problems()) warn(f->name() + ": " + p);
    return diff_archives(a, b, options);
  } catch (const Error& e) {
    throw Error(e.what(), e.exit() == Exit::invalid ? Exit::usage : e.exit());
  } catch (const std::bad_alloc&) {
    throw Error("out of memory", Exit::usage);
  } catch (const std::exception& e) {
    throw Error(std::string("internal error: ") + e.what(), Exit::usage);
  }
}

Json report_json(const DiffCliOptions& opt, const DiffOptions& options, const DiffReport& report) {
  JsonArray differences, rules, excludes;
  for (const auto& d : report.differences) differences.push_back(difference_json(d));
  for (const auto& r : options.rules)
    rules.emplace_back(JsonObject{{"glob", r.glob}, {"rtol", r.tolerance.rtol}, {"atol", r.tolerance.atol}});
  for (const auto& e : options.excludes) excludes.emplace_back(e);
  return Json(JsonObject{
      {"a", opt.a},
      {"b", opt.b},
      {"equal", report.equal()},
      {"options", JsonObject{{"rtol", options.tolerance.rtol},
                             {"atol", options.tolerance.atol},
                             {"tol", Json(std::move(rules))},
                             {"exclude", Json(std::move(excludes))},
                             {"nan_equal", options.nan_equal},
                             {"strict", options.strict},
                             {"structure", options.structure_only}}},
      {"nodes_compared", report.nodes_compared},
      {"elements_compared", report.elements_compared},
      {"differences", Json(std::move(differences))},
  });
}

int run_diff(const DiffCliOptions& opt) {
  const DiffOptions options = core_options(opt);
  const DiffReport report = compare(opt, options);
  if (opt.json) {
    write_out(to_json(report_json(opt, options, report)) + "\n");
  } else if (!opt.brief) {
    std::string out;
    for (const auto& d : report.differences) out += terminal_safe(difference_text(d)) + "\n";
    const auto n = report.differences.size();
    out += n == 0 ? std::string("no differences found\n")
                  : std::to_string(n) + (n == 1 ? " difference" : " differences") + " found\n";
    write_out(out);
  }
  return report.equal() ? 0 : 1;
}

}  // namespace

Command setup_diff(CLI::App& parent) {
  auto opt = std::make_shared<DiffCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "diff", "Compare the objects in two archives: exit 0 when equal, 1 when they differ, 2 on error");
  app->add_option("A", opt->a, "The first (old) archive (or .npz, .safetensors); - reads it from standard input")
      ->required()
      ->type_name("FILE")
      ->transform(input_file());
  app->add_option("B", opt->b, "The second (new, reference) archive")
      ->required()
      ->type_name("FILE")
      ->transform(input_file());
  app->add_option("--atol", opt->atol, "Absolute tolerance (default 0)")->type_name("X");
  app->add_option("--rtol", opt->rtol, "Relative tolerance, times |b| (default 0)")->type_name("X");
  app->add_option("--tol", opt->tol, "Tolerances for the paths matching a glob, and below (repeatable)")
      ->type_name("PATH_GLOB=RTOL[,ATOL]");
  app->add_option("--exclude", opt->exclude, "Skip the paths matching a glob, and below (repeatable)")
      ->type_name("GLOB");
  app->add_flag("--nan-unequal", opt->nan_unequal, "NaN differs from NaN");
  app->add_flag("--strict", opt->strict, "Storage and metadata count as differences too");
  app->add_flag("--structure", opt->structure,
                "Compare keys, kinds, dtypes, shapes, list lengths and table columns only, not values");
  app->add_flag("--json", opt->json, "A machine-readable report of every difference");
  app->add_flag("-q,--brief", opt->brief, "Print nothing; only the exit status says (stops at the first difference)");
  add_jobs_option(app, opt->jobs, "comparing arrays");
  return {app, [opt, app] {
            if (opt->structure)
              for (const char* option : {"--atol", "--rtol", "--tol", "--nan-unequal"})
                if (app->count(option) > 0)
                  throw Error(std::string(option) + " has no use with --structure (values are not compared)",
                              Exit::usage);
            return run_diff(*opt);
          }};
}

}  // namespace zanj::cli
