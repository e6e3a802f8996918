#include "completion.hpp"

#include <algorithm>
#include <string_view>

#include "option_model.hpp"
#include "zanj/archive.hpp"
#include "zanj/error.hpp"
#include "zanj/tree.hpp"

namespace zanj::cli {
namespace {

/// Where the words before the one being completed leave the command line.
struct LineState {
  const CLI::App* command = nullptr;      ///< the root until a command is named
  const CLI::Option* awaiting = nullptr;  ///< an option whose value comes next
  bool only_positionals = false;          ///< after "--"
  std::vector<std::string> positionals;
};

/// The option `name` ("--depth", "-d") of the command, else of the whole program (global
/// options work after the command too).
const CLI::Option* find_option(const CLI::App& root, const CLI::App& command, const std::string& name) {
  if (const CLI::Option* option = command.get_option_no_throw(name)) return option;
  return root.get_option_no_throw(name);
}

LineState read_line(const CLI::App& root, const std::vector<std::string>& words) {
  LineState state;
  state.command = &root;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    const std::string& word = words[i];
    if (state.awaiting) {
      state.awaiting = nullptr;
    } else if (!state.only_positionals && word == "--") {
      state.only_positionals = true;
    } else if (!state.only_positionals && word.starts_with("--")) {
      const std::size_t equals = word.find('=');
      const CLI::Option* option = find_option(root, *state.command, word.substr(0, equals));
      if (option && takes_value(*option) && equals == std::string::npos) state.awaiting = option;
    } else if (!state.only_positionals && word.size() > 1 && word[0] == '-') {
      for (std::size_t at = 1; at < word.size(); ++at) {  // -vq, -d3, -d 3
        const CLI::Option* option = find_option(root, *state.command, std::string{'-', word[at]});
        if (!option || !takes_value(*option)) continue;
        if (at + 1 == word.size()) state.awaiting = option;
        break;
      }
    } else if (state.command == &root && !state.only_positionals) {
      const auto named = root.get_subcommands([&](const CLI::App* command) { return command->get_name() == word; });
      if (!named.empty()) state.command = named.front();
    } else {
      state.positionals.push_back(word);
    }
  }
  return state;
}

std::vector<std::string> starting_with(std::vector<std::string> names, std::string_view prefix) {
  std::erase_if(names, [&](const std::string& name) { return !name.starts_with(prefix); });
  return names;
}

/// "NAME\tDESCRIPTION": the scripts of shells that show descriptions (zsh, fish) keep them.
std::string described(const std::string& name, std::string_view description) {
  return name + "\t" + std::string(description.substr(0, description.find('\n')));
}

std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* option : named_options(app)) {
    for (const std::string& name : option->get_lnames())
      names.push_back(described("--" + name, option->get_description()));
    for (const std::string& name : option->get_snames())
      names.push_back(described("-" + name, option->get_description()));
  }
  return names;
}

/// A value of `option`: its choices, else the kind of file its value names.
Completion option_value(const CLI::Option& option, std::string_view typed, std::string_view prefix) {
  const std::vector<std::string> choices = value_choices(option);
  if (!choices.empty()) {
    Completion out{"words", {}};
    for (const std::string& choice : starting_with(choices, typed))
      out.candidates.push_back(std::string(prefix) + choice);
    return out;
  }
  switch (value_kind(option)) {
    case ValueKind::archive:
      return {"archives", {}};
    case ValueKind::file:
      return {"files", {}};
    case ValueKind::directory:
      return {"dirs", {}};
    default:
      return {"words", {}};
  }
}

/// Children of the node at the path `typed` names up to its last '/', whose paths start with
/// `typed`: the same nodes `zanj ls -1` lists, one level at a time (rows of external lists are
/// not read: completing never reads a member).
std::vector<std::string> object_paths(const std::string& archive, const std::string& typed) {
  if (archive.empty() || archive == "-" || archive.find("://") != std::string::npos) return {};
  std::vector<std::string> paths;
  try {
    const ZanjFile file(archive);
    const std::size_t slash = typed.rfind('/');
    const std::string parent = slash == std::string::npos ? "" : typed.substr(0, slash);
    const JsonView node = follow_path(file.root(), split_path(parent));
    if (!node || is_scalar_list(node)) return {};
    for (const auto& [segment, value] : node_children(classify(node))) {
      std::string path = child_path(parent, segment);
      if (!path.starts_with(typed)) continue;
      const Node child = classify(value);
      if (node_child_count(child) > 0 && !is_scalar_list(value)) path += "/";
      paths.push_back(std::move(path));
    }
  } catch (const Error&) {  // boundary: an archive that cannot be read offers nothing, silently
    return {};
  }
  return paths;
}

}  // namespace

Completion complete(const CLI::App& root, const std::vector<std::string>& words) {
  const LineState state = read_line(root, words);
  const std::string& typed = words.back();
  if (state.awaiting) return option_value(*state.awaiting, typed, "");
  if (!state.only_positionals && typed.starts_with("--") && typed.find('=') != std::string::npos) {
    const std::size_t equals = typed.find('=');
    if (const CLI::Option* option = find_option(root, *state.command, typed.substr(0, equals)))
      return option_value(*option, std::string_view(typed).substr(equals + 1), typed.substr(0, equals + 1));
    return {"words", {}};
  }
  if (!state.only_positionals && typed.starts_with("-")) {
    std::vector<std::string> names = option_names(*state.command);
    if (state.command != &root)
      for (std::string& global : option_names(root)) names.push_back(std::move(global));
    return {"words", starting_with(std::move(names), typed)};
  }
  if (state.command == &root) {
    std::vector<std::string> names;
    for (const CLI::App* command : root.get_subcommands([](const CLI::App*) { return true; }))
      names.push_back(described(command->get_name(), command->get_description()));
    return {"words", starting_with(std::move(names), typed)};
  }
  // Which positional argument this word is: each takes its count of words, the last any number.
  const std::vector<const CLI::Option*> positionals = positional_arguments(*state.command);
  std::size_t index = state.positionals.size();
  for (const CLI::Option* positional : positionals) {
    const auto count = static_cast<std::size_t>(std::max(positional->get_items_expected_max(), 1));
    if (index >= count && positional != positionals.back()) {
      index -= count;
      continue;
    }
    switch (value_kind(*positional)) {
      case ValueKind::object_path:
        return {"paths", object_paths(state.positionals.empty() ? "" : state.positionals.front(), typed)};
      default:
        return option_value(*positional, typed, "");
    }
  }
  return {"words", {}};
}

std::string completion_text(const Completion& completion) {
  std::string out = completion.directive + "\n";
  for (const std::string& candidate : completion.candidates) out += candidate + "\n";
  return out;
}

}  // namespace zanj::cli
