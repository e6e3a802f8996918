#pragma once
// Storing a JSON value the way the reference's ZANJ().save stores the object it came from:
// long lists go to `.jsonl` members and large muutils arrays to `.npy` members, each
// replaced in the tree by the reference node the reference writes, with the same member
// names, node fields and externals_info entries.
#include <cstdint>
#include <string>
#include <vector>

#include "zanj/json.hpp"
#include "pack/pack_plan.hpp"

namespace zanj::pack {

// Thresholds is public (zanj/pack.hpp).

/// Rewrite `value`, found at object path `path` (empty: the root), in place:
/// - a list with at least `thresholds.list` elements becomes a `list:external` node whose
///   elements (stored the same way first, with paths ending in their index) are the lines
///   of a `.jsonl` member; when every element is an object the node also gets the
///   reference's `len(data)`, `columns` and `data[0]`;
/// - an inline muutils array (`numpy.ndarray:` or `torch.Tensor:` list, hex, b64 or
///   zero_dim) with at least `thresholds.array` elements becomes an `...:external` node with
///   `$ref`, `shape`, `dtype` (`torch.float32` style for tensors) and `n_elements`, its
///   values (C order, in the node's dtype) stored as an `.npy` member;
/// - smaller arrays stay inline as they are, and an inline array's `data` is never treated
///   as a list to store apart; other format-keyed objects (dataclasses...) keep their format
///   key and have their fields stored by these rules.
/// The root itself never goes external (the reference cannot read that back). Members are
/// registered in `externals` and appended to `members` in the reference's order (a list's
/// member after those of its elements). Throws Error for reference nodes in the input
/// (nothing to point them at) and for inline arrays whose data does not decode.
void externalize_json(Json& value, JsonArray path, const Thresholds& thresholds, ExternalRegistry& externals,
                      std::vector<PlannedMember>& members);

}  // namespace zanj::pack
