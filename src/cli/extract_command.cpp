#include "extract_command.hpp"

#include <fcntl.h>

#include <memory>
#include <optional>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "zanj/format.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::cli {
namespace {

struct ExtractOptions {
  std::string file;
  std::vector<std::string> selectors;
  std::string directory;
  bool force = false;
  bool list = false;
  bool json = false;
  bool npy_only = false;
  bool json_only = false;
  bool salvage = false;
  unsigned jobs = 0;  ///< 0: ZANJ_JOBS, else the CPUs this process may use
  ResourceLimits limits;
};

Json refused_json(const std::vector<RefusedMember>& refused) {
  JsonArray out;
  for (const auto& r : refused) out.emplace_back(JsonObject{{"name", r.name}, {"reason", r.reason}});
  return Json(std::move(out));
}

/// One line per member not written, on stderr (shown even with -q: they change the exit status).
void report_not_written(const std::string& file, const std::vector<RefusedMember>& members, const char* verb) {
  for (const auto& r : members) error(file + ": '" + r.name + "' " + verb + ": " + r.reason);
}

/// With --salvage, what an archive without a usable central directory cost: the reason, and each
/// member found by its local header that cannot be recovered. True when it was salvaged.
bool report_damage(const std::string& file, const SalvagedArchive* salvaged) {
  if (!salvaged || salvaged->damage.empty()) return false;
  error(file + ": " + salvaged->damage + "; salvaging the members found by their local headers");
  report_not_written(file, salvaged->lost, "not recovered");
  return true;
}

int list_plan(const ExtractOptions& opt, ExtractPlan& plan, const std::string& directory, bool salvaged) {
  // Targets can only be checked against a directory that exists; a missing one holds nothing.
  if (entry_type_at(AT_FDCWD, directory) == EntryType::directory)
    check_targets(plan, open_user_directory(directory, CreateDirs::no).get(), opt.force ? Replace::yes : Replace::no);
  if (opt.json) {
    JsonArray members;
    for (const ZipEntry* e : plan.members)
      members.emplace_back(
          JsonObject{{"name", e->name}, {"size", e->uncompressed_size}, {"path", directory + "/" + e->name}});
    write_out(to_json(Json(JsonObject{{"file", opt.file},
                                      {"directory", directory},
                                      {"members", Json(std::move(members))},
                                      {"bytes", plan.total_bytes},
                                      {"refused", refused_json(plan.refused)}})) +
              "\n");
  } else {
    std::vector<std::vector<std::string>> rows{{"Length", "Name"}};
    for (const ZipEntry* e : plan.members)
      rows.push_back({std::to_string(e->uncompressed_size), terminal_safe(directory + "/" + e->name)});
    rows.push_back({std::to_string(plan.total_bytes), std::to_string(plan.members.size()) + " members"});
    write_out(format_table(rows));
  }
  report_not_written(opt.file, plan.refused, "would be refused");
  return plan.refused.empty() && !salvaged ? 0 : 1;
}

}  // namespace

std::string default_extract_directory(const std::string& archive_path) {
  std::string base = archive_path;
  if (is_remote_url(base)) base.resize(std::min(base.find_first_of("?#"), base.size()));  // a URL's query is no name
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  base = base.substr(base.rfind('/') == std::string::npos ? 0 : base.rfind('/') + 1);
  std::string stem = base;
  if (stem.ends_with(".zanj")) {
    stem.resize(stem.size() - 5);
  } else if (const std::size_t dot = stem.rfind('.'); dot != std::string::npos && dot > 0) {
    stem.resize(dot);
  }
  if (stem.empty() || stem == base || stem == "." || stem == "..") stem = base + ".d";
  return stem;
}

