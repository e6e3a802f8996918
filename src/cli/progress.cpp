#include "progress.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>

#include "diagnostics.hpp"
#include "output.hpp"
#include "zanj/error.hpp"

namespace zanj::cli {
namespace {

constexpr auto kRedrawInterval = std::chrono::milliseconds(100);
constexpr auto kAutoFirstDraw = std::chrono::seconds(1);  // auto mode: quick operations show nothing
constexpr std::size_t kMinBar = 10;                       // narrower than this, a bar says nothing: leave it out

ProgressMode g_mode = ProgressMode::automatic;  // set once from --progress, before a command runs

std::size_t stderr_width() {
  struct winsize ws {};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

std::string duration_text(double seconds) {
  const auto s = static_cast<std::uint64_t>(std::round(seconds));
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%llu:%02llu:%02llu", static_cast<unsigned long long>(s / 3600),
                  static_cast<unsigned long long>(s / 60 % 60), static_cast<unsigned long long>(s % 60));
  else
    std::snprintf(buf, sizeof buf, "%llu:%02llu", static_cast<unsigned long long>(s / 60),
                  static_cast<unsigned long long>(s % 60));
  return buf;
}

std::string bar(double fraction, std::size_t inner) {
  const auto filled = static_cast<std::size_t>(fraction * static_cast<double>(inner));
  return "[" + std::string(filled, '#') + std::string(inner - filled, '.') + "]";
}

}  // namespace

std::string format_progress(std::string_view label, std::uint64_t done, std::uint64_t total, double seconds,
                            std::size_t width) {
  const bool known = total > 0;
  if (known && done > total) done = total;
  const double fraction = known ? static_cast<double>(done) / static_cast<double>(total) : 0.0;
  std::string stats;
  if (known) {
    char percent[8];
    std::snprintf(percent, sizeof percent, "%3d%%", static_cast<int>(fraction * 100.0));
    stats = std::string(percent) + "  " + human_bytes(done) + " / " + human_bytes(total);
  } else {
    stats = human_bytes(done);
  }
  if (seconds > 0) {
    const double rate = static_cast<double>(done) / seconds;
    stats += "  " + human_bytes(static_cast<std::uint64_t>(rate)) + "/s";
    if (known && rate > 0 && done < total)
      stats += "  " + duration_text(static_cast<double>(total - done) / rate) + " left";
  }
  std::string head(label);
  const std::size_t fixed = head.size() + 2 + stats.size();
  if (known && fixed + 4 + kMinBar <= width) {
    head += "  " + bar(fraction, width - fixed - 4);
  } else if (fixed > width) {
    // Too narrow even without a bar: keep the numbers, cut the label.
    head = head.substr(0, fixed - width < head.size() ? head.size() - (fixed - width) : 0);
  }
  std::string line = head.empty() ? stats : head + "  " + stats;
  if (line.size() > width) line.resize(width);
  return line;
}

ProgressMode parse_progress_mode(std::string_view text) {
  if (text == "auto") return ProgressMode::automatic;
  if (text == "always") return ProgressMode::always;
  if (text == "never") return ProgressMode::never;
  throw Error("--progress must be auto, always or never", Exit::usage);
}

void set_progress_mode(ProgressMode mode) { g_mode = mode; }
ProgressMode progress_mode() { return g_mode; }

bool progress_wanted(bool data_on_stdout) {
  switch (g_mode) {
    case ProgressMode::always:
      return true;
    case ProgressMode::never:
      return false;
    case ProgressMode::automatic:
      break;
  }
  return stderr_is_terminal() && !(data_on_stdout && stdout_is_terminal()) && warnings_shown();
}

Progress::Progress(std::string label, std::uint64_t total) : Progress(std::move(label), total, progress_wanted()) {}

Progress::Progress(std::string label, std::uint64_t total, bool enabled)
    : Progress(std::move(label), total, enabled, write_progress, 0, Clock::now(),
               g_mode == ProgressMode::always ? Clock::duration::zero() : Clock::duration(kAutoFirstDraw)) {
  if (enabled_) std::signal(SIGPIPE, SIG_IGN);
}

Progress::Progress(std::string label, std::uint64_t total, bool enabled, Writer writer, std::size_t width,
                   Clock::time_point start, Clock::duration first_draw_after)
    : label_(std::move(label)),
      total_(total),
      enabled_(enabled),
      writer_(std::move(writer)),
      width_(width),
      start_(start),
      last_draw_(start),
      first_draw_after_(first_draw_after) {}

Progress::~Progress() { finish(); }

void Progress::update(std::uint64_t done, std::uint64_t total, Clock::time_point now) {
  if (total) total_ = total;
  add(done >= done_ ? done - done_ : 0, now);
}

void Progress::add(std::uint64_t bytes, Clock::time_point now) {
  done_ += bytes;
  if (!enabled_) return;
  if (drawn_ ? now - last_draw_ < kRedrawInterval : now - start_ < first_draw_after_) return;
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  // One column short of the width: writing the last column makes some terminals wrap.
  const std::size_t width = (width_ ? width_ : stderr_width()) - 1;
  writer_("\r" + format_progress(label_, done_, total_, seconds, width) + "\033[K");
  drawn_ = true;
}

void Progress::finish() {
  if (!drawn_) return;
  writer_("\r\033[K");
  drawn_ = false;
}

}  // namespace zanj::cli
