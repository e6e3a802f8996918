#include "diff/element_pairs.hpp"

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "io/chunk_puller.hpp"

namespace zanj::diff::detail {
namespace {

/// The whole elements of one array in C order. Inline values are in memory already (decoded
/// from __zanj__.json); an external member is read ahead on a worker thread.
class ElementStream {
 public:
  ElementStream(const ArrayValues& values, std::size_t queue_bytes) {
    const Selection all = select_all(values.shape());
    if (!values.external()) {
      values.stream(all, [this](std::string_view c) {
        chunk_.append(c);
        return true;
      });
      return;
    }
    puller_ = std::make_unique<io::ChunkPuller>(
        [&values, all](const io::ChunkPuller::Sink& sink) { values.stream(all, sink); }, queue_bytes);
  }

  /// Elements not consumed yet (whole ones: ArrayValues never splits an element); empty at
  /// the end.
  std::string_view available() {
    while (offset_ == chunk_.size()) {
      if (!puller_ || !puller_->next(chunk_)) return {};
      offset_ = 0;
    }
    return std::string_view(chunk_).substr(offset_);
  }
  void consume(std::size_t bytes) { offset_ += bytes; }

 private:
  std::string chunk_;
  std::size_t offset_ = 0;
  std::unique_ptr<io::ChunkPuller> puller_;
};

}  // namespace

bool stream_element_pairs(const ArrayValues& a, const ArrayValues& b, std::size_t queue_bytes, const ElementRun& run) {
  const std::size_t size_a = a.item_size(), size_b = b.item_size();
  if (size_a == 0 || size_b == 0) return true;
  ElementStream sa(a, queue_bytes), sb(b, queue_bytes);
  for (std::uint64_t index = 0;;) {
    const std::string_view ca = sa.available(), cb = sb.available();
    if (ca.empty() || cb.empty()) return ca.empty() && cb.empty();
    const std::uint64_t n = std::min(ca.size() / size_a, cb.size() / size_b);
    if (!run(ca.data(), cb.data(), n, index)) return true;
    sa.consume(n * size_a);
    sb.consume(n * size_b);
    index += n;
  }
}

}  // namespace zanj::diff::detail
