// `zanj hash`: the object tree walked depth-first, each node's digest made from its canonical
// encoding (hash/canonical_encoding.hpp; docs/hash.md specifies it), containers from their
// children's digests. Arrays, external lists and tables are streamed: an external member is
// inflated on a worker thread (ChunkPuller) while this thread digests what came before, so
// hashing costs about what inflating costs. With several threads (HashOptions::threads), the
// tree is walked twice: the first walk only notes the members to stream, which are then
// digested on the pool (base/thread_pool) at once, and the second walk takes their digests in
// the same order; so hash uses the cores verify uses, and the digest is the same.
#include <fnmatch.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "array/array_reader.hpp"
#include "base/thread_pool.hpp"
#include "hash/canonical_encoding.hpp"
#include "hash/digest.hpp"
#include "io/chunk_puller.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "array/member_reader.hpp"
#include "object/table_frame.hpp"
#include "zanj/hash.hpp"
#include "zanj/error.hpp"
#include "zip/member_name.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

bool any_match(const std::vector<std::string>& globs, const std::string& path) {
  for (const auto& glob : globs)
    if (fnmatch(glob.c_str(), path.c_str(), 0) == 0) return true;
  return false;
}

/// "numpy.ndarray" from "numpy.ndarray:external": the type a format key names.
std::string_view format_type(std::string_view format) {
  const std::size_t colon = format.rfind(':');
  return colon == std::string_view::npos ? format : format.substr(0, colon);
}

/// Digests waiting to be reused: nested nodes each need their own while a parent's is open.
class DigestPool {
 public:
  explicit DigestPool(std::string algorithm) : algorithm_(std::move(algorithm)) {}
  std::unique_ptr<hash::Digest> take() {
    if (free_.empty()) return std::make_unique<hash::Digest>(algorithm_);
    auto d = std::move(free_.back());
    free_.pop_back();
    return d;
  }
  /// Finish `d`'s message and give it back.
  std::string finish(std::unique_ptr<hash::Digest> d) {
    std::string out = d->finish();
    free_.push_back(std::move(d));
    return out;
  }
  std::string of(std::string_view message) {
    auto d = take();
    d->update(message);
    return finish(std::move(d));
  }

 private:
  std::string algorithm_;
  std::vector<std::unique_ptr<hash::Digest>> free_;
};

/// What a hasher does with the members it would stream (external arrays, external lists,
/// tables): digest them now (direct), or, for the parallel walk, note them in walk order and
/// give a placeholder (collect), then take the digests the pool made, in that order (replay).
/// On the pool (pooled) a member is digested as it is inflated, on the same thread: the pool's
/// threads are the parallelism, and no read-ahead queue per thread adds to the memory.
enum class MemberWork { direct, pooled, collect, replay };

class ContentHasher {
 public:
  ContentHasher(const ZanjFile& file, const HashOptions& options, MemberWork work = MemberWork::direct)
      : file_(file), options_(options), pool_(options.algorithm), work_(work) {}

  /// A member noted by the collecting walk: digested by member_digest() on any thread. The
  /// node is classified again there rather than held: 50,000 members' Nodes (their strings,
  /// shapes and optionals) were 20 MB of hash's peak.
  struct Deferred {
    JsonView json;
    std::string path;
  };
  std::vector<Deferred> take_deferred() { return std::move(deferred_); }
  void give_member_digests(std::vector<std::string> digests) { member_digests_ = std::move(digests); }

  /// The digest of a noted member, read directly (each thread with its own hasher).
  std::string member_digest(const Deferred& d) {
    const Node n = classify(d.json);
    return n.kind == NodeKind::array ? array(n, d.path) : member_lines(n, d.path);
  }

  /// The digest of the node at `path`, or nullopt when nothing in it is selected. `tree`:
  /// a node of the object tree (selected by the globs, listed); false for what lies inside
  /// an external list or table, or a list of scalars, which is hashed whole.
  std::optional<std::string> node(JsonView json, const std::string& path, bool included, bool tree) {
    if (tree && any_match(options_.excludes, path)) return std::nullopt;
    if (tree && !included) included = options_.includes.empty() || any_match(options_.includes, path);
    const Node n = classify(json);
    std::size_t slot = nodes_.size();
    const bool listed = tree && included && options_.node_digests;
    if (listed) nodes_.push_back({path, std::string(kind_name(n.kind)), ""});
    std::optional<std::string> digest;
    switch (n.kind) {
      case NodeKind::dict:
      case NodeKind::dataclass:
      case NodeKind::other:
        digest = mapping(n, path, included, tree);
        break;
      case NodeKind::list:
        digest = list(n, path, included, tree);
        break;
      case NodeKind::array:
        if (included) digest = n.is_reference() ? member(n, path) : array(n, path);
        break;
      case NodeKind::external_list:
      case NodeKind::table:
        if (included) digest = member(n, path);
        break;
      default:
        if (included) digest = pool_.of(hash::scalar_encoding(json));
    }
    if (listed) nodes_[slot].digest = hash::hex_text(*digest);
    return digest;
  }

