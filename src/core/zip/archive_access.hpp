#pragma once
// Archive's private state, and how core code reaches it: the byte source (verify and extract
// read local headers themselves) and the parsed central directory; and archives made from a
// source the caller opened (verify opens over a directory it read with its own limits).
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "base/private_access.hpp"
#include "io/byte_source.hpp"
#include "json/json_parse.hpp"
#include "zanj/archive.hpp"
#include "zip/zip_directory.hpp"

namespace zanj {

struct Archive::Impl {
  std::unique_ptr<io::ByteSource> source;
  std::string name;
  zip::ZipDirectory directory;
  std::uint64_t max_ratio = UINT64_MAX;  // none: a truthful ratio is read (set_max_ratio)
  ResourceLimits limits;                 // what it was opened with (Archive::limits)
  /// JSON values its ZanjFile holds loaded (both documents), set once they are parsed: a .jsonl
  /// line read meanwhile gets what they left (json_values_left).
  std::uint64_t held_json_values = 0;
};

}  // namespace zanj

namespace zanj::zip {

/// Open bytes from any source; `name` is used in messages. Refuses ambiguity as
/// Archive(path) does.
Archive open_archive(std::unique_ptr<io::ByteSource> source, std::string name, const ResourceLimits& limits = {});
/// Use a directory already read from `source`. Does not refuse ambiguity (verify reports it).
Archive open_archive(std::unique_ptr<io::ByteSource> source, std::string name, ZipDirectory directory,
                     const ResourceLimits& limits = {});

/// What a JSON document parsed now from `archive`'s members (a .jsonl line) may hold: its
/// limits' max_json_values less what its loaded documents hold, so everything in memory at
/// once stays within the one limit.
std::uint64_t json_values_left(const Archive& archive);
/// The limits of a JSON document parsed now from `archive`'s members: its depth limit and
/// json_values_left.
json::JsonLimits json_line_limits(const Archive& archive);

/// Archive::read_each; returns the wanted members that could not be presented: none, since
/// each is read from its own central-directory record (kept for verify, written against a
/// name-matching reader).
std::vector<const ZipEntry*> read_each_found(
    const Archive& archive, const std::vector<const ZipEntry*>& wanted,
    const std::function<void(const ZipEntry&, const Archive::MemberReader&)>& on_member);

/// `members` split into `count` groups (no more than there are members, at least one) of about
/// equal compressed size, each member costing `overhead` bytes more (many small members still
/// cost something): largest first onto the lightest group, each group then in storage order so
/// that its pass reads forward. How verify and extract share members among their threads.
std::vector<std::vector<const ZipEntry*>> split_for_threads(std::vector<const ZipEntry*> members, std::size_t count,
                                                            std::uint64_t overhead);

inline const io::ByteSource& archive_source(const Archive& archive) { return *PrivateAccess::impl(archive).source; }
inline const ZipDirectory& archive_directory(const Archive& archive) { return PrivateAccess::impl(archive).directory; }

}  // namespace zanj::zip
