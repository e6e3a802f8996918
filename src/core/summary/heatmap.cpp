#include "summary/heatmap.hpp"

#include <algorithm>
#include <limits>

namespace zanj::summary {
namespace {
// First index of cell `cell + 1` when `length` indices are split into `cells` cells.
std::uint64_t edge(std::size_t cell, std::uint64_t length, std::size_t cells) {
  const auto n = static_cast<Int128>(cell + 1) * static_cast<Int128>(length);
  return static_cast<std::uint64_t>((n + static_cast<Int128>(cells) - 1) / static_cast<Int128>(cells));
}
}  // namespace

HeatmapAccumulator::HeatmapAccumulator(const std::vector<std::uint64_t>& shape, std::size_t side) {
  if (shape.size() < 2 || side == 0) return;
  source_cols_ = shape.back();
  source_rows_ = 1;
  for (std::size_t i = 0; i + 1 < shape.size(); ++i) {
    if (shape[i] != 0 && source_rows_ > std::numeric_limits<std::uint64_t>::max() / shape[i]) return;
    source_rows_ *= shape[i];
  }
  if (source_rows_ == 0 || source_cols_ == 0) return;
  rows_ = static_cast<std::size_t>(std::min<std::uint64_t>(source_rows_, side));
  cols_ = static_cast<std::size_t>(std::min<std::uint64_t>(source_cols_, side));
  active_ = true;
  sum_.assign(rows_ * cols_, 0);
  count_.assign(rows_ * cols_, 0);
  next_row_edge_ = edge(0, source_rows_, rows_);
  col_edges_.resize(cols_);
  for (std::size_t c = 0; c < cols_; ++c) col_edges_[c] = edge(c, source_cols_, cols_);
  next_col_edge_ = col_edges_[0];
}

void HeatmapAccumulator::advance() {
  if (++col_ == next_col_edge_ && col_ < source_cols_) next_col_edge_ = col_edges_[++col_cell_];
  if (col_ < source_cols_) return;
  next_row();
}

void HeatmapAccumulator::next_row() {
  col_ = 0;
  col_cell_ = 0;
  next_col_edge_ = col_edges_[0];
  if (++row_ == next_row_edge_ && row_ < source_rows_) next_row_edge_ = edge(++row_cell_, source_rows_, rows_);
  if (row_ == source_rows_) active_ = false;  // every value seen
}

void HeatmapAccumulator::add_finite(const double* v, std::size_t n) {
  while (n > 0 && active_) {
    // To the end of the row or of the values; the position in locals, since a store to count_
    // could alias the members.
    const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(n, source_cols_ - col_));
    n -= take;
    std::uint64_t col = col_, col_edge = next_col_edge_;
    std::size_t col_cell = col_cell_;
    double* sums = sum_.data() + row_cell_ * cols_;
    std::uint64_t* counts = count_.data() + row_cell_ * cols_;
    for (const double* end = v + take; v < end;) {
      const auto run = static_cast<std::size_t>(std::min<std::uint64_t>(end - v, col_edge - col));
      double sum = sums[col_cell];
      for (std::size_t i = 0; i < run; ++i) sum += v[i];
      sums[col_cell] = sum;
      counts[col_cell] += run;
      v += run;
      col += run;
      if (col == col_edge && col < source_cols_) col_edge = col_edges_[++col_cell];
    }
    col_ = col;
    next_col_edge_ = col_edge;
    col_cell_ = col_cell;
    if (col_ == source_cols_) next_row();
  }
}

Heatmap HeatmapAccumulator::result() const {
  Heatmap h;
  if (sum_.empty()) return h;
  h.rows = rows_;
  h.cols = cols_;
  h.source_rows = source_rows_;
  h.source_cols = source_cols_;
  h.cells.resize(sum_.size());
  for (std::size_t i = 0; i < sum_.size(); ++i)
    h.cells[i] = count_[i] ? sum_[i] / static_cast<double>(count_[i]) : std::numeric_limits<double>::quiet_NaN();
  return h;
}

}  // namespace zanj::summary
