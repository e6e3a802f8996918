#pragma once
// Tars for the pack tests, written through export's ArchiveWriter (libarchive): pax format,
// compressed by `filter` ("" for none, "gzip", ...), the files in the order given; and the bytes
// a reader of their members streams, gathered.
#include <fcntl.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "export/archive_writer.hpp"
#include "zanj/archive.hpp"
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

/// Everything `read` streams into the sink it is given, in one string.
inline std::string collect_chunks(const std::function<void(const ChunkSink&)>& read) {
  std::string out;
  read([&](std::string_view chunk) {
    out += chunk;
    return true;
  });
  return out;
}

}  // namespace zanj::test
