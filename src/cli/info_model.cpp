#include "info_model.hpp"

#include <algorithm>
#include <vector>

#include "output.hpp"
#include "zanj/format.hpp"

namespace zanj::cli {
namespace {

std::string tensors_text(std::uint64_t n) { return std::to_string(n) + (n == 1 ? " tensor" : " tensors"); }

/// One group per line, its name left-aligned and its parameters right-aligned:
/// "net      1,732  6 tensors" over "running     32  1 tensor". `times` puts "×N" (the
/// tensors a pattern stands for) between the name and the parameters instead of the tensors.
template <typename Group, typename Name>
std::vector<std::string> group_lines(const std::vector<Group>& groups, Name name, bool times) {
  const std::string x = locale_is_utf8() ? "\u00d7" : "x";
  std::size_t name_width = 0, number_width = 0, times_width = 0;
  for (const Group& g : groups) {
    name_width = std::max(name_width, terminal_safe(name(g)).size());
    number_width = std::max(number_width, grouped(g.count.parameters).size());
    times_width = std::max(times_width, std::to_string(g.count.tensors).size());
  }
  std::vector<std::string> lines;
  for (const Group& g : groups) {
    std::string line = terminal_safe(name(g));
    line.append(name_width - line.size() + 2, ' ');
    if (times) {
      const std::string n = std::to_string(g.count.tensors);
      line += x + n + std::string(times_width - n.size() + 2, ' ');
    }
    const std::string params = grouped(g.count.parameters);
    line += std::string(number_width - params.size(), ' ') + params;
    if (!times) line += "  " + tensors_text(g.count.tensors);
    lines.push_back(std::move(line));
  }
  return lines;
}

/// A config value as `key=value` shows it: strings bare, everything else as compact JSON,
/// cut at 60 characters.
std::string config_value(const Json& value) {
  std::string text = terminal_safe(value.is_string() ? value.as_string() : to_json(value));
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return text;
}

void add_lines(std::vector<std::vector<std::string>>& rows, const std::string& key,
               const std::vector<std::string>& lines) {
  for (std::size_t i = 0; i < lines.size(); ++i) rows.push_back({i == 0 ? key : "", lines[i]});
}

JsonObject count_json(const ParameterCount& c) { return {{"parameters", c.parameters}, {"tensors", c.tensors}}; }

}  // namespace

std::string model_card_text(const ModelCard& card) {
  std::vector<std::vector<std::string>> rows;
  if (!card.class_name.empty()) rows.push_back({"class", terminal_safe(card.class_name)});
  if (!card.config_type.empty() || !card.config.empty()) {
    std::string line = terminal_safe(card.config_type);
    for (const auto& [key, value] : card.config)
      line += (line.empty() ? "" : "  ") + terminal_safe(key) + "=" + config_value(value);
    rows.push_back({"config", line});
  }
  rows.push_back({"state dict", card.state_dict_path.empty() ? "(root)" : terminal_safe(card.state_dict_path)});
  std::string total = grouped(card.total.parameters) + " in " + tensors_text(card.total.tensors);
  if (card.recorded_parameters && *card.recorded_parameters != card.total.parameters)
    total += " (meta.num_params " + grouped(*card.recorded_parameters) + ": trainable only)";
  rows.push_back({"parameters", total});
  add_lines(rows, "modules",
            group_lines(
                card.modules, [](const ModuleParameters& m) { return m.module; }, false));
  add_lines(rows, "dtypes",
            group_lines(
                card.dtypes, [](const DtypeParameters& d) { return d.dtype; }, false));
  if (!card.repeated.empty())
    add_lines(rows, "repeated",
              group_lines(
                  card.repeated, [](const LayerPattern& p) { return p.pattern; }, true));
  if (card.has_training_records) {
    if (card.training_records.empty()) rows.push_back({"training", card.training_records_null ? "none" : "empty"});
    for (std::size_t i = 0; i < card.training_records.size(); ++i) {
      const auto& r = card.training_records[i];
      rows.push_back({i == 0 ? "training" : "", terminal_safe(r.key) + ": " + terminal_safe(r.summary)});
    }
  }
  return "  model\n" + format_table(rows, "    ");
}

Json model_card_json(const ModelCard& card) {
  JsonObject config;
  for (const auto& [key, value] : card.config) config.emplace_back(key, value);
  JsonArray modules, dtypes, repeated;
  for (const auto& m : card.modules) {
    JsonObject o{{"module", m.module}};
    for (auto& kv : count_json(m.count)) o.push_back(std::move(kv));
    modules.emplace_back(std::move(o));
  }
  for (const auto& d : card.dtypes) {
    JsonObject o{{"dtype", d.dtype}};
    for (auto& kv : count_json(d.count)) o.push_back(std::move(kv));
    dtypes.emplace_back(std::move(o));
  }
  for (const auto& p : card.repeated)
    repeated.emplace_back(
        JsonObject{{"pattern", p.pattern}, {"count", p.count.tensors}, {"parameters", p.count.parameters}});
  Json training(nullptr);
  if (!card.training_records.empty()) {
    JsonObject records;
    for (const auto& r : card.training_records) records.emplace_back(r.key, r.summary);
    training = Json(std::move(records));
  }
  return Json(JsonObject{
      {"path", card.path},
      {"state_dict", card.state_dict_path},
      {"class", card.class_name.empty() ? Json(nullptr) : Json(card.class_name)},
      {"config_type", card.config_type.empty() ? Json(nullptr) : Json(card.config_type)},
      {"config", Json(std::move(config))},
      {"parameters", card.total.parameters},
      {"tensors", card.total.tensors},
      {"recorded_parameters", card.recorded_parameters ? Json(*card.recorded_parameters) : Json(nullptr)},
      {"modules", Json(std::move(modules))},
      {"dtypes", Json(std::move(dtypes))},
      {"repeated", Json(std::move(repeated))},
      {"training_records", std::move(training)},
  });
}

}  // namespace zanj::cli
