#include "zanj/format.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "zanj/error.hpp"
#include "zanj/json.hpp"
#include "array/member_reader.hpp"
#include "io/spool_file.hpp"
#include "format/element_text.hpp"
#include "json/json_parse.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

/// Stands for "not known" when a slice can be resolved without the row count.
constexpr auto kUnknownLength = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());

struct RowSource {
  const Archive& archive;
  const ZipEntry* entry;  // the member holding the rows, one per line; null for inline rows
  JsonView inline_rows;   // a table stored inline (old releases): its rows
  std::string where;      // "archive: table 'path'"
  bool table;
};

RowSource open_rows(const Archive& archive, const Node& node, std::string_view path) {
  const char* what = node.table ? "table" : "list";
  const AtPath at{path.empty() ? std::string("/") : std::string(path), what};
  std::string where = archive.name() + ": " + what + " '" + at.path + "'";
  if (!node.table && !node.list) throw Error("internal: rows of a node that is neither a table nor a list");
  if (node.table && node.table->inline_rows)
    return RowSource{archive, nullptr, node.table->inline_rows, std::move(where), true};
  if (node.member().empty()) throw Error(InArchive{archive.name()}, at, "has no \"$ref\" member name");
  const ZipEntry* entry = archive.find(node.member());
  if (!entry)
    throw Error(InArchive{archive.name()}, at, "refers to member '" + node.member() + "', which is not in the archive")
        .in_member(InMember{node.member(), true});
  return RowSource{archive, entry, JsonView(), std::move(where), node.table.has_value()};
}

/// Each row's JSON text, in order: a member's lines, or an inline row written as the line
/// that would hold it. Return false to stop.
void each_row_line(const RowSource& rows, const std::function<bool(std::uint64_t, std::string_view)>& on_line) {
  if (rows.entry) return array::for_each_jsonl_line(rows.archive, *rows.entry, on_line);
  std::uint64_t i = 0;
  for (const JsonView row : rows.inline_rows)
    if (!on_line(i++, to_json(row))) return;
}

/// "line N of member 'M'", or "row N" of an inline table, for messages.
std::string row_name(const RowSource& rows, std::uint64_t index) {
  if (!rows.entry) return "row " + std::to_string(index);
  return "line " + std::to_string(index + 1) + " of member '" + rows.entry->name + "'";
}

std::uint64_t count_rows(const RowSource& rows) {
  if (!rows.entry) return rows.inline_rows.size();
  std::uint64_t n = 0;
  array::for_each_jsonl_line(rows.archive, *rows.entry, [&](std::uint64_t, std::string_view) {
    ++n;
    return true;
  });
  return n;
}

Json parse_row(const RowSource& rows, std::uint64_t index, std::string_view line) {
  try {
    return json::parse_json(
        line, (rows.entry ? rows.entry->name : std::string("inline table")) + " line " + std::to_string(index + 1),
        zip::json_line_limits(rows.archive));
  } catch (const Error& e) {  // context: the archive joins the message
    throw Error(InArchive{rows.archive.name()}, e.what());
  }
}

/// Writes rows in one format: separators, the csv header, the closing bracket.
class RowWriter {
 public:
  RowWriter(const RowSource& rows, const Node& node, RowFormat format, bool single, OutputBuffer& out)
      : rows_(rows), node_(node), format_(format), single_(single), out_(out) {
    if (format_ == RowFormat::csv) {
      if (!node_.table)
        throw Error("--format csv is for tables and arrays; this is a list (use json or jsonl)", Exit::usage);
      for (std::size_t i = 0; i < node_.table->columns.size(); ++i) {
        if (i) out_.text() += ',';
        format::append_csv_field(out_.text(), node_.table->columns[i]);
      }
      out_.text() += '\n';
    }
    if (format_ == RowFormat::json && !single_) out_.text() += '[';
  }

