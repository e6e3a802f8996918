#include "zanj/format.hpp"

#include <set>

#include "zanj/error.hpp"
#include "zanj/tree.hpp"
#include "format/element_text.hpp"
#include "json/json_view_access.hpp"

namespace zanj {
namespace {

bool is_reference(const Node& node) { return node.is_reference() || (node.array && node.array->external()); }

/// Whether a node is written otherwise than as stored: a reference gets its data, and with
/// --plain every node the library wrapped (its format key) loses the wrapper.
bool rewritten(const Node& node, bool plain) { return is_reference(node) || (plain && !node.format.empty()); }

bool contains_rewritten(JsonView value, bool plain) {
  bool found = false;
  walk_tree(value, {}, [&](const TreeVisit& v) {
    found = found || rewritten(v.node, plain);
    return !found;
  });
  return found;
}

class ResolvedWriter {
 public:
  ResolvedWriter(const ZanjFile& file, const ResolveOptions& options, OutputBuffer& out)
      : file_(file), options_(options), out_(out) {}

  void value(JsonView v, const std::string& path, int level) {
    const Node node = classify(v);
    if (options_.plain && (node.array || node.table || node.list)) return plain_values(node, path);
    if (is_reference(node)) return reference(node, path, level);
    if (!contains_rewritten(v, options_.plain)) return plain(v, level);
    const bool array = v.is_array();
    out_.text() += array ? '[' : '{';
    std::size_t i = 0;
    auto next = [&](int child_level) {
      if (i++) out_.text() += options_.indent ? "," : ", ";
      newline(child_level);
    };
    if (array) {
      for (const JsonView child : v) {
        next(level + 1);
        value(child, child_path(path, std::to_string(i - 1)), level + 1);
      }
    } else {
      for (const auto [key, child] : v.members()) {
        if (options_.plain && key == kFormatKey) continue;  // a dataclass's or model's class name
        next(level + 1);
        key_text(key);
        value(child, child_path(path, key), level + 1);
      }
    }
    newline(level);
    out_.text() += array ? ']' : '}';
  }

 private:
  void newline(int level) {
    if (!options_.indent) return;
    out_.text() += '\n';
    out_.text().append(static_cast<std::size_t>(options_.indent) * static_cast<std::size_t>(level), ' ');
  }

  void key_text(std::string_view key) {
    write_json_string(out_.text(), key);
    out_.text() += ": ";
  }

  /// A subtree without references, through the one JSON writer, indented to its level.
  void plain(JsonView v, int level) {
    if (!options_.indent) return write_json(out_, v);
    const std::string text = to_json(v, JsonStyle{options_.indent});
    const std::string indent(static_cast<std::size_t>(options_.indent) * static_cast<std::size_t>(level), ' ');
    for (char c : text) {
      out_.text() += c;
      if (c == '\n') out_.text() += indent;  // line breaks only occur between tokens
    }
  }

  /// --plain: an array's values as nested lists, a table's rows as objects (or its columns as
  /// lists), a list's items; nothing of the library's wrapper.
  void plain_values(const Node& node, const std::string& path) {
    if (node.array) {
      const ArrayValues values(file_.archive(), *node.array, path, options_.arrays);
      write_array_json(values, select_all(values.shape()), out_);
    } else if (node.table && options_.table_columns) {
      write_table_columns_json(file_.archive(), node, path, out_);
    } else {
      rows(node, path, 0);
    }
    out_.flush_if_full();
  }

  /// An external list's or table's rows, each written as value() writes a node: a row that
  /// holds an external array of its own (a list of dataclasses with arrays) gets its data too,
  /// as the library's loader fills it in after the list.
  /// A row that refers to a list already being written further up (its own, in a hostile
  /// archive) is written as stored: following it would never end.
  void rows(const Node& node, const std::string& path, int level) {
    const std::string& member = node.member();
    if (!open_.insert(member).second) return write_rows_json(file_.archive(), node, path, out_);
    write_rows_json(file_.archive(), node, path, out_, [&](std::uint64_t i, const Json& row) {
      const JsonView r = json::view_of(row);
      if (contains_rewritten(r, options_.plain))
        value(r, child_path(path, std::to_string(i)), level + 1);
      else
        write_json(out_.text(), row);  // as stored, on one line, as rows always were
    });
    open_.erase(member);
  }

  /// The node's own keys, then "data" with the values from its member.
  void reference(const Node& node, const std::string& path, int level) {
    out_.text() += '{';
    for (const auto [key, child] : node.json.members()) {
      if (key == "data") continue;  // replaced by the member's values below
      newline(level + 1);
      key_text(key);
      plain(child, level + 1);
      out_.text() += options_.indent ? "," : ", ";
    }
    newline(level + 1);
    key_text("data");
    if (node.array) {
      const ArrayValues values(file_.archive(), *node.array, path, options_.arrays);
      write_array_json(values, select_all(values.shape()), out_);
    } else {
      rows(node, path, level + 1);
    }
    newline(level);
    out_.text() += '}';
    out_.flush_if_full();
  }

  const ZanjFile& file_;
  const ResolveOptions& options_;
  OutputBuffer& out_;
  std::set<std::string> open_;  ///< members of the lists whose rows are being written
};

}  // namespace

void write_resolved(const ZanjFile& file, JsonView node, const PathSegments& segments, const ResolveOptions& options,
                    OutputBuffer& out) {
  // A zero-size array too large to print as JSON is refused before anything is printed.
  walk_tree(node, segments, [&](const TreeVisit& v) {
    if (v.node.array && (v.node.array->external() || options.plain)) {  // else inline ones print as stored
      try {
        check_json_printable(v.node.array->shape);
      } catch (const Error& e) {  // context: the array joins the message
        throw Error(InArchive{file.name()}, AtPath{v.path()}, e.what(), e.exit());
      }
    }
    return !v.node.array;
  });
  ResolvedWriter(file, options, out).value(node, join_path(segments), 0);
}

}  // namespace zanj
