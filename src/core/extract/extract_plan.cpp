// Deciding what `extract` writes, before it writes anything.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "zanj/json.hpp"
#include "zip/member_name.hpp"
#include "object/tree_json.hpp"
#include "zanj/tree.hpp"
#include "zanj/archive.hpp"
#include "json/json_parse.hpp"
#include "io/temp_file.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

bool passes_filters(const ZipEntry& e, const ExtractSelection& sel) {
  if (sel.npy_only && !e.name.ends_with(".npy")) return false;
  if (sel.json_only && !e.name.ends_with(".json") && !e.name.ends_with(".jsonl")) return false;
  return true;
}

JsonDocument read_main_json(const Archive& archive, const ResourceLimits& limits) {
  const ZipEntry* main = archive.find(kMainMember);
  if (!main)
    throw Error(InArchive{archive.name()},
                "no __zanj__.json member, so object paths cannot be used (name members instead)");
  std::string text = archive.read_all(*main, limits.max_json_bytes);
  try {
    return json::parse_document(std::move(text), kMainMember,
                                json::JsonLimits{limits.max_json_depth, limits.max_json_values});
  } catch (const Error& e) {  // context: the archive joins the message
    throw Error(InArchive{archive.name()}, e.what());
  }
}

/// Mark the entries `selector` names: a member name, else the members referenced under an
/// object path. Referenced members missing from the archive become refusals.
void select(const Archive& archive, const std::string& selector, std::optional<JsonDocument>& root,
            const ResourceLimits& limits, std::vector<bool>& chosen, ExtractPlan& plan) {
  const auto& entries = archive.entries();
  bool matched = false;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries[i].name == selector) chosen[i] = matched = true;
  if (matched) return;
  if (!root) root = read_main_json(archive, limits);
  const JsonView node = follow_path(root->root(), split_path(selector));
  if (!node) throw Error(InArchive{archive.name()}, "'" + selector + "' is neither a member nor an object path");
  const std::vector<Reference> refs = collect_references(node);
  if (refs.empty())
    throw Error(InArchive{archive.name()},
                "nothing under '" + selector + "' is stored in its own member (its data is inline in __zanj__.json)");
  for (const Reference& ref : refs) {
    bool found = false;
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].python_name == ref.node.member()) chosen[i] = found = true;  // as Python finds it
    if (!found)
      plan.refused.push_back({zip::printable_name(ref.node.member()),
                              "referenced at '" + join_path(ref.segments) + "' but not in the archive"});
  }
}

/// Byte ranges [local header, end of data) of every entry, for the overlap check; an entry
/// whose local header cannot be read gets the reason instead.
struct EntryExtent {
  std::uint64_t begin = 0, end = 0;
  std::string problem;
};

std::vector<EntryExtent> extents(const Archive& archive) {
  std::vector<EntryExtent> out;
  for (const ZipEntry& e : archive.entries()) {
    EntryExtent x;
    const base::Result<zip::LocalHeader> h = zip::read_local_header_result(zip::archive_source(archive), e);
    if (h) {
      x.begin = e.local_header_offset;
      x.end = h->data_offset + e.compressed_size;
      if (h->name != e.name)
        x.problem = "its local header names it differently ('" + zip::printable_name(h->name) + "')";
    } else {
      x.problem = "unreadable local header: " + h.why();
    }
    out.push_back(std::move(x));
  }
  std::vector<zip::MemberExtent> readable;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (out[i].problem.empty()) readable.push_back({out[i].begin, out[i].end, i});
  for (const auto& [later, earlier] : zip::overlapping_members(readable))
    out[later].problem = out[earlier].problem = "its data overlaps another member's (a zip bomb trick)";
  return out;
}

