#pragma once
// Opening archives: a ZIP archive (Archive: its members and their bytes) and a .zanj archive
// (ZanjFile: the archive plus its two parsed JSON members, the object and the metadata).
//
// Every read is bounded by the member's declared size and a ratio limit, and checked against
// its declared CRC-32. Member data is streamed in chunks; nothing is read until asked for.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"

namespace zanj {

struct PrivateAccess;

/// Compression methods seen in .zanj archives (Python's zipfile can write any).
enum class ZipMethod : std::uint16_t {
  store = 0,
  deflate = 8,
  deflate64 = 9,
  bzip2 = 12,
  lzma = 14,
  zstd = 93,
  xz = 95,
};

/// "store", "deflate", "bzip2", "lzma", ... or "method 99" for unknown ones.
std::string method_name(std::uint16_t method);

/// One member as the ZIP central directory describes it, with Zip64 values already resolved.
struct ZipEntry {
  std::string name;  ///< raw bytes of the central-directory name (UTF-8 or CP437)
  /// The name Python's zipfile sees, in UTF-8: `name` itself with flag bit 11 (UTF-8), `name`
  /// decoded as code page 437 without it (the same bytes for ASCII).
  std::string python_name;
  std::uint16_t version_made_by = 0, version_needed = 0, flags = 0, method = 0;
  std::uint16_t dos_time = 0, dos_date = 0;
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0, uncompressed_size = 0, local_header_offset = 0;
  std::uint32_t external_attributes = 0;
  bool has_zip64_extra = false;
  std::uint64_t central_offset = 0;  ///< where this entry's central header starts

