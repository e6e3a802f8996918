#pragma once
// -o for the commands that write an output (pack, report, export): a file, or an s3://, gs://
// or http(s):// URL uploaded through the core's byte sinks. --no-clobber and --part-size are
// defined here once, and so is what --json says about the written object.
#include <CLI/CLI.hpp>
#include <string>

#include "zanj/json.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::cli {

/// Add --no-clobber and --part-size to `app`, bound to `options`.
void add_output_options(CLI::App* app, OutputOptions& options);

/// CLI11 transform for -o: a URL loses its user:password (kept aside, as for inputs), so that
/// no message or --json output echoes it.
CLI::Validator output_target();

/// `options` with the run's URL options (timeouts, retries, -v's request lines) filled in.
OutputOptions with_remote_options(OutputOptions options);

/// "etag" or "generation" into a --json object, when the upload gave one.
void add_object_json(JsonObject& object, const OutputObject& written);

}  // namespace zanj::cli
