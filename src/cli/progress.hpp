#pragma once
// A one-line progress report on stderr for long operations (pack, extract, verify, cat of big
// arrays): bytes done of the total, percentage, rate and time left, redrawn in place with '\r'
// at most ten times a second. Whether it is drawn is decided once, by --progress (auto: stderr
// is a terminal and -q was not given); otherwise every call is a cheap no-op, so commands
// report progress unconditionally:
//
//   Progress progress("extract", total_bytes);
//   archive.read(entry, [&](std::string_view chunk) { ...; progress.add(chunk.size()); return true; });
//   progress.finish();  // or let the destructor clear the line
//
// In auto mode nothing is drawn during the first second, so quick operations never flash a
// bar. The line shares stderr with log messages and, when both are the same terminal, with
// data on stdout: call finish() before printing either while a bar may be drawn.
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

/// --progress: auto (stderr is a terminal, no -q), always (even into a pipe or file, from the
/// first update), never.
enum class ProgressMode { automatic, always, never };
/// Throws Error (usage) for anything but "auto", "always" or "never".
ProgressMode parse_progress_mode(std::string_view text);
/// Set once from the command line, before a command runs (the default is automatic).
void set_progress_mode(ProgressMode mode);
ProgressMode progress_mode();

/// True when progress should be drawn. `data_on_stdout`: the command streams its result to
/// stdout as it goes (cat); in auto mode a bar is then drawn only when stdout is not a
/// terminal, since the data scrolling by already shows progress and would tear the bar.
bool progress_wanted(bool data_on_stdout = false);

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  using Writer = std::function<void(std::string_view)>;

  /// Drawn on stderr when `enabled` (by default progress_wanted()), fitted to the terminal's
  /// width. While enabled, SIGPIPE is ignored: a reader that goes away (`| head`) then makes
  /// the write fail with EPIPE, which ends the command quietly through the destructors, and
  /// the bar is erased instead of being left on the terminal by a killed process.
  Progress(std::string label, std::uint64_t total);
  Progress(std::string label, std::uint64_t total, bool enabled);
  /// For tests: explicit on/off, where the text goes, a fixed width, start time, and how long
  /// after the start the first drawing may come.
  Progress(std::string label, std::uint64_t total, bool enabled, Writer writer, std::size_t width,
           Clock::time_point start, Clock::duration first_draw_after = std::chrono::milliseconds(100));
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  /// Count `bytes` more as done; redraws if the last drawing is at least 100 ms old.
  void add(std::uint64_t bytes) { add(bytes, Clock::now()); }
  void add(std::uint64_t bytes, Clock::time_point now);
  /// The same with absolute numbers, for callbacks that report them (a total of 0 keeps the
  /// one given before).
  void update(std::uint64_t done, std::uint64_t total) { update(done, total, Clock::now()); }
  void update(std::uint64_t done, std::uint64_t total, Clock::time_point now);
  /// update() as a callback for the core's progress options (VerifyOptions, ArrayReadOptions).
  std::function<void(std::uint64_t, std::uint64_t)> reporter() {
    return [this](std::uint64_t done, std::uint64_t total) { update(done, total); };
  }
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
  Clock::duration first_draw_after_;
};

}  // namespace zanj::cli
