#pragma once
// A one-line progress report on stderr for long operations (pack, extract, verify, cat of big
// arrays): bytes done of the total, percentage, rate and time left, redrawn in place with '\r'
// at most ten times a second. Drawn only when stderr is a terminal and -q was not given;
// otherwise every call is a cheap no-op, so commands report progress unconditionally:
//
//   Progress progress("extract", total_bytes);
//   archive.read(entry, [&](std::string_view chunk) { ...; progress.add(chunk.size()); return true; });
//   progress.finish();  // or let the destructor clear the line
//
// The line shares stderr with log messages and, when both are the same terminal, with data
// on stdout: call finish() before printing either while a bar may be drawn.
#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace zanj::cli {

/// One progress line (no '\r'), at most `width` columns:
///   "label  [#########.........]  45%  1.2 MiB / 2.7 MiB  3.4 MiB/s  0:01 left"
/// total 0 means unknown: only bytes done and rate. The bar shrinks or goes first when the
/// line is too wide, then the label is cut. The rate and time left need seconds > 0.
std::string format_progress(std::string_view label, std::uint64_t done, std::uint64_t total, double seconds,
                            std::size_t width);

/// True when progress should be drawn: stderr is a terminal and warnings are not silenced (-q).
bool progress_wanted();

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  using Writer = std::function<void(std::string_view)>;

  /// Drawn on stderr when progress_wanted(), fitted to the terminal's width.
  Progress(std::string label, std::uint64_t total);
  /// For tests: explicit on/off, where the text goes, a fixed width and start time.
  Progress(std::string label, std::uint64_t total, bool enabled, Writer writer, std::size_t width,
           Clock::time_point start);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Count `bytes` more as done; redraws if the last drawing is at least 100 ms old.
  void add(std::uint64_t bytes) { add(bytes, Clock::now()); }
  void add(std::uint64_t bytes, Clock::time_point now);
  /// Erase the line if anything was drawn, so what follows starts on a clean line. Idempotent;
  /// the destructor calls it.
  void finish();

  bool enabled() const { return enabled_; }
  std::uint64_t done() const { return done_; }

 private:
  std::string label_;
  std::uint64_t total_ = 0, done_ = 0;
  bool enabled_ = false, drawn_ = false;
  Writer writer_;
  std::size_t width_ = 0;  ///< 0: ask the terminal at each drawing (it may be resized)
  Clock::time_point start_, last_draw_;
};

}  // namespace zanj::cli
