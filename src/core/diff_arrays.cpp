// Arrays compared by type, dtype, shape and then element by element.
#include "diff_walker.hpp"
#include "zanj/dtype.hpp"
#include "zanj/error.hpp"

namespace zanj::detail {
namespace {

std::optional<Dtype> parsed_dtype(const std::string& name) {
  try {
    return parse_dtype_name(name);
  } catch (const Error&) {
    return std::nullopt;
  }
}

Json shape_json(const ArrayNode& a) {
  JsonArray out;
  for (auto d : a.shape) out.emplace_back(d);
  return Json(std::move(out));
}

}  // namespace

void TreeDiffer::compare_arrays(const std::string& path, const Node& a, const Node& b) {
  const ArrayNode &x = *a.array, &y = *b.array;
  storage_changed(path, storage_text(a), storage_text(b));
  if (x.torch != y.torch)
    add({scope_, path, DiffKind::kind_changed, x.torch ? "torch.Tensor" : "numpy.ndarray",
         y.torch ? "torch.Tensor" : "numpy.ndarray", {}});
  // Byte order is storage: ">f8" and "float64" hold the same values.
  const auto dx = parsed_dtype(x.dtype), dy = parsed_dtype(y.dtype);
  const bool same_type = dx && dy ? dx->kind == dy->kind && dx->itemsize == dy->itemsize : x.dtype == y.dtype;
  if (!same_type) {
    add({scope_, path, DiffKind::dtype_changed, x.dtype, y.dtype, {}});
  } else if (x.dtype != y.dtype && !(x.torch != y.torch)) {
    storage_changed(path, "dtype " + x.dtype, "dtype " + y.dtype);
  }
  if (x.shape != y.shape || x.has_shape != y.has_shape) {
    add({scope_, path, DiffKind::shape_changed, shape_json(x), shape_json(y), {}});
    return;
  }
  // TODO(array_values): element comparison, once the shared array reader is on main.
}

}  // namespace zanj::detail
