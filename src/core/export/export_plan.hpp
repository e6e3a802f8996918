#pragma once
// What `export` writes, decided before any output is opened: every array of the exported
// subtree under its name (its keys joined by '/'), the object with each array replaced by a
// reference to that name, and the other members (tables, external lists) the object refers to.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj {
class OutputBuffer;
}  // namespace zanj

namespace zanj::exporter {

struct ExportArray {
  std::string name;  ///< keys below the exported node joined by '/'
  std::string path;  ///< the escaped object path, for messages
  JsonView json;     ///< the array's node in the ZanjFile's document (classify() it for the ArrayNode)
};

/// Kept small per array, and the object is not built: a plan of 50,000 arrays costs a few MB
/// beside the ZanjFile, and the object is written from the document it views (write_object).
struct ExportPlan {
  std::vector<ExportArray> arrays;   ///< in document order
  std::vector<std::string> members;  ///< other referenced members, in document order, once each
  JsonView root;                     ///< the exported node
  std::optional<std::string> lone;   ///< the key of an array exported alone: the object is {key: its reference}
  std::string ref_suffix;            ///< appended to an array's name in its reference
};

/// Plan the export of the node at object path `path`. Each array becomes
/// {"__muutils_format__": "<numpy.ndarray|torch.Tensor>:external", "$ref": name + ref_suffix,
/// "shape", "dtype", "n_elements"}. Throws Error (usage) for a path with a slice or one that
/// names nothing; (invalid) when two arrays would get the same name.
ExportPlan plan_export(const ZanjFile& file, std::string_view path, std::string_view ref_suffix);

/// Write the exported object: the subtree with each array replaced by its reference, as
/// write_json would write that tree.
void write_object(const ExportPlan& plan, OutputBuffer& out, const JsonStyle& style = {});
/// The same as text.
std::string object_text(const ExportPlan& plan, const JsonStyle& style = {});

/// Throws Error (invalid) unless every name can be a file below a directory: safe as a path
/// (zip/member_name), and no name also a directory of another ("a.npy" and "a.npy/b.npy").
void check_file_names(const std::vector<std::string>& names);

}  // namespace zanj::exporter
