#include "hash_command.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "json_output.hpp"
#include "operands.hpp"
#include "output.hpp"
#include "zanj/hash.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/many_archives.hpp"

namespace zanj::cli {
namespace {

struct HashCliOptions {
  std::vector<std::string> files;
  std::string algorithm = "sha256";
  std::vector<std::string> include, exclude;
  std::string check;  ///< the lock, with --check
  bool json = false;
  unsigned jobs = 0;  ///< 0: ZANJ_JOBS, else the CPUs this process may use
  std::string shard;  ///< --shard K/N
};

/// The archive's digest; with `json`, its --json line (on a URL, with the bytes fetched).
ContentDigest digest_of(const std::string& file, const HashOptions& options, Json* json = nullptr) {
  const ZanjFile z = open_object(file);
  ContentDigest d = hash_archive(z, options);
  d.file = file;
  if (json) {
    *json = content_digest_json(d);
    add_transfer_json(json->as_object(), z.archive());
  }
  return d;
}

/// Hash each file; an unreadable or invalid one is reported and the others still hashed.
int run_hash(const HashCliOptions& opt) {
  int status = 0;
  const auto error_line = [&](const std::string& file, const Error& e) {
    if (opt.json) write_out(to_json(Json(operand_error_json(file, e))) + "\n");
  };
  const std::vector<std::string> files = expand_operands(opt.files, opt.shard, status, error_line);
  const bool alone = opt.files.size() == 1 && files.size() == 1;  // its error is the command's
  const JobSplit split = split_jobs(jobs_or_default(opt.jobs), files.size());
  HashOptions options;
  options.algorithm = opt.algorithm;
  options.includes = opt.include;
  options.excludes = opt.exclude;
  options.node_digests = opt.json;
  options.threads = split.threads_each;
  std::vector<std::string> lines(files.size());
  std::vector<std::optional<Error>> errors(files.size());
  run_in_order(
      files.size(), split.archives_at_once,
      [&](std::size_t i) {
        try {
          Json json;
          const ContentDigest d = digest_of(files[i], options, opt.json ? &json : nullptr);
          lines[i] = opt.json ? to_json(json) + "\n" : d.digest + "  " + terminal_safe(files[i]) + "\n";
        } catch (const Error& e) {
          if (alone || is_output_closed(e)) throw;
          errors[i] = e;
        }
      },
      [&](std::size_t i) {
        if (errors[i]) {
          error(errors[i]->what());
          status = std::max(status, errors[i]->exit_code());
          error_line(files[i], *errors[i]);
          errors[i].reset();
        }
        write_out(lines[i]);
        std::string().swap(lines[i]);  // printed: its memory goes back
      });
  return status;
}

/// Check one pinned archive: 0 when every pinned digest matches, 1 with the changed paths.
int check_one(const ContentDigest& pinned, const std::string& file, const HashCliOptions& opt) {
  HashOptions options;
  options.algorithm = pinned.algorithm;
  // The lock's globs made its digests; globs given now replace them (docs/hash.md).
  options.includes = opt.include.empty() ? pinned.includes : opt.include;
  options.excludes = opt.exclude.empty() ? pinned.excludes : opt.exclude;
  options.threads = jobs_or_default(opt.jobs);
  const ContentDigest now = digest_of(file, options);
  // Only the pinned nodes the selection covers are compared.
  std::vector<NodeDigest> wanted;
  for (const auto& n : pinned.nodes)
    if (hash_selects(options, n.path)) wanted.push_back(n);
  std::vector<HashChange> changes;
  if (pinned.nodes.empty()) {
    if (pinned.digest != now.digest) changes.push_back({HashChange::Kind::changed, ""});
  } else {
    changes = compare_digests(wanted, now.nodes);
  }
  std::string out;
  const std::string name = terminal_safe(file);
  for (const auto& c : changes)
    out += name + ": " + terminal_safe(c.path.empty() ? "/" : c.path) + ": " + std::string(hash_change_name(c.kind)) +
           "\n";
  out += name + (changes.empty() ? ": OK\n" : ": FAILED\n");
  write_out(out);
  return changes.empty() ? 0 : 1;
}

int run_check(const HashCliOptions& opt) {
  if (opt.files.size() > 1) throw Error("--check takes one LOCK and at most one FILE", Exit::usage);
  const std::vector<ContentDigest> lock = read_hash_lock(opt.check, open_options().remote);
  if (!opt.files.empty() && lock.size() != 1)
    throw Error(opt.check + ": holds " + std::to_string(lock.size()) + " archives; name none to check them all",
                Exit::usage);
  int status = 0;
  for (const auto& pinned : lock) {
    const std::string file = opt.files.empty() ? pinned.file : opt.files.front();
    try {
      status = std::max(status, check_one(pinned, file, opt));
    } catch (const Error& e) {
      if (lock.size() == 1 || is_output_closed(e)) throw;
      error(e.what());
      status = std::max(status, e.exit_code());
    }
  }
  return status;
}

}  // namespace

Command setup_hash(CLI::App& parent) {
  auto opt = std::make_shared<HashCliOptions>();
  CLI::App* app = parent.add_subcommand(
      "hash", "Content digests of archives, the same however the object is stored; --check verifies a lock");
  app->add_option("FILE", opt->files,
                  "Archives to hash (- reads one from standard input); with --check, the archive to check")
      ->transform(input_file());
  app->add_option("--algorithm", opt->algorithm, "Digest algorithm: sha256 (default), sha512, sha3-256, blake2b512")
      ->type_name("NAME")
      ->check(CLI::IsMember(hash_algorithms()));
  app->add_option("--include", opt->include, "Hash only the paths matching a glob, and below (repeatable)")
      ->type_name("GLOB")
      ->allow_extra_args(false);
  app->add_option("--exclude", opt->exclude, "Leave out the paths matching a glob, and below (repeatable)")
      ->type_name("GLOB")
      ->allow_extra_args(false);
  app->add_flag("--json", opt->json, "Per-node digests as JSON, for a lock file");
  app->add_option("--check", opt->check, "Check archives against a lock written by --json")->type_name("LOCK");
  add_jobs_option(app, opt->jobs, "reading archives and inflating members");
  add_shard_option(app, opt->shard);
  return {app, [opt] {
            if (!opt->check.empty()) {
              if (opt->json) throw Error("--check and --json cannot be combined", Exit::usage);
              return run_check(*opt);
            }
            if (opt->files.empty()) throw Error("hash: FILE is required (or --check LOCK)", Exit::usage);
            return run_hash(*opt);
          }};
}

}  // namespace zanj::cli
