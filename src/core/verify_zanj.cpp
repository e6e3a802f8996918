// ZANJ consistency (FORMAT.md): both JSON members present and valid, the meta an object with
// externals_info, every $ref (in __zanj__.json and in the meta) naming a member, every member
// referenced, and every externals_info entry leading to its reference node with the right
// item_type. What each member must contain is returned as a plan for the data pass.
#include <set>

#include "zanj/inline_check.hpp"
#include "zanj/object_path.hpp"
#include "zanj/verify_checks.hpp"
#include "zanj/zanj_file.hpp"

namespace zanj {
namespace {

using Role = MemberPlan::Role;

/// A reference node found in one of the two JSON documents.
struct RefSite {
  std::string_view document;
  PathSegments segments;
  Node node;
};

bool is_reference_kind(const Node& n) {
  return n.kind == NodeKind::table || n.kind == NodeKind::external_list || (n.array && n.array->external());
}

Role role_of(const Node& n) { return n.array ? Role::npy : Role::jsonl; }
std::string_view item_type_of(Role role) { return role == Role::npy ? "npy" : "jsonl"; }

std::vector<RefSite> find_references(const Json& root, std::string_view document) {
  std::vector<RefSite> out;
  walk_tree(root, {}, [&](const TreeVisit& v) {
    if (is_reference_kind(v.node)) out.push_back(RefSite{document, v.segments, v.node});
    return true;
  });
  return out;
}

std::string where(const RefSite& r) {
  return r.document == kMainMember ? std::string() : " in " + std::string(r.document);
}

/// Read and parse one JSON member; nullopt (with the problem reported) when that fails.
std::optional<Json> read_document(const Archive& archive, std::string_view name, Code missing,
                                  const std::vector<bool>& inflatable, const ResourceLimits& limits,
                                  std::vector<MemberPlan>& plans, VerifyReport& report) {
  const ZipEntry* entry = archive.find(name);
  if (!entry) {
    add_problem(report, missing, name, "", "no " + std::string(name) + " member");
    return std::nullopt;
  }
  const std::size_t index = static_cast<std::size_t>(entry - archive.entries().data());
  plans[index].role = name == kMainMember ? Role::main_json : Role::meta_json;
  if (!inflatable[index]) return std::nullopt;  // the structure checks said why
  if (entry->uncompressed_size > limits.max_json_bytes) {
    add_problem(report, Code::too_large, name, "",
                "declares " + std::to_string(entry->uncompressed_size) + " bytes, over the JSON limit of " +
                    std::to_string(limits.max_json_bytes) + " (raise with --max-json-bytes)");
    return std::nullopt;
  }
  std::string text;
  try {
    text = archive.read_all(*entry, limits.max_json_bytes);
  } catch (const Error& e) {
    add_read_failure(report, *entry, e, archive.name());
    return std::nullopt;
  }
  ++report.checked.members_read;
  report.checked.bytes_read += text.size();
  try {
    JsonParseNotes notes;
    Json parsed = parse_json(text, "", JsonLimits{limits.max_json_depth, limits.max_json_values}, &notes);
    report_json_notes(report, notes, name, "");
    return parsed;
  } catch (const Error& e) {
    std::string message = e.what();
    if (message.rfind(": ", 0) == 0) message.erase(0, 2);  // parse_json names the document first
    const bool deep = message.find("deeper than") != std::string::npos || message.find("too deep") != std::string::npos;
    const bool limit = message.find("(raise with --max-") != std::string::npos;
    add_problem(report, deep ? Code::json_too_deep : limit ? Code::too_large : Code::json_invalid, name, "", message);
    return std::nullopt;
  }
}

/// One reference node: its member must exist, and becomes part of that member's plan.
void plan_reference(const Archive& archive, const RefSite& ref, std::vector<MemberPlan>& plans,
                    VerifyReport& report) {
  ++report.checked.references;
  const Node& n = ref.node;
  const std::string path = join_path(ref.segments);
  const std::string& member = n.member();
  if (member.empty()) {
    add_problem(report, Code::bad_reference, "", path, "reference node" + where(ref) + " without a $ref string");
    return;
  }
  if (n.array && (!n.array->has_shape || n.array->dtype.empty()))
    add_problem(report, Code::bad_reference, member, path, "external array" + where(ref) + " without shape or dtype");
  const ZipEntry* entry = archive.find(member);
  if (!entry) {
    add_problem(report, Code::dangling_ref, member, path, "$ref" + where(ref) + " names no member");
    return;
  }
  MemberPlan& plan = plans[static_cast<std::size_t>(entry - archive.entries().data())];
  const Role role = role_of(n);
  if (plan.role == Role::main_json || plan.role == Role::meta_json) {
    add_problem(report, Code::bad_reference, member, path, "$ref" + where(ref) + " names a JSON member");
    return;
  }
  if (plan.role != Role::other) {
    if (plan.role != role) {
      add_problem(report, Code::bad_reference, member, path,
                  "referred to as both " + std::string(item_type_of(plan.role)) + " and " + std::string(item_type_of(role)));
      return;
    }
    add_problem(report, Code::shared_member, member, path, "also referred to from '" + plan.path + "'");
  } else {
    plan.role = role;
    plan.path = path;
  }
  if (n.array) plan.arrays.push_back(*n.array);
  const auto rows = n.table ? n.table->rows : n.list ? n.list->length : std::nullopt;
  if (rows && !plan.rows) {
    plan.rows = rows;
    plan.rows_from = "len(data) of '" + path + "'";
  }
  if (n.table) plan.columns = n.table->columns;
  if (n.list) plan.list_elements = true;
}

/// True when the first `matched` segments of a path that could not be followed lead to an
/// external list or table: the rest of the path is inside its .jsonl member.
bool inside_external_list(const Json& main, const PathSegments& segments, std::size_t matched, KeyIndex& index) {
  if (matched >= segments.size()) return false;
  const PathSegments prefix(segments.begin(), segments.begin() + static_cast<std::ptrdiff_t>(matched));
  const Json* parent = follow_path(main, prefix, nullptr, &index);
  if (!parent) return false;
  const Node node = classify(*parent);
  return node.kind == NodeKind::external_list || node.kind == NodeKind::table;
}

/// One externals_info entry: it must lead, through `path`, to the reference node naming it.
/// Returns that node's path when it does.
std::optional<std::string> check_externals_entry(const Archive& archive, const Json& main, KeyIndex& index,
                                                 const std::string& key, const Json& info,
                                                 std::vector<MemberPlan>& plans, VerifyReport& report) {
  const auto mismatch = [&](std::string message) -> std::optional<std::string> {
    add_problem(report, Code::externals_info_mismatch, key, "", std::move(message));
    return std::nullopt;
  };
  if (!info.is_object()) return mismatch("externals_info entry is not an object");
  const std::string_view item_type = info.string_at("item_type");
  PathSegments segments;
  const Json* path_json = info.find("path");
  if (!path_json || !path_from_json(*path_json, segments)) return mismatch("externals_info path is not a list of keys");
  const std::string path = join_path(segments);
  const ZipEntry* entry = archive.find(key);
  if (!entry) {
    add_problem(report, Code::dangling_ref, key, path, "externals_info entry names no member");
    return std::nullopt;
  }
  MemberPlan& plan = plans[static_cast<std::size_t>(entry - archive.entries().data())];
  std::size_t matched = 0;
  const Json* target = follow_path(main, segments, &matched, &index);
  if (!target && inside_external_list(main, segments, matched, index)) {
    // The reference node sits in a line of an external list's .jsonl (a long list of large
    // arrays): the loader finds it there, so the path cannot be followed in __zanj__.json.
    if (item_type != "npy" && item_type != "jsonl")
      return mismatch("externals_info item_type '" + std::string(item_type) + "' is neither npy nor jsonl");
    if (plan.role == Role::other) {
      plan.role = item_type == "npy" ? Role::npy : Role::jsonl;
      plan.path = path;
    }
    return path;
  }
  const Node node = target ? classify(*target) : Node{};
  if (!target || !is_reference_kind(node) || node.member() != key)
    return mismatch("externals_info path '" + path + "' does not lead to the reference node of this member");
  const Role role = role_of(node);
  if (item_type != item_type_of(role))
    return mismatch("externals_info item_type '" + std::string(item_type) + "', the reference node wants '" +
                    std::string(item_type_of(role)) + "'");
  std::uint64_t len = 0;
  const Json* len_json = info.find("len(data)");
  if (!len_json || !len_json->get_uint64(len)) return path;
  if (role == Role::npy) {
    if (node.array->has_shape && !node.array->shape.empty() && node.array->shape.front() != len)
      add_problem(report, Code::externals_info_len, key, path,
                  "externals_info len(data) " + std::to_string(len) + " is not the first dimension " +
                      std::to_string(node.array->shape.front()));
  } else if (!plan.rows) {
    plan.rows = len;
    plan.rows_from = "externals_info len(data)";
  } else if (*plan.rows != len) {
    add_problem(report, Code::jsonl_row_count, key, path,
                "externals_info len(data) " + std::to_string(len) + " disagrees with " + plan.rows_from + " (" +
                    std::to_string(*plan.rows) + ")");
  }
  return path;
}

void check_externals_info(const Archive& archive, const Json& main, const Json& externals,
                          const std::vector<RefSite>& main_refs, std::vector<MemberPlan>& plans,
                          VerifyReport& report) {
  std::set<std::string> listed, reached, broken;  // keys; paths entries lead to; keys of bad entries
  KeyIndex index;  // one path per entry into the same document
  for (const auto& [key, info] : externals.as_object()) {
    listed.insert(key);
    if (const auto path = check_externals_entry(archive, main, index, key, info, plans, report))
      reached.insert(*path);
    else
      broken.insert(key);
  }
  // The reference loader opens exactly the members externals_info lists, and puts each one's
  // data at the entry's path: a reference node no entry leads to is left without its data.
  for (const RefSite& ref : main_refs) {
    const std::string& member = ref.node.member();
    const std::string path = join_path(ref.segments);
    if (member.empty() || broken.count(member) || reached.count(path)) continue;
    add_problem(report, Code::externals_info_mismatch, member, path,
                listed.count(member) ? "no externals_info entry leads to this reference node (the reference loader "
                                       "would leave it without its data)"
                                     : "reference node has no externals_info entry (the reference loader would not "
                                       "load it)");
  }
}

}  // namespace

std::vector<MemberPlan> check_zanj_consistency(const Archive& archive, const std::vector<bool>& inflatable,
                                               const ResourceLimits& limits, ZanjDocuments& documents,
                                               VerifyReport& report) {
  std::vector<MemberPlan> plans(archive.entries().size());
  documents.main = read_document(archive, kMainMember, Code::missing_main, inflatable, limits, plans, report);
  documents.meta = read_document(archive, kMetaMember, Code::missing_meta, inflatable, limits, plans, report);

  const Json* externals = nullptr;
  if (documents.meta) {
    if (!documents.meta->is_object()) {
      add_problem(report, Code::meta_not_object, kMetaMember, "",
                  "the meta is a JSON " + std::string(documents.meta->type_name()) + ", not an object");
    } else if (externals = documents.meta->find("externals_info"); !externals || !externals->is_object()) {
      add_problem(report, Code::no_externals_info, kMetaMember, "", "the meta has no externals_info object");
      externals = nullptr;
    }
  }
  std::vector<RefSite> main_refs;
  if (documents.main) {
    main_refs = find_references(*documents.main, kMainMember);
    check_inline_arrays(*documents.main, kMainMember, report);
  }
  for (const RefSite& ref : main_refs) plan_reference(archive, ref, plans, report);
  if (documents.meta)
    for (const RefSite& ref : find_references(*documents.meta, kMetaMember)) plan_reference(archive, ref, plans, report);
  std::set<std::string> listed;
  if (externals && documents.main) {
    check_externals_info(archive, *documents.main, *externals, main_refs, plans, report);
    for (const auto& member : externals->as_object()) listed.insert(member.first);
  }
  // Without both documents, what is referenced is unknown: do not call members stray.
  if (!documents.main || !documents.meta) return plans;
  const auto& entries = archive.entries();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string& name = entries[i].name;
    if (plans[i].role == Role::other && name != kMainMember && name != kMetaMember && !listed.count(name))
      add_problem(report, Code::unreferenced_member, name, "", "no reference node or externals_info entry names this member");
  }
  return plans;
}

}  // namespace zanj
