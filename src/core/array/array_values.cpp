#include "array/array_reader.hpp"

#include <algorithm>
#include <cstring>

#include "zanj/error.hpp"
#include "array/inline_array.hpp"
#include "array/inline_check.hpp"
#include "array/member_reader.hpp"
#include "array/run_cursor.hpp"
#include "io/spool_file.hpp"
#include "json/json_view_access.hpp"
#include "array/value_bytes.hpp"
#include "zip/archive_access.hpp"
#include "zip/member_name.hpp"

namespace zanj {

/// Collects selected bytes into chunks of whole elements, turns them little-endian and hands
/// them to the sink.
class ArrayValues::Reader::Chunker {
 public:
  Chunker(const array::Dtype& source, const ValueSink& sink, std::size_t chunk_bytes)
      : source_(source), sink_(sink), capacity_(std::max<std::size_t>(chunk_bytes, source.itemsize)) {
    buffer_.reserve(capacity_);
  }

  /// False once the sink has asked to stop.
  bool append(const char* data, std::uint64_t n) {
    while (n > 0) {
      const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(n, capacity_ - buffer_.size()));
      buffer_.append(data, take);
      data += take;
      n -= take;
      if (buffer_.size() >= capacity_ && !emit()) return false;
    }
    return true;
  }
  bool finish() { return emit(); }

 private:
  bool emit() {
    const std::size_t whole = buffer_.size() - buffer_.size() % source_.itemsize;
    if (whole == 0) return true;
    array::swap_to_little_endian(buffer_.data(), whole, source_);
    const bool more = sink_(std::string_view(buffer_.data(), whole));
    buffer_.erase(0, whole);  // keeps a split element's first bytes
    return more;
  }

  array::Dtype source_;
  const ValueSink& sink_;
  std::size_t capacity_;
  std::string buffer_;
};

