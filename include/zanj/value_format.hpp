#pragma once
// Printing array values: numpy-like text (array_text.hpp), JSON nested lists, CSV, a .npy
// stream, or the raw bytes. Everything streams from ArrayValues into an OutputBuffer, one
// chunk of elements at a time, so printing a multi-gigabyte array takes a few MiB.
#include <cstdint>
#include <string>
#include <string_view>

#include "zanj/array_values.hpp"
#include "zanj/output_buffer.hpp"
#include "zanj/slice.hpp"

namespace zanj {

enum class ValueFormat { text, json, csv, npy, raw };

struct ArrayPrintOptions {
  ValueFormat format = ValueFormat::text;
  bool full = false;                        ///< text: never summarize
  std::uint64_t summary_threshold = 1000;   ///< text: summarize arrays with more elements (numpy's)
  std::uint64_t edge_items = 3;             ///< text: elements kept at each end of a summarized axis
  std::size_t line_width = 75;              ///< text: wrap rows longer than this
};

/// Print the selected values of an array in options.format. text, json and csv end with a
/// newline; npy is a complete .npy stream of the selection (C order, little-endian); raw is
/// the values' bytes only. csv takes 0-, 1- and 2-D selections (Error, usage, otherwise).
void print_array(const ArrayValues& values, const Selection& selection, const ArrayPrintOptions& options,
                 OutputBuffer& out);

/// Most empty innermost lists a zero-size array prints as JSON: numpy's tolist() of shape
/// (3, 0) is [[], [], []], so a shape (10**18, 0) would print without end.
constexpr std::uint64_t kMaxEmptyLists = std::uint64_t{1} << 20;

/// The selected values as JSON: nested lists (a 0-d selection is a scalar), bool as
/// true/false, complex as [re, im], floats in the shortest form that reads back at the
/// array's own precision, NaN / Infinity / -Infinity as Python writes them. No newline.
/// A zero-size selection prints as numpy's tolist(): the axes before the first 0 as nested
/// lists of empty lists, in time bounded by kMaxEmptyLists; Error (invalid) when that many
/// empty lists would not do.
void write_array_json(const ArrayValues& values, const Selection& selection, OutputBuffer& out);

/// Throws Error (invalid) when a selection of `shape` is zero-size and would print as more
/// than kMaxEmptyLists empty lists in JSON (write_array_json then refuses it too).
void check_json_printable(const std::vector<std::uint64_t>& shape);

/// One element (little-endian bytes of `dtype`) as JSON, as write_array_json prints it.
void append_element_json(std::string& out, const Dtype& dtype, const char* element);
/// One element as a CSV field: like JSON, but complex as Python's "(1.0+2.0j)" and strings
/// quoted only when they must be.
void append_element_csv(std::string& out, const Dtype& dtype, const char* element);
/// Append `text` as one CSV field, in double quotes (doubled inside) when it holds a comma,
/// a quote, a line break, or is empty (RFC 4180).
void append_csv_field(std::string& out, std::string_view text);

}  // namespace zanj
