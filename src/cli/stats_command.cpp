#include "stats_command.hpp"

#include <fnmatch.h>

#include <cstdio>
#include <memory>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "zanj/array.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/tree.hpp"
#include "zanj/archive.hpp"

namespace zanj::cli {
namespace {

struct StatsOptions {
  std::string file;
  std::string path;
  std::string glob;
  bool json = false;
};

Json optional_json(const std::optional<double>& v) { return v ? Json(*v) : Json(nullptr); }

/// Integers exactly, reals as Python prints them (min and max keep the array's own values).
Json number_json(const std::optional<Number>& n) {
  if (!n) return nullptr;
  if (n->kind != Number::Kind::integer) return n->re;
  if (n->integer >= 0) return static_cast<std::uint64_t>(n->integer);
  return static_cast<std::int64_t>(n->integer);
}

Json stats_json(const std::string& path, const ArrayNode& a, const ArrayStats& s) {
  return Json(JsonObject{{"path", path},           {"dtype", a.dtype},           {"shape", shape_json(a.shape)},
                         {"count", s.count},       {"finite", s.finite},         {"nan", s.nan},
                         {"pos_inf", s.pos_inf},   {"neg_inf", s.neg_inf},       {"min", number_json(s.min)},
                         {"max", number_json(s.max)}, {"sum", optional_json(s.sum)}, {"mean", optional_json(s.mean)},
                         {"std", optional_json(s.std)}});
}

/// Six significant digits for the table; integers in full.
std::string short_number(const std::optional<double>& v) {
  if (!v) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", *v);
  return buf;
}
std::string short_number(const std::optional<Number>& n) {
  if (n && n->kind == Number::Kind::integer) return number_text(*n);
  return short_number(n ? std::optional<double>(n->re) : std::nullopt);
}

int run_stats(const StatsOptions& opt) {
  const ZanjFile z = open_zanj(opt.file);
  for (const auto& p : z.problems()) warn(z.name() + ": " + p);
  const PathSegments start = split_path(opt.path);
  const JsonView node = follow_path(z.root(), start);
  if (!node) throw Error(z.name() + ": no object at path '" + opt.path + "'");

  JsonArray arrays;
  std::vector<std::vector<std::string>> rows{
      {"path", "dtype", "shape", "count", "min", "max", "mean", "std", "nan", "inf"}};
  walk_tree(node, start, [&](const TreeVisit& v) {
    if (!v.node.array) return true;
    if (!opt.glob.empty() && fnmatch(opt.glob.c_str(), v.path.c_str(), 0) != 0) return false;
    const ArrayStats s = array_stats(z.archive(), *v.node.array, v.path);
    if (opt.json) {
      arrays.push_back(stats_json(v.path, *v.node.array, s));
    } else {
      rows.push_back({v.path.empty() ? "/" : v.path, terminal_safe(v.node.array->dtype), shape_text(v.node.array->shape),
                      std::to_string(s.count), short_number(s.min), short_number(s.max), short_number(s.mean),
                      short_number(s.std), std::to_string(s.nan), std::to_string(s.pos_inf + s.neg_inf)});
    }
    return false;
  });
  if (opt.json) {
    JsonObject result{{"file", opt.file}, {"arrays", Json(std::move(arrays))}};
    add_transfer_json(result, z.archive());
    write_out(to_json(Json(std::move(result))) + "\n");
  } else if (rows.size() > 1) {
    write_out(format_table(rows));
  }
  return 0;
}

}  // namespace

Command setup_stats(CLI::App& parent) {
  auto opt = std::make_shared<StatsOptions>();
  CLI::App* app =
      parent.add_subcommand("stats", "Array statistics: count, min, max, mean, std, NaN and infinity counts");
  app->footer(
      "One line per array at or below PATH (default: every array). Values are streamed from the\n"
      "archive in one pass, chunk by chunk, whatever the array's size, storage, byte order or\n"
      "layout. min, max, mean and std (the population standard deviation, numpy's ddof=0) are\n"
      "over the finite values; NaNs and infinities are counted in their own columns (inf counts\n"
      "both signs). Complex arrays get counts only (a value is NaN or infinite when either part\n"
      "is), string arrays the element count only. bool counts as 0 and 1.\n\n"
      "Examples:\n  zanj stats model.zanj\n  zanj stats model.zanj state_dict --glob '*weight*'\n"
      "  zanj stats --json model.zanj | jq '.arrays[] | select(.nan > 0) | .path'\n\n"
      "--json prints {\"file\", \"arrays\": [...]}; each array has path, dtype, shape, count, finite,\n"
      "nan, pos_inf, neg_inf, min, max, sum, mean, std (null when there are no finite values or\n"
      "the dtype is not a real number).\n\n"
      "Exit status: 0 ok, 1 bad archive, unreadable array or no such path, 2 usage error.");
  app->add_option("FILE", opt->file, "Archive to read (- reads it from standard input)")
      ->required()
      ->transform(input_file());
  app->add_option("PATH", opt->path, "Object path to start at (default: the root)");
  app->add_option("--glob", opt->glob, "Only arrays whose path matches this shell pattern ('*' also matches '/')");
  app->add_flag("--json", opt->json, "Machine-readable output");
  return {app, [opt] { return run_stats(*opt); }};
}

}  // namespace zanj::cli