  std::vector<NodeDigest> take_nodes() { return std::move(nodes_); }

 private:
  /// A node whose data is a member: digested now, noted, or taken from the pool's results.
  std::string member(const Node& n, const std::string& path) {
    // A table an old release wrote inline has no member: digested where it is met, in every mode.
    if (n.table && n.table->inline_rows) return member_lines(n, path);
    switch (work_) {
      case MemberWork::direct:
      case MemberWork::pooled:
        return n.kind == NodeKind::array ? array(n, path) : member_lines(n, path);
      case MemberWork::collect:
        deferred_.push_back({n.json, path});
        return std::string();
      case MemberWork::replay:
        break;
    }
    if (next_member_ >= member_digests_.size()) throw Error("internal error: the hash walks disagree");
    return member_digests_[next_member_++];
  }

  /// Dicts by sorted key (key order does not count, as in Python's dict equality); a
  /// format-keyed object (dataclass, other class) also by its format. Keys are views into the
  /// document and the sort moves indices: a dict of 264,000 keys costs no copy of its keys and
  /// no hash table, and its message streams into the digest.
  std::optional<std::string> mapping(const Node& n, const std::string& path, bool included, bool tree) {
    struct Child {
      std::string_view key;
      JsonView value;
    };
    std::vector<Child> children;
    children.reserve(n.json.size());
    for (const auto [key, value] : n.json.members())
      if (n.format_key.empty() || key != n.format_key) children.push_back({key, value});
    std::vector<std::uint32_t> by_key(children.size());
    std::iota(by_key.begin(), by_key.end(), 0U);
    std::stable_sort(by_key.begin(), by_key.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return children[a].key < children[b].key; });
    // Digested in document order (what the collecting walk's member order relies on). A
    // repeated key never reaches here: the parser keeps the last value in the first one's
    // place, as Python's json does, and every tree is a parsed document.
    // The children's digests side by side in one string (a string each was 48 bytes of heap
    // more per key); `at` is where each is, and its length (the collecting walk's placeholders
    // are empty).
    struct Span {
      std::size_t offset = 0, length = 0;
      bool present = false;
    };
    std::vector<Span> at(children.size());
    std::string digests;
    std::size_t count = 0;
    for (std::size_t i = 0; i < children.size(); ++i) {
      const std::optional<std::string> d = node(children[i].value, child_path(path, children[i].key), included, tree);
      if (!d) continue;
      if (count++ == 0) digests.reserve(d->size() * children.size());
      at[i] = Span{digests.size(), d->size(), true};
      digests += *d;
    }
    if (!included && count == 0) return std::nullopt;
    constexpr std::size_t kFlushAt = std::size_t{64} << 10;
    std::unique_ptr<hash::Digest> digest = pool_.take();
    std::string message;
    if (n.kind == NodeKind::dict) {
      message += hash::kDictTag;
    } else {
      message += hash::kObjectTag;
      hash::append_text(message, n.format);
    }
    for (std::size_t k = 0; k < by_key.size(); ++k) {
      const std::uint32_t i = by_key[k];
      if (k > 0 && children[i].key == children[by_key[k - 1]].key)
        throw Error("internal error: a dict with a repeated key reached the hash");
      if (!at[i].present) continue;
      hash::append_text(message, children[i].key);
      message.append(digests, at[i].offset, at[i].length);
      if (message.size() >= kFlushAt) {
        digest->update(message);
        message.clear();
      }
    }
    digest->update(message);
    return pool_.finish(std::move(digest));
  }

  std::optional<std::string> list(const Node& n, const std::string& path, bool included, bool tree) {
    const bool items_are_nodes = tree && !is_scalar_list(n.json);
    if (!included && !items_are_nodes) return std::nullopt;
    // Streamed into the digest item by item: a list of millions holds no copy of their digests.
    auto digest = pool_.take();
    digest->update(std::string(1, hash::kListTag));
    bool any = false;
    for (std::size_t i = 0; i < n.json.size(); ++i) {
      if (auto d = node(n.json[i], child_path(path, std::to_string(i)), included, items_are_nodes)) {
        digest->update(*d);
        any = true;
      }
    }
    if (!included && !any) {
      pool_.finish(std::move(digest));  // back to the pool, unused
      return std::nullopt;
    }
    return pool_.finish(std::move(digest));
  }

  std::string array(const Node& n, const std::string& path) {
    const ArrayValues values(file_.archive(), *n.array, path);
    const array::Dtype& dtype = array::reader_of(values).dtype();
    std::string header(1, hash::kArrayTag);
    hash::append_text(header, n.array->torch ? "torch.Tensor" : "numpy.ndarray");
    hash::append_text(header, dtype.descr());
    hash::append_u64(header, values.shape().size());
    for (const std::uint64_t d : values.shape()) hash::append_u64(header, d);
    auto digest = pool_.take();
    digest->update(header);
    const Selection all = select_all(values.shape());
    const bool canonicalize = hash::has_elements_to_canonicalize(dtype);
    // Inline arrays are in memory already, and a small member costs less to inflate here than
    // to hand to a worker thread: only large members are read ahead.
    const ZipEntry* entry = values.external() ? file_.archive().find(n.array->member) : nullptr;
    if (!entry || entry->uncompressed_size <= options_.queue_bytes || work_ == MemberWork::pooled) {
      values.stream(all, [&](std::string_view chunk) {
        if (canonicalize) {
          std::string copy(chunk);
          hash::canonicalize_elements(dtype, copy);
          digest->update(copy);
        } else {
          digest->update(chunk);
        }
        return true;
      });
    } else {
      io::ChunkPuller puller([&values, all](const io::ChunkPuller::Sink& sink) { values.stream(all, sink); },
                             options_.queue_bytes);
      std::string chunk;
      while (puller.next(chunk)) {
        if (canonicalize) hash::canonicalize_elements(dtype, chunk);
        digest->update(chunk);
      }
    }
    return pool_.finish(std::move(digest));
  }

  /// An external list ("l" and its items' digests, like a list in __zanj__.json) or a table
  /// ("T", its type and columns, then its rows' digests), read line by line from its member.
  std::string member_lines(const Node& n, const std::string& path) {
    const ZipEntry* entry = nullptr;  // none for a table an old release wrote inline
    if (!(n.table && n.table->inline_rows)) {
      entry = file_.archive().find(n.member());
      if (!entry)
        throw Error(InArchive{file_.name()}, InMember{n.member(), true},
                    "member '" + zip::printable_name(n.member()) + "' referenced at '" + path + "' is missing");
    }
    if (object::is_pandas_table(n)) return pandas_table(n, entry, path);
    auto digest = pool_.take();
    std::string header;
    if (n.kind == NodeKind::table) {
      header += hash::kTableTag;
      hash::append_text(header, format_type(n.format));
      hash::append_u64(header, n.table->columns.size());
      for (const auto& column : n.table->columns) hash::append_text(header, column);
    } else {
      header += hash::kListTag;
    }
    digest->update(header);
    for_each_item(n, entry, [&](const Json& value, std::uint64_t) {
      digest->update(*node(json::view_of(value), path, true, false));
    });
    return pool_.finish(std::move(digest));
  }

  /// A pandas table as the frame the reference loader builds (object/table_frame.hpp): a first
  /// pass learns its columns and their dtypes, a second digests each row's cells in that order.
  std::string pandas_table(const Node& n, const ZipEntry* entry, const std::string& path) {
    object::FrameSchemaBuilder schema;
    for_each_item(n, entry, [&](const Json& row, std::uint64_t number) {
      try {
        schema.add_row(row, number);
      } catch (const Error& e) {  // context: the table, its member and the archive join the error
        const Error at_table = e.at_path(AtPath{path, "table"});
        throw(entry ? at_table.in_member(InMember{n.member()}) : at_table).in_archive(file_.name());
      }
    });
    const std::vector<object::FrameColumn> columns = schema.result(n.table->columns);
    std::string header(1, hash::kTableTag);
    hash::append_text(header, format_type(n.format));
    hash::append_u64(header, columns.size());
    for (const auto& column : columns) {
      hash::append_text(header, column.name);
      hash::append_text(header, object::frame_dtype_name(column.dtype));
    }
    std::unordered_map<std::string_view, std::size_t> position;
    for (std::size_t i = 0; i < columns.size(); ++i) position.emplace(columns[i].name, i);
    auto digest = pool_.take();
    digest->update(header);
    auto row_digest = pool_.take();
    std::vector<const Json*> cells(columns.size());
    for_each_item(n, entry, [&](const Json& row, std::uint64_t number) {
      std::fill(cells.begin(), cells.end(), nullptr);
      for (const auto& [key, value] : object::frame_row_cells(row, number)) cells[position.at(key)] = value;
      row_digest->update(std::string(1, hash::kListTag));
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const Json value = object::frame_cell(columns[i].dtype, cells[i]);
        row_digest->update(*node(json::view_of(value), path, true, false));
      }
      digest->update(row_digest->finish());
    });
    pool_.finish(std::move(row_digest));
    return pool_.finish(std::move(digest));
  }

  /// Each line of an external list's or table's member, parsed, with its 1-based number; the
  /// rows of a table an old release wrote inline when `member` is null.
  void for_each_item(const Node& n, const ZipEntry* member,
                     const std::function<void(const Json&, std::uint64_t)>& take) {
    std::uint64_t number = 0;
    if (!member) {
      for (const JsonView row : n.table->inline_rows) take(row.copy(), ++number);
      return;
    }
    const ZipEntry& entry = *member;
    const json::JsonLimits line_limits = zip::json_line_limits(file_.archive());
    const auto item = [&](std::string_view line) {
      Json value;
      try {
        value =
            json::parse_json(line, zip::printable_name(n.member()) + " line " + std::to_string(++number), line_limits);
      } catch (const Error& e) {  // context: the archive joins the error
        throw e.in_archive(file_.name());
      }
      take(value, number);
    };
    const Archive& archive = file_.archive();
    if (entry.uncompressed_size <= options_.queue_bytes || work_ == MemberWork::pooled) {  // small: no worker thread
      // A row can hold an external array of its own (lst/3/arr.npy), read while this member
      // streams: the ZIP reader gives each nested read buffers of its own.
      array::for_each_jsonl_line(archive, entry, [&](std::uint64_t, std::string_view line) {
        item(line);
        return true;
      });
    } else {
      io::ChunkPuller lines(
          [&archive, &entry](const io::ChunkPuller::Sink& sink) {
            array::for_each_jsonl_line(archive, entry,
                                       [&](std::uint64_t, std::string_view line) { return sink(line); });
          },
          options_.queue_bytes);
      for (std::string line; lines.next(line);) item(line);
    }
  }

  const ZanjFile& file_;
  const HashOptions& options_;
  DigestPool pool_;
  MemberWork work_;
  std::vector<NodeDigest> nodes_;
  std::vector<Deferred> deferred_;           // collect: the members met, in walk order
  std::vector<std::string> member_digests_;  // replay: their digests, in the same order
  std::size_t next_member_ = 0;
};

