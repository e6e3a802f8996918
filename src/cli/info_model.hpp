#pragma once
// How `zanj info` prints a model card (zanj/summary.hpp): the indented "model" block of
// the text output and the "model" object of --json. The analysis is the core's.
#include <string>

#include "zanj/json.hpp"
#include "zanj/summary.hpp"

namespace zanj::cli {

/// The "  model" block, ending in a newline.
std::string model_card_text(const ModelCard& card);
/// The "model" object of `info --json`.
Json model_card_json(const ModelCard& card);

}  // namespace zanj::cli
