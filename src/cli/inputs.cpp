#include "inputs.hpp"


#include "diagnostics.hpp"
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
    info("read " + std::to_string(z.archive().file_size()) + " bytes from standard input");
  debug(z.name() + ": " + std::to_string(z.archive().entries().size()) + " members, " +
        std::to_string(z.archive().file_size()) + " bytes");
  return z;
}

}  // namespace zanj::cli
