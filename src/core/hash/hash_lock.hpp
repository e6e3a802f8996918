#pragma once
// Reading a lock (`zanj hash --json` output) back: read_hash_lock (zanj/hash.hpp) tries the
// whole text as one document, then line by line, so an entry that does not read is an answer.
#include <string>

#include "base/result.hpp"
#include "zanj/hash.hpp"
#include "zanj/json.hpp"

namespace zanj::hash {

/// One lock entry from its JSON object, or why it is not one (every reason starts with
/// `where`, the document or line it came from).
base::Result<ContentDigest> read_lock_entry(JsonView object, const std::string& where);

}  // namespace zanj::hash
