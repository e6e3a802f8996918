#pragma once
// The tree functions of zanj/tree.hpp over a parsed document's Json tree itself, for core
// code that holds the Json (the parser's output, a tree being built by pack).
#include <functional>
#include <string>
#include <vector>

#include "json/json_view_access.hpp"
#include "object/object_path.hpp"
#include "zanj/json.hpp"
#include "zanj/tree.hpp"

namespace zanj::object {

Node classify(const Json& json);
bool is_scalar_list(const Json& json);
void walk_tree(const Json& start, const std::vector<std::string>& start_segments,
               const std::function<bool(const TreeVisit&)>& visitor);
std::vector<Reference> collect_references(const Json& root);

}  // namespace zanj::object
