#include "pack/archive_input.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "io/archive_library.hpp"
#include "io/temp_file.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zip/member_name.hpp"

namespace zanj {
namespace {

/// libarchive's reader, freed on every path out.
struct Reader {
  ::archive* a = nullptr;
  ~Reader() {
    if (a) archive_library().read_free(a);
  }
};

std::string entry_kind(unsigned type) {
  switch (type) {
    case AE_IFLNK:
      return "a symbolic link";
    case AE_IFCHR:
      return "a character device";
    case AE_IFBLK:
      return "a block device";
    case AE_IFIFO:
      return "a FIFO";
    case AE_IFSOCK:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace

bool is_libarchive_input(const std::string& path) {
  for (const char* ext :
       {".tar", ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.zst", ".tzst", ".tar.bz2", ".tbz2", ".7z", ".cpio"})
    if (path.ends_with(ext)) return true;
  return false;
}

UnpackedArchive::UnpackedArchive(const std::string& archive, const ResourceLimits& limits) {
  const ArchiveLibrary& lib = archive_library();
  struct stat st {};
  if (::stat(archive.c_str(), &st) != 0) throw Error(archive + ": cannot read it", Exit::usage);
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/zanj-pack-XXXXXX";
  if (!::mkdtemp(pattern.data())) throw Error("cannot create a temporary directory in " + pattern, Exit::usage);
  dir_ = pattern;
  try {
    Reader r;
    r.a = lib.read_new();
    lib.read_support_format_all(r.a);
    lib.read_support_filter_all(r.a);
    if (lib.read_open_filename(r.a, archive.c_str(), 1 << 16) != ARCHIVE_OK)
      throw Error(archive + ": " + (lib.error_string(r.a) ? lib.error_string(r.a) : "not an archive libarchive reads"),
                  Exit::usage);
    const UniqueFd root = open_user_directory(dir_, CreateDirs::no);
    // A bomb: more bytes than the ratio limit allows for an archive this size.
    const std::uint64_t max_bytes = std::min<std::uint64_t>(
        limits.max_total_bytes, static_cast<std::uint64_t>(st.st_size) * limits.max_ratio + (std::uint64_t{1} << 20));
    std::uint64_t total = 0, entries = 0;
    std::string buffer(std::size_t{1} << 20, '\0');
    for (;;) {
      archive_entry* e = nullptr;
      const int h = lib.read_next_header(r.a, &e);
      if (h == ARCHIVE_EOF) break;
      if (h < ARCHIVE_WARN)
        throw Error(archive + ": " + (lib.error_string(r.a) ? lib.error_string(r.a) : "unreadable entry"),
                    Exit::invalid);
      const char* raw = lib.entry_pathname_utf8(e);
      if (!raw) raw = lib.entry_pathname(e);
      std::string name = raw ? raw : "";
      const std::string shown = archive + ": entry '" + terminal_safe(name) + "'";
      if (++entries > limits.max_entries)
        throw Error(archive + ": more than " + std::to_string(limits.max_entries) + " entries", Exit::invalid);
      while (name.rfind("./", 0) == 0) name.erase(0, 2);
      const unsigned type = lib.entry_filetype(e);
      if (type == AE_IFDIR) {
        while (!name.empty() && name.back() == '/') name.pop_back();
        if (name.empty() || name == ".") continue;
      }
      if (auto why = member_name_problem(name)) throw Error(shown + ": " + *why + "; nothing packed", Exit::invalid);
      if (lib.entry_hardlink(e)) throw Error(shown + " is a hard link; nothing packed", Exit::invalid);
      if (type == AE_IFDIR) {
        open_below(root.get(), name, CreateDirs::yes);
        continue;
      }
      if (type != AE_IFREG) throw Error(shown + " is " + entry_kind(type) + "; nothing packed", Exit::invalid);
      if (lib.entry_size_is_set(e) && static_cast<std::uint64_t>(lib.entry_size(e)) > max_bytes - total)
        throw Error(shown + " declares more bytes than the archive's size allows (--max-ratio); nothing packed",
                    Exit::invalid);
      const std::size_t slash = name.rfind('/');
      const auto parent =
          open_below(root.get(), slash == std::string::npos ? "" : name.substr(0, slash), CreateDirs::yes);
      const std::string leaf = slash == std::string::npos ? name : name.substr(slash + 1);
      const int fd = ::openat(parent->get(), leaf.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
      if (fd < 0) throw Error(shown + ": appears twice or cannot be written; nothing packed", Exit::invalid);
      UniqueFd out(fd);
      for (;;) {
        const la_ssize_t n = lib.read_data(r.a, buffer.data(), buffer.size());
        if (n < 0)
          throw Error(shown + ": " + (lib.error_string(r.a) ? lib.error_string(r.a) : "unreadable data"),
                      Exit::invalid);
        if (n == 0) break;
        total += static_cast<std::uint64_t>(n);
        if (total > max_bytes)
          throw Error(shown + ": the archive unpacks to more bytes than its size allows (--max-ratio); nothing packed",
                      Exit::invalid);
        for (std::string_view rest(buffer.data(), static_cast<std::size_t>(n)); !rest.empty();) {
          const ssize_t w = ::write(out.get(), rest.data(), rest.size());
          if (w < 0) {
            if (errno == EINTR) continue;
            throw Error("cannot unpack " + shown + " into " + dir_ + ": " + std::strerror(errno), Exit::usage);
          }
          rest.remove_prefix(static_cast<std::size_t>(w));
        }
      }
      if (!out.close()) throw Error("cannot unpack " + shown + " into " + dir_, Exit::usage);
    }
  } catch (...) {  // cleanup: remove the unpacked folder, then rethrow
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
    throw;
  }
}

UnpackedArchive::~UnpackedArchive() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

}  // namespace zanj