  bool encrypted() const;     ///< general purpose flag bit 0
  bool utf8_flag() const;     ///< general purpose flag bit 11 (name is UTF-8)
  bool is_directory() const;  ///< name ends with '/'
  /// st_mode bits (external_attributes >> 16) when made on Unix
  /// (version_made_by >> 8 == 3), else 0.
  std::uint32_t unix_mode() const;
  bool is_symlink() const;       ///< S_IFLNK in unix_mode()
  bool is_regular_file() const;  ///< not a directory, symlink, device, FIFO or socket
  /// The DOS date/time as seconds since 1970. DOS times carry no time zone
  /// (Python writes local time); we read them as UTC so the result does not
  /// depend on the machine. A zero date means 1980-01-01T00:00:00.
  std::int64_t mtime_unix() const;
  std::string mtime_iso8601() const;  ///< e.g. "2026-11-20T12:34:56", same reading as mtime_unix
};

/// Receives a member's bytes chunk by chunk; return false to stop reading early.
using ChunkSink = std::function<bool(std::string_view chunk)>;

/// The name standard input gets in messages ("<stdin>: not a ZIP file").
inline constexpr std::string_view kStdinName = "<stdin>";
/// True for "-", the conventional name of standard input.
bool is_stdin_path(std::string_view path);
/// The name to use in messages for an input: kStdinName for "-", else the path itself.
std::string input_display_name(const std::string& path);
/// Why `path` cannot be opened as an input archive, as strerror words ("No such file or
/// directory", "Is a directory", "Permission denied"), or "" when it looks openable (always
/// for "-"). For argument checks before any work starts; opening still has the last word.
std::string input_problem(const std::string& path);

/// True for the URLs every command reads like files: http://, https://, s3://bucket/key and
/// gs://bucket/object.
bool is_remote_url(std::string_view path);

/// Credentials for s3:// and gs:// URLs, found once and shared: every URL, bucket listing and
/// upload opened with options holding the same cache uses the same credentials, resolved the
/// first time one needs them (one token exchange with STS, a container endpoint, IMDS or Google's
/// OAuth and metadata servers, however many archives a command reads) and refreshed before they
/// expire, by one thread while the others wait. Opaque; a command makes one
/// (make_credential_cache) and every copy of its RemoteOptions shares it. One cache serves one
/// environment and one set of options: what a single command has.
class CredentialCache;
std::shared_ptr<CredentialCache> make_credential_cache();

/// How URLs are fetched (the global options --connect-timeout, --idle-timeout, --retries,
/// --insecure, --download, --download-max, --speed-limit, --speed-time, --deadline and
/// --http-header).
struct RemoteOptions {
  double connect_timeout = 15;  ///< seconds to set up a connection
  double idle_timeout = 30;     ///< seconds without a byte before a request is abandoned and retried
  int retries = 5;              ///< retries of one range after a reset, timeout, 429 or 5xx
  bool insecure = false;        ///< --insecure: do not verify TLS certificates (warns)
  bool download = false;        ///< --download: a server ignoring ranges is downloaded whole, silently
  /// --download-max: a server ignoring ranges is downloaded whole (noted with -v) up to this many
  /// bytes without --download; a larger file is an error.
  std::uint64_t download_max = std::uint64_t{64} << 20;
  /// --speed-limit and --speed-time: a transfer slower than speed_limit bytes per second for
  /// speed_time seconds is abandoned (and retried). 0: only the idle timeout's 1 byte a second.
  std::uint64_t speed_limit = 0;
  double speed_time = 30;
  /// --deadline: seconds from `start` after which every transfer ends, retried or not (0: none).
  double deadline = 0;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::vector<std::string> headers;  ///< extra request headers, "Name: value"; never printed
  /// Called with one line per request (-v): method, URL without credentials, range, status, bytes.
  std::function<void(const std::string&)> log;
  /// Called with each warning (--insecure, a spooled download).
  std::function<void(const std::string&)> warn;
  /// URLs as given, user:password included, by the URL set_aside_url_credentials left without
  /// them: what is requested when that URL is opened. Never printed.
  std::map<std::string, std::string, std::less<>> url_credentials;
  /// Shared credentials (make_credential_cache); nullptr: each URL, listing and upload finds its
  /// own.
  std::shared_ptr<CredentialCache> credential_cache;
};

/// `url` without the user:password it may carry ("https://u:p@host/x" gives "https://host/x"),
/// which go into `options.url_credentials`, to be sent when that URL is opened with those
/// options: the command line passes its arguments through this so that no message or output
/// can echo a password. Anything else is returned unchanged.
std::string set_aside_url_credentials(const std::string& url, RemoteOptions& options);

/// How an archive is opened: what reading it may spend, and how a URL is fetched. Each Archive
/// keeps its own copy; nothing is process-wide, so archives opened with different options
/// live side by side.
struct OpenOptions {
  ResourceLimits limits;
  RemoteOptions remote;
};

/// What reading a URL has cost so far (a local file has no such count).
struct TransferCount {
  std::uint64_t bytes_fetched = 0;  ///< response body bytes received
  std::uint64_t requests = 0;       ///< HTTP requests sent
};

/// A ZIP archive opened for reading. Move-only; entries stay valid while it lives.
class Archive {
 public:
  /// Open a file, standard input for "-" (named "<stdin>"; a pipe is first copied to an
  /// unlinked temporary file, since a ZIP reader must seek), or a URL (is_remote_url: read
  /// through HTTP range requests; errors are Error(URL + ": ...", usage)). Throws Error (usage) when it
  /// cannot be opened, (invalid) when it is not a ZIP or is ambiguous (duplicate or
  /// normalization-equal names, two end records: readers could see different members).
  explicit Archive(const std::string& path, const OpenOptions& options = {});
  /// The same for an archive already in memory; `name` is used in messages.
  static Archive from_memory(std::string bytes, std::string name, const ResourceLimits& limits = {});
  ~Archive();
  Archive(Archive&&) noexcept;
  Archive& operator=(Archive&&) noexcept;

  const std::string& name() const;
  /// Every member, in central-directory order.
  const std::vector<ZipEntry>& entries() const;
  /// The first member with that name as Python sees it (ZipEntry::python_name), or nullptr.
  const ZipEntry* find(std::string_view member) const;
  /// Size of the archive in bytes.
  std::uint64_t file_size() const;
  /// Bytes and requests spent on a URL so far; nullopt for a local file or standard input.
  std::optional<TransferCount> transfer() const;
  /// The limits it was opened with: a member declaring more than max_member_bytes is refused,
  /// and what reads its members (ZanjFile, .jsonl lines) is held to the JSON and jsonl ones.
  const ResourceLimits& limits() const;

  /// Stream one member's uncompressed bytes to `sink`, read from the entry's local header
  /// (checked against the entry: a disagreement is an Error). Throws MemberDataError when the
  /// data is longer or shorter than declared, over the ratio limit, fails its CRC-32, or uses
  /// a method zanj cannot decode.
  void read(const ZipEntry& entry, const ChunkSink& sink) const;
  /// The whole member in memory; refuses (Error) a member declaring more than max_bytes.
  std::string read_all(const ZipEntry& entry, std::uint64_t max_bytes) const;
  /// The first n bytes of a member (fewer if it is shorter); decodes no further. No CRC-32
  /// check: that needs the whole member.
  std::string read_prefix(const ZipEntry& entry, std::size_t n) const;
  /// Stream several members, in the order they are stored. `on_member` is called once per
  /// wanted entry with a function that streams its bytes (call it at most once; not calling
  /// it skips the member).
  using MemberReader = std::function<void(const ChunkSink&)>;
  void read_each(const std::vector<const ZipEntry*>& wanted,
                 const std::function<void(const ZipEntry&, const MemberReader&)>& on_member) const;

