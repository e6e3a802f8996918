#include "ls_command.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <set>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "operands.hpp"
#include "output.hpp"
#include "style.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/many_archives.hpp"
#include "zanj/tree.hpp"
#include "zanj/summary.hpp"
#include "zanj/archive.hpp"

namespace zanj::cli {
namespace {

struct LsOptions {
  std::string file;
  std::string path;
  int depth = -1;
  std::string glob;
  bool long_format = false;
  bool members = false;
  bool json = false;
  bool paths_only = false;
  std::string kind;   ///< --kind: only nodes of this kind ("" all)
  std::string sort;   ///< --sort name|size ("" document order)
  bool tree = false;  ///< --tree: indented keys instead of paths
  bool wide = false;  ///< --wide: never truncate paths to the terminal's width
  std::string shard;  ///< --shard K/N, for a bucket pattern
};

/// "1 key", "2 keys".
std::string counted(std::uint64_t n, std::string_view word) {
  return std::to_string(n) + " " + std::string(word) + (n == 1 ? "" : "s");
}

/// One node as ls shows it: what the walk gives, or what a sorted listing found again.
struct Shown {
  const Node& node;
  const std::string& path;
  std::size_t depth;
};

/// Length of an external list or rows of a table: from the node, else from externals_info.
std::optional<std::uint64_t> external_length(const ZanjFile& z, const Node& n) {
  std::optional<std::uint64_t> len = n.table ? n.table->rows : n.list ? n.list->length : std::nullopt;
  if (len || !z.meta()) return len;
  if (const JsonView info = z.meta().find("externals_info"))
    if (const JsonView entry = info.find(n.member()))
      if (const JsonView l = entry.find("len(data)")) {
        std::uint64_t v = 0;
        if (l.get_uint64(v)) return v;
      }
  return std::nullopt;
}

/// What a node holds, as ls tells it: decided once, for both the JSON and the table.
enum class Holds { array, table, external_list, list, keys, scalar };

struct NodeFacts {
  Holds holds = Holds::scalar;
  /// Rows of a table, items of a list, keys of a dict-like node; nullopt when an external
  /// table's or list's length is stated nowhere.
  std::optional<std::uint64_t> count;
  std::uint64_t value_bytes = 0;     ///< an array's values, with -l
  const ZipEntry* member = nullptr;  ///< the member a reference node points to, with -l
};

NodeFacts describe(const ZanjFile& z, const Node& n, bool long_format) {
  NodeFacts f;
  if (n.array) {
    f.holds = Holds::array;
    if (long_format) f.value_bytes = array_value_bytes(n.array->dtype, n.array->shape).value_or(0);
  } else if (n.table || n.list) {
    f.holds = n.table ? Holds::table : Holds::external_list;
    f.count = external_length(z, n);
  } else if (n.kind == NodeKind::list) {
    f.holds = Holds::list;
    f.count = n.json.size();
  } else if (n.kind == NodeKind::dict || n.kind == NodeKind::dataclass || n.kind == NodeKind::other) {
    f.holds = Holds::keys;
    f.count = node_child_count(n);  // not node_children(): the root may have a million keys
  }
  if (long_format && n.is_reference()) f.member = z.archive().find(n.member());
  return f;
}

Json entry_json(const ZanjFile& z, const Shown& v, bool long_format) {
  const Node& n = v.node;
  const NodeFacts f = describe(z, n, long_format);
  const Json count = f.count ? Json(*f.count) : Json(nullptr);
  JsonObject o{{"path", v.path},
               {"kind", std::string(kind_name(n.kind))},
               {"format", n.format.empty() ? Json(nullptr) : Json(n.format)}};
  switch (f.holds) {
    case Holds::array: {
      const ArrayNode& a = *n.array;
      // "dtype" stays the stored text, which the conformance facts check; "numpy_dtype" is the
      // one spelling every other output prints.
      o.emplace_back("dtype", a.dtype);
      o.emplace_back("numpy_dtype", a.numpy_dtype());
      o.emplace_back("library", std::string(a.library()));
      o.emplace_back("shape", shape_json(a.shape));
      o.emplace_back("storage", a.external() ? "external" : "inline");
      o.emplace_back("encoding", std::string(encoding_name(a.encoding)));
      if (a.external()) o.emplace_back("member", a.member);
      if (long_format) o.emplace_back("bytes", f.value_bytes);
      break;
    }
    case Holds::table: {
      JsonArray cols;
      for (const auto& c : n.table->columns) cols.emplace_back(c);
      o.emplace_back("rows", count);
      o.emplace_back("columns", Json(std::move(cols)));
      break;
    }
    case Holds::external_list:
    case Holds::list:
      o.emplace_back("length", count);
      break;
    case Holds::keys:
      o.emplace_back("keys", count);
      break;
    case Holds::scalar:
      o.emplace_back("value", n.json.copy());
      break;
  }
  if ((f.holds == Holds::table || f.holds == Holds::external_list) && n.is_reference()) {
    o.emplace_back("storage", "external");
    o.emplace_back("member", n.member());
  } else if (f.holds == Holds::table) {
    o.emplace_back("storage", "inline");  // a small DataFrame an old release kept in __zanj__.json
  }
  if (f.member) {
    o.emplace_back("member_size", f.member->uncompressed_size);
    o.emplace_back("member_compressed_size", f.member->compressed_size);
  }
  return Json(std::move(o));
}

/// Kinds that hold data stand out; containers are blue; scalars stay plain.
Color kind_color(NodeKind kind) {
  switch (kind) {
    case NodeKind::array:
      return Color::green;
    case NodeKind::table:
      return Color::cyan;
    case NodeKind::external_list:
      return Color::magenta;
    case NodeKind::dict:
    case NodeKind::list:
    case NodeKind::dataclass:
      return Color::blue;
    case NodeKind::other:
      return Color::yellow;
    default:
      return Color::none;
  }
}

std::string scalar_preview(JsonView j) {
  // Only the first 57 characters show: a long string's head is enough to make them (each
  // byte escapes to at least one character), and the rest is never copied.
  constexpr std::size_t kHead = 256;
  std::string text = j.is_string() && j.as_string().size() > kHead
                         ? to_json(Json(std::string(j.as_string().substr(0, kHead))))
                         : to_json(j);
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return terminal_safe(text);  // the cut may split a UTF-8 sequence
}

/// A row's text before styling: the table's columns but the path.
struct RowText {
  std::string kind, detail, size, storage;
  bool inline_storage = false;
};

/// `with_storage` false leaves out the last column, which the column widths do not need.
RowText row_text(const ZanjFile& z, const Node& n, bool long_format, bool with_storage) {
  const NodeFacts f = describe(z, n, long_format && with_storage);
  const std::string count = f.count ? std::to_string(*f.count) : std::string("?");
  RowText r;
  switch (f.holds) {
    case Holds::array:
      r.detail = terminal_safe(n.array->numpy_dtype()) + shape_text(n.array->shape);
      if (with_storage)
        r.storage = n.array->external() ? terminal_safe(n.array->member)
                                        : "inline (" + std::string(encoding_name(n.array->encoding)) + ")";
      if (long_format) r.size = human_bytes(array_value_bytes(n.array->dtype, n.array->shape).value_or(0));
      break;
    case Holds::table:
      r.detail = (f.count ? counted(*f.count, "row") : "? rows") + " x " + counted(n.table->columns.size(), "column");
      break;
    case Holds::external_list:
    case Holds::list:
      r.detail = "length " + count;
      break;
    case Holds::keys:
      r.detail = f.count ? counted(*f.count, "key") : "? keys";
      break;
    case Holds::scalar:
      r.detail = scalar_preview(n.json);
      break;
  }
  if (with_storage) {
    if (f.holds == Holds::table || f.holds == Holds::external_list) r.storage = terminal_safe(n.member());
    if (f.member) r.storage += " (" + human_bytes(f.member->compressed_size) + " packed)";
  }
  r.kind = kind_name(n.kind);
  if (!n.format.empty() && !n.array && !n.table && !n.list) r.kind += " " + terminal_safe(n.format);
  if (n.array) r.kind += library_mark(n.array->library());
  r.inline_storage = !n.is_reference();
  return r;
}

/// The first column: the path ('/' for the root), or with --tree the key indented by depth.
std::string name_text(const Shown& v, bool tree) {
  if (v.path.empty()) return "/";
  if (!tree) return v.path;
  const std::size_t slash = v.path.rfind('/');
  return std::string(2 * v.depth, ' ') + (slash == std::string::npos ? v.path : v.path.substr(slash + 1));
}

/// `text` cut to `width` terminal columns by dropping its middle ("layers.0.a...n.weight"):
/// both the top-level key and the leaf's name stay readable. Whole UTF-8 sequences only.
std::string fit_width(const std::string& text, std::size_t width) {
  if (display_width(text) <= width || width < 8) return text;
  const auto units = [&text] {  // the text split into UTF-8 sequences
    std::vector<std::string_view> out;
    for (std::size_t i = 0; i < text.size();) {
      std::size_t n = 1;
      while (i + n < text.size() && (static_cast<unsigned char>(text[i + n]) & 0xC0) == 0x80) ++n;
      out.push_back(std::string_view(text).substr(i, n));
      i += n;
    }
    return out;
  }();
  const std::size_t keep = width - 3, head_width = keep / 2, tail_width = keep - head_width;
  std::string head, tail;
  std::size_t used = 0, front = 0;
  for (; front < units.size() && used + display_width(units[front]) <= head_width; ++front) {
    used += display_width(units[front]);
    head += units[front];
  }
  used = 0;
  std::vector<std::string_view> back;
  for (std::size_t i = units.size(); i > front && used + display_width(units[i - 1]) <= tail_width; --i) {
    used += display_width(units[i - 1]);
    back.push_back(units[i - 1]);
  }
  for (auto it = back.rbegin(); it != back.rend(); ++it) tail += *it;
  return head + "..." + tail;
}

/// How a table of rows is laid out: the column widths, and how wide the first column may be
/// (no limit unless stdout is a terminal narrower than the table).
struct Layout {
  TableWidths widths;
  std::size_t name_limit = std::string::npos;
  bool long_format = false;
  bool tree = false;
};

std::vector<std::string> entry_row(const ZanjFile& z, const Shown& v, const Layout& layout) {
  RowText r = row_text(z, v.node, layout.long_format, true);
  std::vector<std::string> row{bold(fit_width(name_text(v, layout.tree), layout.name_limit)),
                               colored(kind_color(v.node.kind), r.kind), std::move(r.detail)};
  if (layout.long_format)  // sizes right-aligned, so that they read as a column of numbers
    row.push_back(std::string(layout.widths.width[3] - display_width(r.size), ' ') + r.size);
  row.push_back(r.inline_storage ? dim(r.storage) : std::move(r.storage));
  return row;
}

/// The widths entry_row's row needs, without making it: styling adds no width, and the last
/// column (storage) is not padded.
void measure_entry(TableWidths& widths, const ZanjFile& z, const Shown& v, bool long_format, bool tree) {
  const RowText r = row_text(z, v.node, long_format, false);
  if (widths.width.size() < 5) widths.width.resize(5, 0);
  widths.width[0] = std::max(widths.width[0], display_width(name_text(v, tree)));
  widths.width[1] = std::max(widths.width[1], display_width(r.kind));
  widths.width[2] = std::max(widths.width[2], display_width(r.detail));
  widths.width[3] = std::max(widths.width[3], display_width(r.size));
}

/// Columns of the terminal stdout is on (as stats --hist finds them: what the terminal says,
/// else $COLUMNS, else 80); 0 when stdout is not a terminal (nothing is then cut).
std::size_t stdout_width() {
  if (!stdout_is_terminal()) return 0;
  if (const auto columns = stdout_columns()) return *columns;
  if (const char* columns = std::getenv("COLUMNS"); columns && std::atoi(columns) > 0)
    return static_cast<std::size_t>(std::atoi(columns));
  return 80;
}

/// The first column's limit when the rows would be wider than the terminal: at least 24
/// columns, and the rest for kind, details and 24 of the storage column.
std::size_t name_limit(const TableWidths& widths, bool long_format) {
  const std::size_t columns = stdout_width();
  if (columns == 0) return std::string::npos;
  std::size_t others = widths.width[1] + 2 + widths.width[2] + 2 + 24;
  if (long_format) others += widths.width[3] + 2;
  if (widths.width[0] + 2 + others <= columns) return std::string::npos;
  return std::max<std::size_t>(24, columns > others + 2 ? columns - others - 2 : 0);
}

/// What --sort orders by: the bytes an array's values take, or a table's or list's member.
std::uint64_t node_size(const ZanjFile& z, const Node& n) {
  if (n.array) return array_value_bytes(n.array->dtype, n.array->shape).value_or(0);
  if (n.is_reference())
    if (const ZipEntry* e = z.archive().find(n.member())) return e->uncompressed_size;
  return 0;
}

int list_members(const ZanjFile& z, const LsOptions& opt) {
  if (opt.json) {
    JsonObject listing{{"file", opt.file}, {"members", Json(members_json(z.archive()))}};
    add_transfer_json(listing, z.archive());
    write_out(to_json(Json(std::move(listing))) + "\n");
    return 0;
  }
  // Two passes over the entries (widths, then lines, written as they go) instead of a table
  // of seven strings per member held until the end: 16 MB on 50,000 members.
  const std::vector<std::string> header{"Length", "Method", "Size", "Cmpr", "Modified", "CRC-32", "Name"};
  std::vector<std::string> cells(header.size());
  const auto fill = [&](const ZipEntry& e) -> const std::vector<std::string>& {
    const auto ratio = e.uncompressed_size ? 100 - (e.compressed_size * 100 / e.uncompressed_size) : 0;
    cells[0] = std::to_string(e.uncompressed_size), cells[1] = method_name(e.method);
    cells[2] = std::to_string(e.compressed_size), cells[3] = std::to_string(static_cast<std::int64_t>(ratio)) + "%";
    cells[4] = e.mtime_iso8601(), cells[5] = crc32_hex(e.crc32), cells[6] = terminal_safe(e.name);
    return cells;
  };
  std::uint64_t total = 0, packed = 0;
  TableWidths widths;
  widths.measure(header);
  for (const auto& e : z.archive().entries()) {
    widths.measure(fill(e));
    total += e.uncompressed_size;
    packed += e.compressed_size;
  }
  const std::vector<std::string> totals{std::to_string(total),
                                        "",
                                        std::to_string(packed),
                                        "",
                                        "",
                                        "",
                                        std::to_string(z.archive().entries().size()) + " files"};
  widths.measure(totals);
  ChunkedOutput out;
  widths.append_line(out.buffer(), header);
  for (const auto& e : z.archive().entries()) {
    widths.append_line(out.buffer(), fill(e));
    out.maybe_flush();
  }
  widths.append_line(out.buffer(), totals);
  out.flush();
  return 0;
}

int run_ls(const LsOptions& opt) {
  if (opt.tree && !opt.sort.empty()) throw Error("--tree shows the tree in its order: no --sort", Exit::usage);
  const ZanjFile z = open_zanj(opt.file);
  for (const auto& p : z.problems()) warn(z.name() + ": " + p);
  if (opt.members) return list_members(z, opt);

  const PathSegments start = split_path(opt.path);
  // A missing path is named with its nearest parent and that parent's keys, as cat does.
  // A path may go on into the rows of an external list (lst/3).
  const FoundNode found = find_node_in_rows(z, NodeTarget{opt.path, start, ""});
  const JsonView node = found.json;

  // Nothing proportional to the tree is held (but with --sort): --json and -1 print each
  // entry as it is visited; the aligned table walks the tree twice, once for the column
  // widths (only the padded columns' text, unstyled) and once to print each row as it is made
  // (a row costs far less to make again than a million to keep).
  // The tree goes on into the rows of external lists (a list of dataclasses that each hold an
  // array: lst/3/arr), within --depth: a row is read only when its entries are printed. Rows
  // that are scalars get no entries, as the elements of a plain list get none; a table's rows
  // are its columns' values, shown by cat, not here.
  RowWalkOptions rows;
  rows.tables = false;
  rows.scalar_rows = false;
  // A list whose member cannot be read is listed without its rows, with a warning (once,
  // though the table is walked twice): ls shows the structure, verify judges the data.
  std::set<std::string> warned;
  rows.on_unreadable_rows = [&](const std::string& message) {
    if (warned.insert(message).second) warn(message + " (its rows are not listed)");
  };
  const auto walk_matching = [&](const std::function<void(const Shown&)>& on_shown) {
    walk_tree_with_rows(
        z, node, start,
        [&](const TreeVisit& v) {
          if ((opt.glob.empty() || fnmatch(opt.glob.c_str(), v.path().c_str(), 0) == 0) &&
              (opt.kind.empty() || kind_name(v.node.kind) == opt.kind))
            on_shown(Shown{v.node, v.path(), v.depth});
          if (opt.depth >= 0 && v.depth >= static_cast<std::size_t>(opt.depth)) return false;
          return !is_scalar_list(v.node.json);  // elements of a plain list of scalars get no entries
        },
        rows);
  };
  // --sort: the shown paths and sizes are kept and sorted; each node is found again by its
  // path to print it.
  std::optional<std::vector<std::pair<std::uint64_t, std::string>>> sorted;
  if (!opt.sort.empty()) {
    sorted.emplace();
    walk_matching([&](const Shown& v) { sorted->emplace_back(opt.sort == "size" ? node_size(z, v.node) : 0, v.path); });
    std::stable_sort(sorted->begin(), sorted->end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first > b.first : a.second < b.second;  // largest first, then by name
    });
  }
  const auto visit_shown = [&](const std::function<void(const Shown&)>& on_shown) {
    if (!sorted) return walk_matching(on_shown);
    for (const auto& [size, path] : *sorted) {
      const FoundNode entry = find_node_in_rows(z, NodeTarget{path, split_path(path), ""});  // rows too
      on_shown(Shown{classify(entry.json), path, 0});
    }
  };
  if (!opt.glob.empty() || !opt.kind.empty()) {  // a filter that matches nothing is an answer too
    bool any = sorted && !sorted->empty();
    if (!sorted) walk_matching([&](const Shown&) { any = true; });
    if (!any)
      throw Error(z.name() + ": no node" + (opt.path.empty() ? std::string() : " under '" + opt.path + "'") +
                      (opt.glob.empty() ? std::string() : " matches --glob '" + opt.glob + "'") +
                      (opt.glob.empty() || opt.kind.empty() ? "" : " and") +
                      (opt.kind.empty() ? std::string() : " is of --kind " + opt.kind),
                  Exit::invalid);
  }
  ChunkedOutput out;
  if (opt.json) {
    // Byte for byte what to_json writes for {"file": ..., "entries": [...]}.
    out.add("{\"file\": ");
    write_json_string(out.buffer(), opt.file);
    out.add(", \"entries\": [");
    bool first = true;
    visit_shown([&](const Shown& v) {
      if (!first) out.buffer() += ", ";
      first = false;
      write_json(out.buffer(), entry_json(z, v, opt.long_format));
      out.maybe_flush();
    });
    out.add("]");
    JsonObject transfer;  // a URL's cost, after the entries that incurred it
    add_transfer_json(transfer, z.archive());
    for (const auto& [key, value] : transfer) {
      out.add(", ");
      write_json_string(out.buffer(), key);
      out.add(": " + to_json(value));
    }
    out.add("}\n");
  } else if (opt.paths_only) {
    visit_shown([&](const Shown& v) {
      if (v.path.empty()) return;  // the root: an empty line helps nobody
      out.buffer() += v.path;
      out.buffer() += '\n';
      out.maybe_flush();
    });
  } else {
    Layout layout;
    layout.long_format = opt.long_format;
    layout.tree = opt.tree;
    visit_shown([&](const Shown& v) { measure_entry(layout.widths, z, v, opt.long_format, opt.tree); });
    if (layout.widths.width.empty()) layout.widths.width.resize(5, 0);
    if (!opt.wide) {
      layout.name_limit = name_limit(layout.widths, opt.long_format);
      layout.widths.width[0] = std::min(layout.widths.width[0], layout.name_limit);
    }
    visit_shown([&](const Shown& v) {
      layout.widths.append_line(out.buffer(), entry_row(z, v, layout));
      out.maybe_flush();
    });
  }
  out.flush();
  return 0;
}

/// ls on FILE, or on every archive a bucket pattern matches, one after another: each listing
/// under a "NAME:" line (--json: each archive's object names it), a failed one reported and
/// the others still listed.
int run_ls_operands(const LsOptions& opt) {
  if (!is_bucket_pattern(opt.file)) return run_ls(opt);
  int status = 0;
  const std::vector<std::string> files = expand_operands({opt.file}, opt.shard, status);
  for (std::size_t i = 0; i < files.size(); ++i) {
    LsOptions one = opt;
    one.file = files[i];
    if (!opt.json) write_out((i ? "\n" : "") + bold(terminal_safe(files[i])) + ":\n");
    try {
      status = std::max(status, run_ls(one));
    } catch (const Error& e) {
      if (is_output_closed(e)) throw;
      error(e.what());
      status = std::max(status, e.exit_code());
    }
  }
  return status;
}

}  // namespace

