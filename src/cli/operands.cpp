#include "operands.hpp"

#include <algorithm>
#include <memory>
#include <optional>

#include "diagnostics.hpp"
#include "inputs.hpp"
#include "zanj/many_archives.hpp"
#include "zanj/error.hpp"

namespace zanj::cli {
namespace {

/// A number from 0 to 1,000,000 in `text`, or nullopt.
std::optional<std::size_t> small_number(std::string_view text) {
  if (text.empty() || text.size() > 7) return std::nullopt;
  std::size_t n = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::size_t>(c - '0');
  }
  return n;
}

}  // namespace

Shard parse_shard(const std::string& text) {
  const std::size_t slash = text.find('/');
  const auto index = small_number(std::string_view(text).substr(0, slash));
  const auto count = slash == std::string::npos ? std::nullopt : small_number(std::string_view(text).substr(slash + 1));
  if (!index || !count || *count == 0 || *index >= *count)
    throw Error("--shard " + text +
                    ": expected K/N with 0 <= K < N (this worker's index, counted from 0, and the number "
                    "of workers), e.g. --shard 0/4",
                Exit::usage);
  return Shard{*index, *count};
}

CLI::Option* add_shard_option(CLI::App* app, std::string& text) {
  return app
      ->add_option("--shard", text,
                   "Keep only every N-th archive, starting at the K-th (from 0), after patterns are expanded: worker K "
                   "of N")
      ->type_name("K/N")
      ->check(CLI::Validator(
          [](std::string& value) -> std::string {
            parse_shard(value);  // throws zanj::Error: the same message and exit status as later
            return {};
          },
          ""));
}

std::vector<std::string> expand_operands(const std::vector<std::string>& given, const std::string& shard_text,
                                         int& status,
                                         const std::function<void(const std::string&, const Error&)>& on_failure) {
  const Shard shard = shard_text.empty() ? Shard{} : parse_shard(shard_text);  // before any listing
  std::vector<std::string> files;
  for (const std::string& operand : given) {
    if (!is_bucket_pattern(operand)) {
      files.push_back(operand);
      continue;
    }
    std::optional<Error> problem;
    try {
      std::vector<std::string> matches = expand_bucket_pattern(operand, open_options().remote);
      info(operand + ": " + std::to_string(matches.size()) + " objects match");
      if (matches.empty()) problem = Error(operand + ": no object matches the pattern", Exit::usage);
      files.insert(files.end(), std::make_move_iterator(matches.begin()), std::make_move_iterator(matches.end()));
    } catch (const Error& e) {
      problem = e;
    }
    if (!problem) continue;
    error(problem->what());
    status = std::max(status, static_cast<int>(Exit::usage));
    if (on_failure) on_failure(operand, *problem);
  }
  if (shard.count == 1) return files;
  std::vector<std::string> mine;
  for (std::size_t i = shard.index; i < files.size(); i += shard.count) mine.push_back(std::move(files[i]));
  info("--shard " + shard_text + ": " + std::to_string(mine.size()) + " of " + std::to_string(files.size()) +
       " archives");
  return mine;
}

}  // namespace zanj::cli
