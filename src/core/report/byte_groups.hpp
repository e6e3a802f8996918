#pragma once
// "Where the bytes go": array bytes grouped by the tree's hierarchy. A parent is one bar with its
// largest children below it (indented), the rest of them summed into one "and K more" bar; the
// largest parents likewise. A chain of lone containers at the top (a checkpoint's "model/
// state_dict") is skipped down to the first level that branches, so the bars always say
// something and their number is bounded whatever the archive holds.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "report/svg_figures.hpp"

namespace zanj::report {

/// What the bars need of one array.
struct ArrayBytes {
  std::string_view path;    ///< keys joined by '/'; "" for an array at the root
  std::uint64_t bytes = 0;  ///< values' size (unpacked)
  std::uint64_t packed = 0;
  bool external = false;  ///< its own member (else inline: packed inside the JSON)
};

struct ByteGroupLimits {
  std::size_t parents = 10;  ///< parents drawn, the rest summed in one bar
  std::size_t children = 6;  ///< children drawn under each parent, the rest summed
};

/// The bars, parents in order of size with their children (Bar::child) below each.
std::vector<Bar> byte_group_bars(const std::vector<ArrayBytes>& arrays, const ByteGroupLimits& limits = {});

/// "1.5 KiB / 600 B packed", "192 B inline", or both parts: "2.0 KiB / 1.0 KiB packed, 192 B inline".
std::string bytes_value_text(std::uint64_t external_bytes, std::uint64_t packed, std::uint64_t inline_bytes);

}  // namespace zanj::report
