#pragma once
// What `export` writes, decided before any output is opened: every array of the exported
// subtree under its name (its keys joined by '/'), the object with each array replaced by a
// reference to that name, and the other members (tables, external lists) the object refers to.
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj::exporter {

struct ExportArray {
  std::string name;  ///< keys below the exported node joined by '/'
  std::string path;  ///< the escaped object path, for messages
  ArrayNode node;    ///< views into the ZanjFile's document
};

struct ExportPlan {
  std::vector<ExportArray> arrays;   ///< in document order
  Json object;                       ///< the subtree, arrays replaced by external references
  std::vector<std::string> members;  ///< other referenced members, in document order, once each
};

/// Plan the export of the node at object path `path`. Each array becomes
/// {"__muutils_format__": "<numpy.ndarray|torch.Tensor>:external", "$ref": name + ref_suffix,
/// "shape", "dtype", "n_elements"}. Throws Error (usage) for a path with a slice or one that
/// names nothing; (invalid) when two arrays would get the same name.
ExportPlan plan_export(const ZanjFile& file, std::string_view path, std::string_view ref_suffix);

/// Throws Error (invalid) unless every name can be a file below a directory: safe as a path
/// (zip/member_name), and no name also a directory of another ("a.npy" and "a.npy/b.npy").
void check_file_names(const std::vector<std::string>& names);

}  // namespace zanj::exporter
