// numpy-like text: the layout (brackets, separators, "..." gaps, line wrapping) and the
// columns (one width for all elements of a type; floats through FloatColumn).
#include "format/array_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <vector>

#include "array/byte_codec.hpp"
#include "array/element_types.hpp"
#include "array/float16.hpp"
#include "format/float_column.hpp"
#include "base/utf8.hpp"
#include "array/array_reader.hpp"

namespace zanj::format {
namespace {

constexpr std::uint64_t kMeasureInMemoryBytes = std::uint64_t{8} << 20;

template <typename F>
constexpr FloatPrecision precision_of() {
  return sizeof(F) == 2 ? FloatPrecision::half : sizeof(F) == 4 ? FloatPrecision::single : FloatPrecision::double_;
}

/// Python's repr of a str or bytes element: quotes, backslash escapes for what is not printable
/// (in a str also C1 controls and what is not UTF-8, such as a surrogate code point).
void append_repr(std::string& out, std::string_view text, bool bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  if (bytes) out += 'b';
  out += '\'';
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (!bytes && c >= 0x80) {
      const std::size_t len = base::utf8_sequence(text.substr(i), cp);
      if (len != 0 && cp > 0x9F) {
        out.append(text.substr(i, len));
        i += len - 1;
        continue;
      }
      if (len == 2) ++i;  // a C1 control: \x80 to \x9f, as Python writes it
      out += "\\x";
      out += hex[(len == 2 ? cp : c) >> 4];
      out += hex[(len == 2 ? cp : c) & 15];
      continue;
    }
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7f || (bytes && c >= 0x80)) {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '\'';
}

/// Formats the elements of one element type with one shared width.
template <typename T>
class TextColumn {
 public:
  explicit TextColumn(std::uint32_t itemsize) : itemsize_(itemsize) {}

  void observe(const char* p) {
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      char buf[24];
      width_ = std::max(
          width_, static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, array::load_element<T>(p)).ptr - buf));
    } else if constexpr (std::is_same_v<T, array::Half>) {
      real_.observe(array::half_to_float(array::load_element<std::uint16_t>(p)));
    } else if constexpr (std::is_floating_point_v<T>) {
      real_.observe(array::load_element<T>(p));
    } else if constexpr (is_complex) {
      using F = typename T::value_type;
      real_.observe(array::load_element<F>(p));
      imag_.observe(std::fabs(array::load_element<F>(p + sizeof(F))));
    }
  }

  void finish() {
    real_.finish();
    imag_.finish();
  }

  /// The element's text, padded to the column width.
  std::string_view format(const char* p) {
    text_.clear();
    if constexpr (std::is_same_v<T, bool>) {
      text_ = array::load_element<bool>(p) ? " True" : "False";
    } else if constexpr (std::is_integral_v<T>) {
      char buf[24];
      const auto end = std::to_chars(buf, buf + sizeof buf, array::load_element<T>(p)).ptr;
      text_.append(width_ - static_cast<std::size_t>(end - buf), ' ');
      text_.append(buf, end);
    } else if constexpr (std::is_same_v<T, array::Half>) {
      real_.write(text_, array::half_to_float(array::load_element<std::uint16_t>(p)));
    } else if constexpr (std::is_floating_point_v<T>) {
      real_.write(text_, array::load_element<T>(p));
    } else if constexpr (is_complex) {
      using F = typename T::value_type;
      const F im = array::load_element<F>(p + sizeof(F));
      real_.write(text_, array::load_element<F>(p));
      text_ += std::signbit(im) && !std::isnan(im) ? '-' : '+';
      imag_.write(text_, std::fabs(im), "j");
    } else {
      std::string& decoded = decoded_;
      decoded.clear();
      if constexpr (std::is_same_v<T, array::ByteString>) {
        decoded.assign(p, itemsize_);
        while (!decoded.empty() && decoded.back() == '\0') decoded.pop_back();
      } else {
        array::append_utf8_from_utf32le(decoded, std::string_view(p, itemsize_));
      }
      append_repr(text_, decoded, std::is_same_v<T, array::ByteString>);
    }
    return text_;
  }

 private:
  static constexpr bool is_complex = std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
  static constexpr FloatPrecision precision() {
    if constexpr (std::is_same_v<T, array::Half>)
      return FloatPrecision::half;
    else if constexpr (is_complex)
      return precision_of<typename T::value_type>();
    else if constexpr (std::is_floating_point_v<T>)
      return precision_of<T>();
    else
      return FloatPrecision::double_;
  }

  std::uint32_t itemsize_;
  std::size_t width_ = 0;
  FloatColumn real_{precision()}, imag_{precision()};
  std::string text_, decoded_;
};

