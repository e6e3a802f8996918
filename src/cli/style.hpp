#pragma once
// Colour for human output. main decides once (from --color, whether stdout is a terminal and
// NO_COLOR); every helper returns its text unchanged when colour is off, so output code never
// branches on it. Machine output (--json, ls -1) must not use these helpers at all.
#include <cstddef>
#include <string>
#include <string_view>

namespace zanj::cli {

enum class ColorMode { automatic, always, never };

/// "auto", "always" or "never" (the --color values; CLI11 has already checked the spelling).
ColorMode parse_color_mode(std::string_view name);

/// Whether to colour a stream: always and never are obeyed; automatic colours only a terminal,
/// and only when NO_COLOR is unset or empty (https://no-color.org). `no_color` is getenv's result.
bool color_wanted(ColorMode mode, bool is_terminal, const char* no_color);

/// Turn the helpers below on or off for stdout (main calls this once, after parsing).
void enable_color(bool on);
bool color_enabled();

enum class Color { none, red, green, yellow, blue, magenta, cyan };  ///< none: text as is

std::string bold(std::string_view text);
std::string dim(std::string_view text);
std::string colored(Color color, std::string_view text);

/// Terminal columns `text` takes: ANSI escape sequences take none and a UTF-8 character takes
/// one, so tables holding coloured or non-ASCII cells still line up.
std::size_t display_width(std::string_view text);

}  // namespace zanj::cli
