#include "pack_command.hpp"

#include <sys/stat.h>

#include <memory>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "output_target.hpp"
#include "progress.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "zanj/format.hpp"
#include "zanj/limits.hpp"
#include "zanj/pack.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::cli {

PackInput parse_pack_input(std::string_view arg) {
  const std::size_t eq = arg.find('=');
  struct stat st {};
  const std::string whole(arg);
  if (eq != std::string_view::npos && eq > 0 && arg.substr(0, eq).find('/') == std::string_view::npos &&
      ::stat(whole.c_str(), &st) != 0)
    return {std::string(arg.substr(0, eq)), std::string(arg.substr(eq + 1)), true};
  return {"", whole, false};
}

namespace {

struct PackOptions {
  std::vector<std::string> inputs;
  std::string output;
  PackSettings settings;
  int level = -1;  ///< -1: not given
  bool store = false;
  bool json = false;
  bool force = false;  ///< --force: replace an existing output
};

int run_pack(PackOptions& opt) {
  if (opt.store && opt.level >= 0) throw Error("--store and --level exclude each other", Exit::usage);
  // Refused before any input is read, as extract refuses; write_pack checks again.
  opt.settings.replace = opt.force ? Replace::yes : Replace::no;
  check_replaceable(opt.output, opt.settings.replace);
  opt.settings.limits.take_global_limits(open_options().limits);
  opt.settings.threads = jobs_or_default(opt.settings.threads);
  opt.settings.output = with_remote_options(opt.settings.output);
  if (opt.store) opt.settings.method = ZipMethod::store;
  if (opt.level >= 0) {
    opt.settings.level = opt.level;
    opt.settings.method = ZipMethod::deflate;
  }
  std::vector<PackInput> inputs;
  for (const auto& arg : opt.inputs) inputs.push_back(parse_pack_input(arg));
  if (!opt.settings.npy_key.empty() && (inputs.size() != 1 || input_kind(inputs[0].path) != InputKind::npy))
    throw Error("--key names the array of a lone .npy input; use NAME=PATH for several inputs", Exit::usage);

  const PackJob job = prepare_pack(inputs, opt.settings);
  for (const auto& note : job.notes()) warn(note);
  install_interrupt_cleanup();
  Progress progress("pack", job.known_bytes());
  const PackSummary summary =
      write_pack(job, opt.output, opt.settings, [&](const PackProgress& p) { progress.update(p.bytes_done, 0); });
  progress.finish();
  for (const auto& note : summary.notes) warn(note);
  if (opt.json) {
    JsonObject object{{"output", opt.output},
                      {"members", summary.members},
                      {"input_bytes", summary.input_bytes},
                      {"output_bytes", summary.output_bytes}};
    add_object_json(object, summary.object);
    write_out(to_json(Json(std::move(object))) + "\n");
  }
  info(opt.output + ": " + std::to_string(summary.members) + " members, " + human_bytes(summary.input_bytes) +
       " packed into " + human_bytes(summary.output_bytes));
  return 0;
}

}  // namespace

Command setup_pack(CLI::App& parent) {
  auto opt = std::make_shared<PackOptions>();
  CLI::App* app = parent.add_subcommand(
      "pack", "Make a .zanj archive from .npz, .npy, .safetensors, JSON or an extracted directory");
  app->add_option("INPUT", opt->inputs, "Files or a directory to pack (NAME=PATH to choose a root key)")->required();
  app->add_option("-o,--output", opt->output,
                  "Archive to write: a file (an existing one only with --force), or an s3://, gs:// or http(s):// URL")
      ->required()
      ->transform(output_target())
      ->type_name("OUT.zanj");
  add_output_options(app, opt->settings.output);
  app->add_option("--key", opt->settings.npy_key, "Root key for a lone .npy input (default: its file stem)")
      ->type_name("NAME");
  app->add_option("--list-threshold", opt->settings.thresholds.list,
                  "JSON lists with at least this many elements go to .jsonl members")
      ->type_name("N")
      ->capture_default_str();
  app->add_option("--array-threshold", opt->settings.thresholds.array,
                  "muutils arrays in JSON with at least this many elements go to .npy members")
      ->type_name("N")
      ->capture_default_str();
  app->add_option("--level", opt->level, "Deflate level 0-9 (default 6, as Python's zipfile)")
      ->type_name("N")
      ->check(CLI::Range(0, 9));
  app->add_flag("--store", opt->store, "Store members uncompressed");
  app->add_flag("--force", opt->force, "Replace an existing output archive (only once the new one is complete)");
  add_jobs_option(app, opt->settings.threads, "deflating members");
  app->add_flag("--json", opt->json, "Machine-readable summary on stdout");
  return {app, [opt] { return run_pack(*opt); }};
}

}  // namespace zanj::cli