  void row(std::uint64_t index, std::string_view line) {
    const Json value = parse_row(rows_, index, line);
    std::string& text = out_.text();
    if (format_ == RowFormat::csv) {
      write_csv(index, value, text);
    } else {
      if (format_ == RowFormat::json && count_++ > 0) text += ", ";
      write_json(text, value);
      if (format_ == RowFormat::jsonl) text += '\n';
    }
    out_.flush_if_full();
  }

  void finish() {
    if (format_ == RowFormat::json) out_.text() += single_ ? "\n" : "]\n";
  }

 private:
  void write_csv(std::uint64_t index, const Json& value, std::string& text) const {
    if (!value.is_object()) throw Error(rows_.where + ": " + row_name(rows_, index) + " is not a row object");
    const auto& columns = node_.table->columns;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (i) text += ',';
      const Json* cell = value.find(columns[i]);
      // pandas writes missing values (None, and NaN, its float columns' missing value) as
      // empty fields
      if (!cell || cell->is_null() || (cell->type() == Json::Type::real && std::isnan(cell->as_real()))) continue;
      if (cell->is_string()) {
        format::append_csv_field(text, cell->as_string());
      } else if (cell->is_array() || cell->is_object()) {
        format::append_csv_field(text, to_json(*cell));
      } else {
        write_json(text, *cell);
      }
    }
    text += '\n';
  }

  const RowSource& rows_;
  const Node& node_;
  RowFormat format_;
  bool single_;
  OutputBuffer& out_;
  std::uint64_t count_ = 0;
};

/// Calls on_row for the rows start, start + step, ... (step > 0), `count` of them at most;
/// returns how many there were.
template <typename OnRow>
std::uint64_t for_each_selected_row(const RowSource& rows, const Segment& s, OnRow&& on_row) {
  std::uint64_t seen = 0;
  if (s.count == 0) return 0;
  const auto step = static_cast<std::uint64_t>(s.step);
  each_row_line(rows, [&](std::uint64_t i, std::string_view line) {
    if (i < s.start || (i - s.start) % step != 0) return true;
    on_row(i, line);
    return ++seen < s.count;
  });
  return seen;
}

/// A negative step: the rows in increasing order go to a temporary file, then come back last
/// first. Line texts and their end offsets are spooled, so memory stays small.
void write_backwards(const RowSource& rows, const Segment& s, RowWriter& writer) {
  const Segment ascending{s.at(s.count - 1), -s.step, s.count};
  io::SpoolFile lines, ends;
  std::uint64_t end = 0;
  for_each_selected_row(rows, ascending, [&](std::uint64_t, std::string_view line) {
    lines.append(line);
    end += line.size();
    ends.append(std::string_view(reinterpret_cast<const char*>(&end), sizeof end));
  });
  std::string line;
  for (std::uint64_t k = s.count; k-- > 0;) {
    std::uint64_t stop = 0, begin = 0;
    ends.read_at(k * sizeof stop, &stop, sizeof stop);
    if (k > 0) ends.read_at((k - 1) * sizeof begin, &begin, sizeof begin);
    line.resize(static_cast<std::size_t>(stop - begin));
    lines.read_at(begin, line.data(), line.size());
    writer.row(ascending.at(k), line);
  }
}

}  // namespace

