#pragma once
// Where a command's output goes: a local file (written beside its name and renamed into place
// when complete) or, for a URL, an object uploaded to s3://, gs:// or an http(s):// PUT URL
// (docs/remote.md, "Writing"), which likewise appears only when complete.
#include <cstdint>
#include <string>

#include "zanj/archive.hpp"

namespace zanj {

struct OutputOptions {
  /// --no-clobber: refuse to replace an existing file or object (atomically: a rename that
  /// does not replace, If-None-Match: * on S3 and plain PUT, ifGenerationMatch=0 on GCS).
  bool no_clobber = false;
  /// --part-size: bytes per S3 part or GCS chunk (S3's minimum, 5 MiB, up to 128 MiB; GCS
  /// chunks are rounded down to a multiple of 256 KiB). What an upload holds in memory.
  std::uint64_t part_size = std::uint64_t{16} << 20;
  /// Timeouts, retries, TLS and logging for uploads (the reading options' own).
  RemoteOptions remote;
};

/// What writing an output made, as its server names it (empty for a local file).
struct OutputObject {
  std::string etag;        ///< S3 and plain PUT: the ETag the server gave
  std::string generation;  ///< GCS: the object's generation
};

/// Smallest and largest --part-size.
constexpr std::uint64_t kMinPartSize = std::uint64_t{5} << 20;
constexpr std::uint64_t kMaxPartSize = std::uint64_t{128} << 20;

}  // namespace zanj
