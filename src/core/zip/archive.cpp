// An archive opened for reading: our central directory, and member data read from it
// (member_decoder.hpp), so files and in-memory fuzz inputs take the same path.
#include "zanj/archive.hpp"

#include "zip/archive_access.hpp"

#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <optional>

#include "zanj/error.hpp"
#include "source/input.hpp"
#include "zip/member_decoder.hpp"
#include "zip/member_prefix.hpp"

namespace zanj {

Archive::Archive(const std::string& path, const OpenOptions& options)
    : Archive(std::move(
          zip::open_archive(source::open_input(path, options.remote), input_display_name(path), options.limits)
              .impl_)) {}

Archive Archive::from_memory(std::string bytes, std::string name, const ResourceLimits& limits) {
  return zip::open_archive(std::make_unique<io::MemorySource>(std::move(bytes)), std::move(name), limits);
}

Archive::Archive(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Archive zip::open_archive(std::unique_ptr<io::ByteSource> source, std::string name, const ResourceLimits& limits) {
  auto impl = std::make_unique<PrivateAccess::Impl<Archive>>();
  impl->source = std::move(source);
  impl->name = std::move(name);
  impl->limits = limits;
  try {
    impl->directory = zip::read_zip_directory(*impl->source);
  } catch (const Error& e) {         // context: the archive joins the message
    throw e.in_archive(impl->name);  // a URL's or a file's own errors name it already
  }
  // Opened for its data: an archive that readers may read differently is refused here, once,
  // for every command (verify opens over its own directory and reports these instead).
  if (const auto why = impl->directory.ambiguity()) throw Error(InArchive{impl->name}, *why + "; refusing to read it");
  return PrivateAccess::make<Archive>(std::move(impl));
}

Archive zip::open_archive(std::unique_ptr<io::ByteSource> source, std::string name, zip::ZipDirectory directory,
                          const ResourceLimits& limits) {
  auto impl = std::make_unique<PrivateAccess::Impl<Archive>>();
  impl->source = std::move(source);
  impl->name = std::move(name);
  impl->limits = limits;
  impl->directory = std::move(directory);
  impl->directory.index_names();  // positions from the copy we were given may be stale
  return PrivateAccess::make<Archive>(std::move(impl));
}

Archive::~Archive() = default;
Archive::Archive(Archive&&) noexcept = default;
Archive& Archive::operator=(Archive&&) noexcept = default;

const std::string& Archive::name() const { return impl_->name; }
const std::vector<ZipEntry>& Archive::entries() const { return impl_->directory.entries; }
const ZipEntry* Archive::find(std::string_view member) const { return impl_->directory.find(member); }
std::uint64_t Archive::file_size() const { return impl_->source->size(); }
std::optional<TransferCount> Archive::transfer() const { return impl_->source->transfer(); }
void Archive::set_max_ratio(std::uint64_t ratio) { impl_->max_ratio = ratio; }
std::uint64_t Archive::max_ratio() const { return impl_->max_ratio; }
const ResourceLimits& Archive::limits() const { return impl_->limits; }

std::uint64_t zip::json_values_left(const Archive& archive) {
  const auto& impl = PrivateAccess::impl(archive);
  const std::uint64_t limit = impl.limits.max_json_values, held = impl.held_json_values;
  return held < limit ? limit - held : 0;
}

json::JsonLimits zip::json_line_limits(const Archive& archive) {
  json::JsonLimits limits;
  limits.max_depth = archive.limits().max_json_depth;
  limits.max_values = zip::json_values_left(archive);
  return limits;
}

namespace {
/// How a whole member of this archive is streamed: its ratio refusal and member limit.
zip::MemberStreamOptions whole_member_options(const PrivateAccess::Impl<Archive>& impl) {
  zip::MemberStreamOptions options;
  options.max_ratio = impl.max_ratio;
  options.max_member_bytes = impl.limits.max_member_bytes;
  return options;
}
}  // namespace

void Archive::read(const ZipEntry& entry, const ChunkSink& sink) const {
  zip::stream_member(*impl_->source, entry, impl_->name, whole_member_options(*impl_), sink);
}

std::string Archive::read_all(const ZipEntry& entry, std::uint64_t max_bytes) const {
  if (entry.uncompressed_size > max_bytes)
    throw Error(InArchive{impl_->name}, InMember{entry.name, true},
                "member '" + entry.name + "' declares " + std::to_string(entry.uncompressed_size) +
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
  return *zip::read_member_prefix(*impl_->source, entry, n, impl_->name);
}

void Archive::read_each(const std::vector<const ZipEntry*>& wanted,
                        const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const {
  // Storage order, so a pass over many members reads the file forward.
  std::vector<const ZipEntry*> order = wanted;
  const auto earlier = [](const ZipEntry* x, const ZipEntry* y) {
    return x->local_header_offset < y->local_header_offset;
  };
  // Most lists come in that order already (a directory's, or split_for_threads' groups): a
  // merge sort of 50,000 members that were in order took 3% of verify.
  if (!std::is_sorted(order.begin(), order.end(), earlier)) std::stable_sort(order.begin(), order.end(), earlier);
  order.erase(std::unique(order.begin(), order.end()), order.end());
  // Read forward through one window: a local header and a small member's data are then copies,
  // not two system calls each (on 50,000 small members those calls were a sixth of verify).
  const io::ByteSource& source = *impl_->source;
  std::optional<io::ReadWindow> window;
  if (order.size() > 1 && io::ahead_pays_off(source)) window.emplace(source);
  const zip::MemberStreamOptions options = whole_member_options(*impl_);
  for (const ZipEntry* entry : order) {
    bool used = false;
    on_member(*entry, [&](const ChunkSink& sink) {
      if (used) throw Error("internal: member '" + entry->name + "' streamed twice");
      used = true;
      zip::stream_member(window ? *window : source, *entry, impl_->name, options, sink);
    });
  }
}

std::vector<const ZipEntry*> zip::read_each_found(
    const Archive& archive, const std::vector<const ZipEntry*>& wanted,
    const std::function<void(const ZipEntry&, const Archive::MemberReader&)>& on_member) {
  archive.read_each(wanted, on_member);
  return {};  // every entry is read from its own central-directory record: none can go missing
}

std::string archive_library_versions() {
  unsigned zstd = ZSTD_versionNumber();
  return std::string("zlib ") + zlibVersion() + "\nbzip2 " + BZ2_bzlibVersion() + "\nliblzma " + lzma_version_string() +
         "\nzstd " + std::to_string(zstd / 10000) + "." + std::to_string(zstd / 100 % 100) + "." +
         std::to_string(zstd % 100);
}

std::vector<std::vector<const ZipEntry*>> zip::split_for_threads(std::vector<const ZipEntry*> members,
                                                                 std::size_t count, std::uint64_t overhead) {
  std::sort(members.begin(), members.end(), [](auto a, auto b) { return a->compressed_size > b->compressed_size; });
  std::vector<std::vector<const ZipEntry*>> groups(
      std::clamp<std::size_t>(count, 1, std::max<std::size_t>(members.size(), 1)));
  std::vector<std::uint64_t> load(groups.size(), 0);
  for (const ZipEntry* e : members) {
    const std::size_t g = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    groups[g].push_back(e);
    load[g] += e->compressed_size + overhead;
  }
  for (auto& g : groups)
    std::sort(g.begin(), g.end(), [](auto a, auto b) { return a->local_header_offset < b->local_header_offset; });
  return groups;
}

}  // namespace zanj
