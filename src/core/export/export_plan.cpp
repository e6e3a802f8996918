// Planning `export`: one walk of the exported subtree that names every array and builds the
// object that refers to them.
#include "export/export_plan.hpp"

#include <set>
#include <unordered_set>

#include "json/json_view_access.hpp"
#include "json/json_writer.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zip/member_name.hpp"

namespace zanj::exporter {
namespace {

/// The reference that replaces `array`, named `name`.
Json array_reference(const ArrayNode& array, const std::string& name, std::string_view suffix) {
  JsonObject ref{{std::string(kFormatKey), std::string(array.torch ? "torch.Tensor" : "numpy.ndarray") + ":external"},
                 {std::string(kRefKey), name + std::string(suffix)},
                 {"shape", shape_json(array.shape)},
                 {"dtype", array.dtype}};
  if (const auto n = array.element_count()) ref.emplace_back("n_elements", *n);
  return Json(std::move(ref));
}

/// One walk of the subtree: the planner and the object's writer (write_object) take the same
/// steps, so the writer meets the arrays in the order the plan lists them. A format key's
/// value is not looked into; nor is a table or an external list (an old release's inline
/// table keeps its rows, whatever they hold).
class ExportPlanner {
 public:
  ExportPlanner(ExportPlan& plan, std::string archive) : plan_(plan), archive_(std::move(archive)) {}

  /// `segments` is the node's full object path; the keys from `root_depth` on name it.
  void visit(JsonView value, PathSegments& segments, std::size_t root_depth) {
    const Node node = classify(value);
    if (node.kind == NodeKind::array) return array(value, segments, root_depth);
    if (node.kind == NodeKind::table || node.kind == NodeKind::external_list) {
      // A table an old release wrote inline has no member: its rows stay in the JSON.
      if (node.is_reference() && seen_members_.insert(node.member()).second) plan_.members.push_back(node.member());
      return;
    }
    if (value.is_object()) {
      for (auto [key, child] : value.members()) {
        if (key == kFormatKey) continue;
        segments.emplace_back(key);
        visit(child, segments, root_depth);
        segments.pop_back();
      }
    } else if (value.is_array()) {
      for (std::size_t i = 0; i < value.size(); ++i) {
        segments.push_back(std::to_string(i));
        visit(value[i], segments, root_depth);
        segments.pop_back();
      }
    }
  }

 private:
  void array(JsonView value, const PathSegments& segments, std::size_t root_depth) {
    std::string name;
    for (std::size_t i = root_depth; i < segments.size(); ++i) {
      if (segments[i].empty())
        throw Error(InArchive{archive_}, AtPath{join_path(segments)},
                    "has an empty key in its path; it cannot be named", Exit::invalid);
      if (!name.empty()) name += '/';
      name += segments[i];
    }
    if (!names_.insert(name).second)
      throw Error(InArchive{archive_}, AtPath{join_path(segments)},
                  "two arrays would both be named '" + zip::printable_name(name) +
                      "' (keys joined by '/'); export their subtrees separately",
                  Exit::invalid);
    plan_.arrays.push_back({std::move(name), join_path(segments), value});
  }

  ExportPlan& plan_;
  std::string archive_;
  std::unordered_set<std::string> names_, seen_members_;
};

}  // namespace

ExportPlan plan_export(const ZanjFile& file, std::string_view path, std::string_view ref_suffix) {
  const JsonView root = file.root();
  const NodeTarget target = parse_node_target(root, path);
  if (!target.slice.empty())
    throw Error("export takes an object path, not a slice ('" + zip::printable_name(target.slice) + "')", Exit::usage);
  ExportPlan plan;
  plan.root = find_node(root, target, file.name());
  plan.ref_suffix = std::string(ref_suffix);
  ExportPlanner planner(plan, file.name());
  PathSegments segments = target.segments;
  if (classify(plan.root).kind == NodeKind::array) {
    // A lone array: {last key: array}, so that it has a name and the object a dict root.
    plan.lone = segments.empty() ? std::string("array") : segments.back();
    const std::size_t depth = segments.empty() ? 0 : segments.size() - 1;
    if (segments.empty()) segments.push_back(*plan.lone);
    planner.visit(plan.root, segments, depth);
    return plan;
  }
  planner.visit(plan.root, segments, segments.size());
  return plan;
}

void write_object(const ExportPlan& plan, OutputBuffer& out, const JsonStyle& style) {
  if (plan.lone) {
    const Node node = classify(plan.root);
    write_json(out,
               Json(JsonObject{{*plan.lone, array_reference(*node.array, plan.arrays.at(0).name, plan.ref_suffix)}}),
               style);
    return;
  }
  std::size_t next = 0;  // the next array of the plan, met in the same order
  json::write_json_rewritten(
      out, plan.root, style, [&](JsonView value, std::optional<std::string_view> key) -> json::JsonRewrite {
        using Action = json::JsonRewrite::Action;
        if (key && *key == kFormatKey) return {Action::keep, {}};
        const Node node = classify(value);
        if (node.kind == NodeKind::array) {
          if (next >= plan.arrays.size() || json::view_identity(plan.arrays[next].json) != json::view_identity(value))
            throw Error("internal: the exported object's arrays are not the plan's");
          const ExportArray& a = plan.arrays[next++];
          return {Action::replace, array_reference(*node.array, a.name, plan.ref_suffix)};
        }
        if (node.kind == NodeKind::table || node.kind == NodeKind::external_list) return {Action::keep, {}};
        return {Action::descend, {}};
      });
}

std::string object_text(const ExportPlan& plan, const JsonStyle& style) {
  std::string text;
  OutputBuffer out([&](std::string_view chunk) { text.append(chunk); });
  write_object(plan, out, style);
  out.flush();
  return text;
}

void check_file_names(const std::vector<std::string>& names) {
  const std::set<std::string> files(names.begin(), names.end());
  for (const std::string& name : names) {
    if (auto why = zip::member_name_problem(name))
      throw Error("'" + zip::printable_name(name) + "' cannot be a file name: " + *why, Exit::invalid);
    for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
      if (files.count(name.substr(0, slash)))
        throw Error("'" + zip::printable_name(name.substr(0, slash)) + "' would be both a file and the directory of '" +
                        zip::printable_name(name) + "'",
                    Exit::invalid);
  }
}

}  // namespace zanj::exporter
