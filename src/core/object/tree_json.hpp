#pragma once
// The tree functions of zanj/tree.hpp over a parsed document's Json tree itself, for core
// code that holds the Json (the parser's output, a tree being built by pack), and a walk cut
// into parts for threads.
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

/// What walk_tree(start.json, {}, visitor) visits below `start` through its children
/// [first, last) alone (element or member indices of start.json; a format key among them is
/// passed over), at the same depths and paths: a walk from the root cut into runs of its
/// children, each walked on its own thread. `start` itself is not visited.
void walk_tree_children(const Node& start, std::size_t first, std::size_t last,
                        const std::function<bool(const TreeVisit&)>& visitor);
/// The runs a walk of `start`'s children is cut into for `threads` threads: several a thread,
/// so that a run of large subtrees does not keep one busy after the others are done, and never
/// more than the children.
std::size_t tree_runs(const Node& start, unsigned threads);
/// walk_tree_children over run `run` of `runs`: its share of `start`'s children, in order.
void walk_tree_run(const Node& start, std::size_t run, std::size_t runs,
                   const std::function<bool(const TreeVisit&)>& visitor);

}  // namespace zanj::object