  /// Most bytes a member may decode to per compressed byte before reading stops; none by
  /// default (a truthful ratio is no error: a member is bounded by its declared size and
  /// limits().max_member_bytes). Deflate is held to its physical 1032:1 whatever this says.
  void set_max_ratio(std::uint64_t ratio);
  std::uint64_t max_ratio() const;

 private:
  friend struct PrivateAccess;
  struct Impl;  // the byte source and the parsed central directory
  explicit Archive(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// Versions of the decompression libraries zanj links (zlib, bzip2, liblzma, zstd), one per line.
std::string archive_library_versions();

inline constexpr std::string_view kMainMember = "__zanj__.json";
inline constexpr std::string_view kMetaMember = "__zanj_meta__.json";

/// What opening a .zanj archive may spend on its two JSON members. Both stay loaded, so they
/// share one budget (the meta gets what the object left); a .jsonl line read from the archive
/// meanwhile gets what both left of the archive's max_json_values.
struct ZanjLimits {
  /// Bytes of both documents; nullopt: the archive's limits().max_json_bytes (--max-json-bytes).
  std::optional<std::uint64_t> max_json_bytes;
  /// Deepest nesting; nullopt: the archive's limits().max_json_depth.
  std::optional<std::size_t> max_json_depth;
  /// JSON values (elements, members, roots) of both documents; nullopt: the archive's
  /// limits().max_json_values (--max-json-values).
  std::optional<std::uint64_t> max_json_values;
  /// Threads a large document is parsed on when nothing else is read beside it; 0: the CPUs
  /// this process may use.
  unsigned threads = 0;
};

/// A .zanj archive: the ZIP archive plus its parsed object (__zanj__.json) and metadata
/// (__zanj_meta__.json). Move-only; views from root() and meta() are valid while it lives.
class ZanjFile {
 public:
  /// Opens the archive ("-" is standard input) and parses both JSON members. Throws Error
  /// when the archive or __zanj__.json is unusable. A missing or broken meta is not fatal
  /// here (meta() is invalid and problems() says why): what can be shown should still be shown.
  explicit ZanjFile(const std::string& path, const OpenOptions& options = {});
  explicit ZanjFile(Archive archive, const ZanjLimits& limits = {});
  /// Work on the archive's directory alone (`info`'s member listing), done while the
  /// documents are parsed: when the two are parsed side by side, on the meta's thread once the
  /// meta (the shorter, in most archives) is parsed; else after both. It has finished, or its
  /// exception is thrown, before the constructor returns.
  using DirectoryWork = std::function<void(const Archive&)>;
  ZanjFile(Archive archive, const ZanjLimits& limits, const DirectoryWork& while_parsing);
  ~ZanjFile();
  ZanjFile(ZanjFile&&) noexcept;
  ZanjFile& operator=(ZanjFile&&) noexcept;

  const Archive& archive() const;
  /// The object: __zanj__.json's root value.
  JsonView root() const;
  /// __zanj_meta__.json's root value; invalid (false) when it is missing or broken.
  JsonView meta() const;
  /// Why the meta is missing or broken, one line each.
  const std::vector<std::string>& problems() const;
  const std::string& name() const { return archive().name(); }
  /// Bytes of the two JSON members together (they share --max-json-bytes).
  std::uint64_t json_bytes() const;
  /// JSON values of the two documents together (they share --max-json-values).
  std::uint64_t json_values() const;
  /// What a second archive loaded beside this one may spend on its JSON members, so that both
  /// stay within this one's limits together (diff and report load two).
  ZanjLimits limits_left() const;

 private:
  friend struct PrivateAccess;
  struct Impl;  // the parsed documents
  std::unique_ptr<Impl> impl_;
};

/// The versions zanj reports for `--version`: zanj, the decompression libraries (zlib, bzip2,
/// liblzma, zstd), and libarchive (tar and other formats; opened only then), one per line.
std::string version_report();

}  // namespace zanj
