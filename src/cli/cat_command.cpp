#include "cat_command.hpp"

#include <memory>
#include <optional>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "progress.hpp"
#include "zanj/archive.hpp"
#include "zanj/array.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/summary.hpp"
#include "zanj/tree.hpp"

namespace zanj::cli {
namespace {

struct CatOptions {
  std::string file;
  std::string target;  // object path, optionally with a slice
  std::string format;  // "" = the node kind's default
  bool json = false;
  bool full = false;
  bool summary = false;  // --summary: abbreviate large arrays even into a pipe
  bool resolve = false;
  bool plain = false;    // --plain: resolved, without the library's wrappers
  bool columns = false;  // --columns: with --plain, tables as column lists
  std::optional<std::uint64_t> head, tail;
  std::string member;
};

[[noreturn]] void usage(const std::string& message) { throw Error(message, Exit::usage); }

/// Output for this node kind; "" (the default) and "text" mean the kind's natural form.
void check_format(const CatOptions& opt, std::initializer_list<const char*> allowed, std::string_view what) {
  if (opt.format.empty()) return;
  for (const char* f : allowed)
    if (opt.format == f) return;
  std::string list;
  for (const char* f : allowed) list += std::string(list.empty() ? "" : ", ") + f;
  usage("--format " + opt.format + " does not apply to " + std::string(what) + " (use " + list + ")");
}

ValueFormat array_format(const std::string& name) {
  if (name == "json") return ValueFormat::json;
  if (name == "csv") return ValueFormat::csv;
  if (name == "npy") return ValueFormat::npy;
  if (name == "raw") return ValueFormat::raw;
  return ValueFormat::text;
}

int print_member(const CatOptions& opt, OutputBuffer& out) {
  if (!opt.target.empty()) usage("--member takes no object path");
  if (opt.resolve || opt.plain || opt.head || opt.tail || opt.full || (!opt.format.empty() && opt.format != "raw"))
    usage("--member prints a member's bytes as they are: no --format, --resolve, --head, --tail or --full");
  const Archive archive(opt.file);
  const ZipEntry* entry = archive.find(opt.member);
  if (!entry) throw Error(archive.name() + ": no member named '" + opt.member + "' (zanj ls --members lists them)");
  Progress progress("cat " + terminal_safe(opt.member), entry->uncompressed_size, progress_wanted(true));
  archive.read(*entry, [&](std::string_view chunk) {
    out.write(chunk);
    progress.add(chunk.size());
    return true;
  });
  return 0;
}

void print_array_node(const ZanjFile& z, const Node& node, const NodeTarget& target, const CatOptions& opt,
                      OutputBuffer& out) {
  check_format(opt, {"text", "json", "csv", "npy", "raw"}, "arrays");
  // Only external arrays take long: inline ones are already decoded from __zanj__.json.
  Progress progress("cat " + (target.path.empty() ? std::string("/") : terminal_safe(target.path)), 0,
                    progress_wanted(true));
  ArrayReadOptions read;
  read.progress = progress.reporter();
  const ArrayValues values(z.archive(), *node.array, target.path, read);
  Selection selection;
  try {
    selection = target.slice.empty() ? select_all(values.shape()) : select(parse_slice(target.slice), values.shape());
    if (opt.head) selection = take_head(selection, *opt.head);
    if (opt.tail) selection = take_tail(selection, *opt.tail);
    if (opt.format == "json") check_json_printable(selection.shape());
  } catch (const Error& e) {
    throw Error(z.name() + ": array '" + target.path + "': " + e.what(), e.exit());
  }
  ArrayPrintOptions print;
  print.format = array_format(opt.format);
  // People read a terminal, where numpy's summary helps; a pipe feeds a program, which wants
  // every value (--summary asks for the summary anyway).
  print.full = opt.full || (!opt.summary && !stdout_is_terminal());
  print_array(values, selection, print, out);
}

void print_rows_node(const ZanjFile& z, const Node& node, const NodeTarget& target, const CatOptions& opt,
                     OutputBuffer& out) {
  if (node.table) {
    check_format(opt, {"text", "jsonl", "json", "csv"}, "tables");
  } else {
    check_format(opt, {"text", "jsonl", "json"}, "lists");
  }
  RowRequest request{target.slice.empty() ? SliceSpec{} : parse_slice(target.slice), opt.head, opt.tail};
  const RowFormat format = opt.format == "json"  ? RowFormat::json
                           : opt.format == "csv" ? RowFormat::csv
                                                 : RowFormat::jsonl;
  print_rows(z.archive(), node, target.path, request, format, out);
}

int run_cat(const CatOptions& opt, OutputBuffer& out) {
  if (!opt.member.empty()) return print_member(opt, out);
  const ZanjFile z = open_zanj(opt.file);
  for (const auto& p : z.problems()) warn(z.name() + ": " + p);
  const NodeTarget target = parse_node_target(z.root(), opt.target);
  // A path may go on into the rows of an external list or table (lst/3/arr).
  const FoundNode found = find_node_in_rows(z, target);
  const JsonView json = found.json;
  const Node node = classify(json);
  const int indent = stdout_is_terminal() ? 2 : 0;  // pretty for people, one line for pipes

  if (opt.columns && !opt.plain) usage("--columns goes with --plain (tables as column lists)");
  if (opt.resolve || opt.plain) {
    const char* option = opt.plain ? "--plain" : "--resolve";
    check_format(opt, {"text", "json"}, std::string(option) + " (it prints JSON)");
    if (!target.slice.empty() || opt.head || opt.tail)
      usage(std::string(option) + " prints whole nodes: no slice, --head or --tail (--format json prints a selection)");
    ResolveOptions resolve;
    resolve.indent = indent;
    resolve.plain = opt.plain;
    resolve.table_columns = opt.columns;
    write_resolved(z, json, target.segments, resolve, out);
    out.text() += '\n';
  } else if (node.array) {
    print_array_node(z, node, target, opt, out);
  } else if (node.table || node.list) {
    print_rows_node(z, node, target, opt, out);
  } else if (node.kind == NodeKind::list && (!target.slice.empty() || opt.head || opt.tail || opt.format == "jsonl")) {
    // An inline list selects and prints elements as an external list does its rows.
    check_format(opt, {"text", "jsonl", "json"}, "lists");
    RowRequest request{target.slice.empty() ? SliceSpec{} : parse_slice(target.slice), opt.head, opt.tail};
    const std::string where = z.name() + ": list '" + (target.path.empty() ? std::string("/") : target.path) + "'";
    print_list_elements(json, where, request, opt.format == "json" ? RowFormat::json : RowFormat::jsonl, out);
  } else {
    check_format(opt, {"text", "json"}, std::string("a ") + std::string(kind_name(node.kind)) + " (it prints as JSON)");
    if (!target.slice.empty() || opt.head || opt.tail)
      usage(
          "slices, --head and --tail select elements of arrays (along the first axis), rows of tables and "
          "elements of lists; " +
          (target.path.empty() ? std::string("the root") : "'" + target.path + "'") + " is a " +
          std::string(kind_name(node.kind)));
    write_json(out, json, JsonStyle{indent});
    out.text() += '\n';
  }
  return 0;
}

}  // namespace

Command setup_cat(CLI::App& parent) {
  auto opt = std::make_shared<CatOptions>();
  CLI::App* app = parent.add_subcommand("cat", "Print a node's values: arrays, tables, lists or JSON, streamed");
  app->add_option("FILE", opt->file, "Archive to read (- reads it from standard input)")
      ->required()
      ->transform(input_file());
  app->add_option("PATH", opt->target, "Object path, optionally followed by a slice (default: the root)");
  app->add_option("-f,--format", opt->format, "Output format: text, json, jsonl, csv, npy, raw (default: by node kind)")
      ->check(CLI::IsMember({"text", "json", "jsonl", "csv", "npy", "raw"}));
  app->add_flag("--json", opt->json, "Same as --format json");
  app->add_flag("--full", opt->full, "Print every element of large arrays (text format) instead of a summary");
  app->add_flag("--summary", opt->summary,
                "Summarize large arrays (text format) with '...' even when stdout is not a terminal")
      ->excludes("--full");
  app->add_option("--head", opt->head,
                  "Only the first N rows of a table, elements of a list (inline or external), or entries along an "
                  "array's first axis")
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  app->add_option("--tail", opt->tail,
                  "Only the last N rows of a table, elements of a list (inline or external), or entries along an "
                  "array's first axis")
      ->check(CLI::NonNegativeNumber)
      ->type_name("N");
  app->add_flag("--resolve", opt->resolve, "Print the node as JSON with external arrays, tables and lists filled in");
  app->add_flag("--plain", opt->plain,
                "Print the node as plain JSON: arrays as nested lists, tables as row objects, no library wrappers");
  app->add_flag("--columns", opt->columns, "With --plain, print each table as an object of column lists");
  app->add_option("--member", opt->member, "Print the raw bytes of this ZIP member instead, like `unzip -p`")
      ->type_name("NAME");
  return {app, [opt] {
            if (opt->json) {
              if (!opt->format.empty() && opt->format != "json") usage("--json conflicts with --format " + opt->format);
              opt->format = "json";
            }
            OutputBuffer out([](std::string_view text) { write_out(text); });
            try {
              const int status = run_cat(*opt, out);
              out.flush();
              return status;
            } catch (const Error&) {
              try {
                out.flush();  // what was read before the failure, then main prints the error
              } catch (const Error&) {
              }
              throw;
            }
          }};
}

}  // namespace zanj::cli
