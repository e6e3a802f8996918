#include "edit_command.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "output.hpp"
#include "zanj/error.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::cli {

void add_rewrite_options(CLI::App* app, RewriteCliOptions& options) {
  app->add_option("-o,--output", options.output, "Write the new archive here instead of replacing FILE")
      ->type_name("OUT.zanj");
  app->add_flag("--force", options.force, "Let -o replace an existing file");
  add_jobs_option(app, options.jobs, "checking the new archive");
  app->add_flag("--json", options.json, "Machine-readable account of what was written, on stdout");
}

JsonObject rewrite_json(const std::string& file, const RewriteCliOptions& options, const std::string& path,
                        const RewriteOutcome& outcome) {
  JsonArray dropped, moved;
  for (const std::string& member : outcome.members_dropped) dropped.emplace_back(member);
  for (const std::string& member : outcome.externals_moved) moved.emplace_back(member);
  return JsonObject{{"file", file},
                    {"output", options.output.empty() ? file : options.output},
                    {"path", path},
                    {"written", outcome.written},
                    {"members_copied", outcome.members_copied},
                    {"members_dropped", Json(std::move(dropped))},
                    {"externals_moved", Json(std::move(moved))}};
}

void check_output(const RewriteCliOptions& options) {
  struct stat existing {};
  if (!options.output.empty() && !options.force && ::lstat(options.output.c_str(), &existing) == 0 &&
      !S_ISDIR(existing.st_mode))
    throw Error(options.output + ": exists (use --force to replace it)", Exit::usage);
}

RewriteOutcome rewrite_with(const std::string& file, const Json& root, const RewriteCliOptions& options) {
  RewriteSettings settings;
  settings.limits = open_options().limits;
  settings.threads = jobs_or_default(options.jobs);
  settings.replace = options.force ? Replace::yes : Replace::no;
  install_interrupt_cleanup();  // the new archive is a temporary file until it is complete and checked
  return rewrite_object(file, root, options.output.empty() ? file : options.output, settings);
}

std::string dropped_note(const RewriteOutcome& outcome) {
  const std::size_t n = outcome.members_dropped.size();
  if (!n) return "";
  return ": " + std::to_string(n) + (n == 1 ? " member" : " members") +
         " no node refers to any more dropped, with their externals_info entries";
}

std::string rewrite_problems(const RewriteOutcome& outcome) {
  std::string out;
  for (const Problem& p : outcome.errors) {
    std::string where = p.member;
    if (!p.path.empty()) where += (where.empty() ? "at " : " (at ") + p.path + (where.empty() ? "" : ")");
    out += (out.empty() ? "[" : "; [") + p.code + "] " + (where.empty() ? "" : where + ": ") + p.message;
  }
  return out;
}

namespace {

/// The object paths under `at` whose values differ between `before` and `after`, in document
/// order: a dict's keys changed or removed, then those added; a list's positions when its
/// length is the same, else the list itself; any other value as a whole (as JSON text, so that
/// a NaN left as it was is no change).
void changed_paths(const Json* before, const Json* after, PathSegments& at, JsonArray& out) {
  if (before && after && before->is_object() && after->is_object()) {
    for (const auto& [key, value] : before->as_object()) {
      at.push_back(key);
      changed_paths(&value, after->find(key), at, out);
      at.pop_back();
    }
    for (const auto& [key, value] : after->as_object()) {
      if (before->find(key)) continue;
      at.push_back(key);
      out.emplace_back(join_path(at));
      at.pop_back();
    }
    return;
  }
  if (before && after && before->is_array() && after->is_array() &&
      before->as_array().size() == after->as_array().size()) {
    for (std::size_t i = 0; i < before->as_array().size(); ++i) {
      at.push_back(std::to_string(i));
      changed_paths(&before->as_array()[i], &after->as_array()[i], at, out);
      at.pop_back();
    }
    return;
  }
  if (!before || !after || to_json(*before) != to_json(*after)) out.emplace_back(join_path(at));
}

struct EditOptions {
  std::string file, path;
  RewriteCliOptions rewrite;
};

/// The editor the user chose: $VISUAL, else $EDITOR, else vi (as crontab -e and git do).
std::string chosen_editor() {
  for (const char* name : {"VISUAL", "EDITOR"})
    if (const char* value = std::getenv(name); value && *value) return value;
  return "vi";
}

/// A temporary file of our own for the editor, removed when this goes.
class EditFile {
 public:
  explicit EditFile(const std::string& text) {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/zanj-edit-XXXXXX.json";
    const int fd = ::mkstemps(path_.data(), 5);
    if (fd < 0) throw Error("cannot create a file to edit in " + path_ + ": " + std::strerror(errno), Exit::usage);
    const UniqueFd owned(fd);
    std::string_view rest = text;
    while (!rest.empty()) {
      const ssize_t n = ::write(fd, rest.data(), rest.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::unlink(path_.c_str());
        throw Error(path_ + ": " + std::strerror(errno), Exit::usage);
      }
      rest.remove_prefix(static_cast<std::size_t>(n));
    }
  }
  ~EditFile() { ::unlink(path_.c_str()); }
  EditFile(const EditFile&) = delete;
  EditFile& operator=(const EditFile&) = delete;
  const std::string& path() const { return path_; }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw Error(path_ + ": the edited file is gone", Exit::usage);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

