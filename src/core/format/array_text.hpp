#pragma once
// Arrays as numpy prints them (str(array)): nested brackets, rows on their own lines, columns
// aligned, floats with at most 8 digits after the point (scientific notation when the values
// span many magnitudes), and large arrays summarized with "..." after the first and before the
// last few elements of each axis. Only the elements shown are read.
#include "array/array_reader.hpp"
#include "zanj/format.hpp"
#include "zanj/array.hpp"
#include "format/element_text.hpp"

namespace zanj::format {

/// Print the selection as text, ending with a newline. Summarized (options.edge_items at each
/// end of every axis) when it has more than options.summary_threshold elements, unless
/// options.full. Column widths come from the elements shown: when those do not fit in a few
/// MiB they are read twice, once to measure and once to print.
void print_array_text(const ArrayValues& values, const Selection& selection, const ArrayPrintOptions& options,
                      OutputBuffer& out);

}  // namespace zanj::format
