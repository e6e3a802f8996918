#pragma once
// --resolve: a subtree of __zanj__.json written as JSON with every reference node's "data"
// filled in from its member (arrays as nested lists, tables and lists as arrays of rows),
// appended as the node's last key, the way the Python loader populates externals. Written as
// it goes: a multi-gigabyte array streams through without ever being one JSON value in memory.
#include "zanj/array_values.hpp"
#include "zanj/json.hpp"
#include "zanj/object_path.hpp"
#include "zanj/output_buffer.hpp"
#include "zanj/zanj_file.hpp"

namespace zanj {

struct ResolveOptions {
  int indent = 0;  ///< 0: one line, like Python's json.dumps; else that many spaces per level
  ArrayReadOptions arrays;
};

/// Write `node`, found at `segments` of file.root, resolved, without a final newline. Throws
/// Error when a referenced member is missing or corrupt (after what was written so far).
void write_resolved(const ZanjFile& file, const Json& node, const PathSegments& segments, const ResolveOptions& options,
                    OutputBuffer& out);

}  // namespace zanj
