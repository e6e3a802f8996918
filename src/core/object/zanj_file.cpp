#include "object/zanj_file_access.hpp"
#include "io/archive_library.hpp"

#include "array/member_reader.hpp"
#include "base/thread_pool.hpp"
#include "json/json_parse.hpp"

#include "zanj/error.hpp"
#include "zanj/version.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

/// Parse one JSON member of `archive`; adds its value count to *values, and what the parse
/// noticed goes to *notes.
JsonDocument read_json_member(const Archive& archive, const ZipEntry& entry, std::uint64_t max_bytes,
                              const json::JsonLimits& limits, std::uint64_t* values, json::JsonParseNotes* notes,
                              bool alone = false) {
  if (entry.uncompressed_size > max_bytes)
    throw Error(InArchive{archive.name()}, entry.name + ": its size of " + std::to_string(entry.uncompressed_size) +
                                               " bytes exceeds the limit of " + std::to_string(max_bytes) +
                                               " (raise with --max-json-bytes)");
  json::JsonText text = array::read_json_text(archive, entry, max_bytes, nullptr, alone, &limits);
  try {
    JsonDocument parsed = json::parse_document(std::move(text), entry.name, limits, notes);
    *values += notes->values;
    return parsed;
  } catch (const Error& e) {  // context: the archive joins the message
    throw Error(InArchive{archive.name()}, e.what());
  }
}

/// Tell the source that both JSON members are about to be read: a URL then fetches them in one
/// request when they lie together (Python writes them first, side by side), not in several.
void announce_json_members(const Archive& archive, const ZipEntry* main, const ZipEntry* meta) {
  constexpr std::uint64_t kLocalHeaderGuess = 30 + 64;  // fixed part plus a Zip64 extra field
  constexpr std::uint64_t kMostAnnounced = 8 << 20;     // larger members stream as usual
  std::uint64_t begin = UINT64_MAX, end = 0;
  for (const ZipEntry* entry : {main, meta}) {
    if (!entry || entry->compressed_size > kMostAnnounced) continue;
    begin = std::min(begin, entry->local_header_offset);
    end = std::max(end, entry->local_header_offset + kLocalHeaderGuess + entry->name.size() + entry->compressed_size);
  }
  if (begin < end && end - begin <= 2 * kMostAnnounced) zip::archive_source(archive).will_need(begin, end - begin);
}

/// __zanj_meta__.json as read: its document, or why it could not be read (a problem of the
/// archive, not a reason to stop).
struct MetaRead {
  std::optional<JsonDocument> doc;
  std::uint64_t values = 0;
  json::JsonParseNotes notes;
  std::string problem;
};

MetaRead read_meta(const Archive& archive, const ZipEntry& entry, std::uint64_t max_bytes,
                   const json::JsonLimits& limits, bool alone = false) {
  MetaRead read;
  try {
    read.doc = read_json_member(archive, entry, max_bytes, limits, &read.values, &read.notes, alone);
  } catch (const Error& e) {  // boundary: an unreadable meta member is a problem, not fatal
    read.problem = e.what();
  }
  return read;
}

}  // namespace

bool object::json_members_side_by_side(const ZipEntry& main, const ZipEntry& meta, std::uint64_t max_json_bytes,
                                       std::uint64_t max_json_values) {
  constexpr std::uint64_t kWorthAThread = 1 << 20;  // below this a thread costs more than it saves
  if (main.uncompressed_size < kWorthAThread || meta.uncompressed_size < kWorthAThread) return false;
  std::uint64_t bytes = 0;
  if (__builtin_add_overflow(main.uncompressed_size, meta.uncompressed_size, &bytes) || bytes > max_json_bytes)
    return false;
  return bytes / 2 + 2 <= max_json_values && base::available_cpus() > 1;
}

ZanjFile::ZanjFile(const std::string& path, const OpenOptions& options) : ZanjFile(Archive(path, options)) {}

ZanjFile::ZanjFile(Archive opened, const ZanjLimits& limits) : ZanjFile(std::move(opened), limits, nullptr) {}

