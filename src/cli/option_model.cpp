#include "option_model.hpp"

#include <algorithm>
#include <string_view>

namespace zanj::cli {

bool takes_value(const CLI::Option& option) { return option.get_items_expected_max() != 0; }

std::vector<std::string> value_choices(const CLI::Option& option) {
  const std::string full = option.get_type_name();
  const std::size_t open = full.find(":{");
  const std::size_t close = full.find('}', open);
  if (open == std::string::npos || close == std::string::npos) return {};
  std::vector<std::string> choices;
  const std::string_view list = std::string_view(full).substr(open + 2, close - open - 2);
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    if (end > at) choices.emplace_back(list.substr(at, end - at));
    at = end + 1;
  }
  return choices;
}

std::string value_name(const CLI::Option& option) {
  if (!option.get_option_text().empty()) return option.get_option_text();
  if (const std::vector<std::string> choices = value_choices(option); !choices.empty()) {
    std::string joined;
    for (const std::string& choice : choices) joined += (joined.empty() ? "" : "|") + choice;
    return joined;
  }
  const std::string full = option.get_type_name();
  if (full.starts_with("'")) return full.substr(0, full.find('\'', 1) + 1);
  const std::string name = full.substr(0, full.find(':'));
  return name.empty() ? "VALUE" : name;
}

ValueKind value_kind(const CLI::Option& option) {
  if (option.get_positional()) {
    const std::string& name = option.get_name();
    if (name == "FILE" || name == "A" || name == "B" || name == "NEW") return ValueKind::archive;
    if (name == "PATH" || name == "SELECTOR") return ValueKind::object_path;
    if (name == "INPUT") return ValueKind::file;
    return ValueKind::other;
  }
  const std::string name = value_name(option);
  if (name == "OUT.zanj") return ValueKind::archive;
  if (name == "FILE" || name == "LOCK" || name.starts_with("OUT")) return ValueKind::file;
  if (name == "DIR") return ValueKind::directory;
  return ValueKind::other;
}

std::vector<const CLI::Option*> named_options(const CLI::App& app) {
  return app.get_options([](const CLI::Option* option) { return option->nonpositional(); });
}

std::vector<const CLI::Option*> positional_arguments(const CLI::App& app) {
  return app.get_options([](const CLI::Option* option) { return option->get_positional(); });
}

}  // namespace zanj::cli
