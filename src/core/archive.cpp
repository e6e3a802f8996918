// Member data through libarchive's seekable ZIP reader, fed from a ByteSource by callbacks
// (so files and in-memory fuzz inputs take the same path).
#include "zanj/archive.hpp"

#include <archive.h>
#include <archive_entry.h>
#include <locale.h>
#include <zlib.h>

#include <algorithm>
#include <unordered_map>

#include "zanj/error.hpp"
#include "zanj/input.hpp"
#include "zanj/member_prefix.hpp"

namespace zanj {
namespace {

// Reads handed to libarchive start small (a JSON member or an npy header needs little) and
// double while a member streams sequentially, up to large blocks for bulk data.
constexpr std::size_t kFirstBlock = 64 << 10;
constexpr std::size_t kMaxBlock = 1 << 20;

struct SourceCursor {
  const ByteSource* source = nullptr;
  std::uint64_t position = 0;
  std::size_t next_size = kFirstBlock;
  std::unique_ptr<char[]> block = std::make_unique_for_overwrite<char[]>(kMaxBlock);
};

la_ssize_t read_callback(struct archive*, void* data, const void** buffer) {
  auto* c = static_cast<SourceCursor*>(data);
  try {
    const std::size_t n = c->source->read_some(c->position, c->block.get(), c->next_size);
    c->position += n;
    c->next_size = std::min(c->next_size * 2, kMaxBlock);
    *buffer = c->block.get();
    return static_cast<la_ssize_t>(n);
  } catch (...) {
    return ARCHIVE_FATAL;
  }
}

la_int64_t seek_callback(struct archive*, void* data, la_int64_t offset, int whence) {
  auto* c = static_cast<SourceCursor*>(data);
  const auto size = static_cast<la_int64_t>(c->source->size());
  la_int64_t base = 0;
  if (whence == SEEK_CUR) base = static_cast<la_int64_t>(c->position);
  if (whence == SEEK_END) base = size;
  la_int64_t target = 0;
  if (__builtin_add_overflow(base, offset, &target) || target < 0) return ARCHIVE_FATAL;
  c->position = static_cast<std::uint64_t>(std::min(target, size));
  c->next_size = kFirstBlock;
  return static_cast<la_int64_t>(c->position);
}

la_int64_t skip_callback(struct archive*, void* data, la_int64_t request) {
  auto* c = static_cast<SourceCursor*>(data);
  const std::uint64_t left = c->source->size() - std::min(c->position, c->source->size());
  const auto n = std::min<std::uint64_t>(static_cast<std::uint64_t>(std::max<la_int64_t>(request, 0)), left);
  c->position += n;
  return static_cast<la_int64_t>(n);
}

/// libarchive converts UTF-8 names to the current locale's charset; under the C locale (a
/// bare CI shell, a cron job) every non-ASCII name comes back mangled and no longer matches the
/// central directory. While a reader is alive its thread uses a UTF-8 LC_CTYPE, so names come
/// back as stored. uselocale() is per thread: other threads and the process locale are untouched.
class Utf8CtypeScope {
 public:
  Utf8CtypeScope() {
    for (const char* name : {"C.UTF-8", "C.utf8", "en_US.UTF-8"})
      if ((utf8_ = newlocale(LC_CTYPE_MASK, name, static_cast<locale_t>(nullptr)))) break;
    if (utf8_) previous_ = uselocale(utf8_);
  }
  ~Utf8CtypeScope() {
    if (!utf8_) return;
    uselocale(previous_);
    freelocale(utf8_);
  }
  Utf8CtypeScope(const Utf8CtypeScope&) = delete;
  Utf8CtypeScope& operator=(const Utf8CtypeScope&) = delete;

