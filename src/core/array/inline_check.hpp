#pragma once
// Structural checks of an inline array node (array_list_meta, array_hex_meta, array_b64_meta,
// zero_dim): does its data have the shape and byte length its dtype and shape say? verify uses
// it; it is the same decoder `cat` prints with, so the two commands never disagree. Beside it,
// what numpy itself refuses to build, whatever the node says: verify's verdict is the loader's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "array/dtype.hpp"
#include "zanj/error.hpp"
#include "zanj/tree.hpp"

namespace zanj::array {

/// Why an inline array node is inconsistent, or nullopt when it is fine (and for external
/// nodes, which the .npy checks cover). The verdict is decode_inline_array's (inline_array.hpp):
/// dtype known, shape valid, n_elements matching, nesting, leaf values and hex/base64 lengths;
/// then numpy_dtype_refusal and numpy_shape_refusal.
std::optional<std::string> check_inline_array(const ArrayNode& array);

/// Why numpy refuses to make an array of this dtype: a zero itemsize ("<U0", "|S0").
std::optional<std::string> numpy_dtype_refusal(const Dtype& dtype);

/// Why numpy refuses an array of this shape and itemsize: every dimension must be an intp
/// (int64) and the non-zero dimensions times the itemsize must fit one too (numpy skips zero
/// dimensions when it checks an array's byte size). nullopt when numpy accepts it.
std::optional<std::string> numpy_shape_refusal(const std::vector<std::uint64_t>& shape, std::uint32_t itemsize);

/// Why numpy cannot build an array of this dtype and shape (numpy_dtype_refusal, then
/// numpy_shape_refusal): verify's problem, and the error of every command that reads the
/// array's values (hash, stats, diff, report, cat), in the same words.
std::optional<std::string> numpy_refusal(const Dtype& dtype, const std::vector<std::uint64_t>& shape);

/// What ArrayValues throws for an array numpy_refusal refuses: no command has values to show
/// for it, so `report`, which shows the other arrays of a page around one it cannot read,
/// stops at this one (exit status 1) as hash, stats and diff do.
class NumpyRefusalError : public Error {
 public:
  using Error::Error;
  /// `error`, context and all, as a refusal (after a decorator such as at_path() made it).
  explicit NumpyRefusalError(const Error& error) : Error(error) {}
};

}  // namespace zanj::array
