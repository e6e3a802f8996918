#pragma once
// The model card `zanj info` shows for an archive that holds a model: the reference library's
// ConfiguredModel (a root of the model's class with "zanj_model_config", "meta",
// "training_records" and "state_dict") or any dict with a state dict beside other keys.
// Computed from __zanj__.json alone, as the rest of info: no member is read.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"

namespace zanj {

/// Tensors and their elements, summed over a group of state-dict entries.
struct ParameterCount {
  std::uint64_t tensors = 0;
  std::uint64_t parameters = 0;  ///< elements (a tensor without a readable shape adds none)
};

/// The state-dict entries whose key starts with one top-level module ("net" of "net.0.weight").
struct ModuleParameters {
  std::string module;
  ParameterCount count;
};

/// The entries of one numpy dtype.
struct DtypeParameters {
  std::string dtype;  ///< numpy's name (ArrayNode::numpy_dtype)
  ParameterCount count;
};

/// Keys that differ only in their numeric components ("layers.0.mlp.weight",
/// "layers.1.mlp.weight", ...), collapsed into one pattern with '#' for each number.
struct LayerPattern {
  std::string pattern;  ///< "layers.#.mlp.weight"
  ParameterCount count;
};

/// One key of the training records with a short description of its value.
struct TrainingRecordItem {
  std::string key;
  std::string summary;  ///< "list of 100 numbers, 2.31 ... 0.118", "12", "dict of 3 keys", ...
};

struct ModelCard {
  std::string path;             ///< object path of the dict holding the state dict ("" for the root)
  std::string state_dict_path;  ///< object path of the state dict
  std::string class_name;       ///< meta.class_name, else the holder's format key ("" when neither)
  std::string config_type;      ///< the config dataclass ("MLPConfig"), "" when untyped or absent
  /// The config's fields in their order: scalars as they are, other values as compact JSON.
  std::vector<std::pair<std::string, Json>> config;
  ParameterCount total;
  /// meta.num_params, when present: what the library counted when it saved the model
  /// (trainable parameters only, so buffers make `total` larger).
  std::optional<std::uint64_t> recorded_parameters;
  std::vector<ModuleParameters> modules;  ///< in the state dict's order of first appearance
  std::vector<DtypeParameters> dtypes;    ///< most parameters first
  /// Patterns that stand for two or more keys, in order of first appearance.
  std::vector<LayerPattern> repeated;
  /// "training_records" (or "_training_records") found beside the state dict, even when null.
  bool has_training_records = false;
  bool training_records_null = false;
  std::vector<TrainingRecordItem> training_records;  ///< one per key (a list: one "records" item)
};

/// The model card of the first dict (in document order, the root first) that holds a state
/// dict: a key that is "state_dict" or ends in "state_dict" whose value is a dict with at least
/// one array. nullopt when the archive holds none.
std::optional<ModelCard> model_card(const ZanjFile& file);

/// "layers.#.mlp.weight" for "layers.12.mlp.weight": each all-digit component between dots
/// replaced by '#'.
std::string layer_pattern(std::string_view key);

}  // namespace zanj
