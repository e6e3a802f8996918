#include "progress.hpp"

#include <spdlog/spdlog.h>

#include <cstdio>

#include "output.hpp"

namespace zanj::cli {

ProgressLine::ProgressLine(std::string verb, std::uint64_t total_bytes)
    : verb_(std::move(verb)), total_(total_bytes),
      enabled_(total_bytes >= kMinBytes && stderr_is_terminal() && spdlog::should_log(spdlog::level::warn)) {}

ProgressLine::~ProgressLine() {
  if (shown_) std::fputs("\r\x1b[K", stderr);
}

void ProgressLine::update(std::uint64_t done_bytes, std::string_view detail) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(200)) return;
  last_ = now;
  shown_ = true;
  const auto percent = total_ ? done_bytes * 100 / total_ : 100;
  std::string line = "\r\x1b[Kzanj: " + verb_ + " " + std::to_string(percent) + "% (" + human_bytes(done_bytes) +
                     " of " + human_bytes(total_) + ")";
  if (!detail.empty()) line += " " + std::string(detail);
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
}

}  // namespace zanj::cli
