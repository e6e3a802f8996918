#pragma once
// What summarize_with_card (summary.cpp) asks of the model card (model_card.cpp) before it
// shares out its threads.
#include "zanj/summary.hpp"

namespace zanj::summary {

/// Whether model_card(file) may find a card. A card starts at a key ending in "state_dict";
/// a document none of whose strings holds that text has none, which its strings tell without
/// a walk of the tree (json/json_view_access.hpp).
bool may_hold_model_card(const ZanjFile& file);
/// model_card(file) once may_hold_model_card said yes: the walk alone, not the check again.
std::optional<ModelCard> walk_for_model_card(const ZanjFile& file);

}  // namespace zanj::summary
