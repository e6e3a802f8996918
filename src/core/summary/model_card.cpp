// The model card of `zanj info` (zanj/summary.hpp): what a state dict and the keys beside
// it say about a model, read from the tree alone.
#include "zanj/summary.hpp"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "json/json_view_access.hpp"
#include "summary/model_card.hpp"
#include "zanj/tree.hpp"

namespace zanj {

std::string layer_pattern(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  std::size_t start = 0;
  while (start <= key.size()) {
    std::size_t dot = key.find('.', start);
    if (dot == std::string_view::npos) dot = key.size();
    const std::string_view part = key.substr(start, dot - start);
    const bool number =
        !part.empty() && std::all_of(part.begin(), part.end(), [](char c) { return c >= '0' && c <= '9'; });
    out += number ? std::string_view("#") : part;
    if (dot == key.size()) break;
    out += '.';
    start = dot + 1;
  }
  return out;
}

namespace {

constexpr std::string_view kDataclassSuffix = "(SerializableDataclass)";

bool holds_array(const Node& node) {
  if (node.kind != NodeKind::dict) return false;
  for (const auto& [key, value] : node_children(node))
    if (classify(value).array) return true;
  return false;
}

constexpr std::string_view kStateDictSuffix = "state_dict";

bool is_state_dict_key(std::string_view key) { return key.ends_with(kStateDictSuffix); }

/// Adds one tensor of `elements` to a count; a missing shape adds the tensor alone.
void add(ParameterCount& count, const std::optional<std::uint64_t>& elements) {
  ++count.tensors;
  if (elements) count.parameters += *elements;
}

/// The group named `name` in `groups`, added at the end the first time (`index` finds it).
template <typename Group>
ParameterCount& group(std::vector<Group>& groups, std::unordered_map<std::string, std::size_t>& index,
                      const std::string& name) {
  const auto [it, added] = index.emplace(name, groups.size());
  if (added) {
    groups.emplace_back();
    if constexpr (requires { groups.back().module; }) groups.back().module = name;
    if constexpr (requires { groups.back().dtype; }) groups.back().dtype = name;
    if constexpr (requires { groups.back().pattern; }) groups.back().pattern = name;
  }
  return groups[it->second].count;
}

std::string number_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string shortened(std::string text, std::size_t limit = 40) {
  if (text.size() > limit) text = text.substr(0, limit) + "...";
  return text;
}

/// A short description of one value of the training records.
std::string describe(JsonView value) {
  const Node node = classify(value);
  if (node.array)
    return node.array->numpy_dtype() + (node.array->has_shape ? shape_text(node.array->shape) : "") + " array";
  if (node.table) return "table" + (node.table->rows ? " of " + std::to_string(*node.table->rows) + " rows" : "");
  if (node.list) return "list" + (node.list->length ? " of " + std::to_string(*node.list->length) : "") + " (stored)";
  if (value.is_array()) {
    const std::size_t n = value.size();
    bool numbers = n > 0;
    for (const JsonView v : value) numbers = numbers && v.is_number();
    if (!numbers) return "list of " + std::to_string(n);
    return "list of " + std::to_string(n) + " numbers, " + number_text(value[0].to_double()) +
           (n > 1 ? " ... " + number_text(value[n - 1].to_double()) : "");
  }
  if (value.is_object()) {
    const std::string type = node.format.ends_with(kDataclassSuffix)
                                 ? node.format.substr(0, node.format.size() - kDataclassSuffix.size())
                                 : std::string("dict");
    return type + " of " + std::to_string(node_child_count(node)) + " keys";
  }
  if (value.is_string()) return shortened(std::string(value.as_string()));
  return shortened(to_json(value));
}

void read_training_records(JsonView records, ModelCard& card) {
  card.has_training_records = true;
  if (records.is_null()) {
    card.training_records_null = true;
    return;
  }
  const Node node = classify(records);
  if (node.kind == NodeKind::dict || node.kind == NodeKind::dataclass) {
    for (const auto& [key, value] : node_children(node)) card.training_records.push_back({key, describe(value)});
  } else {
    card.training_records.push_back({"records", describe(records)});
  }
}

void read_config(const Node& config, ModelCard& card) {
  if (config.format.ends_with(kDataclassSuffix))
    card.config_type = config.format.substr(0, config.format.size() - kDataclassSuffix.size());
  else if (!config.format.empty())
    card.config_type = config.format;
  if (!config.json.is_object()) return;
  for (const auto& [key, value] : node_children(config)) card.config.emplace_back(key, value.copy());
}

void read_state_dict(const Node& state_dict, ModelCard& card) {
  std::unordered_map<std::string, std::size_t> modules, dtypes, patterns;
  std::vector<LayerPattern> all_patterns;
  for (const auto& [key, value] : node_children(state_dict)) {
    const Node node = classify(value);
    if (!node.array) continue;
    const std::optional<std::uint64_t> elements = node.array->element_count();
    add(card.total, elements);
    add(group(card.modules, modules, key.substr(0, key.find('.'))), elements);
    add(group(card.dtypes, dtypes, node.array->numpy_dtype()), elements);
    add(group(all_patterns, patterns, layer_pattern(key)), elements);
  }
  std::stable_sort(card.dtypes.begin(), card.dtypes.end(), [](const DtypeParameters& a, const DtypeParameters& b) {
    return a.count.parameters > b.count.parameters;
  });
  for (auto& p : all_patterns)
    if (p.count.tensors > 1) card.repeated.push_back(std::move(p));
}

/// The holder's class: the reference library's meta.class_name, else its format key (a
/// ConfiguredModel's root is keyed with the class name).
std::string class_name(const Node& holder) {
  if (holder.json.is_object())
    if (const JsonView meta = holder.json.find("meta"); meta.is_object())
      if (const JsonView name = meta.find("class_name"); name.is_string()) return std::string(name.as_string());
  return holder.format;
}

}  // namespace

bool summary::may_hold_model_card(const ZanjFile& file) {
  return json::strings_may_hold(file.root(), kStateDictSuffix);
}

std::optional<ModelCard> model_card(const ZanjFile& file) {
  // The walk classifies every node: on 264,000 records of a few arrays each it was longer
  // than the summary's own walk, for a card that no key there could start.
  if (!summary::may_hold_model_card(file)) return std::nullopt;
  return summary::walk_for_model_card(file);
}

std::optional<ModelCard> summary::walk_for_model_card(const ZanjFile& file) {
  std::optional<ModelCard> card;
  walk_tree(file.root(), {}, [&](const TreeVisit& v) {
    if (card) return false;
    if (!v.node.json.is_object() || v.node.array || v.node.table || v.node.list) return false;
    // node_children's members, read in place: the walk meets every dict of the tree, and a
    // list of its keys as strings for each cost more than the rest of this visit.
    const bool has_members =
        v.node.kind == NodeKind::dict || v.node.kind == NodeKind::dataclass || v.node.kind == NodeKind::other;
    const JsonView json = v.node.json;
    const std::size_t members = has_members ? json.size() : 0;
    for (std::size_t i = 0; i < members; ++i) {
      const std::string_view key = json.key(i);  // its value only once the key is one
      if (!is_state_dict_key(key) || (!v.node.format_key.empty() && key == v.node.format_key)) continue;
      const Node state_dict = classify(json[i]);
      if (!holds_array(state_dict)) continue;
      card.emplace();
      card->path = v.path();
      card->state_dict_path = child_path(v.path(), key);
      card->class_name = class_name(v.node);
      read_state_dict(state_dict, *card);
      break;
    }
    if (!card) return true;
    const JsonView holder = v.node.json;
    if (const JsonView config = holder.find("zanj_model_config")) read_config(classify(config), *card);
    if (const JsonView meta = holder.find("meta"); meta.is_object())
      if (std::uint64_t n = 0; meta.find("num_params").get_uint64(n)) card->recorded_parameters = n;
    for (const std::string_view key : {"training_records", "_training_records"})
      if (const JsonView records = holder.find(key)) {
        read_training_records(records, *card);
        break;
      }
    return false;
  });
  return card;
}

}  // namespace zanj
