#pragma once
// A downsampled picture of an array, filled as its values stream past in C order: the array
// is seen as rows x last axis (a 3-D [a, b, c] as a*b rows of c), and each thumbnail cell
// averages the finite values of a block of rows and columns. Memory: one sum and one count
// per cell, whatever the array's size.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "zanj/summary.hpp"

namespace zanj::summary {

class HeatmapAccumulator {
 public:
  /// No thumbnail (every add ignored) below two dimensions, for an empty array or side 0.
  HeatmapAccumulator(const std::vector<std::uint64_t>& shape, std::size_t side);
  /// The next value in C order; NaN and infinities take their place but add nothing.
  void add(double v) {
    if (!active_) return;
    if (std::isfinite(v)) {
      sum_[row_cell_ * cols_ + col_cell_] += v;
      ++count_[row_cell_ * cols_ + col_cell_];
    }
    advance();
  }
  /// The next `n` values in C order, all finite: row by row, each cell's run of them summed in
  /// a register, in the same order as add() one at a time.
  void add_finite(const double* v, std::size_t n);
  Heatmap result() const;

 private:
  void advance();
  void next_row();  // past the end of a row

  std::uint64_t source_rows_ = 0, source_cols_ = 0;
  std::size_t rows_ = 0, cols_ = 0;
  bool active_ = false;  // a thumbnail is wanted and values remain
  std::vector<double> sum_;
  std::vector<std::uint64_t> count_;
  // Position of the next value, and the cell it falls in: cell boundaries are stepped past
  // rather than divided out per value.
  std::uint64_t row_ = 0, col_ = 0, next_row_edge_ = 0, next_col_edge_ = 0;
  std::size_t row_cell_ = 0, col_cell_ = 0;
  std::vector<std::uint64_t> col_edges_;  // edge of each column cell, worked out once, not once a row
};

}  // namespace zanj::summary
