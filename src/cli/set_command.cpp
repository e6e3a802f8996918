#include "set_command.hpp"

#include <memory>

#include "diagnostics.hpp"
#include "edit_command.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "zanj/pack.hpp"
#include "zanj/error.hpp"

namespace zanj::cli {
namespace {

struct SetOptions {
  std::string file, path, value;
  bool string = false;  ///< --string: VALUE is the string itself, not JSON
  bool create = false;  ///< --create: a missing last key is added
  RewriteCliOptions rewrite;
};

int run_set(const SetOptions& opt) {
  check_output(opt.rewrite);
  const ZanjFile z = open_zanj(opt.file);
  const PathSegments segments = split_path(opt.path);
  Json value;
  if (opt.string) {
    value = Json(opt.value);
  } else {
    try {
      value = parse_json_value(opt.value, "", open_options().limits);
    } catch (const Error& e) {  // context: say how to store a word as it is
      throw Error("VALUE is not JSON (" + std::string(e.what()) + "); give --string to store it as a string",
                  Exit::usage);
    }
  }
  // The value there before, for --json (none when --create adds its key).
  Json old_value;
  if (opt.rewrite.json)
    if (const JsonView there = follow_path(z.root(), segments)) old_value = there.copy();
  const Json new_value = opt.rewrite.json ? value : Json();
  Json root = replace_value(z.root(), segments, std::move(value), opt.create, opt.file);
  const RewriteOutcome outcome = rewrite_with(opt.file, root, opt.rewrite);
  const std::string& out = opt.rewrite.output.empty() ? opt.file : opt.rewrite.output;
  if (!outcome.unchanged && !outcome.written)
    throw Error(opt.file + ": not changed: the new value would make the archive invalid: " + rewrite_problems(outcome));
  if (opt.rewrite.json) {
    JsonObject json = rewrite_json(opt.file, opt.rewrite, opt.path, outcome);
    json.emplace(json.begin() + 3, "old", std::move(old_value));
    json.emplace(json.begin() + 4, "new", new_value);
    write_out(to_json(Json(std::move(json))) + "\n");
  }
  if (outcome.unchanged) {
    note(opt.file + ": '" + opt.path + "' already holds that value; no new archive written");
    return 0;
  }
  info(out + ": '" + opt.path + "' set; every other member copied as stored");
  if (const std::string dropped = dropped_note(outcome); !dropped.empty()) note(out + dropped);  // not asked for
  return 0;
}

}  // namespace

Command setup_set(CLI::App& parent) {
  auto opt = std::make_shared<SetOptions>();
  CLI::App* app = parent.add_subcommand("set", "Set one value of the object");
  app->add_option("FILE", opt->file, "The archive (a local file)")->required()->transform(input_file());
  app->add_option("PATH", opt->path, "Object path of the value to replace (\"\" for the root)")->required();
  app->add_option("VALUE", opt->value, "The new value, as JSON (with --string: the text itself)")->required();
  app->add_flag("--string", opt->string, "Take VALUE as a string, not as JSON");
  app->add_flag("--create", opt->create, "Add the last key of PATH to its dict when it is missing");
  add_rewrite_options(app, opt->rewrite);
  return {app, [opt] { return run_set(*opt); }};
}

}  // namespace zanj::cli