namespace {

int run_extract(const ExtractOptions& opt) {
  const unsigned jobs = jobs_or_default(opt.jobs);  // a bad ZANJ_JOBS stops before anything is written
  if (opt.npy_only && opt.json_only) throw Error("--npy-only and --json-only exclude each other", Exit::usage);
  if (is_stdin_path(opt.file) && opt.directory.empty())
    throw Error("reading an archive from standard input: name the directory with -C DIR", Exit::usage);
  ResourceLimits limits = opt.limits;
  limits.take_global_limits(open_options().limits);  // --max-json-*, --max-ratio, --max-member-bytes
  std::optional<SalvagedArchive> salvaged;
  const OpenOptions open{limits, open_options().remote};
  if (opt.salvage) salvaged.emplace(open_or_salvage(opt.file, open));
  const Archive archive = salvaged ? std::move(salvaged->archive) : Archive(opt.file, open);
  const bool damaged = report_damage(opt.file, salvaged ? &*salvaged : nullptr);
  ExtractSelection selection{opt.selectors, opt.npy_only, opt.json_only};
  ExtractPlan plan = plan_extract(archive, selection, limits);
  const std::string directory = opt.directory.empty() ? default_extract_directory(opt.file) : opt.directory;
  if (opt.list) return list_plan(opt, plan, directory, damaged);

  const Replace replace = opt.force ? Replace::yes : Replace::no;
  const UniqueFd root = open_user_directory(directory, CreateDirs::yes);
  check_targets(plan, root.get(), replace);
  install_interrupt_cleanup();
  Progress progress("extract", plan.total_bytes);
  const ExtractResult result = write_extract(
      archive, plan, root.get(), replace, [&](const ExtractProgress& p) { progress.update(p.bytes_done, 0); }, jobs);
  progress.finish();

  report_not_written(opt.file, plan.refused, "refused");
  report_not_written(opt.file, result.failed, "not extracted");
  if (opt.json) {
    JsonArray written;
    for (const auto& name : result.written) written.emplace_back(name);
    JsonObject report{{"file", opt.file},
                      {"directory", directory},
                      {"written", Json(std::move(written))},
                      {"refused", refused_json(plan.refused)},
                      {"failed", refused_json(result.failed)}};
    if (salvaged) {
      report.emplace_back("salvaged", damaged);
      report.emplace_back("lost", refused_json(salvaged->lost));
    }
    write_out(to_json(Json(std::move(report))) + "\n");
  }
  info(opt.file + ": " + std::to_string(result.written.size()) + " members written to " + directory);
  return plan.refused.empty() && result.failed.empty() && !damaged ? 0 : 1;
}

}  // namespace

Command setup_extract(CLI::App& parent) {
  auto opt = std::make_shared<ExtractOptions>();
  CLI::App* app = parent.add_subcommand("extract", "Unpack members into a directory, safely");
  app->add_option("FILE", opt->file, "Archive to unpack (- reads it from standard input; then give -C)")
      ->required()
      ->transform(input_file());
  app->add_option("SELECTOR", opt->selectors,
                  "Member names or object paths (the members referenced under that path); default: all");
  app->add_option("-C,--directory", opt->directory, "Directory to write into (default: FILE's name without .zanj)")
      ->type_name("DIR");
  app->add_flag("--force", opt->force, "Replace existing files");
  app->add_flag("-l,--list", opt->list, "Only show what would be written (and refused)");
  app->add_flag("--npy-only", opt->npy_only, "Only .npy members (arrays)");
  app->add_flag("--json-only", opt->json_only, "Only .json and .jsonl members (everything but arrays)");
  app->add_flag("--salvage", opt->salvage,
                "When the central directory is missing or cut (a truncated file), find members by their local "
                "headers and extract every complete one whose CRC-32 matches (exit 1)");
  app->add_flag("--json", opt->json, "Machine-readable output on stdout");
  add_jobs_option(app, opt->jobs, "writing members");
  app->add_option("--max-total-bytes", opt->limits.max_total_bytes,
                  "Refuse archives whose selected members declare more bytes in all (default 1 TiB)")
      ->type_name("BYTES")
      ->type_name("BYTES");
  return {app, [opt] { return run_extract(*opt); }};
}

}  // namespace zanj::cli
