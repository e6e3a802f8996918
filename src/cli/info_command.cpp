#include "info_command.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <memory>
#include <optional>

#include "diagnostics.hpp"
#include "info_model.hpp"
#include "inputs.hpp"
#include "json_output.hpp"
#include "operands.hpp"
#include "output.hpp"
#include "style.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zanj/many_archives.hpp"
#include "zanj/summary.hpp"
#include "zanj/archive.hpp"

namespace zanj::cli {
namespace {

struct InfoOptions {
  std::vector<std::string> files;
  bool json = false;
  bool handlers = false;
  bool no_members = false;  ///< --no-members
  std::size_t largest = 5;  ///< --largest
  unsigned jobs = 0;        ///< -j: archives read at once (0: ZANJ_JOBS, else the CPUs)
  std::string shard;        ///< --shard K/N
};

/// The format key the archive's nodes carry: "__muutils_format__", "__format__" (releases
/// before muutils 0.8), "mixed", or null when no node is format-keyed.
Json format_key_json(const Summary& s) {
  if (s.legacy_format && s.current_format) return "mixed";
  if (s.legacy_format) return std::string(kLegacyFormatKey);
  if (s.current_format) return std::string(kFormatKey);
  return nullptr;
}

std::string format_text(const Summary& s) {
  if (s.legacy_format && s.current_format) return "mixed: nodes tagged __format__ and __muutils_format__";
  if (s.legacy_format) return std::string(format_version_name(FormatVersion::legacy));
  if (s.current_format) return std::string(format_version_name(FormatVersion::current));
  return std::string(format_version_name(FormatVersion::none));
}

Json summary_json(const std::string& file, const ZanjFile& z, const Summary& s, const std::optional<ModelCard>& card,
                  const InfoOptions& opt) {
  JsonArray largest;
  for (const auto& a : s.largest_arrays) {
    JsonObject o{{"path", a.path},   {"dtype", a.dtype},    {"library", a.library}, {"shape", shape_json(a.shape)},
                 {"bytes", a.bytes}, {"storage", a.storage}};
    if (!a.member.empty()) o.emplace_back("member", a.member);
    largest.emplace_back(std::move(o));
  }
  Json cfg = s.zanj_cfg.value_or(Json(nullptr));
  if (opt.handlers && z.meta())
    if (const JsonView full = z.meta().find("zanj_cfg")) cfg = full.copy();
  JsonArray problems;
  for (const auto& p : z.problems()) problems.emplace_back(p);
  return Json(JsonObject{
      {"file", file},
      {"members", s.members},
      {"compressed_bytes", s.compressed_bytes},
      {"uncompressed_bytes", s.uncompressed_bytes},
      {"externals", s.externals},
      {"arrays", s.arrays},
      {"external_arrays", s.external_arrays},
      {"inline_arrays", s.inline_arrays},
      {"row_arrays", s.row_arrays},
      {"array_elements", s.array_elements ? Json(*s.array_elements) : Json(nullptr)},
      {"tables", s.tables},
      {"external_lists", s.external_lists},
      {"array_bytes", s.array_bytes},
      {"root_type", s.root_type},
      {"format", format_key_json(s)},
      {"saved_at", s.saved_at.empty() ? Json(nullptr) : Json(s.saved_at)},
      {"timestamp", s.timestamp ? Json(*s.timestamp) : Json(nullptr)},
      {"python", s.python.empty() ? Json(nullptr) : Json(s.python)},
      {"torch", s.torch.empty() ? Json(nullptr) : Json(s.torch)},
      {"zanj_cfg", std::move(cfg)},
      {"largest_arrays", Json(std::move(largest))},
      {"model", card ? model_card_json(*card) : Json(nullptr)},
      {"member_list", Json(members_json(z.archive()))},
      {"problems", Json(std::move(problems))},
  });
}

std::string cfg_line(const Json& cfg) {
  std::string out;
  for (const char* key :
       {"array_mode", "external_array_threshold", "external_list_threshold", "compress", "error_mode"}) {
    const Json* v = cfg.find(key);
    if (!v) continue;
    if (!out.empty()) out += "  ";
    out += std::string(key) + "=" + terminal_safe(v->is_string() ? v->as_string() : to_json(*v));
  }
  return out;
}

/// The members, a line each: sizes, method, time, name. Column widths come from the numbers in
/// one pass and each line is written once in a second, not five strings made twice a member
/// and measured (on 50,000 members that listing was a sixth of info's time). The name is the
/// last column: nothing is padded after it, so its width is never needed.
std::string member_listing(const std::vector<ZipEntry>& entries) {
  const std::vector<std::string> header{dim("size"), dim("packed"), dim("method"), dim("modified (local)"),
                                        dim("name")};
  TableWidths widths;
  widths.measure(header);
  const auto digits = [](std::uint64_t v) {
    std::size_t n = 1;
    for (; v >= 10; v /= 10) ++n;
    return n;
  };
  std::size_t size = 0, packed = 0, method = 0, time = 0, names = 0;
  for (const ZipEntry& e : entries) {
    size = std::max(size, digits(e.uncompressed_size));
    packed = std::max(packed, digits(e.compressed_size));
    method = std::max(method, method_name(e.method).size());
    if (time == 0) time = e.mtime_iso8601().size();  // one width: every DOS time has four-digit years
    names += e.name.size();
  }
  widths.measure({std::string(size, '0'), std::string(packed, '0'), std::string(method, 'x'), std::string(time, '0')});
  std::string out = "  members\n";
  // Reserved at its length (names made terminal-safe rarely grow): grown by doubling, the text
  // of 50,000 lines was copied a dozen times and held twice at its last growth.
  std::size_t line = 4 + 1;
  for (std::size_t column = 0; column < 4; ++column) line += widths.width[column] + 2;
  out.reserve(out.size() + 2 * line + names + entries.size() * line);
  widths.append_line(out, header, "    ");
  const auto cell = [&](std::string_view text, std::size_t column) {
    out += text;
    out.append(widths.width[column] - text.size() + 2, ' ');
  };
  char number[24];
  for (const ZipEntry& e : entries) {
    const std::size_t start = out.size();
    out += "    ";
    cell(std::string_view(number, std::to_chars(number, number + sizeof number, e.uncompressed_size).ptr - number), 0);
    cell(std::string_view(number, std::to_chars(number, number + sizeof number, e.compressed_size).ptr - number), 1);
    cell(method_name(e.method), 2);
    cell(e.mtime_iso8601(), 3);
    out += terminal_safe(e.name);
    while (out.size() > start && out.back() == ' ') out.pop_back();
    out += '\n';
  }
  return out;
}

/// An archive's text: the summary, the member listing (made while the archive was opened;
/// "" with --no-members), and what follows it. Printed in turn, never joined: the listing of
/// 50,000 members is megabytes.
struct InfoText {
  std::string head, listing, tail;
};

InfoText summary_text(const std::string& file, const ZanjFile& z, const Summary& s,
                      const std::optional<ModelCard>& card, const InfoOptions& opt, std::string listing) {
  std::vector<std::vector<std::string>> rows;
  auto row = [&](std::string key, std::string value) { rows.push_back({std::move(key), std::move(value)}); };
  row("saved", s.invalid_timestamp  ? "invalid timestamp (" + terminal_safe(*s.invalid_timestamp) + ")"
               : s.saved_at.empty() ? "unknown"
                                    : s.saved_at);
  if (!s.python.empty()) row("python", terminal_safe(s.python));
  if (!s.torch.empty()) row("torch", terminal_safe(s.torch));
  row("format", format_text(s));
  if (s.zanj_cfg) row("settings", cfg_line(*s.zanj_cfg));
  if (!s.handlers.empty())
    row("handlers", std::to_string(s.handlers.size()) +
                        (opt.handlers ? " (source below, in zanj_cfg)" : " (source hidden; --handlers shows it)"));
  row("root", terminal_safe(s.root_type) + (s.root_type == "dict"   ? ", " + std::to_string(s.root_length) + " keys"
                                            : s.root_type == "list" ? ", " + std::to_string(s.root_length) + " elements"
                                                                    : ""));
  row("arrays", std::to_string(s.arrays) + " (" + std::to_string(s.external_arrays) + " external, " +
                    std::to_string(s.inline_arrays) + " inline), " + human_bytes(s.array_bytes) + " of values" +
                    (s.array_elements && s.arrays ? ", " + grouped(*s.array_elements) + " elements" : std::string()) +
                    (s.row_arrays ? "; " + std::to_string(s.row_arrays) + " more in list rows (zanj stats reads them)"
                                  : std::string()));
  row("tables", std::to_string(s.tables));
  row("lists", std::to_string(s.external_lists) + " external");
  for (std::size_t i = 0; i < s.largest_arrays.size(); ++i) {
    const auto& a = s.largest_arrays[i];
    row(i == 0 ? "largest" : "", (a.path.empty() ? "(root)" : a.path) + "  " + terminal_safe(a.dtype) +
                                     shape_text(a.shape) + library_mark(a.library) + "  " + human_bytes(a.bytes) +
                                     "  " + a.storage);
  }
  for (const auto& p : z.problems()) row(colored(Color::red, "problem"), terminal_safe(p));
  std::string out = bold(terminal_safe(file)) + ": ZANJ archive, " + std::to_string(s.members) + " members, " +
                    human_bytes(s.compressed_bytes) + " (" + human_bytes(s.uncompressed_bytes) + " unpacked)\n";
  out += format_table(rows, "  ");
  if (card) out += model_card_text(*card);
  std::string tail;
  if (opt.handlers && z.meta())
    if (const JsonView cfg = z.meta().find("zanj_cfg")) tail = "  zanj_cfg\n" + to_json(cfg, JsonStyle{2}) + "\n";
  return {std::move(out), std::move(listing), std::move(tail)};
}

int run_info(const InfoOptions& opt) {
  int status = 0;
  const auto error_line = [&](const std::string& file, const Error& e) {
    if (opt.json) write_out(to_json(Json(operand_error_json(file, e))) + "\n");
  };
  const std::vector<std::string> files = expand_operands(opt.files, opt.shard, status, error_line);
  const bool alone = opt.files.size() == 1 && files.size() == 1;  // its error is the command's
  // Each archive's text is made on its own thread, and printed in operand order.
  std::vector<InfoText> texts(files.size());
  std::vector<std::optional<Error>> errors(files.size());
  const JobSplit split = split_jobs(jobs_or_default(opt.jobs), files.size());
  run_in_order(
      files.size(), split.archives_at_once,
      [&](std::size_t i) {
        try {
          ZanjLimits limits;
          limits.threads = split.threads_each;
          // The member listing needs the directory alone: it is made while the documents are
          // parsed, in the time a thread would wait for the longer one (on 50,000 members the
          // listing was a tenth of info, made after the parse).
          std::string listing;
          const bool listed = !opt.json && !opt.no_members;
          const ZanjFile z = open_zanj(files[i], limits, [&](const Archive& archive) {
            if (listed) listing = member_listing(archive.entries());
          });
          const SummaryWithCard found = summarize_with_card(z, opt.largest, split.threads_each);
          if (opt.json) {
            Json summary = summary_json(files[i], z, found.summary, found.card, opt);
            add_transfer_json(summary.as_object(), z.archive());
            texts[i].head = to_json(summary) + "\n";
          } else {
            texts[i] = summary_text(z.name(), z, found.summary, found.card, opt, std::move(listing));
            if (i) texts[i].head.insert(0, "\n");
          }
        } catch (const Error& e) {
          if (alone || is_output_closed(e)) throw;
          errors[i] = e;
        }
      },
      [&](std::size_t i) {
        if (errors[i]) {
          error(errors[i]->what());  // go on with the other files
          status = std::max(status, errors[i]->exit_code());
          error_line(files[i], *errors[i]);
          errors[i].reset();
        }
        for (std::string* text : {&texts[i].head, &texts[i].listing, &texts[i].tail}) {
          write_out(*text);
          std::string().swap(*text);  // printed: its memory goes back
        }
      });
  return status;
}

}  // namespace

Command setup_info(CLI::App& parent) {
  auto opt = std::make_shared<InfoOptions>();
  CLI::App* app = parent.add_subcommand("info", "Summarize archives: members, sizes, when and how they were saved");
  app->add_option("FILE", opt->files, "Archives to describe (- reads one from standard input)")
      ->required()
      ->transform(input_file());
  app->add_flag("--json", opt->json, "One JSON object per file, for scripts");
  app->add_flag("--handlers", opt->handlers, "Include the handlers' source code from zanj_cfg");
  app->add_flag("--no-members", opt->no_members, "Do not list the ZIP members");
  app->add_option("--largest", opt->largest, "List the N largest arrays (default 5; 0 lists none)")
      ->type_name("N")
      ->check(CLI::Range(0, 1000000));
  add_jobs_option(app, opt->jobs, "reading archives, one archive each, and parsing a large document");
  add_shard_option(app, opt->shard);
  return {app, [opt] { return run_info(*opt); }};
}

}  // namespace zanj::cli
