#include "json_output.hpp"

#include <cstdint>
#include <optional>

#include "zanj/format.hpp"

namespace zanj::cli {

Json verify_json(const VerifyReport& report, bool strict) {
  const auto problems = [](const std::vector<Problem>& list) {
    JsonArray out;
    for (const Problem& p : list)
      out.emplace_back(JsonObject{{"code", p.code}, {"member", p.member}, {"path", p.path}, {"message", p.message}});
    return Json(std::move(out));
  };
  const VerifyCounts& c = report.checked;
  JsonObject counts;  // problems found per code, listed or not
  for (const auto& [code, count] : report.code_counts) counts.emplace_back(code, count);
  Json out(JsonObject{
      {"file", terminal_safe(report.file)},
      {"ok", report.ok(strict)},
      {"strict", strict},
      {"errors", problems(report.errors)},
      {"warnings", problems(report.warnings)},
      {"counts", Json(std::move(counts))},
      {"checked", Json(JsonObject{{"members", c.members},
                                  {"members_read", c.members_read},
                                  {"bytes_read", c.bytes_read},
                                  {"references", c.references},
                                  {"npy_members", c.npy_members},
                                  {"jsonl_members", c.jsonl_members},
                                  {"jsonl_rows", c.jsonl_rows},
                                  {"inline_arrays", c.inline_arrays}})},
  });
  if (report.transfer) {  // a URL
    out.as_object().emplace_back("bytes_fetched", report.transfer->bytes_fetched);
    out.as_object().emplace_back("requests", report.transfer->requests);
  }
  return out;
}

Json difference_json(const Difference& d) {
  JsonObject o{{"path", d.path},
               {"scope", std::string(diff_scope_name(d.scope))},
               {"kind", std::string(diff_kind_name(d.kind))},
               {"a", d.a},
               {"b", d.b}};
  if (d.values) {
    const ValueDifferences& v = *d.values;
    auto optional_number = [](const std::optional<double>& x) { return x ? Json(*x) : Json(nullptr); };
    o.emplace_back("unit", v.unit);
    o.emplace_back("compared", v.compared);
    o.emplace_back("differing", v.differing);
    o.emplace_back("first_at", v.first_at);
    o.emplace_back("first", v.first.empty() ? Json(nullptr) : Json(v.first));
    if (const std::optional<std::uint64_t> exact = v.max_abs_exact()) {
      o.emplace_back("max_abs_diff", *exact);
    } else {
      o.emplace_back("max_abs_diff", optional_number(v.max_abs));
    }
    o.emplace_back("max_abs_diff_at", v.max_abs ? v.max_abs_at : Json(nullptr));
    o.emplace_back("max_rel_diff", optional_number(v.max_rel));
    o.emplace_back("max_rel_diff_at", v.max_rel ? v.max_rel_at : Json(nullptr));
    o.emplace_back("rtol", v.tolerance.rtol);
    o.emplace_back("atol", v.tolerance.atol);
  }
  return Json(std::move(o));
}

JsonObject operand_error_json(const std::string& file, const Error& e) {
  JsonObject line{{"file", file}, {"error", std::string(e.what())}};
  if (!e.member().empty()) line.emplace_back("member", e.member());
  if (!e.object_path().empty()) line.emplace_back("path", e.object_path());
  return line;
}

}  // namespace zanj::cli
