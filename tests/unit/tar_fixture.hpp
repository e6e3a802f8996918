#pragma once
// Tars for the pack tests, written through export's ArchiveWriter (libarchive): pax format,
// compressed by `filter` ("" for none, "gzip", ...), the files in the order given.
#include <fcntl.h>

#include <string>
#include <utility>
#include <vector>

#include "export/archive_writer.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::test {

inline void write_tar(const std::string& path, const std::vector<std::pair<std::string, std::string>>& files,
                      const std::string& filter = "") {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644));
  exporter::ArchiveWriter w("paxr", filter, path);
  w.open(fd.get());
  for (const auto& [name, bytes] : files) {
    w.begin(name, bytes.size());
    w.write(bytes);
    w.end();
  }
  w.close();
}

}  // namespace zanj::test
