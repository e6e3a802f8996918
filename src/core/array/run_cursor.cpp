#include "array/run_cursor.hpp"

#include <algorithm>

namespace zanj::array {

std::vector<std::uint64_t> c_order_strides(const std::vector<std::uint64_t>& shape) {
  std::vector<std::uint64_t> strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * std::max<std::uint64_t>(shape[k], 1);
  return strides;
}

std::vector<std::uint64_t> fortran_order_strides(const std::vector<std::uint64_t>& shape) {
  std::vector<std::uint64_t> strides(shape.size(), 1);
  for (std::size_t k = 1; k < shape.size(); ++k) strides[k] = strides[k - 1] * std::max<std::uint64_t>(shape[k - 1], 1);
  return strides;
}

RunCursor::RunCursor(const Selection& selection, const std::vector<std::uint64_t>& strides) {
  for (std::size_t k = 0; k < selection.axes.size(); ++k) {
    if (selection.axes[k].count() == 0) done_ = true;
    axes_.push_back(VirtualAxis{selection.axes[k].segments, strides[k], selection.source_shape[k]});
  }
  if (axes_.empty()) axes_.push_back(VirtualAxis{{Segment{0, 1, 1}}, 1, 1});  // a 0-d array: one element
  // Merge an inner axis taken whole and laid out right after its outer neighbour into that
  // neighbour, while the outer one selects consecutive indices: the runs get longer.
  while (axes_.size() >= 2) {
    const VirtualAxis& inner = axes_.back();
    const VirtualAxis& outer = axes_[axes_.size() - 2];
    const bool inner_whole = inner.segments.size() == 1 && inner.segments[0] == Segment{0, 1, inner.dim};
    bool outer_consecutive = outer.stride == inner.stride * inner.dim;
    for (const auto& seg : outer.segments) outer_consecutive = outer_consecutive && (seg.step == 1 || seg.count <= 1);
    if (!inner_whole || !outer_consecutive) break;
    VirtualAxis merged{{}, inner.stride, outer.dim * inner.dim};
    for (const auto& seg : outer.segments)
      merged.segments.push_back(Segment{seg.start * inner.dim, 1, seg.count * inner.dim});
    axes_.pop_back();
    axes_.back() = std::move(merged);
  }
  outer_.resize(axes_.size() - 1);
  compute_base();
}

void RunCursor::compute_base() {
  base_ = 0;
  for (std::size_t k = 0; k < outer_.size(); ++k)
    base_ += axes_[k].segments[outer_[k].segment].at(outer_[k].i) * axes_[k].stride;
}

void RunCursor::advance_outer() {
  for (std::size_t k = outer_.size(); k-- > 0;) {
    Position& p = outer_[k];
    if (++p.i < axes_[k].segments[p.segment].count) return compute_base();
    p.i = 0;
    if (++p.segment < axes_[k].segments.size()) return compute_base();
    p.segment = 0;
  }
  done_ = true;  // every outer position visited (or there are no outer axes)
}

void RunCursor::next_inner_segment() {
  inner_.i = 0;
  if (++inner_.segment < axes_.back().segments.size()) return;
  inner_.segment = 0;
  advance_outer();
}

bool RunCursor::next(Run& run) {
  if (done_) return false;
  const VirtualAxis& axis = axes_.back();
  const Segment& s = axis.segments[inner_.segment];
  if (s.count == 1 || (s.step == 1 && axis.stride == 1)) {  // consecutive elements: one run
    run = Run{base_ + s.start * axis.stride, s.count};
    next_inner_segment();
  } else {
    run = Run{base_ + s.at(inner_.i) * axis.stride, 1};
    if (++inner_.i == s.count) next_inner_segment();
  }
  return true;
}

}  // namespace zanj::array