/// Brackets, separators, "..." gaps and line wrapping, as the elements go by in C order.
class TextLayout {
 public:
  TextLayout(const Selection& shown, std::size_t line_width) : line_width_(line_width) {
    for (const auto& a : shown.axes) {
      if (!a.kept) continue;
      counts_.push_back(a.count());
      gaps_.push_back(a.segments.size() == 2 ? std::optional<std::uint64_t>(a.segments[0].count) : std::nullopt);
    }
    index_.assign(counts_.size(), 0);
  }

  /// Write what comes before the next element, which is `width` characters wide.
  void before_element(std::string& out, std::size_t width) {
    const std::size_t n = counts_.size();
    if (first_) {
      first_ = false;
      out.append(n, '[');
      line_ = n + width;
      return;
    }
    std::size_t axis = n - 1, closed = 0;
    while (++index_[axis] == counts_[axis]) {
      index_[axis] = 0;
      ++closed;
      --axis;
    }
    const bool gap = gaps_[axis] && index_[axis] == *gaps_[axis];
    if (closed == 0) {  // the same row: a space, or a line break when the row is too long
      if (gap) {
        separate(out, 3);
        out += "...";
      }
      separate(out, width);
      return;
    }
    // A new row or block: close, leave closed-1 blank lines (numpy's), indent, open again.
    out.append(closed, ']');
    out.append(closed, '\n');
    out.append(axis + 1, ' ');
    if (gap) {
      out += "...";
      out.append(closed, '\n');
      out.append(axis + 1, ' ');
    }
    out.append(closed, '[');
    line_ = axis + 1 + closed + width;
  }

  void finish(std::string& out) const {
    out.append(counts_.size(), ']');
    out += '\n';
  }

 private:
  /// Like numpy, keep room for a closing bracket at the end of every line.
  void separate(std::string& out, std::size_t width) {
    if (line_ + 1 + width + 1 > line_width_) {
      out += '\n';
      out.append(counts_.size(), ' ');
      line_ = counts_.size() + width;
    } else {
      out += ' ';
      line_ += 1 + width;
    }
  }

  std::vector<std::uint64_t> counts_, index_;
  std::vector<std::optional<std::uint64_t>> gaps_;
  std::size_t line_width_, line_ = 0;
  bool first_ = true;
};

}  // namespace

void print_array_text(const ArrayValues& values, const Selection& selection, const ArrayPrintOptions& options,
                      OutputBuffer& out) {
  const bool summarized = !options.full && selection.count() > options.summary_threshold;
  const Selection shown = summarized ? summarize(selection, options.edge_items) : selection;
  if (shown.count() == 0) {
    out.text() += "[]\n";
    return;
  }
  const std::uint32_t itemsize = array::reader_of(values).dtype().itemsize;
  array::visit_element_type(array::reader_of(values).dtype(), [&](auto tag) {
    TextColumn<typename decltype(tag)::type> column(itemsize);
    TextLayout layout(shown, options.line_width);
    auto measure = [&](std::string_view chunk) {
      for (std::size_t i = 0; i < chunk.size(); i += itemsize) column.observe(chunk.data() + i);
      return true;
    };
    const bool scalar = shown.shape().empty();  // a 0-d selection: one value, nothing to align
    auto print = [&](std::string_view chunk) {
      for (std::size_t i = 0; i < chunk.size(); i += itemsize) {
        std::string_view text = column.format(chunk.data() + i);
        if (scalar) text.remove_prefix(std::min(text.find_first_not_of(' '), text.size()));
        layout.before_element(out.text(), text.size());
        out.text() += text;
        out.flush_if_full();
      }
      return true;
    };
    if (shown.count() * itemsize <= kMeasureInMemoryBytes) {  // read once, measure and print from memory
      std::string all;
      values.stream(shown, [&](std::string_view chunk) {
        all.append(chunk);
        return true;
      });
      measure(all);
      column.finish();
      print(all);
    } else {  // too much to hold: read twice
      values.stream(shown, measure);
      column.finish();
      values.stream(shown, print);
    }
    layout.finish(out.text());
  });
}

}  // namespace zanj::format
