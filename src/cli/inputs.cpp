#include "inputs.hpp"

#include <spdlog/spdlog.h>

#include "zanj/error.hpp"
#include "zanj/archive.hpp"
#include "zanj/format.hpp"

namespace zanj::cli {

CLI::Validator input_file() {
  return CLI::Validator(
      [](std::string& path) -> std::string {
        if (const std::string problem = input_problem(path); !problem.empty())
          throw Error(path + ": " + problem, Exit::usage);
        return {};
      },
      "");
}

ZanjFile open_zanj(const std::string& file, const ZanjLimits& limits) {
  ZanjFile z(file, limits);
  if (is_stdin_path(file))
    spdlog::info("read {} bytes from standard input", z.archive().file_size());
  spdlog::debug("{}: {} members, {} bytes", terminal_safe(z.name()), z.archive().entries().size(), z.archive().file_size());
  return z;
}

}  // namespace zanj::cli
