#include "export_command.hpp"

#include <memory>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "output_target.hpp"
#include "progress.hpp"
#include "zanj/error.hpp"
#include "zanj/export.hpp"
#include "zanj/format.hpp"
#include "zanj/json.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::cli {
namespace {

struct ExportOptions {
  std::string file, path, output, format;
  ExportSettings settings;
  bool json = false;
};

int run_export(ExportOptions& opt) {
  choose_export_format(opt.settings, opt.output, opt.format);
  opt.settings.output = with_remote_options(opt.settings.output);
  const ZanjFile z = open_zanj(opt.file);
  install_interrupt_cleanup();
  Progress progress("export", 0);
  const ExportSummary summary = export_object(z, opt.path, opt.output, opt.settings,
                                              [&](const ExportProgress& p) { progress.update(p.bytes_done, 0); });
  progress.finish();
  const std::string format = export_format_name(opt.settings);
  if (opt.json) {
    JsonObject object{{"output", opt.output},
                      {"format", format},
                      {"arrays", summary.arrays},
                      {"files", summary.files},
                      {"output_bytes", summary.output_bytes}};
    add_object_json(object, summary.object);
    write_out(to_json(Json(std::move(object))) + "\n");
  }
  info(opt.output + ": " + std::to_string(summary.arrays) + " arrays exported as " + format + ", " +
       human_bytes(summary.output_bytes));
  return 0;
}

}  // namespace

Command setup_export(CLI::App& parent) {
  auto opt = std::make_shared<ExportOptions>();
  CLI::App* app = parent.add_subcommand(
      "export", "Write an archive's arrays as .npz, .safetensors, a folder of .npy files or a tar");
  app->add_option("FILE", opt->file, "Archive to export (- reads it from standard input)")
      ->required()
      ->transform(input_file());
  app->add_option("PATH", opt->path, "Object path of the subtree to export (default: everything)");
  app->add_option("-o,--output", opt->output,
                  "File or directory to write; an .npz or .safetensors may be an s3://, gs:// or http(s):// URL")
      ->required()
      ->transform(output_target())
      ->type_name("OUT");
  add_output_options(app, opt->settings.output);
  app->add_option("--format", opt->format,
                  "npz, safetensors, dir, tar, tar.gz, tar.xz, tar.zst, tar.bz2, or a libarchive format[+filter] "
                  "(default: by OUT's extension)")
      ->type_name("FORMAT");
  app->add_flag("--cast", opt->settings.cast, "safetensors: store complex arrays as float pairs");
  app->add_flag("--force", opt->settings.force, "Replace an existing output directory");
  app->add_flag("--json", opt->json, "Machine-readable summary on stdout");
  return {app, [opt] { return run_export(*opt); }};
}

}  // namespace zanj::cli