ZanjFile::ZanjFile(Archive opened, const ZanjLimits& limits, const DirectoryWork& while_parsing)
    : impl_(std::make_unique<Impl>(Impl{std::move(opened), {}, {}, {}, 0, 0, {}, {}})) {
  Impl& z = *impl_;
  const ResourceLimits& archive_limits = z.archive.limits();
  const std::uint64_t max_json_bytes = limits.max_json_bytes.value_or(archive_limits.max_json_bytes);
  const ZipEntry* main = z.archive.find(kMainMember);
  if (!main) throw Error(InArchive{z.archive.name()}, "no __zanj__.json member (not a ZANJ archive)");
  const ZipEntry* meta_entry = z.archive.find(kMetaMember);
  announce_json_members(z.archive, main, meta_entry);
  json::JsonLimits json_limits{limits.max_json_depth.value_or(archive_limits.max_json_depth),
                               limits.max_json_values.value_or(archive_limits.max_json_values)};
  MetaRead meta;
  if (meta_entry && object::json_members_side_by_side(*main, *meta_entry, max_json_bytes, json_limits.max_values)) {
    // Declared after `meta`, which it writes: if the main member throws, the pool's destructor
    // waits for the meta parse before anything it uses goes.
    base::ThreadPool beside(1);
    beside.submit(
        [&] { meta = read_meta(z.archive, *meta_entry, max_json_bytes - main->uncompressed_size, json_limits); });
    // Queued behind the meta: the main document is the longer in most archives, and this
    // thread would otherwise wait for it with nothing to do.
    if (while_parsing) beside.submit([&] { while_parsing(z.archive); });
    z.root = read_json_member(z.archive, *main, max_json_bytes, json_limits, &z.json_values, &z.root_notes);
    beside.wait();
  } else {
    // Nothing is read beside each document: its fragments are walked on several threads.
    json_limits.threads = base::threads_or_cpus(limits.threads);
    z.root = read_json_member(z.archive, *main, max_json_bytes, json_limits, &z.json_values, &z.root_notes, true);
    // Both trees stay loaded, so they share one --max-json-values budget: the meta gets what
    // the main document left (it is small in most archives; the budget is what bounds memory).
    if (meta_entry) {
      json::JsonLimits left = json_limits;
      left.max_values -= z.json_values;
      meta = read_meta(z.archive, *meta_entry, max_json_bytes - main->uncompressed_size, left, true);
    }
    if (while_parsing) while_parsing(z.archive);
  }
  z.json_bytes = main->uncompressed_size;
  if (!meta_entry) {
    z.problems.push_back("no __zanj_meta__.json member");
  } else if (meta.doc) {
    z.meta = std::move(meta.doc);
    z.meta_notes = std::move(meta.notes);
    z.json_values += meta.values;
    z.json_bytes += meta_entry->uncompressed_size;
  } else {
    z.problems.push_back(std::move(meta.problem));
  }
  // The archive's .jsonl lines read later get what the loaded documents left.
  PrivateAccess::impl(z.archive).held_json_values = z.json_values;
}

ZanjFile::~ZanjFile() = default;
ZanjFile::ZanjFile(ZanjFile&&) noexcept = default;
ZanjFile& ZanjFile::operator=(ZanjFile&&) noexcept = default;

const Archive& ZanjFile::archive() const { return impl_->archive; }
JsonView ZanjFile::root() const { return impl_->root.root(); }
JsonView ZanjFile::meta() const { return impl_->meta ? impl_->meta->root() : JsonView(); }
const std::vector<std::string>& ZanjFile::problems() const { return impl_->problems; }
std::uint64_t ZanjFile::json_bytes() const { return impl_->json_bytes; }
std::uint64_t ZanjFile::json_values() const { return impl_->json_values; }

ZanjLimits ZanjFile::limits_left() const {
  const ResourceLimits& limits = archive().limits();
  ZanjLimits left;
  left.max_json_bytes = limits.max_json_bytes - std::min(limits.max_json_bytes, impl_->json_bytes);
  left.max_json_values = limits.max_json_values - std::min(limits.max_json_values, impl_->json_values);
  return left;
}

std::string version_report() {
  std::string out = "zanj " ZANJ_VERSION_STRING "\n";
  out += archive_library_versions();
  out += "\n";
  out += io::archive_library_version_line();  // libarchive: tar and other formats (export)
  out += "\n";
  out += json::json_library_version_line();  // simdjson: every JSON member and .jsonl line
  out += "\n";
  return out;
}

}  // namespace zanj
