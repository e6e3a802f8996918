// Value checks: an .npy member's header and data length against the array nodes that refer to
// it, a .jsonl member's lines (valid JSON, row count, table columns), and inline arrays against
// their shape and dtype. The member checks look at bytes as they stream past, so memory stays
// at one header or one line whatever the member's size.
#include <algorithm>
#include <limits>

#include "array/inline_check.hpp"
#include "object/tree_json.hpp"
#include "verify/verify_checks.hpp"
#include "json/json_parse.hpp"

namespace zanj::verify {
namespace {

/// Keys of a table row against the table's columns, in any order. A column name may repeat
/// (pandas allows it; a row, being a dict, holds it once), so rows are held to the distinct names.
bool row_matches(JsonView row, const std::set<std::string_view>& columns) {
  if (!row.is_object() || row.size() != columns.size()) return false;
  return std::all_of(columns.begin(), columns.end(), [&](std::string_view c) { return bool(row.find(c)); });
}

/// The line a path key selects in a list of lines of unknown length: nullopt for a negative
/// key (counted from the end, so not checked as the lines stream by); a positive int too large
/// for 64 bits selects no line.
std::optional<std::uint64_t> line_index(const Json& key) {
  if (key.is_bool()) return key.as_bool() ? 1 : 0;
  if (key.type() == Json::Type::unsigned_integer) return key.as_uint64();
  if (key.type() == Json::Type::integer)
    return key.as_int64() < 0 ? std::nullopt : std::optional<std::uint64_t>(static_cast<std::uint64_t>(key.as_int64()));
  if (key.type() == Json::Type::big_integer && !key.as_big_integer().digits.starts_with("-"))
    return std::numeric_limits<std::uint64_t>::max();
  return std::nullopt;
}

/// How an array node's dtype, shape or n_elements disagree with an .npy header ("" if they
/// agree); `where` names the node's document.
std::string header_difference(const ArrayNode& a, const array::NpyHeader& h, std::string_view where) {
  const std::string in = " in " + std::string(where) + ", ";
  const base::Result<array::Dtype> dtype = array::read_dtype_name(a.dtype);
  if (!dtype) return dtype.why();
  if (!array::dtypes_compatible(*dtype, h.dtype))
    return "dtype '" + a.dtype + "'" + in + "'" + h.dtype.descr() + "' in the header";
  if (a.has_shape && a.shape != h.shape)
    return "shape " + shape_text(a.shape) + in + shape_text(h.shape) + " in the header";
  if (a.n_elements && *a.n_elements != h.element_count())
    return "n_elements " + std::to_string(*a.n_elements) + in + std::to_string(h.element_count()) + " in the header";
  return "";
}

}  // namespace

MemberValueCheck::MemberValueCheck(const ZipEntry& entry, const MemberPlan& plan, const ResourceLimits& limits)
    : entry_(entry), plan_(plan), limits_(limits) {
  if (plan.role == MemberPlan::Role::npy) npy_.emplace(NpyLimits{limits.max_npy_header_bytes});
  if (plan.role == MemberPlan::Role::jsonl)
    lines_.emplace([this](std::uint64_t i, std::string_view line) { return on_line(i, line); },
                   limits.max_jsonl_line_bytes, "", limits.max_jsonl_rows);  // the report says which member
  if (plan.lines().columns) columns_.insert(plan.lines().columns->begin(), plan.lines().columns->end());
  reference_found_.resize(plan.lines().line_references.size());
  for (std::size_t r = 0; r < plan.lines().line_references.size(); ++r) {
    const auto line = line_index(plan.lines().line_references[r].rest.front());
    if (line)
      references_by_line_.emplace(*line, r);
    else
      reference_found_[r] = true;  // counted from the end: not checked
  }
}

void MemberValueCheck::fail(Code code, const std::string& message) {
  add_problem(found_, code, entry_.name, plan_.path, message);
  broken_ = true;
}

void MemberValueCheck::feed(std::string_view chunk) {
  bytes_ += chunk.size();
  if (broken_) return;
  if (npy_) feed_npy(chunk);
  if (lines_) feed_jsonl(chunk);
}

void MemberValueCheck::feed_npy(std::string_view chunk) {
  if (npy_->header()) return;  // the rest is data: only its length matters
  const base::Result<std::size_t> used = npy_->try_feed(chunk);
  if (!used) fail(Code::npy_invalid, used.why());
}

void MemberValueCheck::feed_jsonl(std::string_view chunk) {
  const base::Result<bool> fed = lines_->try_feed(chunk);
  if (!fed) fail(Code::jsonl_invalid, fed.why());  // a line over the length limit
}

bool MemberValueCheck::on_line(std::uint64_t index, std::string_view line) {
  ++found_.checked.jsonl_rows;
  const std::string where = "line " + std::to_string(index + 1);
  json::JsonParseNotes notes;
  const base::Result<JsonDocument, json::JsonFailure> document = json::read_json_document(
      std::string(line), where, json::JsonLimits{limits_.max_json_depth, limits_.max_json_values}, &notes);
  if (!document) {
    add_problem(found_, Code::jsonl_invalid, entry_.name, plan_.path, document.why());
    return true;
  }
  if ((notes.bom || notes.duplicate_keys) && noted_lines_++ == 0) {
    first_notes_ = std::move(notes);
    first_noted_line_ = index;
  }
  const JsonView value = document->root();
  if (plan_.lines().columns && !row_matches(value, columns_)) {
    add_problem(found_, Code::table_columns, entry_.name, plan_.path,
                where + ": row is not an object with exactly the table's columns");
  }
  if (!references_by_line_.empty()) check_line_references(index, value);
  if (plan_.list_elements && (value.is_object() || value.is_array())) {
    PathSegments start = split_path(plan_.path);
    start.push_back(std::to_string(index));
    check_inline_arrays(value, entry_.name, found_, start);
  }
  return true;
}

void MemberValueCheck::check_line_references(std::uint64_t index, JsonView value) {
  const auto [first, last] = references_by_line_.equal_range(index);
  for (auto it = first; it != last; ++it) {
    const MemberPlan::LineReference& ref = plan_.lines().line_references[it->second];
    reference_found_[it->second] = true;
    const std::vector<Json> rest(ref.rest.begin() + 1, ref.rest.end());
    const PathWalk walk = walk_python_path(value, rest, {});
    if (walk.blocked_by_external) continue;  // another member may feed that node: not judged here
    std::string why = walk.failure;
    if (walk.target) {
      const JsonView name = walk.target.find(kRefKey);
      const Node node = classify(walk.target);
      if (!name || !name.is_string() || name.as_string() != ref.member)
        why = "it leads to a node whose $ref is not this member's name (the loader asserts it is)";
      else if (!node.is_reference())
        why = "it leads to a node that is not an external array, list or table";
      else if (bool(node.array) != ref.npy)
        why = std::string("its item_type is '") + (ref.npy ? "npy" : "jsonl") + "', the reference node wants '" +
              (node.array ? "npy" : "jsonl") + "'";
      else
        claim_row_reference(node, ref);
    }
    if (!why.empty())
      add_problem(found_, Code::externals_info_mismatch, ref.member, ref.path,
                  "externals_info path into line " + std::to_string(index + 1) + " of " + entry_.name + ": " + why);
  }
}

void MemberValueCheck::claim_row_reference(const Node& node, const MemberPlan::LineReference& ref) {
  RowClaim claim{ref.member, ref.path, std::nullopt, std::nullopt};
  if (node.array) {
    claim.array = *node.array;
    claim.array->data = JsonView();  // the line's document is gone by the time the claim is checked
  } else if (node.table) {
    claim.rows = node.table->rows;
  } else if (node.list) {
    claim.rows = node.list->length;
  }
  row_claims_.push_back(std::move(claim));
}

RowTarget MemberValueCheck::row_target() const {
  RowTarget target;
  if (broken_) return target;
  if (npy_ && npy_->header()) target.header = *npy_->header();
  if (lines_ && jsonl_complete_) target.lines = lines_->lines();
  return target;
}

void check_row_claims(const std::vector<RowClaim>& claims, const std::map<std::string, RowTarget, std::less<>>& targets,
                      VerifyReport& report) {
  for (const RowClaim& claim : claims) {
    const auto it = targets.find(claim.member);
    if (it == targets.end()) continue;
    const RowTarget& target = it->second;
    if (claim.array && target.header) {
      const std::string differ = header_difference(*claim.array, *target.header, "its .jsonl line");
      if (!differ.empty()) add_problem(report, Code::npy_mismatch, claim.member, claim.path, differ);
    }
    if (claim.rows && target.lines && *claim.rows != *target.lines)
      add_problem(report, Code::jsonl_row_count, claim.member, claim.path,
                  std::to_string(*target.lines) + " lines where the reference node in its .jsonl line says " +
                      std::to_string(*claim.rows));
  }
}

void MemberValueCheck::finish(VerifyReport& report) {
  if (noted_lines_) {  // one warning per member, however many lines
    std::string where = "line " + std::to_string(first_noted_line_ + 1);
    if (noted_lines_ > 1) where += " (and " + std::to_string(noted_lines_ - 1) + " more lines)";
    report_json_notes(found_, first_notes_, entry_.name, plan_.path, where);
  }
  if (!broken_) {
    if (npy_) finish_npy();
    if (lines_) finish_jsonl();
  }
  merge_report(report, found_);
}

void MemberValueCheck::finish_npy() {
  if (auto problem = npy_->end_problem()) return fail(Code::npy_invalid, *problem);
  ++found_.checked.npy_members;
  const array::NpyHeader& h = *npy_->header();
  // np.load refuses these before reading any data, so nothing else about the member matters.
  if (auto why = array::numpy_refusal(h.dtype, h.shape)) return fail(Code::npy_invalid, *why);
  for (const JsonView array : plan_.arrays) {
    const Node node = classify(array);
    if (!node.array) continue;  // planned as an array node: classify decides the same again
    const std::string differ = header_difference(*node.array, h, "__zanj__.json");
    if (!differ.empty()) add_problem(found_, Code::npy_mismatch, entry_.name, plan_.path, differ);
  }
  const std::uint64_t want = h.data_offset + h.data_bytes();  // cannot overflow: parse_npy_header checks
  // numpy reads exactly the bytes the shape needs: fewer fail the load, more are never looked at.
  if (bytes_ != want)
    add_problem(found_, bytes_ < want ? Code::npy_data_size : Code::npy_trailing_data, entry_.name, plan_.path,
                std::to_string(bytes_ - std::min(bytes_, h.data_offset)) + " data bytes where shape " +
                    shape_text(h.shape) + " of " + h.dtype.descr() + " needs " + std::to_string(h.data_bytes()) +
                    (bytes_ < want ? "" : " (numpy ignores the rest)"));
}

void MemberValueCheck::finish_jsonl() {
  const base::Result<bool> finished = lines_->try_finish();
  if (!finished) return fail(Code::jsonl_invalid, finished.why());
  ++found_.checked.jsonl_members;
  jsonl_complete_ = true;
  for (std::size_t r = 0; r < reference_found_.size(); ++r)
    if (!reference_found_[r])
      add_problem(found_, Code::externals_info_mismatch, plan_.lines().line_references[r].member,
                  plan_.lines().line_references[r].path,
                  "externals_info path selects a line past the last of the " + std::to_string(lines_->lines()) +
                      " in " + entry_.name);
  if (plan_.lines().rows && lines_->lines() != *plan_.lines().rows)
    add_problem(found_, Code::jsonl_row_count, entry_.name, plan_.path,
                std::to_string(lines_->lines()) + " lines where " + plan_.lines().rows_from + " says " +
                    std::to_string(*plan_.lines().rows));
}

/// The member of an array_list_meta node whose "data" went to a .jsonl member itself.
static std::optional<std::string> external_list_data(const ArrayNode& array) {
  if (array.encoding != ArrayEncoding::list || !array.data.is_object()) return std::nullopt;
  const Node data = classify(array.data);
  if (data.kind != NodeKind::external_list) return std::nullopt;
  return data.list->member;
}

std::optional<std::string> legacy_loader_refusal(const Node& node) {
  if (node.version != FormatVersion::legacy || !node.array) return std::nullopt;
  if (is_first_generation_format(node.format)) {
    // muutils 0.2.x has no DTYPE_MAP: np.array(data, dtype=DTYPE) (np.frombuffer for hex)
    // takes numpy's own names, and np.load reads an external member whatever the node says.
    if (node.array->external() || !node.array->dtype.starts_with("torch.")) return std::nullopt;
    return "dtype '" + node.array->dtype +
           "' is not a numpy dtype: muutils 0.2.x, which wrote this node, loads it "
           "with np.array(data, dtype=...) and fails on it (TypeError)";
  }
  // The names of muutils.tensor_utils.DTYPE_MAP (the same from muutils 0.3 to 0.7), as
  // numpy's and torch's dtypes print; TORCH_DTYPE_MAP has the same keys.
  static constexpr std::string_view kKnown[] = {"bool",
                                                "bool_",
                                                "complex128",
                                                "complex64",
                                                "float16",
                                                "float32",
                                                "float64",
                                                "int16",
                                                "int32",
                                                "int64",
                                                "int8",
                                                "longlong",
                                                "uint8",
                                                "torch.bfloat16",
                                                "torch.bool",
                                                "torch.complex128",
                                                "torch.complex64",
                                                "torch.float16",
                                                "torch.float32",
                                                "torch.float64",
                                                "torch.int16",
                                                "torch.int32",
                                                "torch.int64",
                                                "torch.int8",
                                                "torch.uint8"};
  for (const std::string_view known : kKnown)
    if (node.array->dtype == known) return std::nullopt;
  return "dtype '" + node.array->dtype +
         "' is not in the DTYPE_MAP of the release that wrote this \"__format__\" "
         "archive (muutils <= 0.7): its loader fails on it (KeyError)";
}

void check_inline_node(const TreeVisit& v, std::string_view member, VerifyReport& report) {
  if (!v.node.array || v.node.array->external()) return;
  ++report.checked.inline_arrays;
  if (const auto refusal = legacy_loader_refusal(v.node))
    add_problem(report, Code::inline_array_invalid, member, v.path(), *refusal);
  if (const auto ref = external_list_data(*v.node.array))
    add_problem(report, Code::inline_array_invalid, member, v.path(),
                "\"data\" is an external list ('" + *ref +
                    "'), as the Python library writes an inline array when external_array_threshold is above "
                    "external_list_threshold; the library fails to load it back (TypeError), though zanj cat, "
                    "diff and stats read its values");
  else if (const auto problem = array::check_inline_array(*v.node.array))
    add_problem(report, Code::inline_array_invalid, member, v.path(), *problem);
}

void check_inline_arrays(JsonView root, std::string_view member, VerifyReport& report, const PathSegments& start) {
  walk_tree(root, start, [&](const TreeVisit& v) {
    check_inline_node(v, member, report);
    return true;
  });
}

}  // namespace zanj::verify
