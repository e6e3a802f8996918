// Arrays compared by type, dtype and shape, then element by element: both arrays are streamed
// side by side in C order, little-endian (stream_element_pairs, diff/element_pairs.hpp), and
// compared a chunk at a time. Chunks whose bytes are identical are settled with one memcmp, so
// comparing equal arrays costs little more than reading them.
#include <algorithm>
#include <cstring>

#include "diff/diff_walker.hpp"
#include "diff/element_pairs.hpp"
#include "array/array_reader.hpp"
#include "array/dtype.hpp"
#include "array/element_numbers.hpp"
#include "zanj/error.hpp"

namespace zanj::diff::detail {
namespace {

std::optional<array::Dtype> parsed_dtype(const std::string& name) {
  const base::Result<array::Dtype> dtype = array::read_dtype_name(name);
  return dtype ? std::optional<array::Dtype>(*dtype) : std::nullopt;
}

/// A flat C-order index as one index per axis.
Json unravel(std::uint64_t flat, const std::vector<std::uint64_t>& shape) {
  JsonArray out(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    const std::uint64_t d = shape[i] ? shape[i] : 1;
    out[i] = Json(flat % d);
    flat /= d;
  }
  return Json(std::move(out));
}

/// A string element without its NUL padding: "<U5" and "<U7" holding "ab" compare equal.
std::string_view unpadded(const char* p, std::size_t size) {
  while (size > 0 && p[size - 1] == '\0') --size;
  return {p, size};
}

/// Compares runs of elements of two dtypes, keeping score in a DeltaTracker.
class ElementComparer {
 public:
  ElementComparer(const array::Dtype& a, const array::Dtype& b, array::DeltaTracker& tracker, bool nan_equal)
      : size_a_(a.itemsize),
        size_b_(b.itemsize),
        decode_a_(array::number_decoder(a)),
        decode_b_(array::number_decoder(b)),
        tracker_(tracker),
        // identical bytes mean equal values, except NaN against NaN when NaNs are unequal
        bytes_decide_(a == b &&
                      (nan_equal || (a.kind != array::DtypeKind::floating && a.kind != array::DtypeKind::complex))) {}

  void compare(const char* a, const char* b, std::uint64_t n, std::uint64_t index) {
    constexpr std::uint64_t kBlock = 4096;  // elements per memcmp: a difference costs one block
    for (std::uint64_t done = 0; done < n;) {
      const std::uint64_t count = std::min(kBlock, n - done);
      const char* x = a + done * size_a_;
      const char* y = b + done * size_b_;
      if (bytes_decide_ && std::memcmp(x, y, count * size_a_) == 0) {
        tracker_.equal_run(count, {index + done}, decode_a_ != nullptr);
      } else {
        one_by_one(x, y, count, index + done);
      }
      done += count;
    }
  }

  const std::string& first() const { return first_; }

 private:
  void one_by_one(const char* a, const char* b, std::uint64_t n, std::uint64_t index) {
    for (std::uint64_t i = 0; i < n; ++i, a += size_a_, b += size_b_) {
      bool differ = false;
      if (decode_a_) {
        const Number x = decode_a_(a), y = decode_b_(b);
        differ = tracker_.numbers(x, y, {index + i});
        if (differ && tracker_.differing() == 1) first_ = number_text(x) + " -> " + number_text(y);
      } else {
        const auto x = unpadded(a, size_a_), y = unpadded(b, size_b_);
        differ = tracker_.other(x == y, {index + i});
        if (differ && tracker_.differing() == 1) first_ = "element bytes differ";
      }
    }
  }

