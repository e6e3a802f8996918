#pragma once
// The values of one array node, wherever they are stored (ArrayValues in zanj/array.hpp is
// the API; this is what it holds): inline in __zanj__.json (any mode) or in an .npy member, C
// or Fortran order, either byte order. Whatever the storage, values come out the same way:
// whole elements, C order, little-endian, chunk by chunk, only the selected ones.
//
// How an external member is read: a C-order member and a selection in increasing order are
// streamed front to back, copying only the selected byte ranges and stopping after the last
// one. Anything else (Fortran order, negative steps) needs random access: the member's data up
// to the last needed byte is held in memory when small, else spooled to an unlinked temporary
// file, and the selected elements are gathered from there in output order.
// A stored (uncompressed) member whose selection ends before the member does is read in
// place instead: only the selected byte ranges, in few large reads (on a URL, only they are
// fetched). A read reaching the member's end still streams it, so that its CRC-32 is checked.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"
#include "array/dtype.hpp"
#include "array/npy_header.hpp"
#include "base/private_access.hpp"
#include "zanj/array.hpp"
#include "zanj/tree.hpp"

namespace zanj {

/// ArrayValues' private state: the opened array (ArrayValues forwards to it).
class ArrayValues::Reader {
 public:
  /// Open the array at object path `path` (used in messages). Inline nodes are decoded now
  /// (decode_inline_array); external ones have their .npy header read and checked against
  /// the node: dtype and shape must agree and the member must hold all the data. Throws Error
  /// (invalid) naming the archive, the path and what is wrong.
  Reader(const Archive& archive, const ArrayNode& node, std::string_view path, ArrayReadOptions options = {});

  /// The dtype of the delivered values (little-endian).
  const array::Dtype& dtype() const { return dtype_; }
  /// The dtype as stored (the .npy header's, or the node's for inline arrays).
  const array::Dtype& stored_dtype() const { return stored_dtype_; }
  const std::vector<std::uint64_t>& shape() const { return shape_; }
  bool external() const { return entry_ != nullptr; }
  bool fortran_order() const { return fortran_order_; }

  /// Stream the selected values (a Selection made for shape()) to `sink`. May be called more
  /// than once. Throws Error when member data is corrupt (CRC-32, truncation) — possibly
  /// after some values were delivered.
  void stream(const Selection& selection, const ValueSink& sink) const;

 private:
  class Chunker;
  /// Both return false when the sink asked to stop.
  bool stream_in_order(const Selection& selection, Chunker& out) const;
  bool gather(const Selection& selection, Chunker& out) const;
  /// The member's data bytes [0, n) to `sink`, stopping after them.
  void read_data_prefix(std::uint64_t n, const std::function<void(std::string_view)>& sink) const;
  /// Where the data of a stored member starts in the archive, when the first `needed` bytes
  /// of its data can be read there directly (see array_values.cpp); else nullopt.
  std::optional<std::uint64_t> stored_data_start(std::uint64_t needed) const;
  void report_progress(std::uint64_t member_bytes_read) const;
  /// The error for a member whose data ends before its header said it would.
  Error ended_early() const;

  const Archive* archive_;
  ArrayReadOptions options_;
  std::string path_;                 // the object path ("/" for the root), for messages
  const ZipEntry* entry_ = nullptr;  // external only
  std::uint64_t data_offset_ = 0;    // external only: where the data starts in the member
  std::string inline_values_;        // inline only: C order, little-endian
  array::Dtype dtype_, stored_dtype_;
  std::vector<std::uint64_t> shape_;
  bool fortran_order_ = false;
};

}  // namespace zanj

namespace zanj::array {

/// The opened array behind an ArrayValues (for the dtypes, which the API names only as text).
inline const auto& reader_of(const ArrayValues& values) { return PrivateAccess::impl(values); }

}  // namespace zanj::array
