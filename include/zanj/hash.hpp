#pragma once
// Content digests (`zanj hash`): a digest of the object alone, the same however it is stored
// (compression, inline or external, byte order, memory order, member order, ZIP dates, the
// metadata). Every node gets a digest made from its children's (a Merkle tree), so a subtree
// can be pinned. The canonical encoding is specified in docs/hash.md.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"

namespace zanj {

struct HashOptions {
  std::string algorithm = "sha256";                ///< one of hash_algorithms()
  std::vector<std::string> includes;               ///< globs; when any, only matching paths and below count
  std::vector<std::string> excludes;               ///< globs; a matching path and everything below is left out
  std::size_t queue_bytes = std::size_t{4} << 20;  ///< read-ahead per streamed member
  bool node_digests = true;                        ///< fill ContentDigest::nodes (`--json`, `--check`)
  /// Threads digesting members at once (arrays, external lists, tables); 0: the CPUs this
  /// process may use. The digest does not depend on it.
  unsigned threads = 0;
};

/// Whether the node at object path `path` is selected by the globs: no --exclude glob matches
/// it or an ancestor's path, and (when there are --include globs) one matches it or an
/// ancestor's path.
bool hash_selects(const HashOptions& options, std::string_view path);

/// One node's digest, by object path as `zanj ls` prints it ("" is the root).
struct NodeDigest {
  std::string path;
  std::string kind;    ///< kind_name(): "dict", "array", ...
  std::string digest;  ///< lowercase hex
};

struct ContentDigest {
  std::string file;  ///< the archive as named on the command line
  std::string algorithm;
  std::string digest;                           ///< the root's digest, lowercase hex
  std::vector<std::string> includes, excludes;  ///< the globs it was made with
  std::vector<NodeDigest> nodes;                ///< selected tree nodes, depth-first in document order
};

/// The algorithms offered, the default ("sha256") first.
const std::vector<std::string>& hash_algorithms();

/// Digest the object of an opened archive. Arrays and external lists and tables are streamed
/// as they are inflated. With includes, the root's digest covers only the selected subtrees
/// (and the dicts and lists leading to them); excluded subtrees are left out as if absent.
/// Throws Error (usage) for an unknown algorithm or a missing libcrypto, (invalid) when a
/// value cannot be read.
ContentDigest hash_archive(const ZanjFile& file, const HashOptions& options);

/// `zanj hash --json`: {"file", "algorithm", "digest", "include", "exclude",
/// "nodes": [{"path", "kind", "digest"}, ...]}.
Json content_digest_json(const ContentDigest& digest);
/// Read a lock written by `zanj hash --json`: one such object per line (or one object, or a
/// JSON array of them); a URL is fetched as `remote` says. Throws Error (usage) when the file
/// cannot be read or is not a lock.
std::vector<ContentDigest> read_hash_lock(const std::string& path, const RemoteOptions& remote = {});

/// How one pinned node compares with the archive now.
struct HashChange {
  enum class Kind { changed, missing, added };
  Kind kind = Kind::changed;
  std::string path;
};
/// "changed", "missing", "added"
std::string_view hash_change_name(HashChange::Kind kind);

/// Compare pinned digests with current ones. Reported are the deepest differences only: a
/// changed node whose pinned descendants all match (a key was added or removed, a value
/// changed), nodes pinned but gone (missing), and nodes now present under a pinned parent
/// but not pinned themselves (added). Ancestors of these, which changed as a consequence, are
/// not listed. Empty when everything matches. Order: the pinned order, added nodes last.
std::vector<HashChange> compare_digests(const std::vector<NodeDigest>& pinned, const std::vector<NodeDigest>& now);

}  // namespace zanj