std::optional<std::string> entry_problem(const ZipEntry& e, const EntryExtent& extent, std::size_t copies,
                                         const ResourceLimits& limits) {
  if (auto why = zip::member_name_problem(e.name)) return *why;
  if (e.encrypted()) return "encrypted";
  if (e.is_symlink()) return "a symbolic link";
  if (!e.is_regular_file() && !e.is_directory()) return "a device, FIFO or other special file";
  if (copies > 1) return "duplicate name (" + std::to_string(copies) + " members)";
  if (!extent.problem.empty()) return extent.problem;
  if (e.is_directory()) return std::nullopt;
  if (e.uncompressed_size > limits.max_member_bytes)
    return "declares " + std::to_string(e.uncompressed_size) + " bytes, over the limit of " +
           std::to_string(limits.max_member_bytes) + " (--max-member-bytes)";
  if (e.method == static_cast<std::uint16_t>(ZipMethod::store) && e.compressed_size != e.uncompressed_size)
    return "stored, but its sizes disagree";
  if (e.method == static_cast<std::uint16_t>(ZipMethod::deflate) &&
      e.uncompressed_size / ResourceLimits::max_deflate_ratio > e.compressed_size)
    return "claims a compression ratio over " + std::to_string(ResourceLimits::max_deflate_ratio) +
           ":1, more than deflate can reach";
  return std::nullopt;
}

}  // namespace

ExtractPlan plan_extract(const Archive& archive, const ExtractSelection& selection, const ResourceLimits& limits) {
  const auto& entries = archive.entries();
  ExtractPlan plan;
  std::vector<bool> chosen(entries.size(), selection.selectors.empty());
  std::optional<JsonDocument> root;  // parsed only when a selector is an object path
  for (const std::string& selector : selection.selectors) select(archive, selector, root, limits, chosen, plan);

  std::unordered_map<std::string, std::size_t> copies;
  for (const ZipEntry& e : entries) ++copies[e.name];
  const std::vector<EntryExtent> extent = extents(archive);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (chosen[i] && passes_filters(entries[i], selection)) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return entries[a].local_header_offset < entries[b].local_header_offset;
  });

  std::unordered_set<std::string> files;  // accepted regular members, for file/directory conflicts
  for (std::size_t i : order) {
    if (auto why = entry_problem(entries[i], extent[i], copies[entries[i].name], limits)) {
      plan.refused.push_back({zip::printable_name(entries[i].name), *why});
      continue;
    }
    plan.members.push_back(&entries[i]);
    if (!entries[i].is_directory()) files.insert(entries[i].name);
  }
  // A member "a" and a member "a/b" cannot both be written: "a" cannot be file and directory.
  std::vector<const ZipEntry*> kept;
  for (const ZipEntry* e : plan.members) {
    std::optional<std::string> blocker;
    for (std::size_t slash = e->name.find('/'); slash != std::string::npos && !blocker;
         slash = e->name.find('/', slash + 1))
      if (files.count(e->name.substr(0, slash))) blocker = e->name.substr(0, slash);
    if (blocker) {
      plan.refused.push_back({zip::printable_name(e->name), "the member '" + zip::printable_name(*blocker) +
                                                                "' is a file where this needs a directory"});
    } else {
      kept.push_back(e);
      plan.total_bytes += e->uncompressed_size;
    }
  }
  plan.members = std::move(kept);
  if (plan.total_bytes > limits.max_total_bytes)
    throw Error(InArchive{archive.name()}, "the members to extract declare " + std::to_string(plan.total_bytes) +
                                               " bytes in all, over the limit of " +
                                               std::to_string(limits.max_total_bytes));
  return plan;
}

void check_targets(ExtractPlan& plan, int root, Replace replace) {
  std::vector<const ZipEntry*> kept;
  for (const ZipEntry* e : plan.members) {
    std::string path = e->name;
    if (e->is_directory()) path.pop_back();
    const std::size_t slash = path.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : path.substr(0, slash);
    const std::string leaf = path.substr(slash == std::string::npos ? 0 : slash + 1);
    std::optional<std::string> why;
    try {
      if (auto dir = io::open_below(root, parent, CreateDirs::no)) {
        const EntryType type = entry_type_at(dir->get(), leaf);
        if (e->is_directory()) {
          if (type != EntryType::missing && type != EntryType::directory)
            why = "'" + zip::printable_name(path) + "' exists and is not a directory";
        } else if (type == EntryType::directory) {
          why = "a directory is in the way";
        } else if (type != EntryType::missing && replace == Replace::no) {
          why = "exists (use --force to replace it)";
        }
      }
    } catch (const Error& err) {  // boundary: refuses this member only
      why = std::string("unsafe path: ") + err.what();
    }
    if (why) {
      plan.refused.push_back({zip::printable_name(e->name), *why});
      plan.total_bytes -= e->uncompressed_size;
    } else {
      kept.push_back(e);
    }
  }
  plan.members = std::move(kept);
}

}  // namespace zanj
