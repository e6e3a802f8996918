// ZANJ consistency (docs/format.md): both JSON members present and valid, the meta an object with
// externals_info, every $ref (in __zanj__.json and in the meta) naming a member, every member
// referenced, and every externals_info entry leading to its reference node with the right
// item_type. What each member must contain is returned as a plan for the data pass.
#include <algorithm>
#include <optional>
#include <utility>
#include <set>
#include <unordered_set>

#include "array/dtype.hpp"
#include "array/inline_check.hpp"
#include "verify/verify_checks.hpp"
#include "zanj/archive.hpp"
#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "array/member_reader.hpp"
#include "base/thread_pool.hpp"
#include "object/tree_json.hpp"
#include "object/zanj_file_access.hpp"

namespace zanj::verify {
namespace {

using Role = MemberPlan::Role;

/// A reference node found in one of the two JSON documents, while the walk is at it.
struct RefSite {
  std::string_view document;
  const std::string& path;
  const Node& node;
};

/// What the externals_info check needs of a reference node in __zanj__.json after the walk:
/// not a copy of the node and its path segments, which on 50,000 references was about 30 MB,
/// nor its path (only a problem needs it: a second walk finds it then). `member` is a view
/// into the document, which outlives the check.
struct MainRef {
  json::JsonViewIdentity identity;
  std::string_view member;
};

/// The $ref string of a reference node, as a view into its document ("" when it has none).
std::string_view ref_member(JsonView node) { return node.string_at(kRefKey); }

bool is_reference_kind(const Node& n) {
  return (n.table && !n.table->inline_rows) || n.kind == NodeKind::external_list || (n.array && n.array->external());
}

Role role_of(const Node& n) { return n.array ? Role::npy : Role::jsonl; }
std::string_view item_type_of(Role role) { return role == Role::npy ? "npy" : "jsonl"; }

std::string where(const RefSite& r) {
  return r.document == kMainMember ? std::string() : " in " + std::string(r.document);
}

/// Why numpy refuses a reference node's dtype (a zero itemsize). Unknown dtypes are not judged
/// here: the .npy header check compares them.
std::optional<std::string> dtype_refusal(const std::string& name) {
  const base::Result<array::Dtype> dtype = array::read_dtype_name(name);
  return dtype ? array::numpy_dtype_refusal(*dtype) : std::nullopt;
}

/// Read and parse one JSON member into `read` (or take the `given` one, parsed already: its
/// reading and parse notes are counted and reported as a reading's); nullptr (with the problem
/// reported) when that fails.
const JsonDocument* read_document(const Archive& archive, std::string_view name, Code missing,
                                  const std::vector<bool>& inflatable, const ResourceLimits& limits,
                                  const std::optional<ParsedMember>& given, std::optional<JsonDocument>& read,
                                  std::vector<MemberPlan>& plans, VerifyReport& report, bool alone, unsigned threads) {
  const ZipEntry* entry = archive.find(name);
  if (!entry) {
    add_problem(report, missing, name, "", "no " + std::string(name) + " member");
    return nullptr;
  }
  const std::size_t index = static_cast<std::size_t>(entry - archive.entries().data());
  plans[index].role = name == kMainMember ? Role::main_json : Role::meta_json;
  if (!inflatable[index]) return nullptr;  // the structure checks said why
  if (entry->uncompressed_size > limits.max_json_bytes) {
    add_problem(report, Code::too_large, name, "",
                "declares " + std::to_string(entry->uncompressed_size) + " bytes, over the JSON limit of " +
                    std::to_string(limits.max_json_bytes) + " (raise with --max-json-bytes)");
    return nullptr;
  }
  if (given) {  // read whole, CRC-32 checked and parsed when it was given
    ++report.checked.members_read;
    report.checked.bytes_read += entry->uncompressed_size;
    if (given->notes) report_json_notes(report, *given->notes, name, "");
    return given->document;
  }
  json::JsonLimits parse_limits{limits.max_json_depth, limits.max_json_values};
  if (alone) parse_limits.threads = threads;  // nothing is read beside it
  json::JsonText text;
  std::uint64_t decoded = 0;
  try {
    text = array::read_json_text(archive, *entry, limits.max_json_bytes, &decoded, alone, &parse_limits);
  } catch (const Error& e) {  // boundary: an unreadable member is a problem
    add_read_failure(report, *entry, e, archive.name());
    return nullptr;
  }
  ++report.checked.members_read;
  report.checked.bytes_read += decoded;
  json::JsonParseNotes notes;
  base::Result<JsonDocument, json::JsonFailure> parsed =
      json::read_json_document(std::move(text), "", parse_limits, &notes);
  if (!parsed) {  // the document was given no name: the problem says where
    const std::optional<json::JsonLimitError::Limit> over = parsed.failure().over;
    add_problem(report,
                !over                                         ? Code::json_invalid
                : *over == json::JsonLimitError::Limit::depth ? Code::json_too_deep
                                                              : Code::too_large,
                name, "", parsed.why());
    return nullptr;
  }
  report_json_notes(report, notes, name, "");
  read = std::move(*parsed);
  return &*read;
}

/// Whether verify reads the two JSON members on two threads at once, as ZanjFile does.
bool read_side_by_side(const Archive& archive, const ResourceLimits& limits) {
  const ZipEntry* main = archive.find(kMainMember);
  const ZipEntry* meta = archive.find(kMetaMember);
  return main && meta && object::json_members_side_by_side(*main, *meta, limits.max_json_bytes, limits.max_json_values);
}

/// One reference node: its member must exist, and becomes part of that member's plan.
/// Returns the node's object path.
std::string plan_reference(const Archive& archive, const RefSite& ref, std::vector<MemberPlan>& plans,
                           VerifyReport& report) {
  ++report.checked.references;
  const Node& n = ref.node;
  std::string path = ref.path;
  const std::string& member = n.member();
  if (member.empty()) {
    add_problem(report, Code::bad_reference, "", path, "reference node" + where(ref) + " without a $ref string");
    return path;
  }
  if (n.array && (!n.array->has_shape || n.array->dtype.empty()))
    add_problem(report, Code::bad_reference, member, path, "external array" + where(ref) + " without shape or dtype");
  else if (n.array)
    if (const auto why = dtype_refusal(n.array->dtype).value_or(legacy_loader_refusal(n).value_or("")); !why.empty())
      add_problem(report, Code::bad_reference, member, path, "external array" + where(ref) + ": " + why);
  const ZipEntry* entry = archive.find(member);
  if (!entry) {
    add_problem(report, Code::dangling_ref, member, path, "$ref" + where(ref) + " names no member");
    return path;
  }
  MemberPlan& plan = plans[static_cast<std::size_t>(entry - archive.entries().data())];
  const Role role = role_of(n);
  if (plan.role == Role::main_json || plan.role == Role::meta_json) {
    add_problem(report, Code::bad_reference, member, path, "$ref" + where(ref) + " names a JSON member");
    return path;
  }
  if (plan.role != Role::other) {
    if (plan.role != role) {
      add_problem(
          report, Code::bad_reference, member, path,
          "referred to as both " + std::string(item_type_of(plan.role)) + " and " + std::string(item_type_of(role)));
      return path;
    }
    add_problem(report, Code::shared_member, member, path, "also referred to from '" + plan.path + "'");
  } else {
    plan.role = role;
    plan.path = path;
  }
  if (n.array) plan.arrays.push_back(n.json);
  const auto rows = n.table ? n.table->rows : n.list ? n.list->length : std::nullopt;
  if (rows && !std::as_const(plan).lines().rows) {
    plan.lines().rows = rows;
    plan.lines().rows_from = "len(data) of '" + path + "'";
  }
  if (n.table) plan.lines().columns = n.table->columns;
  if (n.list) plan.list_elements = true;
  return path;
}

/// A reference node of a document, found by a walk on another thread and planned after.
struct FoundReference {
  std::string path;
  Node node;
};

/// Every reference node of one document planned, in document order, as the walk finds it;
/// with `keep`, what check_externals_info needs of each is returned. With `inline_arrays`, the
/// same walk checks the inline arrays: their problems are listed before the references', as
/// two walks would list them (the references' go to a part merged after the walk). With
/// `helpers`, the root's children are walked in runs on them and this thread, each run
/// checking its inline arrays into a report of its own and finding its reference nodes, and
/// the runs' reports are merged and their references planned in document order: the report
/// is the one walk's, word for word.
std::vector<MainRef> plan_references(const Archive& archive, JsonView root, std::string_view document,
                                     std::vector<MemberPlan>& plans, VerifyReport& report, bool keep,
                                     bool inline_arrays, base::ThreadPool* helpers) {
  std::vector<MainRef> out;
  VerifyReport references;
  const auto plan = [&](const std::string& path, const Node& node) {
    plan_reference(archive, RefSite{document, path, node}, plans, references);
    if (keep) out.push_back(MainRef{json::view_identity(node.json), ref_member(node.json)});
  };
  const Node top = classify(root);
  walk_tree(root, {}, [&](const TreeVisit& v) {
    if (inline_arrays) check_inline_node(v, document, report);
    if (is_reference_kind(v.node)) plan(v.path(), v.node);
    return v.depth > 0 || helpers == nullptr;  // with helpers, the root's children are walked below
  });
  const std::size_t runs = helpers ? object::tree_runs(top, helpers->threads() + 1) : 0;
  struct Run {
    VerifyReport inline_problems;
    std::vector<FoundReference> found;
  };
  std::vector<Run> run_parts(runs);
  base::for_each_index(helpers, run_parts.size(), 1, [&](std::size_t r) {
    Run& run = run_parts[r];
    object::walk_tree_run(top, r, runs, [&](const TreeVisit& v) {
      if (inline_arrays) check_inline_node(v, document, run.inline_problems);
      if (is_reference_kind(v.node)) run.found.push_back(FoundReference{v.path(), v.node});
      return true;
    });
  });
  for (Run& run : run_parts) merge_report(report, run.inline_problems);
  for (Run& run : run_parts)
    for (const FoundReference& f : run.found) plan(f.path, f.node);
  merge_report(report, references);
  return out;
}

/// The reference nodes of `root`, in document order (the meta's: it seldom has any, but its
/// walk visits every externals_info entry, so it is made beside the main document's).
std::vector<FoundReference> find_references(JsonView root) {
  std::vector<FoundReference> found;
  walk_tree(root, {}, [&](const TreeVisit& v) {
    if (is_reference_kind(v.node)) found.push_back(FoundReference{v.path(), v.node});
    return true;
  });
  return found;
}

/// Plan references found by find_references, as plan_references plans them.
void plan_found_references(const Archive& archive, const std::vector<FoundReference>& found, std::string_view document,
                           std::vector<MemberPlan>& plans, VerifyReport& report) {
  VerifyReport references;
  for (const FoundReference& f : found) plan_reference(archive, RefSite{document, f.path, f.node}, plans, references);
  merge_report(report, references);
}

/// How the loader's walk of one externals_info entry is shown in messages.
std::string shown_path(const PathWalk& walk) {
  PathSegments segments = walk.segments;
  for (const Json& key : walk.rest)
    segments.push_back(key.is_string() ? key.as_string() : key.is_bool() ? (key.as_bool() ? "1" : "0") : to_json(key));
  return join_path(segments);
}

/// A problem of one externals_info entry, found while it is resolved (perhaps on another thread)
/// and added to the report when the entry is applied, in the entries' order.
struct PendingProblem {
  Code code;
  std::string path;
  std::string message;
};

/// What the loader's walk of one externals_info entry finds, worked out without changing
/// anything: entries whose paths are equally long cannot affect each other's walks (a walk
/// looks for populated nodes only above its last key, and an entry populates the node at the
/// end of its path), so they are resolved side by side and applied in order after.
struct ResolvedEntry {
  enum class Outcome : std::uint8_t { fails, through, target };
  Outcome outcome = Outcome::fails;
  std::vector<PendingProblem> problems;  ///< in the order the loader's walk meets them
  const ZipEntry* entry = nullptr;       ///< the member the key names
  PathWalk walk;                         ///< through: the list and the rest; target: the node
  std::string path;                      ///< as shown in messages and plans
  bool npy_item = true;                  ///< externals_info item_type: "npy" (else "jsonl")
  Role role = Role::other;               ///< target: what the node refers to
  std::optional<std::uint64_t> rows;     ///< target of a .jsonl: len(data)
};

/// One externals_info entry, walked as the loader walks it: it must lead to the reference node
/// naming it. Reads the documents, `populated` and the archive, changes none of them.
ResolvedEntry resolve_externals_entry(const Archive& archive, JsonView main, std::string_view key, JsonView info,
                                      const PopulatedNodes& populated, object::KeyIndex& index) {
  ResolvedEntry r;
  const auto mismatch = [&](std::string message, std::string path = {}) {
    r.problems.push_back(PendingProblem{Code::externals_info_mismatch, std::move(path), std::move(message)});
  };
  const std::string_view item_type = info.string_at("item_type");
  // muutils 0.2.x called an .npy member's item_type "ndarray" (held to its node below).
  if (item_type != "npy" && item_type != "jsonl" && item_type != "ndarray") {  // the loader has no load function for it
    mismatch("externals_info item_type '" + std::string(item_type) + "' is neither npy nor jsonl");
    return r;
  }
  r.npy_item = item_type != "jsonl";
  const std::vector<Json> items = *python_path_items(info.find("path"));  // the first pass checked it
  r.walk = walk_python_path(main, items, populated, &index);
  r.path = shown_path(r.walk);
  r.entry = archive.find(key);
  if (!r.entry) {
    r.problems.push_back(PendingProblem{Code::dangling_ref, r.path, "externals_info entry names no member"});
    return r;
  }
  if (!r.walk.through.empty()) {
    r.outcome = ResolvedEntry::Outcome::through;
    return r;
  }
  const auto raw = [&] { return to_json(info.find("path")); };  // for messages only
  if (!r.walk.target) {
    mismatch("the loader cannot follow externals_info path " + raw() + ": " + r.walk.failure);
    return r;
  }
  const JsonView ref = r.walk.target.find(kRefKey);
  if (!ref || !ref.is_string() || ref.as_string() != key) {
    mismatch("externals_info path " + raw() +
                 " leads to a node whose $ref is not this member's name (the "
                 "loader asserts it is)",
             r.path);
    return r;
  }
  const Node node = classify(r.walk.target);
  if (!is_reference_kind(node)) {
    mismatch("externals_info path " + raw() + " leads to a node that is not an external array, list or table", r.path);
    return r;
  }
  r.role = role_of(node);
  const std::string_view wanted = externals_item_type(node);  // each generation's own name
  if (item_type != wanted) {
    mismatch("externals_info item_type '" + std::string(item_type) + "', the reference node wants '" +
                 std::string(wanted) + "'",
             r.path);
    return r;
  }
  r.outcome = ResolvedEntry::Outcome::target;
  std::uint64_t len = 0;
  const JsonView len_json = info.find("len(data)");
  if (!len_json || !len_json.get_uint64(len)) return r;
  if (r.role != Role::npy) {
    r.rows = len;
  } else if (node.array->has_shape && !node.array->shape.empty() && node.array->shape.front() != len) {
    r.problems.push_back(PendingProblem{Code::externals_info_len, r.path,
                                        "externals_info len(data) " + std::to_string(len) +
                                            " is not the first dimension " +
                                            std::to_string(node.array->shape.front())});
  }
  return r;
}

/// A resolved entry's problems reported and its findings made part of the plans, as the loader
/// would go on: the node it reaches is populated. Returns false when the loader fails on it.
bool apply_externals_entry(const Archive& archive, std::string_view key, ResolvedEntry& r, PopulatedNodes& populated,
                           std::vector<MemberPlan>& plans, VerifyReport& report) {
  for (const PendingProblem& p : r.problems) add_problem(report, p.code, key, p.path, p.message);
  const auto plan_of = [&](const ZipEntry& e) -> MemberPlan& {
    return plans[static_cast<std::size_t>(&e - archive.entries().data())];
  };
  switch (r.outcome) {
    case ResolvedEntry::Outcome::fails:
      return false;
    case ResolvedEntry::Outcome::through: {
      // The reference node sits in a line of an external list's .jsonl (a long list of large
      // arrays): the loader finds it there, so the data pass checks it as that member streams by.
      MemberPlan& plan = plan_of(*r.entry);
      if (plan.role == Role::other) {
        plan.role = r.npy_item ? Role::npy : Role::jsonl;
        plan.path = r.path;
      }
      plan.in_rows = true;
      if (const ZipEntry* list = archive.find(r.walk.through))
        plan_of(*list).lines().line_references.push_back(
            MemberPlan::LineReference{std::move(r.walk.rest), std::string(key), std::move(r.path), r.npy_item});
      return true;
    }
    case ResolvedEntry::Outcome::target:
      break;
  }
  populated.emplace(json::view_identity(r.walk.target), PopulatedNode{key, r.role == Role::jsonl});
  if (!r.rows) return true;
  MemberPlan& plan = plan_of(*r.entry);
  if (const MemberPlan::Lines& lines = std::as_const(plan).lines(); !lines.rows) {
    plan.lines().rows = r.rows;
    plan.lines().rows_from = "externals_info len(data)";
  } else if (*lines.rows != *r.rows) {
    add_problem(report, Code::jsonl_row_count, key, r.path,
                "externals_info len(data) " + std::to_string(*r.rows) + " disagrees with " + lines.rows_from + " (" +
                    std::to_string(*lines.rows) + ")");
  }
  return true;
}

/// An externals_info entry whose path the loader can walk: its position among externals_info's
/// members and the length of its path (its key, value and items are found again when it is
/// walked: 8 bytes for each of 50,000 entries).
struct ExternalsEntry {
  std::uint32_t position;
  std::uint32_t length;
};

/// Every externals_info entry walked as the loader walks it. Returns its keys (views into the
/// meta), which name the members the loader opens.
std::unordered_set<std::string_view> check_externals_info(const Archive& archive, JsonView main, JsonView externals,
                                                          const std::vector<MainRef>& main_refs,
                                                          std::vector<MemberPlan>& plans, unsigned threads,
                                                          VerifyReport& report) {
  // On 50,000 entries the walks were the longest serial step of verify: they are made on up to
  // `threads` threads, the plans and the report changed on this one.
  constexpr std::size_t kWalkBlock = 64;  // entries a thread takes at a time
  std::optional<base::ThreadPool> pool;
  if (threads > 1 && externals.size() > 4 * kWalkBlock) pool.emplace(threads - 1);
  base::ThreadPool* helpers = pool ? &*pool : nullptr;
  // Each entry's path length, 0 for one the loader cannot take (looked at side by side first:
  // only the problems are reported in order).
  std::vector<std::uint32_t> lengths(externals.size());
  base::for_each_index(helpers, externals.size(), kWalkBlock, [&](std::size_t i) {
    const JsonView info = externals[i];
    if (!info.is_object()) return;
    if (const JsonView path = info.find("path"); path)
      if (const auto length = python_path_length(path)) lengths[i] = static_cast<std::uint32_t>(*length);
  });
  // Keys (views into the meta, alive while this runs); keys of bad entries. Only looked up.
  std::unordered_set<std::string_view> listed, broken;
  listed.reserve(externals.size());
  std::vector<ExternalsEntry> entries;
  std::uint32_t position = 0;  // externals_info is a document's object: under 2^32 members
  for (const auto [key_view, info] : externals.members()) {
    const std::string_view key = key_view;
    ++position;
    // A repeated key: one value is kept, the first, as JsonView::find gives it (no index of
    // the object needed: the first time a key is listed is that value).
    if (!listed.insert(key).second) continue;
    const std::uint32_t length = lengths[position - 1];
    if (!info.is_object()) {
      add_problem(report, Code::externals_info_mismatch, key, "", "externals_info entry is not an object");
    } else if (length == 0) {
      add_problem(report, Code::externals_info_mismatch, key, "",
                  "externals_info path is not a non-empty list of str and int keys");
    }
    if (length)
      entries.push_back(ExternalsEntry{position - 1, length});
    else
      broken.insert(key_view);
  }
  std::vector<std::uint32_t>().swap(lengths);
  // The loader walks the shortest paths first, each entry's node given its data before the next
  // walk, so that a longer path can go on through an external list's lines.
  const auto shorter = [](const ExternalsEntry& a, const ExternalsEntry& b) { return a.length < b.length; };
  if (!std::is_sorted(entries.begin(), entries.end(), shorter))  // paths of one length need no moves
    std::stable_sort(entries.begin(), entries.end(), shorter);
  // The reference nodes some entry leads to: an entry that reaches its node populates it, so
  // `populated` is also the set of nodes reached (no second set of 50,000 identities).
  PopulatedNodes populated;
  populated.reserve(entries.size());
  object::KeyIndex index;  // one path per entry into the same document
  // Resolved a batch at a time (a resolved entry holds its walk: batches bound what is held),
  // a batch never mixing path lengths.
  constexpr std::size_t kBatch = 4096;
  std::vector<ResolvedEntry> resolved;
  for (std::size_t from = 0; from < entries.size();) {
    std::size_t to = from + 1;
    while (to < entries.size() && to - from < kBatch && entries[to].length == entries[from].length) ++to;
    resolved.assign(to - from, ResolvedEntry{});
    base::for_each_index(helpers, to - from, kWalkBlock, [&](std::size_t k) {
      const ExternalsEntry& e = entries[from + k];
      resolved[k] =
          resolve_externals_entry(archive, main, externals.key(e.position), externals[e.position], populated, index);
    });
    for (std::size_t k = 0; k < resolved.size(); ++k) {
      const std::string_view key = externals.key(entries[from + k].position);
      if (!apply_externals_entry(archive, key, resolved[k], populated, plans, report)) broken.insert(key);
    }
    from = to;
  }
  resolved = {};
  // The reference loader opens exactly the members externals_info lists, and puts each one's
  // data at the entry's path: a reference node no entry leads to is left without its data.
  std::unordered_set<json::JsonViewIdentity, json::JsonViewIdentityHash> unfed;
  for (const MainRef& ref : main_refs)
    if (!ref.member.empty() && !broken.count(ref.member) && !populated.count(ref.identity)) unfed.insert(ref.identity);
  if (unfed.empty()) return listed;
  // Their paths, for the messages: the same walk as plan_references, so the same order.
  walk_tree(main, {}, [&](const TreeVisit& v) {
    if (!is_reference_kind(v.node) || !unfed.count(json::view_identity(v.node.json))) return true;
    const std::string_view member = ref_member(v.node.json);
    add_problem(report, Code::externals_info_mismatch, member, v.path(),
                listed.count(member) ? "no externals_info entry leads to this reference node (the reference loader "
                                       "would leave it without its data)"
                                     : "reference node has no externals_info entry (the reference loader would not "
                                       "load it)");
    return true;
  });
  return listed;
}

}  // namespace

std::vector<MemberPlan> check_zanj_consistency(const Archive& archive, const std::vector<bool>& inflatable,
                                               const ResourceLimits& limits, unsigned threads, ZanjDocuments& documents,
                                               VerifyReport& report) {
  std::vector<MemberPlan> plans(archive.entries().size());
  // `alone`: the other document is not being read beside it (it is then parsed on `threads`).
  const auto read_main = [&](const ResourceLimits& main_limits, VerifyReport& to, bool alone) {
    documents.main = read_document(archive, kMainMember, Code::missing_main, inflatable, main_limits,
                                   documents.given_main, documents.read_main, plans, to, alone, threads);
  };
  const auto read_meta = [&](const ResourceLimits& meta_limits, VerifyReport& to, bool alone) {
    documents.meta = read_document(archive, kMetaMember, Code::missing_meta, inflatable, meta_limits,
                                   documents.given_meta, documents.read_meta, plans, to, alone, threads);
  };
  if (!documents.given_main && !documents.given_meta && read_side_by_side(archive, limits)) {
    // Its problems go after the main document's, as the serial reading gives them. `plans`
    // is shared: each reading sets its own member's entry only.
    VerifyReport meta_report;
    // The pool is declared after what the task writes: if the main reading throws, the pool's
    // destructor waits for the task first.
    base::ThreadPool beside(1);
    beside.submit([&] { read_meta(limits, meta_report, false); });
    read_main(limits, report, false);
    beside.wait();
    merge_report(report, meta_report);
  } else {
    read_main(limits, report, true);
    // Both documents stay loaded: the meta gets what the main document left of the
    // --max-json-values and --max-json-bytes budgets, as every other command reads them.
    ResourceLimits meta_limits = limits;
    if (documents.main) {
      meta_limits.max_json_values -= std::min(limits.max_json_values, documents.main->values());
      if (const ZipEntry* m = archive.find(kMainMember))
        meta_limits.max_json_bytes -= std::min(limits.max_json_bytes, m->uncompressed_size);
    }
    read_meta(meta_limits, report, true);
  }

  JsonView externals;
  const JsonView main = documents.main ? documents.main->root() : JsonView();
  const JsonView meta = documents.meta ? documents.meta->root() : JsonView();
  if (documents.meta) {
    if (!meta.is_object()) {
      add_problem(report, Code::meta_not_object, kMetaMember, "",
                  "the meta is a JSON " + std::string(meta.type_name()) + ", not an object");
    } else if (externals = meta.find("externals_info"); !externals || !externals.is_object()) {
      add_problem(report, Code::no_externals_info, kMetaMember, "", "the meta has no externals_info object");
      externals = JsonView();
    }
  }
  // Reference nodes are planned as the walk finds them (the inline arrays' problems first, as
  // they always came), not gathered first: only what the externals_info check needs is kept.
  std::vector<MainRef> main_refs;
  std::vector<FoundReference> meta_refs;
  {
    // A large meta's reference nodes are found on a second thread while the main document's
    // are planned; they are planned after, in the order a walk of one after the other gives.
    // A large main document's walk takes the threads left.
    constexpr std::uint64_t kWorthThreads = std::uint64_t{1} << 16;
    std::optional<base::ThreadPool> beside;
    if (documents.meta && documents.main && threads > 1 && documents.meta->values() >= kWorthThreads) {
      beside.emplace(1);
      beside->submit([&] { meta_refs = find_references(meta); });
    } else if (documents.meta && !documents.main) {
      meta_refs = find_references(meta);
    }
    const unsigned helping = threads - std::min(threads, beside ? 2u : 1u);
    std::optional<base::ThreadPool> helpers;
    if (documents.main && helping > 0 && documents.main->values() >= kWorthThreads) helpers.emplace(helping);
    if (documents.main)
      main_refs = plan_references(archive, main, kMainMember, plans, report, true, true, helpers ? &*helpers : nullptr);
    if (beside)
      beside->wait();
    else if (documents.meta && documents.main)
      meta_refs = find_references(meta);
  }
  if (documents.meta) plan_found_references(archive, meta_refs, kMetaMember, plans, report);
  std::vector<FoundReference>().swap(meta_refs);
  std::unordered_set<std::string_view> listed;  // views into the meta
  if (externals && documents.main)
    listed = check_externals_info(archive, main, externals, main_refs, plans, threads, report);
  // Without both documents, what is referenced is unknown: do not call members stray.
  if (!documents.main || !documents.meta) return plans;
  const auto& entries = archive.entries();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    // externals_info keys name members as Python's zipfile sees them (cp437 without the UTF-8 flag)
    const std::string& name = entries[i].python_name;
    if (plans[i].role == Role::other && name != kMainMember && name != kMetaMember && !listed.count(name))
      add_problem(report, Code::unreferenced_member, entries[i].name, "",
                  "no reference node or externals_info entry names this member (the loader ignores it)");
  }
  return plans;
}

}  // namespace zanj::verify