  std::size_t size_a_, size_b_;
  array::NumberDecoder decode_a_, decode_b_;
  array::DeltaTracker& tracker_;
  bool bytes_decide_;
  std::string first_;
};

}  // namespace

void TreeDiffer::compare_arrays(const std::string& path, const Node& a, const Node& b) {
  switch (work_) {
    case ArrayWork::collect:
      pairs_.push_back({path, a, b});
      return;
    case ArrayWork::replay: {
      if (next_result_ >= results_.size()) throw Error("internal: diff met more arrays than it collected");
      ArrayResult& r = results_[next_result_++];
      if (r.error) std::rethrow_exception(r.error);
      report_.elements_compared += r.elements;
      for (Difference& d : r.differences) add(std::move(d));
      return;
    }
    case ArrayWork::direct:
      return compare_array_values(path, a, b);
  }
}

void TreeDiffer::compare_array_values(const std::string& path, const Node& a, const Node& b) {
  const ArrayNode &x = *a.array, &y = *b.array;
  storage_changed(path, storage_text(a), storage_text(b));
  if (x.torch != y.torch)
    add({scope_,
         path,
         DiffKind::kind_changed,
         x.torch ? "torch.Tensor" : "numpy.ndarray",
         y.torch ? "torch.Tensor" : "numpy.ndarray",
         {}});
  // Byte order is storage: ">f8" and "float64" hold the same values.
  const auto dx = parsed_dtype(x.dtype), dy = parsed_dtype(y.dtype);
  const bool same_type = dx && dy ? dx->kind == dy->kind && dx->itemsize == dy->itemsize : x.dtype == y.dtype;
  if (!same_type) add({scope_, path, DiffKind::dtype_changed, x.numpy_dtype(), y.numpy_dtype(), {}});
  if (stopped()) return;
  if (x.shape != y.shape || x.has_shape != y.has_shape) {
    add({scope_, path, DiffKind::shape_changed, shape_json(x.shape), shape_json(y.shape), {}});
    return;
  }
  if (options_.structure_only) return;  // values are not structure
  // Reading checks each array against its node (dtype, shape, member size): a broken array
  // is an error, not a difference.
  const ArrayValues va(a_.archive(), x, path), vb(b_.archive(), y, path);
  if (options_.strict) {
    const array::Dtype &sa = array::reader_of(va).stored_dtype(), &sb = array::reader_of(vb).stored_dtype();
    if (sa.order != sb.order) storage_changed(path, "byte order of " + sa.descr(), "byte order of " + sb.descr());
    if (va.fortran_order() != vb.fortran_order())
      storage_changed(path, va.fortran_order() ? "Fortran order" : "C order",
                      vb.fortran_order() ? "Fortran order" : "C order");
    if (stopped()) return;
  }
  // Numbers compare with numbers whatever their dtypes; strings only with strings of their kind.
  const array::Dtype &ta = array::reader_of(va).dtype(), &tb = array::reader_of(vb).dtype();
  const bool comparable = array::is_numeric(ta) ? array::is_numeric(tb) : ta.kind == tb.kind;
  if (!comparable || ta.itemsize == 0 || tb.itemsize == 0) return;

  array::DeltaTracker tracker(tolerance_for(options_, path), options_.nan_equal);
  ElementComparer comparer(ta, tb, tracker, options_.nan_equal);
  const bool ended_together = stream_element_pairs(
      va, vb, options_.queue_bytes, [&](const char* ca, const char* cb, std::uint64_t n, std::uint64_t index) {
        comparer.compare(ca, cb, n, index);
        return !(options_.stop_at_first && tracker.differing() > 0);
      });
  if (!ended_together)  // shapes agree and were checked: cannot happen
    throw Error(InArchive{a_.name()}, AtPath{path}, "values of the two arrays ended at different places");
  report_.elements_compared += tracker.compared();
  if (tracker.differing() == 0) return;
  ValueDifferences v;
  v.unit = "elements";
  v.compared = tracker.compared();
  v.differing = tracker.differing();
  v.first = comparer.first();
  v.first_at = unravel(tracker.first_difference()->index, va.shape());
  v.max_abs = tracker.max_abs();
  v.max_rel = tracker.max_rel();
  v.max_abs_at = unravel(tracker.max_abs_at().index, va.shape());
  v.max_rel_at = unravel(tracker.max_rel_at().index, va.shape());
  v.max_abs_differs = tracker.max_abs_differs();
  v.max_rel_differs = tracker.max_rel_differs();
  // Integer arrays: the difference is exact (0 when only equal runs were seen).
  const auto integral = [](const array::Dtype& t) {
    return t.kind == array::DtypeKind::signed_int || t.kind == array::DtypeKind::unsigned_int ||
           t.kind == array::DtypeKind::boolean;
  };
  if (integral(ta) && integral(tb) && v.max_abs) v.max_abs_integer = tracker.max_abs_exact().value_or(Int128{0});
  v.tolerance = tracker.tolerance();
  add({scope_, path, DiffKind::array_values, nullptr, nullptr, std::move(v)});
}

}  // namespace zanj::diff::detail