Command setup_ls(CLI::App& parent) {
  auto opt = std::make_shared<LsOptions>();
  CLI::App* app =
      parent.add_subcommand("ls", "List the object tree: kinds, dtypes, shapes and where values are stored");
  app->add_option("FILE", opt->file, "Archive to list (- reads it from standard input)")
      ->required()
      ->transform(input_file());
  app->add_option("PATH", opt->path, "Object path to start at (default: the root)");
  app->add_option("-d,--depth", opt->depth, "Descend at most N levels below PATH")
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  app->add_option("--glob", opt->glob, "Only show paths matching this shell pattern ('*' also matches '/')")
      ->type_name("PATTERN");
  app->add_flag("-l,--long", opt->long_format, "Add value sizes and packed member sizes");
  app->add_flag("--members", opt->members, "List the raw ZIP members instead, like `unzip -v`");
  app->add_flag("--json", opt->json, "Machine-readable output");
  app->add_flag("-1,--paths", opt->paths_only, "Print only object paths, one per line (for scripts and completion)");
  app->add_option("--kind", opt->kind, "Only show nodes of this kind (array, table, dict, list, string, ...)")
      ->check(CLI::IsMember({"dict", "list", "array", "table", "external_list", "dataclass", "string", "number", "bool",
                             "null", "other"}));
  app->add_option("--sort", opt->sort, "List in this order instead of the tree's: name, or size (largest first)")
      ->check(CLI::IsMember({"name", "size"}));
  app->add_flag("--tree", opt->tree, "Show keys indented by depth instead of whole paths");
  app->add_flag("--wide", opt->wide, "Never cut long paths to the terminal's width");
  add_shard_option(app, opt->shard);
  return {app, [opt] { return run_ls_operands(*opt); }};
}

}  // namespace zanj::cli