void print_rows(const Archive& archive, const Node& node, std::string_view path, const RowRequest& request,
                RowFormat format, OutputBuffer& out) {
  const RowSource rows = open_rows(archive, node, path);
  std::size_t indices = 0;
  for (const auto& item : request.slice.items) indices += item.kind != SliceItem::Kind::ellipsis;
  if (indices > 1)
    throw Error("slice " + request.slice.text + " has " + std::to_string(indices) + " indices, but a " +
                    (rows.table ? "table" : "list") + " has one dimension (its rows)",
                Exit::usage);
  const bool count_first = request.slice.needs_length() || request.tail;
  const std::uint64_t length = count_first ? count_rows(rows) : kUnknownLength;
  Selection selection;
  try {
    selection = select(request.slice, {length});
    if (request.head) selection = take_head(selection, *request.head);
    if (request.tail) selection = take_tail(selection, *request.tail);
  } catch (const Error& e) {  // context: the rows join the message
    throw Error(rows.where + ": " + e.what(), e.exit());
  }
  const Segment s = selection.axes[0].segments[0];
  const bool single = !selection.axes[0].kept;

  RowWriter writer(rows, node, format, single, out);
  if (s.count > 1 && s.step < 0) {
    write_backwards(rows, s, writer);
  } else {
    const std::uint64_t seen =
        for_each_selected_row(rows, s, [&](std::uint64_t i, std::string_view line) { writer.row(i, line); });
    if (single && seen == 0)
      throw Error(rows.where + ": row " + std::to_string(s.start) + " is out of range (it has " +
                      std::to_string(count_rows(rows)) + " rows)",
                  Exit::usage);
  }
  writer.finish();
}

void print_list_elements(JsonView list, std::string_view where, const RowRequest& request, RowFormat format,
                         OutputBuffer& out) {
  std::size_t indices = 0;
  for (const auto& item : request.slice.items) indices += item.kind != SliceItem::Kind::ellipsis;
  if (indices > 1)
    throw Error(std::string(where) + ": slice " + request.slice.text + " has " + std::to_string(indices) +
                    " indices, but a list has one dimension (its elements)",
                Exit::usage);
  if (format == RowFormat::csv)
    throw Error("--format csv is for tables and arrays; this is a list (use json or jsonl)", Exit::usage);
  Selection selection;
  try {
    selection = select(request.slice, {list.size()});
    if (request.head) selection = take_head(selection, *request.head);
    if (request.tail) selection = take_tail(selection, *request.tail);
  } catch (const Error& e) {  // context: the list joins the message
    throw Error(std::string(where) + ": " + e.what(), e.exit());
  }
  const Segment s = selection.axes[0].segments[0];
  const bool single = !selection.axes[0].kept;
  const bool array = format == RowFormat::json && !single;
  if (array) out.text() += '[';
  for (std::uint64_t k = 0; k < s.count; ++k) {
    if (array && k) out.text() += ", ";
    write_json(out.text(), list[static_cast<std::size_t>(s.at(k))]);
    if (!array) out.text() += '\n';
    out.flush_if_full();
  }
  if (array) out.text() += "]\n";
}

void write_rows_json(const Archive& archive, const Node& node, std::string_view path, OutputBuffer& out,
                     const std::function<void(std::uint64_t, const Json&)>& write_row) {
  const RowSource rows = open_rows(archive, node, path);
  out.text() += '[';
  bool first = true;
  each_row_line(rows, [&](std::uint64_t i, std::string_view line) {
    if (!first) out.text() += ", ";
    first = false;
    if (write_row)
      write_row(i, parse_row(rows, i, line));
    else
      write_json(out.text(), parse_row(rows, i, line));
    out.flush_if_full();
    return true;
  });
  out.text() += ']';
}

void write_table_columns_json(const Archive& archive, const Node& node, std::string_view path, OutputBuffer& out) {
  const RowSource rows = open_rows(archive, node, path);
  if (!rows.table) throw Error("internal: columns of a node that is not a table");
  out.text() += '{';
  const std::vector<std::string>& columns = node.table->columns;
  for (std::size_t c = 0; c < columns.size(); ++c) {
    if (c) out.text() += ", ";
    write_json_string(out.text(), columns[c]);
    out.text() += ": [";
    each_row_line(rows, [&](std::uint64_t i, std::string_view line) {
      if (i) out.text() += ", ";
      const Json row = parse_row(rows, i, line);
      if (!row.is_object()) throw Error(rows.where + ": " + row_name(rows, i) + " is not a row object");
      const Json* cell = row.find(columns[c]);
      if (cell)
        write_json(out.text(), *cell);
      else
        out.text() += "null";
      out.flush_if_full();
      return true;
    });
    out.text() += ']';
  }
  out.text() += '}';
}

}  // namespace zanj
