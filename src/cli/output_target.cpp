#include "output_target.hpp"

#include "inputs.hpp"

namespace zanj::cli {

void add_output_options(CLI::App* app, OutputOptions& options) {
  app->add_flag("--no-clobber", options.no_clobber,
                "Refuse to replace an existing output (atomically, also for s3://, gs:// and PUT URLs)");
  app->add_option("--part-size", options.part_size,
                  "Uploads: bytes per S3 part or GCS chunk, 5 MiB to 128 MiB (KiB, MiB suffixes); held in memory")
      ->transform(CLI::AsSizeValue(false))
      ->type_name("BYTES")
      ->capture_default_str();
}

CLI::Validator output_target() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        path = set_aside_url_credentials(path, open_options().remote);
        return {};
      },
      "");
}

OutputOptions with_remote_options(OutputOptions options) {
  options.remote = open_options().remote;
  return options;
}

void add_object_json(JsonObject& object, const OutputObject& written) {
  if (!written.etag.empty()) object.emplace_back("etag", Json(written.etag));
  if (!written.generation.empty()) object.emplace_back("generation", Json(written.generation));
}

}  // namespace zanj::cli
