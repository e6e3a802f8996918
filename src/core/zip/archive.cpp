// An archive opened for reading: our central directory, and member data read from it
// (member_decoder.hpp), so files and in-memory fuzz inputs take the same path.
#include "zanj/archive.hpp"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>

#include "zanj/error.hpp"
#include "zanj/input.hpp"
#include "zip/member_decoder.hpp"
#include "zip/member_prefix.hpp"

namespace zanj {

Archive::Archive(const std::string& path) : Archive(open_input(path), input_display_name(path)) {}

Archive::Archive(std::unique_ptr<ByteSource> source, std::string name)
    : source_(std::move(source)), name_(std::move(name)) {
  try {
    directory_ = read_zip_directory(*source_);
  } catch (const Error& e) {
    throw Error(name_ + ": " + e.what(), e.exit());
  }
  // Opened for its data: an archive that readers may read differently is refused here, once,
  // for every command (verify opens over its own directory and reports these instead).
  if (const auto why = directory_.ambiguity()) throw Error(name_ + ": " + *why + "; refusing to read it");
}

Archive::Archive(std::unique_ptr<ByteSource> source, std::string name, ZipDirectory directory)
    : source_(std::move(source)), name_(std::move(name)), directory_(std::move(directory)) {
  directory_.index_names();  // positions from the copy we were given may be stale
}

Archive::~Archive() = default;
Archive::Archive(Archive&&) noexcept = default;
Archive& Archive::operator=(Archive&&) noexcept = default;

void Archive::read(const ZipEntry& entry, const ChunkSink& sink) const {
  MemberStreamOptions options;
  options.max_ratio = max_ratio_;
  stream_member(*source_, entry, name_, options, sink);
}

std::string Archive::read_all(const ZipEntry& entry, std::uint64_t max_bytes) const {
  if (entry.uncompressed_size > max_bytes)
    throw Error(name_ + ": member '" + entry.name + "' declares " + std::to_string(entry.uncompressed_size) +
                " bytes, over the limit of " + std::to_string(max_bytes));
  // The declared size is a claim, not a fact: nothing is reserved for it. The string grows
  // (geometrically) only as decoded bytes arrive, and decoding stops at the declared size.
  std::string out;
  read(entry, [&](std::string_view chunk) {
    out.append(chunk);
    return true;
  });
  return out;
}

std::string Archive::read_prefix(const ZipEntry& entry, std::size_t n) const {
  return *read_member_prefix(*source_, entry, n, name_);
}

void Archive::read_each(const std::vector<const ZipEntry*>& wanted,
                        const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const {
  // Storage order, so a pass over many members reads the file forward.
  std::vector<const ZipEntry*> order = wanted;
  std::stable_sort(order.begin(), order.end(), [](const ZipEntry* x, const ZipEntry* y) {
    return x->local_header_offset < y->local_header_offset;
  });
  order.erase(std::unique(order.begin(), order.end()), order.end());
  for (const ZipEntry* entry : order) {
    bool used = false;
    on_member(*entry, [&](const ChunkSink& sink) {
      if (used) throw Error("internal: member '" + entry->name + "' streamed twice");
      used = true;
      read(*entry, sink);
    });
  }
}

std::vector<const ZipEntry*> Archive::read_each_found(
    const std::vector<const ZipEntry*>& wanted,
    const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const {
  read_each(wanted, on_member);
  return {};  // every entry is read from its own central-directory record: none can go missing
}

std::string archive_library_versions() {
  unsigned zstd = ZSTD_versionNumber();
  return std::string("zlib ") + zlibVersion() + "\nbzip2 " + BZ2_bzlibVersion() + "\nliblzma " +
         lzma_version_string() + "\nzstd " + std::to_string(zstd / 10000) + "." + std::to_string(zstd / 100 % 100) +
         "." + std::to_string(zstd % 100);
}

}  // namespace zanj
