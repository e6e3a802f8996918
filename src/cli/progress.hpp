#pragma once
// A progress line on stderr for long jobs (extract, pack): rewritten in place, throttled, and
// shown only when stderr is a terminal, the job is large, and -q was not given.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace zanj::cli {

class ProgressLine {
 public:
  /// Jobs under `min_bytes` finish too fast to need a progress line.
  static constexpr std::uint64_t kMinBytes = std::uint64_t{32} << 20;

  ProgressLine(std::string verb, std::uint64_t total_bytes);
  ~ProgressLine();  ///< erases the line
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  /// "zanj: <verb> 45% (1.2 GiB of 2.7 GiB) <detail>", at most a few times a second.
  void update(std::uint64_t done_bytes, std::string_view detail = {});

 private:
  std::string verb_;
  std::uint64_t total_;
  bool enabled_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace zanj::cli
