#include "io/archive_library.hpp"

#include <optional>
#include <type_traits>

#include "base/shared_library.hpp"
#include "zanj/error.hpp"

namespace zanj::io {
namespace {

base::Result<ArchiveLibrary> open_libarchive() {
  const base::Result<const base::SharedLibrary*> so =
      base::SharedLibrary::try_load("tar and other archive formats", {"libarchive.so.13"});
  if (!so) return base::Failure{so.why()};
  ArchiveLibrary a{};
  std::optional<base::Failure> missing;  // the first symbol not found
  const auto take = [&](auto& field, const char* name) {
    using Function = std::remove_pointer_t<std::remove_reference_t<decltype(field)>>;
    if (missing) return;
    const base::Result<Function*> found = (*so)->find_symbol<Function>(name);
    if (found)
      field = *found;
    else
      missing = base::Failure{found.why()};
  };
#define ZANJ_ARCHIVE_SYMBOL(field, name) take(a.field, #name)
  ZANJ_ARCHIVE_SYMBOL(write_new, archive_write_new);
  ZANJ_ARCHIVE_SYMBOL(write_free, archive_write_free);
  ZANJ_ARCHIVE_SYMBOL(write_set_format_by_name, archive_write_set_format_by_name);
  ZANJ_ARCHIVE_SYMBOL(write_add_filter_by_name, archive_write_add_filter_by_name);
  ZANJ_ARCHIVE_SYMBOL(write_open_fd, archive_write_open_fd);
  ZANJ_ARCHIVE_SYMBOL(write_header, archive_write_header);
  ZANJ_ARCHIVE_SYMBOL(write_data, archive_write_data);
  ZANJ_ARCHIVE_SYMBOL(write_finish_entry, archive_write_finish_entry);
  ZANJ_ARCHIVE_SYMBOL(write_close, archive_write_close);
  ZANJ_ARCHIVE_SYMBOL(error_string, archive_error_string);
  ZANJ_ARCHIVE_SYMBOL(entry_new, archive_entry_new);
  ZANJ_ARCHIVE_SYMBOL(entry_free, archive_entry_free);
  ZANJ_ARCHIVE_SYMBOL(entry_set_pathname_utf8, archive_entry_set_pathname_utf8);
  ZANJ_ARCHIVE_SYMBOL(entry_set_size, archive_entry_set_size);
  ZANJ_ARCHIVE_SYMBOL(entry_set_filetype, archive_entry_set_filetype);
  ZANJ_ARCHIVE_SYMBOL(entry_set_perm, archive_entry_set_perm);
  ZANJ_ARCHIVE_SYMBOL(entry_set_mtime, archive_entry_set_mtime);
  ZANJ_ARCHIVE_SYMBOL(version_details, archive_version_details);
  ZANJ_ARCHIVE_SYMBOL(read_new, archive_read_new);
  ZANJ_ARCHIVE_SYMBOL(read_free, archive_read_free);
  ZANJ_ARCHIVE_SYMBOL(read_support_format_all, archive_read_support_format_all);
  ZANJ_ARCHIVE_SYMBOL(read_support_filter_all, archive_read_support_filter_all);
  ZANJ_ARCHIVE_SYMBOL(read_open_filename, archive_read_open_filename);
  ZANJ_ARCHIVE_SYMBOL(read_next_header, archive_read_next_header);
  ZANJ_ARCHIVE_SYMBOL(read_data, archive_read_data);
  ZANJ_ARCHIVE_SYMBOL(entry_pathname_utf8, archive_entry_pathname_utf8);
  ZANJ_ARCHIVE_SYMBOL(entry_pathname, archive_entry_pathname);
  ZANJ_ARCHIVE_SYMBOL(entry_filetype, archive_entry_filetype);
  ZANJ_ARCHIVE_SYMBOL(entry_hardlink, archive_entry_hardlink);
  ZANJ_ARCHIVE_SYMBOL(entry_size, archive_entry_size);
  ZANJ_ARCHIVE_SYMBOL(entry_size_is_set, archive_entry_size_is_set);
#undef ZANJ_ARCHIVE_SYMBOL
  if (missing) return *missing;
  return a;
}

}  // namespace

base::Result<const ArchiveLibrary*> find_archive_library() {
  return base::try_load_table_once<ArchiveLibrary, open_libarchive>();
}

const ArchiveLibrary& archive_library() { return *find_archive_library().value_or_throw(Exit::usage); }

std::string archive_library_version_line() {
  const base::Result<const ArchiveLibrary*> library = find_archive_library();
  if (!library) return "libarchive: not installed (tar and other formats need libarchive.so.13)";
  // Asked once: libarchive 3.6's archive_version_details() builds its static string anew on
  // every call and drops the previous buffer (LeakSanitizer caught it when called twice).
  static const std::string details = (*library)->version_details();
  return details + " (tar and other formats; opened when needed)";
}

}  // namespace zanj::io