/// The digests of `members` on `threads` threads (this one included), in their order. Each
/// task has its own hasher (digest objects are not shared); the archive is read concurrently,
/// as verify reads it.
std::vector<std::string> member_digests(const ZanjFile& file, const HashOptions& options,
                                        const std::vector<ContentHasher::Deferred>& members, unsigned threads) {
  std::vector<std::string> digests(members.size());
  base::ThreadPool pool(threads - 1);
  base::for_each_index_per_thread(&pool, members.size(), 1, [&] {
    auto hasher = std::make_shared<ContentHasher>(file, options, MemberWork::pooled);
    return [&, hasher](std::size_t i) { digests[i] = hasher->member_digest(members[i]); };
  });
  return digests;
}

}  // namespace

const std::vector<std::string>& hash_algorithms() { return hash::digest_algorithms(); }

bool hash_selects(const HashOptions& options, std::string_view path) {
  // The path and each ancestor's: the prefixes ending before a '/' ("~1" escapes a '/' in a key).
  bool included = options.includes.empty();
  for (std::size_t end = 0;; ++end) {
    end = path.find('/', end);
    const std::string prefix(path.substr(0, end));
    if (any_match(options.excludes, prefix)) return false;
    included = included || any_match(options.includes, prefix);
    if (end == std::string_view::npos) break;
  }
  // The root is every path's ancestor.
  if (!path.empty()) {
    if (any_match(options.excludes, "")) return false;
    included = included || any_match(options.includes, "");
  }
  return included;
}

ContentDigest hash_archive(const ZanjFile& file, const HashOptions& options) {
  const unsigned threads = base::threads_or_cpus(options.threads);
  std::optional<ContentHasher> walked;
  if (threads > 1) {
    ContentHasher collector(file, options, MemberWork::collect);
    collector.node(file.root(), "", false, true);
    const std::vector<ContentHasher::Deferred> members = collector.take_deferred();
    if (members.size() > 1) {
      walked.emplace(file, options, MemberWork::replay);
      walked->give_member_digests(member_digests(
          file, options, members, static_cast<unsigned>(std::min<std::size_t>(threads, members.size()))));
    }
  }
  if (!walked) walked.emplace(file, options);  // one thread, or at most one member: as it comes
  ContentHasher& hasher = *walked;
  const auto root = hasher.node(file.root(), "", false, true);
  ContentDigest out;
  out.file = file.name();
  out.algorithm = options.algorithm;
  out.includes = options.includes;
  out.excludes = options.excludes;
  // Nothing selected: the digest of an empty selection is the digest of nothing at all.
  out.digest = root ? hash::hex_text(*root) : hash::hex_text(hash::Digest(options.algorithm).finish());
  out.nodes = hasher.take_nodes();
  return out;
}

}  // namespace zanj
