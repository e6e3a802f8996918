#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "progress.hpp"
#include "zanj/error.hpp"

using namespace zanj::cli;
using namespace std::chrono_literals;

TEST_SUITE("progress") {
  TEST_CASE("a known total shows a bar, percentage, sizes, rate and time left") {
    const std::string line = format_progress("extract", 512 * 1024, 2 * 1024 * 1024, 1.0, 80);
    CHECK(line.size() <= 80);
    CHECK(line.rfind("extract  [", 0) == 0);
    CHECK(line.find(" 25%  512.0 KiB / 2.0 MiB  512.0 KiB/s  0:03 left") != std::string::npos);
    const auto open = line.find('['), close = line.find(']');
    const std::string bar = line.substr(open + 1, close - open - 1);
    CHECK(bar.size() >= 10);
    CHECK(bar.find_first_not_of('#') == bar.size() / 4);  // a quarter filled
    CHECK(bar.find_first_not_of('.', bar.size() / 4) == std::string::npos);
  }

  TEST_CASE("the line fills the width exactly when it has a bar") {
    for (std::size_t width : {60u, 80u, 132u}) CHECK(format_progress("verify", 10, 100, 0.5, width).size() == width);
  }

  TEST_CASE("an unknown total shows bytes and rate only") {
    CHECK(format_progress("stdin", 3 * 1024 * 1024, 0, 2.0, 80) == "stdin  3.0 MiB  1.5 MiB/s");
    CHECK(format_progress("stdin", 100, 0, 0.0, 80) == "stdin  100 B");
  }

  TEST_CASE("done past the total is shown as complete, without time left") {
    const std::string line = format_progress("pack", 300, 200, 1.0, 80);
    CHECK(line.find("100%  200 B / 200 B") != std::string::npos);
    CHECK(line.find("left") == std::string::npos);
  }

  TEST_CASE("narrow terminals lose the bar first, then the label, never the width limit") {
    const std::string no_bar = format_progress("extract", 50, 100, 1.0, 40);
    CHECK(no_bar.find('[') == std::string::npos);
    CHECK(no_bar.size() <= 40);
    CHECK(no_bar.find("50%") != std::string::npos);
    const std::string cut = format_progress("a-very-long-label-for-this-operation", 50, 100, 1.0, 40);
    CHECK(cut.size() <= 40);
    CHECK(cut.find("50%") != std::string::npos);
    CHECK(format_progress("extract", 50, 100, 1.0, 5).size() <= 5);
    CHECK(format_progress("extract", 50, 100, 1.0, 0).empty());
  }

  TEST_CASE("long times are shown with hours") {
    CHECK(format_progress("x", 1, 10000, 1.0, 200).find("2:46:39 left") != std::string::npos);
  }

  TEST_CASE("redraws at most every 100 ms, with a carriage return, and clears the line at the end") {
    std::vector<std::string> writes;
    const auto t0 = Progress::Clock::time_point{} + 1h;
    {
      Progress p(
          "cat", 1000, true, [&](std::string_view s) { writes.emplace_back(s); }, 60, t0);
      p.add(100, t0 + 50ms);
      CHECK(writes.empty());  // too soon after the start
      p.add(100, t0 + 150ms);
      REQUIRE(writes.size() == 1);
      CHECK(writes[0].front() == '\r');
      CHECK(writes[0].find(" 20%") != std::string::npos);
      CHECK(writes[0].size() <= 1 + 59 + 3);  // \r, one column short of the width, erase-line
      p.add(100, t0 + 200ms);
      CHECK(writes.size() == 1);
      p.add(100, t0 + 260ms);
      CHECK(writes.size() == 2);
      CHECK(writes[1].find(" 40%") != std::string::npos);
      CHECK(p.done() == 400);
      p.finish();
      CHECK(writes.back() == "\r\033[K");
      p.finish();  // idempotent
      CHECK(writes.size() == 3);
    }
    CHECK(writes.size() == 3);  // the destructor has nothing left to clear
  }

  TEST_CASE("a disabled reporter writes nothing, ever") {
    std::vector<std::string> writes;
    const auto t0 = Progress::Clock::time_point{};
    {
      Progress p(
          "cat", 1000, false, [&](std::string_view s) { writes.emplace_back(s); }, 80, t0);
      for (int i = 1; i <= 20; ++i) p.add(50, t0 + i * 200ms);
      CHECK(p.done() == 1000);
      CHECK_FALSE(p.enabled());
    }
    CHECK(writes.empty());
  }

  TEST_CASE("nothing drawn, nothing cleared") {
    std::vector<std::string> writes;
    const auto t0 = Progress::Clock::time_point{};
    {
      Progress p(
          "cat", 10, true, [&](std::string_view s) { writes.emplace_back(s); }, 80, t0);
      p.add(10, t0 + 1ms);
    }
    CHECK(writes.empty());
  }

  TEST_CASE("a first-draw delay keeps quick operations silent; zero draws at the first update") {
    std::vector<std::string> writes;
    const auto t0 = Progress::Clock::time_point{} + 1h;
    const auto record = [&](std::string_view s) { writes.emplace_back(s); };
    {
      Progress p("verify", 1000, true, record, 80, t0, 1s);
      p.add(100, t0 + 500ms);
      p.add(100, t0 + 900ms);
      CHECK(writes.empty());  // under a second: nothing ever shown, nothing to clear
    }
    CHECK(writes.empty());
    {
      Progress p("verify", 1000, true, record, 80, t0, 1s);
      p.add(100, t0 + 1100ms);
      CHECK(writes.size() == 1);
      p.add(100, t0 + 1150ms);  // from then on the usual 100 ms cadence
      CHECK(writes.size() == 1);
      p.add(100, t0 + 1250ms);
      CHECK(writes.size() == 2);
    }
    writes.clear();
    Progress now("cat", 1000, true, record, 80, t0, Progress::Clock::duration::zero());
    now.add(1, t0);
    CHECK(writes.size() == 1);
  }

  TEST_CASE("update takes absolute numbers and may learn the total late") {
    std::vector<std::string> writes;
    const auto t0 = Progress::Clock::time_point{} + 1h;
    Progress p(
        "cat", 0, true, [&](std::string_view s) { writes.emplace_back(s); }, 80, t0, Progress::Clock::duration::zero());
    p.update(250, 1000, t0);
    CHECK(p.done() == 250);
    REQUIRE(writes.size() == 1);
    CHECK(writes[0].find(" 25%") != std::string::npos);
    p.update(500, 0, t0 + 200ms);  // 0: the total stays
    CHECK(p.done() == 500);
    REQUIRE(writes.size() == 2);
    CHECK(writes[1].find(" 50%") != std::string::npos);
    p.update(400, 0, t0 + 400ms);  // never backwards
    CHECK(p.done() == 500);
  }

  TEST_CASE("--progress values") {
    CHECK(parse_progress_mode("auto") == ProgressMode::automatic);
    CHECK(parse_progress_mode("always") == ProgressMode::always);
    CHECK(parse_progress_mode("never") == ProgressMode::never);
    CHECK_THROWS_AS(parse_progress_mode("sometimes"), zanj::Error);
    const ProgressMode before = progress_mode();
    set_progress_mode(ProgressMode::always);
    CHECK(progress_wanted());
    CHECK(progress_wanted(true));
    set_progress_mode(ProgressMode::never);
    CHECK_FALSE(progress_wanted());
    set_progress_mode(before);
  }
}
