#pragma once
// The archives a command that reads several (verify, info, hash, ls) works through, once its
// operands are read: bucket patterns expanded ("s3://bucket/run-7/*/model.zanj" by listing the
// bucket) and --shard K/N applied. (Reading several at once: zanj/many_archives.hpp.)
#include <CLI/CLI.hpp>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "zanj/error.hpp"

namespace zanj::cli {

/// --shard K/N: keep the operands at positions K, K+N, K+2N, ... (0 ≤ K < N) of the expanded list.
struct Shard {
  std::size_t index = 0, count = 1;
};
/// "K/N" read as a Shard; Error(Exit::usage) naming the value when it is not one.
Shard parse_shard(const std::string& text);
/// Add --shard K/N to `app`, bound to `text` (checked by parse_shard when the command runs).
CLI::Option* add_shard_option(CLI::App* app, std::string& text);

/// What is left of `given` once every bucket pattern is replaced by the URLs it matches (sorted)
/// and `shard` keeps its share. A pattern that matches nothing, or whose bucket cannot be
/// listed, is left out and reported: an error line naming it, `on_failure(pattern, error)`
/// (a --json line), and `status` raised to 2. Other operands stay as they are, in order.
std::vector<std::string> expand_operands(const std::vector<std::string>& given, const std::string& shard, int& status,
                                         const std::function<void(const std::string&, const Error&)>& on_failure = {});

}  // namespace zanj::cli
