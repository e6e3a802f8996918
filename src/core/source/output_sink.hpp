#pragma once
// Choosing the byte sink an output is written to: a local file, or for an s3://, gs:// or
// http(s):// URL the upload that makes that object (remote/*_upload.hpp).
#include <memory>
#include <string>

#include "io/byte_sink.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::source {

/// The sink for `path`. Throws Error (usage) when it cannot be opened: a file in a missing
/// directory, a URL whose credentials cannot be found, a --part-size out of range.
std::unique_ptr<io::ByteSink> open_output(const std::string& path, const OutputOptions& options);

/// Whether `path` names a URL (it is then uploaded rather than written as a file).
bool is_output_url(const std::string& path);

}  // namespace zanj::source
