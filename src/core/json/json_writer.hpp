#pragma once
// Writing a view with some of its values written differently, so that a changed copy of a
// large document (export's object, each array a reference) streams out of the document it
// came from instead of being built as a Json tree first (json.cpp, beside write_json); and
// writing a part of a document apart, as text, to be put in its place later.
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include "zanj/json.hpp"

namespace zanj {
class OutputBuffer;
}  // namespace zanj

namespace zanj::json {

/// What write_json_rewritten does with one value it meets.
struct JsonRewrite {
  enum class Action {
    descend,  ///< write it as write_json would, asking again about each item of a container
    keep,     ///< write it as write_json would, asking about nothing inside it
    replace,  ///< write `replacement` instead
  };
  Action action = Action::descend;
  Json replacement;
};
/// Asked about every value before it is written, in document order: the root and array
/// elements with no key, an object's member values with their key.
using JsonRewriter = std::function<JsonRewrite(JsonView value, std::optional<std::string_view> key)>;

/// write_json of `value`, each value written as `rewrite` says: the same text write_json gives
/// for the changed copy.
void write_json_rewritten(OutputBuffer& out, JsonView value, const JsonStyle& style, const JsonRewriter& rewrite);

/// write_json of `value` as it is written `level` containers deep in a larger document: with
/// an indenting style, each of its lines indented `level` steps further.
void write_json_nested(std::string& out, JsonView value, const JsonStyle& style, int level);

}  // namespace zanj::json
