#pragma once
// `export`: the way out of a .zanj archive into what other tools read. The object (or the
// subtree at an object path) is written as
//   - an .npz (numpy.savez's layout: a ZIP of stored .npy members), every array of the object,
//     external and inline, under its keys joined by '/';
//   - a .safetensors file: the arrays as tensors (C order, little-endian), everything else of
//     the object in "__metadata__" as JSON text;
//   - a directory: one .npy file per array plus __zanj__.json, in which each array is a
//     reference to its file (the layout `zanj extract` leaves, so `zanj pack DIR` reads it);
//   - a tar (or any format libarchive writes): that directory's files, streamed into it.
// Output is atomic: a file is written to a temporary file beside OUT and renamed over it when
// complete; a directory is built under a temporary name beside OUT and renamed into place.
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "zanj/safe_files.hpp"
#include "zanj/archive.hpp"

namespace zanj {

enum class ExportFormat { npz, safetensors, directory, archive };

struct ExportSettings {
  ExportFormat format = ExportFormat::npz;
  std::string archive_format;  ///< archive: libarchive's format name ("paxr", "cpio", "7zip", ...)
  std::string archive_filter;  ///< archive: libarchive's filter name ("gzip", "xz", ...), "" for none
  /// safetensors has no complex dtype: with `cast`, complex64/complex128 become F32/F64 with a
  /// last axis of 2 (real, imaginary), as torch.view_as_real does. Without it they are refused.
  bool cast = false;
  /// Replace an existing output directory (files are always replaced, as pack does).
  bool force = false;
  OutputOptions output;  ///< how an .npz or .safetensors URL output is uploaded
};

/// Set settings.format (and for archives the libarchive format and filter) from `--format
/// NAME`, or, NAME empty, from OUT's extension: .npz, .safetensors, .tar, .tar.gz (.tgz),
/// .tar.xz (.txz), .tar.zst (.tzst), .tar.bz2 (.tbz2), .cpio, .7z, anything else a directory.
/// NAME is npz, safetensors, dir, one of those extensions without the dot, or libarchive's
/// name of a format, optionally with "+FILTER" ("cpio+gzip"); libarchive checks the names.
void choose_export_format(ExportSettings& settings, const std::string& out, std::string_view name);
/// "npz", "safetensors", "dir", or the archive's format[+filter].
std::string export_format_name(const ExportSettings& settings);

struct ExportProgress {
  std::uint64_t bytes_done = 0, bytes_total = 0;  ///< bytes of array data and copied members
};

struct ExportSummary {
  std::uint64_t arrays = 0;        ///< arrays written
  std::uint64_t files = 0;         ///< members, tensors or files written (JSON ones included)
  std::uint64_t output_bytes = 0;  ///< bytes written
  OutputObject object;             ///< a URL output's ETag or generation
};

/// Export the node at object path `path` ("" for the whole object) of `file` to `out`. A path
/// naming an array exports {last key: array}. Throws Error: (usage) for an output that cannot
/// be written or an existing directory without `force`; (invalid) for an array that cannot be
/// read, a dtype the format lacks (named), or keys that would give two arrays one name or a
/// name unsafe as a file path. Nothing is left under OUT's name on error.
ExportSummary export_object(const ZanjFile& file, std::string_view path, const std::string& out,
                            const ExportSettings& settings,
                            const std::function<void(const ExportProgress&)>& progress = {});

}  // namespace zanj