 private:
  locale_t utf8_ = static_cast<locale_t>(nullptr);
  locale_t previous_ = static_cast<locale_t>(nullptr);
};

/// One pass of libarchive over the archive: headers in storage order, then data.
class LibarchiveReader {
 public:
  LibarchiveReader(const ByteSource& source, const std::string& name) : name_(name) {
    cursor_.source = &source;
    a_ = archive_read_new();
    if (!a_) throw Error(name + ": out of memory");
    archive_read_support_format_zip_seekable(a_);
    archive_read_set_options(a_, "zip:hdrcharset=UTF-8");
    // We compute the CRC-32 ourselves (stream() below); libarchive's would be a second pass.
    archive_read_set_options(a_, "zip:ignorecrc32");
    archive_read_set_read_callback(a_, read_callback);
    archive_read_set_seek_callback(a_, seek_callback);
    archive_read_set_skip_callback(a_, skip_callback);
    archive_read_set_callback_data(a_, &cursor_);
    if (archive_read_open1(a_) != ARCHIVE_OK) {
      // The destructor does not run when the constructor throws: free the reader here.
      const std::string why = reason();
      archive_read_free(a_);
      throw Error(name_ + ": cannot read ZIP structure" + why);
    }
  }
  ~LibarchiveReader() { archive_read_free(a_); }
  LibarchiveReader(const LibarchiveReader&) = delete;
  LibarchiveReader& operator=(const LibarchiveReader&) = delete;

  /// Next member's header, or nullptr at the end.
  archive_entry* next() {
    archive_entry* entry = nullptr;
    const int r = archive_read_next_header(a_, &entry);
    if (r == ARCHIVE_EOF) return nullptr;
    if (r < ARCHIVE_WARN) fail("cannot read member header");
    return entry;
  }

  static std::string name_of(archive_entry* e) {
    const char* utf8 = archive_entry_pathname_utf8(e);
    const char* raw = utf8 ? utf8 : archive_entry_pathname(e);
    return raw ? raw : "";
  }

  /// Stream the current member's data, bounded by `entry`'s declared size and CRC-checked.
  /// libarchive's own verdicts (ARCHIVE_WARN for a bad CRC or size, returned together with the
  /// last block) are not trusted either way: the block is used and our checks below decide.
  void stream(const ZipEntry& entry, const ChunkSink& sink) {
    std::uint64_t total = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    for (;;) {
      const void* block = nullptr;
      std::size_t size = 0;
      la_int64_t offset = 0;
      const int r = archive_read_data_block(a_, &block, &size, &offset);
      if (r == ARCHIVE_EOF) break;
      if (r < ARCHIVE_WARN) fail("member '" + entry.name + "' cannot be decoded", MemberDataError::Kind::undecodable);
      if (total + size > entry.uncompressed_size)
        throw MemberDataError(MemberDataError::Kind::too_long,
                              name_ + ": member '" + entry.name + "' inflates past its declared size of " +
                                  std::to_string(entry.uncompressed_size) + " bytes");
      total += size;
      if (size > 0) {  // zlib's crc32 restarts at 0 when given a null buffer, as an empty block may be
        crc = crc32_z(crc, static_cast<const Bytef*>(block), size);
        if (!sink(std::string_view(static_cast<const char*>(block), size))) return;
      }
      if (r == ARCHIVE_WARN) break;
    }
    if (total != entry.uncompressed_size)
      throw MemberDataError(MemberDataError::Kind::too_short,
                            name_ + ": member '" + entry.name + "' is truncated: " + std::to_string(total) + " of " +
                                std::to_string(entry.uncompressed_size) + " bytes");
    if (static_cast<std::uint32_t>(crc) != entry.crc32)
      throw MemberDataError(MemberDataError::Kind::crc_mismatch,
                            name_ + ": member '" + entry.name + "' is corrupt: CRC-32 mismatch");
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw Error(name_ + ": " + what + reason());
  }
  [[noreturn]] void fail(const std::string& what, MemberDataError::Kind kind) {
    throw MemberDataError(kind, name_ + ": " + what + reason());
  }
  std::string reason() const {
    const char* why = archive_error_string(a_);
    return why ? std::string(": ") + why : std::string();
  }

