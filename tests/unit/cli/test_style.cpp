#include <doctest/doctest.h>

#include <string>

#include "style.hpp"

using namespace zanj::cli;

namespace {
/// Turns colour on or off for one test and back off after it (the default in a test run).
struct ColorFor {
  explicit ColorFor(bool on) { enable_color(on); }
  ~ColorFor() { enable_color(false); }
};
}  // namespace

TEST_SUITE("style") {
  TEST_CASE("--color values") {
    CHECK(parse_color_mode("auto") == ColorMode::automatic);
    CHECK(parse_color_mode("always") == ColorMode::always);
    CHECK(parse_color_mode("never") == ColorMode::never);
  }

  TEST_CASE("auto colours only a terminal, and not when NO_COLOR is set and non-empty") {
    CHECK(color_wanted(ColorMode::automatic, true, nullptr));
    CHECK(color_wanted(ColorMode::automatic, true, ""));
    CHECK_FALSE(color_wanted(ColorMode::automatic, true, "1"));
    CHECK_FALSE(color_wanted(ColorMode::automatic, false, nullptr));
    CHECK(color_wanted(ColorMode::always, false, "1"));
    CHECK_FALSE(color_wanted(ColorMode::never, true, nullptr));
  }

  TEST_CASE("helpers return the text unchanged when colour is off") {
    ColorFor off(false);
    CHECK(bold("path") == "path");
    CHECK(dim("inline") == "inline");
    CHECK(colored(Color::green, "array") == "array");
  }

  TEST_CASE("helpers wrap the text in SGR sequences when colour is on") {
    ColorFor on(true);
    CHECK(bold("path") == "\033[1mpath\033[0m");
    CHECK(dim("x") == "\033[2mx\033[0m");
    CHECK(colored(Color::green, "array") == "\033[32marray\033[0m");
    CHECK(colored(Color::red, "bad") == "\033[31mbad\033[0m");
    CHECK(colored(Color::none, "plain") == "plain");
    CHECK(bold("") == "");  // nothing to colour: no stray sequences
  }

  TEST_CASE("display width skips escape sequences and counts UTF-8 characters once") {
    CHECK(display_width("") == 0);
    CHECK(display_width("abc") == 3);
    CHECK(display_width("\033[1mabc\033[0m") == 3);
    CHECK(display_width("\033[38;5;208mx\033[0m") == 1);
    CHECK(display_width("caf\xc3\xa9") == 4);               // é is two bytes
    CHECK(display_width("\xe6\x97\xa5\xe6\x9c\xac") == 2);  // two CJK characters (one column each here)
    CHECK(display_width("\033[") == 0);                     // a cut sequence does not run past the end
  }
}