namespace {

/// Offset (in elements) of the last element the selection touches: reading stops there.
std::uint64_t last_selected_offset(const Selection& selection, const std::vector<std::uint64_t>& strides) {
  std::uint64_t last = 0;
  for (std::size_t k = 0; k < selection.axes.size(); ++k) {
    std::uint64_t top = 0;
    for (const auto& s : selection.axes[k].segments)
      if (s.count > 0) top = std::max({top, s.start, s.at(s.count - 1)});
    last += top * strides[k];
  }
  return last;
}

template <typename Out>
bool gather_from_memory(const char* data, const Selection& selection, const std::vector<std::uint64_t>& strides,
                        std::uint32_t itemsize, Out& out) {
  array::RunCursor runs(selection, strides);
  array::Run run;
  while (runs.next(run))
    if (!out.append(data + run.offset * itemsize, run.count * itemsize)) return false;
  return true;
}

/// Gathering from a file: runs are taken in batches, sorted by position and read with few,
/// large reads (nearby pieces share one), then passed on in output order.
template <typename Out>
bool gather_from_source(const io::ByteSource& source, const Selection& selection,
                        const std::vector<std::uint64_t>& strides, std::uint32_t itemsize, Out& out) {
  constexpr std::size_t kBatchBytes = std::size_t{4} << 20, kMaxPieces = std::size_t{1} << 16;
  constexpr std::uint64_t kMaxRead = std::uint64_t{1} << 20, kMaxGap = std::uint64_t{64} << 10;
  struct Piece {
    std::uint64_t source, size;
    std::size_t target;
  };
  array::RunCursor runs(selection, strides);
  array::Run run;
  bool have = runs.next(run);
  std::uint64_t run_done = 0;  // bytes of the current run already in a batch
  std::string batch;
  std::vector<Piece> pieces;
  std::vector<char> read_buffer(kMaxRead);
  while (have) {
    batch.clear();
    pieces.clear();
    while (have && batch.size() < kBatchBytes && pieces.size() < kMaxPieces) {
      const std::uint64_t run_bytes = run.count * itemsize;
      const std::uint64_t take = std::min<std::uint64_t>(run_bytes - run_done, kBatchBytes - batch.size());
      pieces.push_back(Piece{run.offset * itemsize + run_done, take, batch.size()});
      batch.resize(batch.size() + take);
      run_done += take;
      if (run_done == run_bytes) {
        run_done = 0;
        have = runs.next(run);
      }
    }
    std::sort(pieces.begin(), pieces.end(), [](const Piece& a, const Piece& b) { return a.source < b.source; });
    for (std::size_t i = 0; i < pieces.size();) {
      const std::uint64_t begin = pieces[i].source;
      std::uint64_t end = begin + pieces[i].size;
      std::size_t j = i + 1;
      while (j < pieces.size() && pieces[j].source >= end && pieces[j].source - end <= kMaxGap &&
             pieces[j].source + pieces[j].size - begin <= kMaxRead) {
        end = pieces[j].source + pieces[j].size;
        ++j;
      }
      if (end - begin > kMaxRead) {  // one large piece: straight into place
        source.read_at(begin, batch.data() + pieces[i].target, pieces[i].size);
      } else {
        source.read_at(begin, read_buffer.data(), static_cast<std::size_t>(end - begin));
        for (std::size_t k = i; k < j; ++k)
          std::memcpy(batch.data() + pieces[k].target, read_buffer.data() + (pieces[k].source - begin), pieces[k].size);
      }
      i = j;
    }
    if (!out.append(batch.data(), batch.size())) return false;
  }
  return true;
}

/// muutils writes an inline (array_list_meta) array whose "data" list was itself long enough
/// to go to a .jsonl member when external_array_threshold is above external_list_threshold:
/// "data" is then {"__muutils_format__": "list:external", "$ref": "b/data.jsonl"}. Python's
/// loader fails on it, but the values are all there, one element (a number or a nested list)
/// per line: they are read into `held` and the node returned reads them from there. Any other
/// node is returned as it is.
ArrayNode with_external_data(const Archive& archive, const ArrayNode& node, Json& held) {
  if (node.encoding != ArrayEncoding::list || !node.data.is_object()) return node;
  const Node data = classify(node.data);
  if (data.kind != NodeKind::external_list) return node;
  const ZipEntry* entry = archive.find(data.list->member);
  if (!entry)
    throw Error(
        InMember{data.list->member, true},
        "\"data\" refers to member '" + zip::printable_name(data.list->member) + "', which is not in the archive");
  JsonArray values;
  array::for_each_jsonl_value(archive, *entry, [&](std::uint64_t, const Json& value) {
    values.push_back(value);
    return true;
  });
  held = Json(std::move(values));
  ArrayNode out = node;
  out.data = json::view_of(held);
  return out;
}

/// A stored member's data (past its .npy header) read in place: byte i is the member's byte
/// data_offset + i, read straight from the archive. A slice then costs only its own bytes
/// (on a URL, only their ranges are fetched), not a pass over the member up to them.
class StoredData final : public io::ByteSource {
 public:
  StoredData(const io::ByteSource& archive, std::uint64_t begin, std::uint64_t size)
      : archive_(archive), begin_(begin), size_(size) {}
  std::uint64_t size() const override { return size_; }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override {
    if (offset > size_ || n > size_ - offset) throw Error("internal: read past a stored member's data");
    archive_.read_at(begin_ + offset, buffer, n);
  }
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override {
    if (offset >= size_) return 0;
    n = static_cast<std::size_t>(std::min<std::uint64_t>(n, size_ - offset));
    read_at(offset, buffer, n);
    return n;
  }

 private:
  const io::ByteSource& archive_;
  std::uint64_t begin_, size_;
};

}  // namespace

std::optional<std::uint64_t> ArrayValues::Reader::stored_data_start(std::uint64_t needed) const {
  // Only when the read would stop before the member's end anyway: a read to the end goes
  // through the member reader, which then checks the member's size and CRC-32.
  if (entry_->method != static_cast<std::uint16_t>(ZipMethod::store) || entry_->encrypted() ||
      entry_->compressed_size != entry_->uncompressed_size || data_offset_ + needed >= entry_->uncompressed_size)
    return std::nullopt;
  const io::ByteSource& source = zip::archive_source(*archive_);
  const zip::LocalHeader local = zip::read_local_header(source, *entry_);
  // Anything the member reader would refuse is left to it, so the error is the same.
  if (local.method != entry_->method || local.name != entry_->name || local.data_offset > source.size() ||
      source.size() - local.data_offset < entry_->uncompressed_size)
    return std::nullopt;
  return local.data_offset + data_offset_;
}

