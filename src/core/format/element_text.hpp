#pragma once
// One array element as JSON or CSV text, as print_array (zanj/format.hpp) writes them; and
// one CSV field.
#include <cstdint>
#include <string>
#include <string_view>

#include "array/dtype.hpp"
#include "zanj/format.hpp"

namespace zanj::format {

/// One element (little-endian bytes of `dtype`) as JSON, as write_array_json prints it.
void append_element_json(std::string& out, const array::Dtype& dtype, const char* element);
/// One element as a CSV field: like JSON, but complex as Python's "(1.0+2.0j)" and strings
/// quoted only when they must be.
void append_element_csv(std::string& out, const array::Dtype& dtype, const char* element);
/// Append `text` as one CSV field, in double quotes (doubled inside) when it holds a comma,
/// a quote, a line break, or is empty (RFC 4180).
void append_csv_field(std::string& out, std::string_view text);

}  // namespace zanj::format
