#include "style.hpp"

namespace zanj::cli {
namespace {

bool g_color = false;  // set once by main before any command runs

std::string wrap(std::string_view code, std::string_view text) {
  if (!g_color || text.empty()) return std::string(text);
  std::string out = "\033[";
  out.append(code).append("m").append(text).append("\033[0m");
  return out;
}

}  // namespace

ColorMode parse_color_mode(std::string_view name) {
  if (name == "always") return ColorMode::always;
  if (name == "never") return ColorMode::never;
  return ColorMode::automatic;
}

bool color_wanted(ColorMode mode, bool is_terminal, const char* no_color) {
  switch (mode) {
    case ColorMode::always:
      return true;
    case ColorMode::never:
      return false;
    case ColorMode::automatic:
      break;
  }
  return is_terminal && (no_color == nullptr || *no_color == '\0');
}

void enable_color(bool on) { g_color = on; }
bool color_enabled() { return g_color; }

std::string bold(std::string_view text) { return wrap("1", text); }
std::string dim(std::string_view text) { return wrap("2", text); }

std::string colored(Color color, std::string_view text) {
  switch (color) {
    case Color::none:
      break;
    case Color::red:
      return wrap("31", text);
    case Color::green:
      return wrap("32", text);
    case Color::yellow:
      return wrap("33", text);
    case Color::blue:
      return wrap("34", text);
    case Color::magenta:
      return wrap("35", text);
    case Color::cyan:
      return wrap("36", text);
  }
  return std::string(text);
}

std::size_t display_width(std::string_view text) {
  std::size_t width = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c == 0x1b && i + 1 < text.size() && text[i + 1] == '[') {
      // CSI sequence: parameters and intermediates up to a final byte in 0x40..0x7e.
      i += 2;
      while (i < text.size() && !(text[i] >= 0x40 && text[i] <= 0x7e)) ++i;
      continue;
    }
    if ((c & 0xc0) != 0x80) ++width;  // count lead bytes, not UTF-8 continuation bytes
  }
  return width;
}

}  // namespace zanj::cli
