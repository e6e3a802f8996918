#include "format/element_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

#include "format/array_text.hpp"
#include "array/byte_codec.hpp"
#include "array/element_types.hpp"
#include "zanj/error.hpp"
#include "array/float16.hpp"
#include "format/float_text.hpp"
#include "zanj/json.hpp"
#include "array/npy_header.hpp"
#include "array/array_reader.hpp"

namespace zanj {
namespace {

template <typename Int>
inline void append_integer(std::string& out, Int value) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, r.ptr);
}

/// Scratch text for string elements, reused so the value loops do not allocate.
std::string& scratch() {
  thread_local std::string text;
  text.clear();
  return text;
}

template <typename F>
inline format::FloatPrecision json_precision_of() {
  return sizeof(F) == 4 ? format::FloatPrecision::single : format::FloatPrecision::double_;
}

/// The JSON of one element; CSV differs only for complex numbers and strings.
template <typename T, bool Csv>
inline void append_element(std::string& out, const char* p, std::uint32_t itemsize) {
  if constexpr (std::is_same_v<T, bool>) {
    out += array::load_element<bool>(p) ? "true" : "false";
  } else if constexpr (std::is_integral_v<T>) {
    append_integer(out, array::load_element<T>(p));
  } else if constexpr (std::is_same_v<T, array::Half>) {
    format::write_json_real(out, array::half_to_float(array::load_element<std::uint16_t>(p)),
                            format::FloatPrecision::half);
  } else if constexpr (std::is_same_v<T, float>) {
    write_json_float(out, array::load_element<float>(p));
  } else if constexpr (std::is_same_v<T, double>) {
    write_json_double(out, array::load_element<double>(p));
  } else if constexpr (std::is_same_v<T, array::ByteString> || std::is_same_v<T, array::UnicodeString>) {
    std::string& text = scratch();
    if constexpr (std::is_same_v<T, array::ByteString>) {
      array::append_utf8_from_latin1(text, std::string_view(p, itemsize));
    } else {
      array::append_utf8_from_utf32le(text, std::string_view(p, itemsize));
    }
    if constexpr (Csv) {
      format::append_csv_field(out, text);
    } else {
      write_json_string(out, text);
    }
  } else {  // std::complex<float> or std::complex<double>: real then imaginary part
    using F = typename T::value_type;
    const F re = array::load_element<F>(p), im = array::load_element<F>(p + sizeof(F));
    out += Csv ? "(" : "[";
    format::write_json_real(out, re, json_precision_of<F>());
    if constexpr (Csv) {
      if (!(im < 0) && !std::signbit(im)) out += '+';  // write_json_real supplies a '-'
    } else {
      out += ", ";
    }
    format::write_json_real(out, im, json_precision_of<F>());
    out += Csv ? "j)" : "]";
  }
}

/// Brackets and commas of nested JSON lists, written as the elements of a shape go by.
class NestedLists {
 public:
  explicit NestedLists(std::vector<std::uint64_t> shape) : shape_(std::move(shape)), index_(shape_.size(), 0) {}

  inline void before_element(std::string& out) {
    if (first_) {
      first_ = false;
      out.append(shape_.size(), '[');
      return;
    }
    std::size_t closed = 0;
    for (std::size_t axis = shape_.size(); axis-- > 0; ++closed) {
      if (++index_[axis] < shape_[axis]) break;
      index_[axis] = 0;
    }
    out.append(closed, ']');
    out += ", ";
    out.append(closed, '[');
  }

  void finish(OutputBuffer& out) {
    if (first_) return write_empty(out);  // no elements: the shape holds a zero
    out.text().append(shape_.size(), ']');
  }

 private:
  /// numpy's tolist() of a zero-size array: the axes before the first 0 nest, and each
  /// innermost list is empty. Written as an array of that leading shape whose elements are
  /// "[]", so the time is that of the empty lists printed, never of a dimension.
  void write_empty(OutputBuffer& out) {
    check_json_printable(shape_);
    std::vector<std::uint64_t> leading;
    std::uint64_t lists = 1;
    for (auto d : shape_) {
      if (d == 0) break;
      lists *= d;
      leading.push_back(d);
    }
    NestedLists outer(std::move(leading));
    for (std::uint64_t i = 0; i < lists; ++i) {
      if (!outer.shape_.empty()) outer.before_element(out.text());
      out.text() += "[]";
      out.flush_if_full();
    }
    out.text().append(outer.shape_.size(), ']');
  }

