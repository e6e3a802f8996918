#pragma once
// Where formatted values go: one large string that is handed to a writer (stdout in the CLI)
// whenever it fills. Formatters append to text() in their value loops and call
// flush_if_full() as they go, so output streams out in large writes while memory stays at
// about one buffer whatever the array size.
#include <functional>
#include <string>
#include <string_view>
#include <utility>

namespace zanj {

class OutputBuffer {
 public:
  using Writer = std::function<void(std::string_view)>;
  static constexpr std::size_t kDefaultCapacity = std::size_t{1} << 20;

  explicit OutputBuffer(Writer writer, std::size_t capacity = kDefaultCapacity)
      : writer_(std::move(writer)), capacity_(capacity) {
    text_.reserve(capacity_ + capacity_ / 8);
  }

  /// Append here.
  std::string& text() { return text_; }
  void flush_if_full() {
    if (text_.size() >= capacity_) flush();
  }
  /// Hand everything buffered to the writer.
  void flush() {
    if (text_.empty()) return;
    writer_(text_);
    text_.clear();
  }
  /// Append raw bytes, flushing as needed (large blocks go straight through).
  void write(std::string_view bytes) {
    if (text_.size() + bytes.size() <= capacity_) {
      text_.append(bytes);
      return;
    }
    flush();
    if (bytes.size() >= capacity_) {
      writer_(bytes);
    } else {
      text_.append(bytes);
    }
  }

 private:
  Writer writer_;
  std::size_t capacity_;
  std::string text_;
};

}  // namespace zanj
