// Planning `export`: one walk of the exported subtree that names every array and builds the
// object that refers to them.
#include "export/export_plan.hpp"

#include <set>
#include <unordered_set>

#include "zanj/error.hpp"
#include "zip/member_name.hpp"

namespace zanj::exporter {
namespace {

class ExportPlanner {
 public:
  ExportPlanner(ExportPlan& plan, std::string_view ref_suffix, std::string archive)
      : plan_(plan), suffix_(ref_suffix), archive_(std::move(archive)) {}

  /// `segments` is the node's full object path; `rel` how many of them lie below the export root.
  Json visit(JsonView value, PathSegments& segments, std::size_t root_depth) {
    const Node node = classify(value);
    if (node.kind == NodeKind::array) return array(node, segments, root_depth);
    if (node.kind == NodeKind::table || node.kind == NodeKind::external_list) {
      // A table an old release wrote inline has no member: its rows stay in the JSON.
      if (node.is_reference() && seen_members_.insert(node.member()).second) plan_.members.push_back(node.member());
      return value.copy();
    }
    if (value.is_object()) {
      JsonObject out;
      for (auto [key, child] : value.members()) {
        if (key == kFormatKey) {
          out.emplace_back(std::string(key), child.copy());
          continue;
        }
        segments.emplace_back(key);
        out.emplace_back(std::string(key), visit(child, segments, root_depth));
        segments.pop_back();
      }
      return Json(std::move(out));
    }
    if (value.is_array()) {
      JsonArray out;
      for (std::size_t i = 0; i < value.size(); ++i) {
        segments.push_back(std::to_string(i));
        out.push_back(visit(value[i], segments, root_depth));
        segments.pop_back();
      }
      return Json(std::move(out));
    }
    return value.copy();
  }

 private:
  Json array(const Node& node, const PathSegments& segments, std::size_t root_depth) {
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
    const ArrayNode& a = *node.array;
    plan_.arrays.push_back({name, join_path(segments), a});
    JsonObject ref{{std::string(kFormatKey), std::string(a.torch ? "torch.Tensor" : "numpy.ndarray") + ":external"},
                   {std::string(kRefKey), name + std::string(suffix_)},
                   {"shape", shape_json(a.shape)},
                   {"dtype", a.dtype}};
    if (const auto n = a.element_count()) ref.emplace_back("n_elements", *n);
    return Json(std::move(ref));
  }

  ExportPlan& plan_;
  std::string_view suffix_;
  std::string archive_;
  std::unordered_set<std::string> names_, seen_members_;
};

}  // namespace

ExportPlan plan_export(const ZanjFile& file, std::string_view path, std::string_view ref_suffix) {
  const JsonView root = file.root();
  const NodeTarget target = parse_node_target(root, path);
  if (!target.slice.empty())
    throw Error("export takes an object path, not a slice ('" + zip::printable_name(target.slice) + "')", Exit::usage);
  const JsonView start = find_node(root, target, file.name());
  ExportPlan plan;
  ExportPlanner planner(plan, ref_suffix, file.name());
  PathSegments segments = target.segments;
  if (classify(start).kind == NodeKind::array) {
    // A lone array: {last key: array}, so that it has a name and the object a dict root.
    const std::string key = segments.empty() ? std::string("array") : segments.back();
    std::size_t depth = segments.empty() ? 0 : segments.size() - 1;
    if (segments.empty()) segments.push_back(key);
    plan.object = Json(JsonObject{{key, planner.visit(start, segments, depth)}});
    return plan;
  }
  plan.object = planner.visit(start, segments, segments.size());
  return plan;
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