  std::vector<std::uint64_t> shape_, index_;
  bool first_ = true;
};

void write_array_csv(const ArrayValues& values, const Selection& selection, OutputBuffer& out) {
  const auto shape = selection.shape();
  if (shape.size() > 2)
    throw Error("--format csv prints 1-D and 2-D arrays; this selection is " + std::to_string(shape.size()) +
                    "-D (select fewer dimensions with a slice such as [0])",
                Exit::usage);
  const std::uint64_t columns = shape.size() == 2 ? shape[1] : 1;
  const array::Dtype& dtype = array::reader_of(values).dtype();
  std::uint64_t column = 0;
  visit_element_type(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    values.stream(selection, [&](std::string_view chunk) {
      std::string& text = out.text();
      for (std::size_t i = 0; i < chunk.size(); i += dtype.itemsize) {
        append_element<T, true>(text, chunk.data() + i, dtype.itemsize);
        text += ++column == columns ? '\n' : ',';
        if (column == columns) column = 0;
        out.flush_if_full();
      }
      return true;
    });
  });
}

}  // namespace

void check_json_printable(const std::vector<std::uint64_t>& shape) {
  std::uint64_t lists = 1;
  for (auto d : shape) {
    if (d == 0) return;  // past the first 0 nothing nests
    if (d > kMaxEmptyLists || lists * d > kMaxEmptyLists) break;
    lists *= d;
  }
  if (std::find(shape.begin(), shape.end(), 0) == shape.end()) return;  // not zero-size
  std::string text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  throw Error("a zero-size array of shape " + text + (shape.size() == 1 ? ",)" : ")") + " prints as more than " +
              std::to_string(kMaxEmptyLists) + " empty lists in JSON (numpy's tolist()); not printed: select a slice");
}

void format::append_csv_field(std::string& out, std::string_view text) {
  if (!text.empty() && text.find_first_of(",\"\r\n") == std::string_view::npos) {
    out.append(text);
    return;
  }
  out += '"';
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
}

void format::append_element_json(std::string& out, const array::Dtype& dtype, const char* element) {
  visit_element_type(
      dtype, [&](auto tag) { append_element<typename decltype(tag)::type, false>(out, element, dtype.itemsize); });
}

void format::append_element_csv(std::string& out, const array::Dtype& dtype, const char* element) {
  visit_element_type(
      dtype, [&](auto tag) { append_element<typename decltype(tag)::type, true>(out, element, dtype.itemsize); });
}

void write_array_json(const ArrayValues& values, const Selection& selection, OutputBuffer& out) {
  NestedLists lists(selection.shape());
  const array::Dtype& dtype = array::reader_of(values).dtype();
  visit_element_type(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    values.stream(selection, [&](std::string_view chunk) {
      std::string& text = out.text();
      for (std::size_t i = 0; i < chunk.size(); i += dtype.itemsize) {
        lists.before_element(text);
        append_element<T, false>(text, chunk.data() + i, dtype.itemsize);
        out.flush_if_full();
      }
      return true;
    });
  });
  lists.finish(out);
}

void print_array(const ArrayValues& values, const Selection& selection, const ArrayPrintOptions& options,
                 OutputBuffer& out) {
  switch (options.format) {
    case ValueFormat::text:
      return format::print_array_text(values, selection, options, out);
    case ValueFormat::json:
      write_array_json(values, selection, out);
      out.text() += '\n';
      return;
    case ValueFormat::csv:
      return write_array_csv(values, selection, out);
    case ValueFormat::npy:
      out.write(array::make_npy_header(array::reader_of(values).dtype(), false, selection.shape()));
      [[fallthrough]];
    case ValueFormat::raw:
      values.stream(selection, [&](std::string_view chunk) {
        out.write(chunk);
        return true;
      });
      return;
  }
}

}  // namespace zanj
