#pragma once
// From a Selection to the stored elements it covers: runs of consecutive elements, in output
// (C) order, for a C-order or Fortran-order layout. Readers copy run by run, so a selection
// that is a contiguous block costs one copy, and only selected bytes are touched.
#include <cstdint>
#include <vector>

#include "zanj/array.hpp"

namespace zanj::array {

/// Element strides (in elements) of a C-order or Fortran-order layout of `shape`.
std::vector<std::uint64_t> c_order_strides(const std::vector<std::uint64_t>& shape);
std::vector<std::uint64_t> fortran_order_strides(const std::vector<std::uint64_t>& shape);

/// Consecutive stored elements: `count` of them starting at element `offset`.
struct Run {
  std::uint64_t offset = 0;
  std::uint64_t count = 0;
};

/// The runs a selection covers in a layout with `strides`, in output (C) order. Trailing axes
/// taken whole are merged, so a full C-order array is one run. Holds O(ndim) state.
class RunCursor {
 public:
  RunCursor(const Selection& selection, const std::vector<std::uint64_t>& strides);
  /// The next run, or false when all are done.
  bool next(Run& run);

 private:
  struct VirtualAxis {
    std::vector<Segment> segments;
    std::uint64_t stride = 1, dim = 1;
  };
  struct Position {
    std::size_t segment = 0;
    std::uint64_t i = 0;
  };
  void next_inner_segment();
  void advance_outer();
  void compute_base();

  std::vector<VirtualAxis> axes_;  // the last one is iterated inside next()
  std::vector<Position> outer_;    // odometer over all but the last axis
  Position inner_;
  std::uint64_t base_ = 0;
  bool done_ = false;
};

}  // namespace zanj::array
