// Opening an archive for `extract --salvage`: its own directory if that reads, else one
// rebuilt from its local headers (zip/local_scan.hpp), opened like any other archive, so that
// extract's plan and writer, with all their checks, work on it unchanged.
#include <utility>

#include "source/input.hpp"
#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "zip/archive_access.hpp"
#include "zip/local_scan.hpp"
#include "zip/member_name.hpp"

namespace zanj {

SalvagedArchive open_or_salvage(const std::string& path, const OpenOptions& options) {
  const ResourceLimits& limits = options.limits;
  std::unique_ptr<io::ByteSource> source =
      source::open_input(path, options.remote);  // once: standard input cannot be read twice
  const std::string name = input_display_name(path);
  base::Result<zip::ZipDirectory> recorded =
      zip::read_zip_directory_result(*source, zip::ZipLimits{limits.max_entries});
  if (recorded) {
    if (const auto why = recorded->ambiguity()) throw Error(InArchive{name}, *why + "; refusing to read it");
    Archive archive = zip::open_archive(std::move(source), name, std::move(*recorded), limits);
    archive.set_max_ratio(limits.max_ratio);
    return SalvagedArchive{std::move(archive), "", {}};
  }
  std::string damage = recorded.why();
  const zip::LocalScan scan =
      zip::scan_local_headers(*source, zip::LocalScanLimits{limits.max_entries, limits.max_ratio});
  std::vector<RefusedMember> lost;
  for (const zip::LostMember& l : scan.lost)
    lost.push_back(
        {l.name.empty() ? "(member at offset " + std::to_string(l.offset) + ")" : zip::printable_name(l.name),
         l.reason});
  zip::ZipDirectory directory;
  directory.entries = scan.entries;
  Archive archive = zip::open_archive(std::move(source), name, std::move(directory), limits);
  archive.set_max_ratio(limits.max_ratio);
  return SalvagedArchive{std::move(archive), std::move(damage), std::move(lost)};
}

}  // namespace zanj