ArrayValues::Reader::Reader(const Archive& archive, const ArrayNode& node, std::string_view path,
                            ArrayReadOptions options)
    : archive_(&archive), options_(std::move(options)), path_(path.empty() ? std::string("/") : std::string(path)) {
  try {
    if (!node.external()) {
      Json external_data;  // the values of an external "data" list, while they are decoded
      array::DecodedArray decoded = array::decode_inline_array(with_external_data(archive, node, external_data));
      // What numpy cannot build has no values to read: verify's problem, in its words.
      if (auto why = array::numpy_refusal(decoded.dtype, decoded.shape)) throw array::NumpyRefusalError(*why);
      stored_dtype_ = decoded.dtype;
      shape_ = std::move(decoded.shape);
      inline_values_ = std::move(decoded.values);
    } else {
      if (node.member.empty()) throw Error("has no \"$ref\" member name");
      entry_ = archive.find(node.member);
      const InMember named{node.member, true};  // the messages below name it themselves
      if (!entry_)
        throw Error(named, "refers to member '" + zip::printable_name(node.member) + "', which is not in the archive");
      const array::NpyHeader header = array::read_npy_member_header(archive, *entry_, options_.npy);
      if (auto why = array::numpy_refusal(header.dtype, header.shape))
        throw array::NumpyRefusalError(InMember{node.member}, *why);
      if (!node.dtype.empty() && !array::dtypes_compatible(array::parse_dtype_name(node.dtype), header.dtype))
        throw Error(named, "declares dtype " + node.dtype + " but member '" + zip::printable_name(node.member) +
                               "' holds " + header.dtype.descr());
      if (node.has_shape && node.shape != header.shape)
        throw Error(named, "declares shape " + shape_text(node.shape) + " but member '" +
                               zip::printable_name(node.member) + "' has shape " + shape_text(header.shape));
      if (header.data_offset + header.data_bytes() > entry_->uncompressed_size)
        throw Error(named, "member '" + zip::printable_name(node.member) + "' is too short: its header declares " +
                               std::to_string(header.data_bytes()) + " bytes of data, it holds " +
                               std::to_string(entry_->uncompressed_size - header.data_offset));
      stored_dtype_ = header.dtype;
      shape_ = header.shape;
      fortran_order_ = header.fortran_order;
      data_offset_ = header.data_offset;
    }
    if (stored_dtype_.itemsize == 0) throw Error("has dtype " + stored_dtype_.descr() + " with empty elements");
  } catch (const array::NumpyRefusalError& e) {  // context: the array and the archive join the error
    throw array::NumpyRefusalError(e.at_path(AtPath{path_}).in_archive(archive.name()));
  } catch (const Error& e) {          // context: likewise
    if (!e.archive().empty()) throw;  // the archive's own errors (reading a member) say where
    throw e.at_path(AtPath{path_}).in_archive(archive.name());
  }
  dtype_ = array::little_endian(stored_dtype_);
}

void ArrayValues::Reader::stream(const Selection& selection, const ValueSink& sink) const {
  if (selection.source_shape != shape_) throw Error("internal: selection made for another shape");
  if (selection.count() == 0) return;
  // Inline values are little-endian already; member bytes are swapped if stored big-endian.
  Chunker out(entry_ ? stored_dtype_ : dtype_, sink, options_.chunk_bytes);
  const bool in_order = entry_ && !fortran_order_ && selection.ascending();
  if (in_order ? stream_in_order(selection, out) : gather(selection, out)) out.finish();
}

bool ArrayValues::Reader::stream_in_order(const Selection& selection, Chunker& out) const {
  const std::uint64_t itemsize = stored_dtype_.itemsize;
  const auto strides = array::c_order_strides(shape_);
  const std::uint64_t needed = (last_selected_offset(selection, strides) + 1) * itemsize;
  if (const auto start = stored_data_start(needed))
    return gather_from_source(StoredData(zip::archive_source(*archive_), *start, needed), selection, strides,
                              stored_dtype_.itemsize, out);
  array::RunCursor runs(selection, array::c_order_strides(shape_));
  array::Run run;
  bool have = runs.next(run);
  // Byte positions below count from the start of the member, header included.
  std::uint64_t run_begin = 0, run_end = 0, position = 0;
  auto load = [&] {
    run_begin = data_offset_ + run.offset * itemsize;
    run_end = run_begin + run.count * itemsize;
  };
  if (have) load();
  bool stopped = false;
  archive_->read(*entry_, [&](std::string_view chunk) {
    const std::uint64_t chunk_begin = position, chunk_end = position + chunk.size();
    position = chunk_end;
    report_progress(position);
    while (have) {
      if (run_begin >= chunk_end) return true;  // the next run starts in a later chunk
      const std::uint64_t from = std::max(run_begin, chunk_begin), to = std::min(run_end, chunk_end);
      if (!out.append(chunk.data() + (from - chunk_begin), to - from)) {
        stopped = true;
        return false;
      }
      if (run_end > chunk_end) return true;  // the run goes on in the next chunk
      have = runs.next(run);
      if (have) load();
    }
    // Past the last selected byte: decode no further, unless this was the member's end anyway;
    // then the reader finishes and checks the size and CRC-32 of everything delivered.
    return chunk_end >= entry_->uncompressed_size;
  });
  if (have && !stopped) throw ended_early();
  return !stopped;
}