 private:
  std::string path_;
};

/// Run the editor on `path` through the shell, as git does, so that EDITOR="code --wait" works.
/// zanj ignores SIGINT and SIGQUIT meanwhile (as system() does): they are the editor's.
void run_editor(const std::string& editor, const std::string& path, const std::string& file) {
  struct sigaction ignore {
  }, old_int{}, old_quit{};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGINT, &ignore, &old_int);
  ::sigaction(SIGQUIT, &ignore, &old_quit);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGQUIT, &old_quit, nullptr);
    // exec: the editor's own exit status or signal comes back, not the shell's report of it
    const std::string script = "exec " + editor + " \"$@\"";
    ::execl("/bin/sh", "sh", "-c", script.c_str(), editor.c_str(), path.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  pid_t waited = -1;
  if (pid > 0) do
      waited = ::waitpid(pid, &status, 0);
    while (waited < 0 && errno == EINTR);
  ::sigaction(SIGINT, &old_int, nullptr);
  ::sigaction(SIGQUIT, &old_quit, nullptr);
  if (pid < 0 || waited < 0)
    throw Error("cannot run the editor '" + editor + "': " + std::strerror(errno), Exit::usage);
  if (WIFSIGNALED(status))
    throw Error("the editor '" + editor + "' was killed by signal " + std::to_string(WTERMSIG(status)) + "; " + file +
                    " is unchanged",
                Exit::usage);
  if (WEXITSTATUS(status) != 0)
    throw Error("the editor '" + editor + "' exited with status " + std::to_string(WEXITSTATUS(status)) + "; " + file +
                    " is unchanged",
                Exit::usage);
}

/// The text without the "//" lines at its top, where a second round shows the last error (no
/// JSON document starts with "//", so they cannot be the user's).
std::string without_error_lines(const std::string& text) {
  std::size_t start = 0;
  while (text.compare(start, 2, "//") == 0) {
    const std::size_t end = text.find('\n', start);
    start = end == std::string::npos ? text.size() : end + 1;
  }
  return text.substr(start);
}

std::string as_comment(const std::string& message) {
  std::string out;
  std::istringstream lines(message);
  for (std::string line; std::getline(lines, line);) out += "// " + line + "\n";
  return out;
}

/// Ask on the terminal whether to edit again; never without one (a script gets the error).
bool ask_to_retry() {
  if (!::isatty(STDIN_FILENO)) return false;
  std::cerr << "zanj: re-open the editor to fix it? [Y/n] " << std::flush;
  std::string answer;
  if (!std::getline(std::cin, answer)) return false;
  return answer.empty() || answer[0] == 'y' || answer[0] == 'Y';
}

int run_edit(const EditOptions& opt) {
  check_output(opt.rewrite);  // before the user spends time in the editor
  const ZanjFile z = open_zanj(opt.file);
  const NodeTarget target{opt.path, split_path(opt.path), ""};
  const JsonView node = find_node(z.root(), target, opt.file);
  const std::string presented = editable_json(node);
  const std::string editor = chosen_editor();
  const std::string& out = opt.rewrite.output.empty() ? opt.file : opt.rewrite.output;
  const auto finish = [&](const RewriteOutcome& outcome, JsonArray edited) {
    if (opt.rewrite.json) {
      JsonObject json = rewrite_json(opt.file, opt.rewrite, opt.path, outcome);
      json.emplace(json.begin() + 3, "edited_paths", Json(std::move(edited)));
      write_out(to_json(Json(std::move(json))) + "\n");
    }
    return 0;
  };
  std::string text = presented, problem;
  for (;;) {
    {
      std::string shown = problem.empty() ? std::string() : as_comment("zanj: " + problem);
      shown += text;
      const EditFile edited(shown);
      problem.clear();
      run_editor(editor, edited.path(), opt.file);
      text = without_error_lines(edited.read());
    }
    RewriteOutcome outcome;
    JsonArray edited;  // the paths whose values the edit changed
    if (text == presented) {
      note(opt.file + ": no changes; no new archive written");
      return finish(outcome, edited);
    }
    try {
      const Json value = parse_json_value(text, "the edited JSON", open_options().limits);
      PathSegments at = target.segments;
      const Json before = node.copy();
      changed_paths(&before, &value, at, edited);
      outcome = rewrite_with(opt.file, replace_value(z.root(), target.segments, value, false, opt.file), opt.rewrite);
    } catch (const Error& e) {  // boundary: a mistake in the edit is shown, and the user may fix it
      if (e.exit() != Exit::invalid) throw;
      problem = e.what();
    }
    if (problem.empty() && outcome.unchanged) {
      note(opt.file + ": the edited JSON has the same values; no new archive written");
      return finish(outcome, {});
    }
    if (problem.empty() && outcome.written) {
      note(out + ": written; every other member copied as stored");
      if (const std::string dropped = dropped_note(outcome); !dropped.empty()) note(out + dropped);
      return finish(outcome, edited);
    }
    if (problem.empty()) problem = "the edit would make the archive invalid: " + rewrite_problems(outcome);
    error(opt.file + ": " + problem);
    if (!ask_to_retry()) throw Error(opt.file + " is unchanged");
  }
}

}  // namespace

Command setup_edit(CLI::App& parent) {
  auto opt = std::make_shared<EditOptions>();
  CLI::App* app = parent.add_subcommand("edit", "Edit the object in an editor");
  app->add_option("FILE", opt->file, "The archive (a local file)")->required()->transform(input_file());
  app->add_option("PATH", opt->path, "Object path of the node to edit (default: the whole object)");
  add_rewrite_options(app, opt->rewrite);
  return {app, [opt] { return run_edit(*opt); }};
}

}  // namespace zanj::cli