  Utf8CtypeScope utf8_names_;  // first member: active before libarchive starts, restored last
  std::string name_;
  SourceCursor cursor_;
  struct archive* a_ = nullptr;
};

}  // namespace

Archive::Archive(const std::string& path) : Archive(open_input(path), input_display_name(path)) {}

Archive::Archive(std::unique_ptr<ByteSource> source, std::string name)
    : source_(std::move(source)), name_(std::move(name)) {
  try {
    directory_ = read_zip_directory(*source_);
  } catch (const Error& e) {
    throw Error(name_ + ": " + e.what(), e.exit());
  }
}

Archive::Archive(std::unique_ptr<ByteSource> source, std::string name, ZipDirectory directory)
    : source_(std::move(source)), name_(std::move(name)), directory_(std::move(directory)) {
  directory_.index_names();  // positions from the copy we were given may be stale
}

Archive::~Archive() = default;
Archive::Archive(Archive&&) noexcept = default;
Archive& Archive::operator=(Archive&&) noexcept = default;

void Archive::read(const ZipEntry& entry, const ChunkSink& sink) const {
  read_each({&entry}, [&](const ZipEntry& e, const MemberReader& reader) {
    (void)e;
    reader(sink);
  });
}

std::string Archive::read_all(const ZipEntry& entry, std::uint64_t max_bytes) const {
  if (entry.uncompressed_size > max_bytes)
    throw Error(name_ + ": member '" + entry.name + "' declares " + std::to_string(entry.uncompressed_size) +
                " bytes, over the limit of " + std::to_string(max_bytes));
  std::string out;
  // The declared size is a claim, not a fact: reserve at most 64 MiB up front, grow if it is true.
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(entry.uncompressed_size, std::uint64_t{64} << 20)));
  read(entry, [&](std::string_view chunk) {
    out.append(chunk);
    return true;
  });
  return out;
}

std::string Archive::read_prefix(const ZipEntry& entry, std::size_t n) const {
  if (auto direct = read_member_prefix(*source_, entry, n, name_)) return std::move(*direct);
  std::string out;
  read(entry, [&](std::string_view chunk) {
    out.append(chunk.substr(0, n - out.size()));
    return out.size() < n;
  });
  return out;
}

void Archive::read_each(const std::vector<const ZipEntry*>& wanted,
                        const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const {
  const auto missing = read_each_found(wanted, on_member);
  if (!missing.empty())
    throw Error(name_ + ": member '" + missing.front()->name + "' could not be found by the ZIP reader");
}

std::vector<const ZipEntry*> Archive::read_each_found(
    const std::vector<const ZipEntry*>& wanted,
    const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const {
  // libarchive presents members in storage order; match them to our entries by name, and for
  // repeated names by occurrence.
  std::unordered_map<std::string, std::vector<const ZipEntry*>> by_name;
  for (const ZipEntry* e : wanted) by_name[e->name].push_back(e);
  for (auto& [name, list] : by_name)
    std::sort(list.begin(), list.end(),
              [](const ZipEntry* x, const ZipEntry* y) { return x->local_header_offset < y->local_header_offset; });
  std::size_t remaining = wanted.size();
  LibarchiveReader reader(*source_, name_);
  while (remaining > 0) {
    archive_entry* header = reader.next();
    if (!header) break;
    auto it = by_name.find(LibarchiveReader::name_of(header));
    if (it == by_name.end() || it->second.empty()) continue;
    const ZipEntry& entry = *it->second.front();
    it->second.erase(it->second.begin());
    --remaining;
    bool used = false;
    on_member(entry, [&](const ChunkSink& sink) {
      if (used) throw Error("internal: member '" + entry.name + "' streamed twice");
      used = true;
      reader.stream(entry, sink);
    });
  }
  std::vector<const ZipEntry*> missing;
  for (const ZipEntry* e : wanted) {  // in the caller's order, which is deterministic
    const auto& list = by_name[e->name];
    if (std::find(list.begin(), list.end(), e) != list.end()) missing.push_back(e);
  }
  return missing;
}

std::string archive_library_versions() {
  return archive_version_details();
}

}  // namespace zanj
