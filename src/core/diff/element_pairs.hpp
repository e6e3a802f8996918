#pragma once
// Two arrays of the same shape streamed side by side (private to the core): diff compares them
// this way (diff_arrays.cpp), and the comparison page of `zanj report` draws their differences
// (report/comparison_page.cpp). Values come as ArrayValues delivers them (whole elements, C
// order, little-endian); an external array is read ahead on a worker thread (ChunkPuller), so
// that one core decodes while the other compares, and memory stays bounded by the read-ahead.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "zanj/array.hpp"

namespace zanj::diff::detail {

/// Receives `n` (at least 1) elements of each array, at `a` and `b`, the first of them at flat
/// C-order position `index`; returns false to stop streaming.
using ElementRun = std::function<bool(const char* a, const char* b, std::uint64_t n, std::uint64_t index)>;

/// Streams the elements of `a` and `b` to `run`, as many as both have at hand at a time,
/// until either array ends or `run` returns false; `queue_bytes` is each external array's
/// read-ahead. Returns false when one array ended before the other (arrays of one shape never
/// do), true otherwise. Elements of size 0 (empty strings) are not streamed. Rethrows the
/// readers' errors (corrupt member data).
bool stream_element_pairs(const ArrayValues& a, const ArrayValues& b, std::size_t queue_bytes, const ElementRun& run);

}  // namespace zanj::diff::detail
