#include "zanj/summary.hpp"

#include <charconv>
#include <set>

#include "json/json_parse.hpp"
#include "json/json_view_access.hpp"
#include "array/member_reader.hpp"
#include "zanj/error.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

/// How messages introduce a path that names nothing: "no object at path 'a/b': ...".
constexpr const char* kNoObjectAt = "no object at path";

/// A row index as a path segment: decimal digits only, as `ls` prints them.
std::optional<std::uint64_t> row_index(const std::string& segment) {
  std::uint64_t index = 0;
  if (segment.empty() || segment.size() > 19) return std::nullopt;
  const auto [end, ec] = std::from_chars(segment.data(), segment.data() + segment.size(), index);
  if (ec != std::errc() || end != segment.data() + segment.size()) return std::nullopt;
  return index;
}

/// walk_tree_with_rows for one start node, `depth` levels below the first; `open` holds the
/// members being walked.
struct RowWalker {
  const ZanjFile& file;
  const std::function<bool(const TreeVisit&)>& visitor;
  const RowWalkOptions& options;
  std::set<std::string> open;

  void walk(JsonView start, const std::vector<std::string>& start_segments, std::size_t depth) {
    walk_tree(start, start_segments, [&](const TreeVisit& v) {
      if (!visitor(TreeVisit{v.node, v.depth + depth, v.walker})) return false;
      if (!v.node.list && !(options.tables && v.node.table)) return true;
      enter_rows(v, v.depth + depth + 1);
      return true;
    });
  }

  void enter_rows(const TreeVisit& v, std::size_t depth) {
    if (v.node.table && v.node.table->inline_rows) {  // a table an old release wrote inline
      std::vector<std::string> segments = v.segments();
      std::size_t i = 0;
      for (const JsonView row : v.node.table->inline_rows) {
        if (options.scalar_rows || row.is_object() || row.is_array()) {
          segments.push_back(std::to_string(i));
          walk(row, segments, depth);
          segments.pop_back();
        }
        ++i;
      }
      return;
    }
    const std::string& member = v.node.member();
    const ZipEntry* entry = file.archive().find(member);
    if (!entry || !open.insert(member).second) return;  // a missing member is reported where it is read
    std::vector<std::string> segments = v.segments();
    try {
      read_rows(*entry, segments, depth);
    } catch (const Error& e) {  // boundary: an unreadable member, noted if asked
      open.erase(member);
      if (!options.on_unreadable_rows) throw;
      options.on_unreadable_rows(e.what());
      return;
    }
    open.erase(member);
  }

  void read_rows(const ZipEntry& entry, std::vector<std::string>& segments, std::size_t depth) {
    const json::JsonLimits line_limits = zip::json_line_limits(file.archive());  // the same for every line
    array::for_each_jsonl_line(file.archive(), entry, [&](std::uint64_t i, std::string_view line) {
      // A row that is a number, string or literal is passed over unparsed when it is not to
      // be visited: a long list of scalars costs a glance per line.
      if (!options.scalar_rows) {
        const std::string_view text = line.starts_with("\xEF\xBB\xBF") ? line.substr(3) : line;  // Python skips a BOM
        const std::size_t first = text.find_first_not_of(" \t\r");
        if (first != std::string_view::npos && text[first] != '{' && text[first] != '[') return true;
      }
      Json row;
      try {
        row = json::parse_json(line, entry.name + " line " + std::to_string(i + 1), line_limits);
      } catch (const Error& e) {  // context: the archive joins the message
        throw Error(InArchive{file.name()}, e.what());
      }
      if (!options.scalar_rows && !row.is_object() && !row.is_array()) return true;
      segments.push_back(std::to_string(i));
      walk(json::view_of(row), segments, depth);
      segments.pop_back();
      return true;
    });
  }
};

}  // namespace

void walk_tree_with_rows(const ZanjFile& file, JsonView start, const std::vector<std::string>& start_segments,
                         const std::function<bool(const TreeVisit&)>& visitor, const RowWalkOptions& options) {
  RowWalker{file, visitor, options, {}}.walk(start, start_segments, 0);
}

FoundNode find_node_in_rows(const ZanjFile& file, const NodeTarget& target) {
  FoundNode found;
  JsonView at = file.root();
  std::size_t done = 0;     // segments consumed before `at`
  std::size_t missing = 0;  // the first segment not found
  const PathSegments& segments = target.segments;
  for (;;) {
    const PathSegments rest(segments.begin() + static_cast<std::ptrdiff_t>(done), segments.end());
    std::size_t matched = 0;
    if (const JsonView node = follow_path(at, rest, &matched)) {
      found.json = node;
      return found;
    }
    missing = done + matched;
    const JsonView parent =
        follow_path(at, PathSegments(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(matched)));
    const Node rows = classify(parent);
    const auto index = row_index(rest[matched]);
    if (!(rows.list || rows.table) || !index) break;
    std::shared_ptr<const Json> row;
    const std::string prefix =
        join_path(PathSegments(segments.begin(), segments.begin() + static_cast<std::ptrdiff_t>(done + matched)));
    if (rows.table && rows.table->inline_rows) {  // a table an old release wrote inline
      const JsonView held = rows.table->inline_rows;
      if (*index >= held.size())
        throw Error(InArchive{file.name()}, AtPath{target.path, kNoObjectAt},
                    "'" + prefix + "' has no row " + rest[matched] + " (it has " + std::to_string(held.size()) + ")");
      found.rows.push_back(std::make_shared<const Json>(held[static_cast<std::size_t>(*index)].copy()));
      at = json::view_of(*found.rows.back());
      done += matched + 1;
      continue;
    }
    const ZipEntry* entry = file.archive().find(rows.member());
    if (!entry) break;
    array::for_each_jsonl_line(file.archive(), *entry, [&](std::uint64_t i, std::string_view line) {
      if (i < *index) return true;
      try {
        row = std::make_shared<const Json>(json::parse_json(line, entry->name + " line " + std::to_string(i + 1),
                                                            zip::json_line_limits(file.archive())));
      } catch (const Error& e) {  // context: the archive joins the message
        throw Error(InArchive{file.name()}, e.what());
      }
      return false;
    });
    if (!row)
      throw Error(InArchive{file.name()}, AtPath{target.path, kNoObjectAt},
                  "'" + prefix + "' has no row " + rest[matched] + " (member '" + entry->name + "' has fewer lines)")
          .in_member(InMember{entry->name, true});
    found.rows.push_back(row);
    at = json::view_of(*row);
    done += matched + 1;
  }
  if (done == 0) {
    found.json = find_node(file.root(), target, file.name());  // throws, naming the nearest parent
    return found;
  }
  const std::string parent =
      join_path(PathSegments(segments.begin(), segments.begin() + static_cast<std::ptrdiff_t>(missing)));
  throw Error(InArchive{file.name()}, AtPath{target.path, kNoObjectAt},
              "'" + parent + "' (inside a row) has no '" + escape_path_segment(segments[missing]) + "'");
}

}  // namespace zanj