Error ArrayValues::Reader::ended_early() const {
  return Error(InArchive{archive_->name()}, AtPath{path_},
               "member '" + zip::printable_name(entry_->name) + "' ended before the data its header declares")
      .in_member(InMember{entry_->name, true});
}

void ArrayValues::Reader::report_progress(std::uint64_t member_bytes_read) const {
  if (options_.progress) options_.progress(member_bytes_read, entry_->uncompressed_size);
}

void ArrayValues::Reader::read_data_prefix(std::uint64_t n, const std::function<void(std::string_view)>& sink) const {
  std::uint64_t position = 0, delivered = 0;
  archive_->read(*entry_, [&](std::string_view chunk) {
    const std::uint64_t chunk_begin = position;
    position += chunk.size();
    report_progress(position);
    if (position <= data_offset_) return true;
    const std::uint64_t skip = data_offset_ > chunk_begin ? data_offset_ - chunk_begin : 0;
    const auto take = static_cast<std::size_t>(std::min<std::uint64_t>(chunk.size() - skip, n - delivered));
    sink(chunk.substr(static_cast<std::size_t>(skip), take));
    delivered += take;
    return delivered < n || position >= entry_->uncompressed_size;  // at the end: let the CRC be checked
  });
  if (delivered < n) throw ended_early();
}

bool ArrayValues::Reader::gather(const Selection& selection, Chunker& out) const {
  const auto strides = fortran_order_ ? array::fortran_order_strides(shape_) : array::c_order_strides(shape_);
  const std::uint32_t itemsize = stored_dtype_.itemsize;
  if (!entry_) return gather_from_memory(inline_values_.data(), selection, strides, itemsize, out);
  const std::uint64_t needed = (last_selected_offset(selection, strides) + 1) * itemsize;
  if (const auto start = stored_data_start(needed))
    return gather_from_source(StoredData(zip::archive_source(*archive_), *start, needed), selection, strides, itemsize,
                              out);
  if (needed <= options_.max_in_memory_bytes) {
    std::string data;
    data.reserve(static_cast<std::size_t>(needed));
    read_data_prefix(needed, [&](std::string_view piece) { data.append(piece); });
    return gather_from_memory(data.data(), selection, strides, itemsize, out);
  }
  io::SpoolFile spool(options_.spool_directory);
  read_data_prefix(needed, [&](std::string_view piece) { spool.append(piece); });
  return gather_from_source(spool, selection, strides, itemsize, out);
}

ArrayValues::ArrayValues(const Archive& archive, const ArrayNode& node, std::string_view path, ArrayReadOptions options)
    : impl_(std::make_shared<const Reader>(archive, node, path, std::move(options))) {}

std::string ArrayValues::dtype() const { return impl_->dtype().descr(); }
std::size_t ArrayValues::item_size() const { return impl_->dtype().itemsize; }
const std::vector<std::uint64_t>& ArrayValues::shape() const { return impl_->shape(); }
bool ArrayValues::external() const { return impl_->external(); }
bool ArrayValues::fortran_order() const { return impl_->fortran_order(); }
void ArrayValues::stream(const Selection& selection, const ValueSink& sink) const { impl_->stream(selection, sink); }

void ArrayValues::read_into(const Selection& selection, void* destination, std::size_t capacity) const {
  const std::uint64_t count = selection.count(), item = item_size();
  if (item != 0 && count > capacity / item)
    throw Error("a buffer of " + std::to_string(capacity) + " bytes cannot hold " + std::to_string(count) +
                    " values of " + std::to_string(item) + " bytes",
                Exit::usage);
  auto* out = static_cast<char*>(destination);
  impl_->stream(selection, [&](std::string_view elements) {
    std::memcpy(out, elements.data(), elements.size());
    out += elements.size();
    return true;
  });
}

std::vector<std::byte> ArrayValues::read(const Selection& selection) const {
  std::vector<std::byte> out(static_cast<std::size_t>(selection.count() * item_size()));
  read_into(selection, out.data(), out.size());
  return out;
}

}  // namespace zanj
