#pragma once
// Planning `pack` of a .safetensors file: each tensor becomes an .npy member (a header made
// here, then the tensor's bytes streamed from the file), laid out as pack lays out an .npz. A
// file that `zanj export` wrote carries the exported object in "__metadata__"; when every
// array it refers to is one of the tensors, that object is restored instead of a flat dict.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pack/pack_plan.hpp"

namespace zanj::pack {

struct SafetensorsPlan {
  Json root;                       ///< the object: restored, or {tensor name: array}
  std::optional<Json> zanj_cfg;    ///< the exported archive's zanj_cfg, when it was recorded
  std::vector<std::string> notes;  ///< why recorded metadata was not used
};

/// Plan `path` found at object path `prefix` ([] for a lone input, whose recorded object may
/// be restored). Registers each array in `externals` and its member in `members`. Throws Error
/// (invalid) naming the file for a header that is malformed or hostile, or a dtype numpy lacks.
SafetensorsPlan plan_safetensors(const std::string& path, const JsonArray& prefix, const PackSettings& settings,
                                 ExternalRegistry& externals, std::vector<PlannedMember>& members);
/// The same for bytes held open (a URL, standard input), `name` naming them in messages.
SafetensorsPlan plan_safetensors(const std::shared_ptr<const io::ByteSource>& bytes, const std::string& name,
                                 const JsonArray& prefix, const PackSettings& settings, ExternalRegistry& externals,
                                 std::vector<PlannedMember>& members);

}  // namespace zanj::pack
