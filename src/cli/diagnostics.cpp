#include "diagnostics.hpp"

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>
#include <string_view>

#include "zanj/format.hpp"  // terminal_safe

namespace zanj::cli {
namespace {

std::shared_ptr<spdlog::logger> make_logger(bool color, spdlog::level::level_enum level) {
  auto sink = std::make_shared<spdlog::sinks::stderr_color_sink_mt>(color ? spdlog::color_mode::always
                                                                          : spdlog::color_mode::never);
  auto logger = std::make_shared<spdlog::logger>("zanj", std::move(sink));
  logger->set_pattern("zanj: %^%l%$: %v");  // %^..%$: the part coloured by level
  logger->set_level(level);
  return logger;
}

std::shared_ptr<spdlog::logger>& logger() {
  static std::shared_ptr<spdlog::logger> instance = make_logger(false, spdlog::level::warn);
  return instance;
}

void log(spdlog::level::level_enum level, std::string_view message) {
  if (logger()->should_log(level)) logger()->log(level, "{}", terminal_safe(message));
}

}  // namespace

void configure_diagnostics(int verbose, bool quiet, bool color) {
  logger() = make_logger(color, quiet          ? spdlog::level::err
                                : verbose == 0 ? spdlog::level::warn
                                : verbose == 1 ? spdlog::level::info
                                               : spdlog::level::debug);
}

bool warnings_shown() { return logger()->should_log(spdlog::level::warn); }

void error(std::string_view message) { log(spdlog::level::err, message); }

void usage_error(std::string_view message, std::string_view command) {
  // One record, so that the hint follows its error even if another thread logs.
  const std::string help = command.empty() ? "zanj --help" : "zanj " + terminal_safe(command) + " --help";
  logger()->error("{}\nRun '{}' for usage.", terminal_safe(message), help);
}

void warn(std::string_view message) { log(spdlog::level::warn, message); }
void note(std::string_view message) {
  if (!warnings_shown()) return;
  const std::string line = "zanj: " + terminal_safe(message) + "\n";
  write_progress(line);  // the raw stderr writer: no level name for a plain notice
}

void info(std::string_view message) { log(spdlog::level::info, message); }
void debug(std::string_view message) { log(spdlog::level::debug, message); }

void write_progress(std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data(), text.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // progress is a courtesy: never fail the operation over it
    text.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace zanj::cli
