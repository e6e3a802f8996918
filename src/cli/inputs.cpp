#include "inputs.hpp"

#include <cstdlib>

#include "diagnostics.hpp"
#include "zanj/pack.hpp"
#include "zanj/error.hpp"
#include "zanj/archive.hpp"
#include "zanj/format.hpp"

namespace zanj::cli {

OpenOptions& open_options() {
  static OpenOptions options;
  return options;
}

void add_open_options(CLI::App& app) {
  // JSON, jsonl and ratio limits for every command (limits.hpp: what they bound and why the defaults).
  ResourceLimits& limits = open_options().limits;
  app.add_option("--max-json-bytes", limits.max_json_bytes, "Largest JSON member read, in bytes")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("BYTES");
  app.add_option("--max-json-values", limits.max_json_values,
                 "Most values (elements and members) in one JSON member or .jsonl line")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("N");
  app.add_option("--max-jsonl-line-bytes", limits.max_jsonl_line_bytes, "Longest .jsonl line read, in bytes")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("BYTES");
  app.add_option("--max-jsonl-rows", limits.max_jsonl_rows, "Most lines read from one .jsonl member")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("N");
  app.add_option("--max-ratio", limits.max_ratio,
                 "verify warns (high_ratio) about a member declaring more bytes per compressed byte, plus "
                 "1 MiB; a truthful ratio is read whatever it is (deflate over its 1032:1 is a lie)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("N");
  app.add_option("--max-member-bytes", limits.max_member_bytes,
                 "Refuse a member declaring more bytes (256 GiB): the most work one member may ask for")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("BYTES");
  RemoteOptions& remote = open_options().remote;
  app.add_option("--connect-timeout", remote.connect_timeout, "URLs: seconds to wait for a connection")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("SECONDS");
  app.add_option("--idle-timeout", remote.idle_timeout,
                 "URLs: seconds without data before a request is abandoned and retried")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("SECONDS");
  app.add_option("--retries", remote.retries, "URLs: retries of a request after a reset, timeout, 429 or 5xx")
      ->capture_default_str()
      ->check(CLI::Range(0, 100))
      ->type_name("N");
  app.add_flag("--insecure", remote.insecure, "URLs: do not verify the server's TLS certificate (warns)");
  app.add_flag("--download", remote.download,
               "URLs: download the whole file (to a temporary file) when the server ignores range requests, "
               "whatever its size, without a word");
  app.add_option("--download-max", remote.download_max,
                 "URLs: without --download, a server ignoring range requests is downloaded whole up to this size "
                 "(-v notes it); a larger file is an error")
      ->capture_default_str()
      ->type_name("BYTES");
  app.add_option("--speed-limit", remote.speed_limit,
                 "URLs: abandon (and retry) a transfer slower than this many bytes per second for --speed-time "
                 "seconds (curl's --speed-limit; replaces --idle-timeout's 1 byte a second)")
      ->type_name("BYTES");
  app.add_option("--speed-time", remote.speed_time, "URLs: the window of --speed-limit, in seconds")
      ->capture_default_str()
      ->check(CLI::PositiveNumber)
      ->type_name("SECONDS");
  app.add_option("--deadline", remote.deadline,
                 "URLs: end every transfer this many seconds after zanj started, retries included (exit status 2)")
      ->check(CLI::PositiveNumber)
      ->type_name("SECONDS");
  app.add_option("--http-header", remote.headers,
                 "URLs: send this header with every request, e.g. 'Authorization: Bearer TOKEN' (repeatable; "
                 "also ZANJ_HTTP_HEADER); never printed")
      ->type_name("'NAME: VALUE'")
      ->allow_extra_args(false);
}

void apply_remote_options() {
  RemoteOptions& remote = open_options().remote;
  if (const char* header = std::getenv("ZANJ_HTTP_HEADER"); header && *header) {
    // One header per line, so that a token can come from a secret store unchanged.
    std::string_view rest(header);
    while (!rest.empty()) {
      const std::size_t end = std::min(rest.find('\n'), rest.size());
      if (const std::string_view line = rest.substr(0, end); !line.empty()) remote.headers.emplace_back(line);
      rest.remove_prefix(std::min(end + 1, rest.size()));
    }
  }
  // One set of credentials for the whole command, however many s3:// or gs:// URLs it reads or
  // lists: one token exchange, not one per archive.
  remote.credential_cache = make_credential_cache();
  remote.log = [](const std::string& line) { info(line); };
  remote.warn = [](const std::string& line) { warn(line); };
}

void add_transfer_json(JsonObject& object, const Archive& archive) {
  if (const auto transfer = archive.transfer()) {
    object.emplace_back("bytes_fetched", Json(static_cast<std::uint64_t>(transfer->bytes_fetched)));
    object.emplace_back("requests", Json(static_cast<std::uint64_t>(transfer->requests)));
  }
}

CLI::Validator input_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        path = set_aside_url_credentials(path, open_options().remote);  // checked when opened
        return {};
      },
      "");
}

CLI::Option* add_jobs_option(CLI::App* app, unsigned& jobs, const std::string& work) {
  return app
      ->add_option("-j,--jobs", jobs, "Threads " + work + " (default: $ZANJ_JOBS, else the CPUs this process may use)")
      ->check(CLI::Range(1, 1024))
      ->type_name("N");
}

unsigned jobs_or_default(unsigned given) {
  if (given) return given;
  const char* value = std::getenv("ZANJ_JOBS");
  if (!value || !*value) return 0;
  const std::string_view text(value);
  unsigned jobs = 0;
  for (const char c : text) {
    if (c < '0' || c > '9' || jobs > 1024)
      throw Error("ZANJ_JOBS=" + std::string(text) + ": not a number of threads (1 to 1024)", Exit::usage);
    jobs = jobs * 10 + static_cast<unsigned>(c - '0');
  }
  if (jobs < 1 || jobs > 1024)
    throw Error("ZANJ_JOBS=" + std::string(text) + ": not a number of threads (1 to 1024)", Exit::usage);
  return jobs;
}

namespace {

/// What opening an archive is worth a line about: its size read from standard input, its
/// members (-v).
void log_opened(const ZanjFile& z, const std::string& file) {
  if (is_stdin_path(file)) info("read " + std::to_string(z.archive().file_size()) + " bytes from standard input");
  debug(z.name() + ": " + std::to_string(z.archive().entries().size()) + " members, " +
        std::to_string(z.archive().file_size()) + " bytes");
}

}  // namespace

ZanjFile open_zanj(const std::string& file, const ZanjLimits& limits, const ZanjFile::DirectoryWork& while_parsing) {
  ZanjFile z(Archive(file, open_options()), limits, while_parsing);
  log_opened(z, file);
  return z;
}

ZanjFile open_zanj(const std::string& file, const ZanjLimits& limits) { return open_zanj(file, limits, nullptr); }

ZanjFile open_object(const std::string& file, const ZanjLimits& limits) {
  OperandKind kind{};
  ZanjFile z = open_as_zanj(file, open_options(), limits, &kind);
  if (kind != OperandKind::zanj) {
    debug(z.name() + ": read as the object zanj pack makes of " +
          (kind == OperandKind::npz ? "an .npz" : "a .safetensors file"));
  } else {
    log_opened(z, file);
  }
  return z;
}

}  // namespace zanj::cli
