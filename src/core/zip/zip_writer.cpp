// ZIP output following Python's zipfile (Lib/zipfile.py, ZipInfo.FileHeader and
// ZipFile._write_end_record) and the PKWARE APPNOTE for the record layouts.
#include "zip/zip_writer.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <optional>

#include "zip/crc32.hpp"
#include "zip/deflate_stream.hpp"
#include "zip/local_scan.hpp"
#include "zip/zip_format.hpp"
#include "zanj/error.hpp"
#include "zip/member_name.hpp"
#include "base/unicode.hpp"

namespace zanj::zip {
namespace {

// zipfile switches to Zip64 past 2 GiB - 1, not 4 GiB - 1: sizes and offsets are compared
// with this limit, members with more data get 0xFFFFFFFF and the real value in the extra.
constexpr std::uint64_t kZip64Limit = (std::uint64_t{1} << 31) - 1;
constexpr std::uint64_t kMaxMembers = 0xFFFF;
constexpr std::uint16_t kVersion = 20, kZip64Version = 45;
constexpr std::uint16_t kMadeByUnix = 3 << 8;
constexpr std::size_t kZip64LocalExtra = 20;
constexpr std::size_t kOutputBuffer = std::size_t{1} << 20;

/// Append `value` as `width` (at most 8) little-endian bytes.
void put(std::string& out, std::uint64_t value, int width) {
  for (int i = 0; i < width; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFF));
}

}  // namespace

DosDateTime DosDateTime::from_unix(std::int64_t seconds) {
  const std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  if (!localtime_r(&t, &tm)) return {};
  const int year = std::clamp(tm.tm_year + 1900, 1980, 2107);
  DosDateTime d;
  d.date = static_cast<std::uint16_t>((year - 1980) << 9 | (tm.tm_mon + 1) << 5 | tm.tm_mday);
  d.time = static_cast<std::uint16_t>(tm.tm_hour << 11 | tm.tm_min << 5 | tm.tm_sec / 2);
  return d;
}

/// The output, buffered, plus the member being written.
struct ZipWriter::Impl {
  io::ByteSink* sink = nullptr;
  std::uint64_t offset = 0;  ///< bytes handed to append(), buffered or not
  std::string buffer;
  std::unique_ptr<base::ThreadPool> pool;
  // the open member
  std::optional<Entry> member;
  bool member_zip64 = false;
  std::unique_ptr<DeflateStream> deflater;
  bool finished = false;

  void flush() {
    sink->write(buffer);
    buffer.clear();
  }
  void append(std::string_view bytes) {
    if (buffer.size() + bytes.size() > kOutputBuffer) flush();
    if (bytes.size() >= kOutputBuffer) {
      sink->write(bytes);
    } else {
      buffer.append(bytes);
    }
    offset += bytes.size();
  }
  /// Overwrite bytes already written (they may still sit in the buffer).
  void patch(std::uint64_t at, std::string_view bytes) {
    flush();
    sink->patch(at, bytes);
  }
};

ZipWriter::ZipWriter(int fd, std::string name, const ZipWriterOptions& options)
    : name_(std::move(name)), options_(options), own_sink_(std::make_unique<io::FdSink>(fd, name_)) {
  start(*own_sink_);
}

ZipWriter::ZipWriter(io::ByteSink& sink, std::string name, const ZipWriterOptions& options)
    : name_(std::move(name)), options_(options) {
  start(sink);
}

void ZipWriter::start(io::ByteSink& sink) {
  const ZipWriterOptions& options = options_;
  if (options.method != ZipMethod::store && options.method != ZipMethod::deflate)
    throw Error(
        "can only write stored or deflated members, not " + method_name(static_cast<std::uint16_t>(options.method)),
        Exit::usage);
  if (options.level < 0 || options.level > 9)
    throw Error("deflate level must be 0-9, not " + std::to_string(options.level), Exit::usage);
  impl_ = std::make_unique<Impl>();
  impl_->sink = &sink;
  impl_->buffer.reserve(kOutputBuffer);
  if (options.method == ZipMethod::deflate && options.threads > 1)
    impl_->pool = std::make_unique<base::ThreadPool>(options.threads);
}

ZipWriter::~ZipWriter() = default;

std::uint64_t ZipWriter::bytes_written() const { return impl_->offset; }

void ZipWriter::begin_member(const std::string& name, const ZipMemberOptions& options) {
  if (impl_->finished) throw Error("internal: member added to a finished ZIP");
  if (impl_->member) throw Error("internal: member '" + name + "' begun inside '" + impl_->member->name + "'");
  if (name.empty() || name.size() > 0xFFFF || !base::is_valid_utf8(name))
    throw Error(InArchive{name_}, "cannot name a member '" + printable_name(name) + "'");
  Entry e;
  e.name = name;
  e.flags = base::is_ascii(name) ? 0 : kFlagUtf8;
  if (!impl_->sink->can_patch()) e.flags |= kFlagDescriptor;  // as zipfile on an unseekable stream
  e.time = options.modified.time;
  e.date = options.modified.date;
  e.method = static_cast<std::uint16_t>(options_.method);
  e.offset = impl_->offset;
  // As zipfile's _open_to_write: Zip64 when forced or when the data may reach the limit.
  impl_->member_zip64 = options.force_zip64 || options.expected_size + options.expected_size / 20 > kZip64Limit;
  std::string header;
  put(header, kLocalSig, 4);
  put(header, kVersion, 2);
  put(header, e.flags, 2);
  put(header, static_cast<std::uint16_t>(options_.method), 2);
  put(header, e.time, 2);
  put(header, e.date, 2);
  header.append(12, '\0');  // CRC-32 and sizes: patched in end_member(), or in the data descriptor
  put(header, name.size(), 2);
  put(header, impl_->member_zip64 ? kZip64LocalExtra : 0, 2);
  header += name;
  if (impl_->member_zip64) {
    put(header, 1, 2);   // Zip64 extended information
    put(header, 16, 2);  // both sizes, patched later
    header.append(16, '\0');
  }
  impl_->append(header);
  impl_->member = std::move(e);
  if (options_.method == ZipMethod::deflate) {
    Impl* impl = impl_.get();
    impl_->deflater = std::make_unique<DeflateStream>(options_.level, impl_->pool.get(), [impl](std::string_view out) {
      impl->member->compressed += out.size();
      impl->append(out);
    });
  }
}

void ZipWriter::write(std::string_view data) {
  if (!impl_->member) throw Error("internal: ZIP data written outside a member");
  if (data.empty()) return;
  Entry& e = *impl_->member;
  e.crc = crc32_update(e.crc, data.data(), data.size());
  e.uncompressed += data.size();
  if (impl_->deflater) {
    impl_->deflater->write(data);
  } else {
    e.compressed += data.size();
    impl_->append(data);
  }
}

void ZipWriter::end_member() {
  if (!impl_->member) throw Error("internal: ZIP member ended twice");
  if (impl_->deflater) {
    impl_->deflater->finish();
    impl_->deflater.reset();
  }
  Entry e = std::move(*impl_->member);
  impl_->member.reset();
  const bool large = e.uncompressed > kZip64Limit || e.compressed > kZip64Limit;
  if (large && !impl_->member_zip64)
    throw Error(InArchive{name_}, InMember{e.name}, "over 2 GiB without a Zip64 header");
  if (large) e.version = kZip64Version;
  if (e.flags & kFlagDescriptor)
    write_data_descriptor(e, impl_->member_zip64);
  else
    patch_local_header(e, impl_->member_zip64);
  entries_.push_back(std::move(e));
}

void ZipWriter::patch_local_header(const Entry& e, bool zip64) {
  const bool large = e.uncompressed > kZip64Limit || e.compressed > kZip64Limit;
  std::string fixed;
  put(fixed, e.version, 2);
  impl_->patch(e.offset + 4, fixed);
  fixed.clear();
  put(fixed, e.crc, 4);
  put(fixed, large ? 0xFFFFFFFFu : e.compressed, 4);
  put(fixed, large ? 0xFFFFFFFFu : e.uncompressed, 4);
  impl_->patch(e.offset + 14, fixed);
  if (zip64) {
    std::string extra;
    put(extra, e.uncompressed, 8);  // zipfile's order: file size, then compressed size
    put(extra, e.compressed, 8);
    impl_->patch(e.offset + kLocalSize + e.name.size() + 4, extra);
  }
}

void ZipWriter::write_data_descriptor(const Entry& e, bool zip64) {
  // As zipfile's _ZipWriteFile.close: signature, CRC-32, then the sizes, 8 bytes each when the
  // member was opened with Zip64 (the local header, written first, keeps zeros and version 2.0).
  std::string descriptor;
  put(descriptor, kDescriptorSig, 4);
  put(descriptor, e.crc, 4);
  put(descriptor, e.compressed, zip64 ? 8 : 4);
  put(descriptor, e.uncompressed, zip64 ? 8 : 4);
  impl_->append(descriptor);
}

void ZipWriter::add_member(const std::string& name, std::string_view data, ZipMemberOptions options) {
  options.expected_size = data.size();
  begin_member(name, options);
  write(data);
  end_member();
}

void ZipWriter::copy_member(const io::ByteSource& source, const ZipEntry& entry) {
  if (impl_->finished) throw Error("internal: member added to a finished ZIP");
  if (impl_->member) throw Error("internal: member '" + entry.name + "' copied inside '" + impl_->member->name + "'");
  const LocalHeader local = read_local_header(source, entry);
  std::uint64_t end = local.data_offset + entry.compressed_size;
  if (entry.flags & kFlagDescriptor) {  // CRC-32 and sizes follow the data
    const std::uint64_t length =
        descriptor_at(source, end, entry.crc32, entry.compressed_size, entry.uncompressed_size);
    if (length == 0)
      throw Error(InArchive{name_}, InMember{entry.name}, "no data descriptor agrees with the central directory");
    end += length;
  }
  Entry e;
  e.name = entry.name;
  e.flags = entry.flags;
  e.version = entry.version_needed;
  e.time = entry.dos_time;
  e.date = entry.dos_date;
  e.method = entry.method;
  e.made_by = entry.version_made_by;
  e.crc = entry.crc32;
  e.external_attributes = entry.external_attributes;
  e.compressed = entry.compressed_size;
  e.uncompressed = entry.uncompressed_size;
  e.offset = impl_->offset;
  std::string chunk;
  for (std::uint64_t at = entry.local_header_offset; at < end;) {
    chunk.resize(static_cast<std::size_t>(std::min<std::uint64_t>(end - at, kOutputBuffer)));
    source.read_at(at, chunk.data(), chunk.size());
    impl_->append(chunk);
    at += chunk.size();
  }
  entries_.push_back(std::move(e));
}

void ZipWriter::write_central_directory() {
  const std::uint64_t cd_offset = impl_->offset;
  std::string out;
  for (const Entry& e : entries_) {
    // As _write_end_record: the Zip64 extra holds only the values past the limit.
    std::string extra;
    const bool large = e.uncompressed > kZip64Limit || e.compressed > kZip64Limit;
    if (large) {
      put(extra, e.uncompressed, 8);
      put(extra, e.compressed, 8);
    }
    if (e.offset > kZip64Limit) put(extra, e.offset, 8);
    if (!extra.empty()) extra.insert(extra.begin(), {'\x01', '\x00', static_cast<char>(extra.size()), '\0'});
    const std::uint16_t version = extra.empty() ? e.version : std::max(e.version, kZip64Version);
    const std::uint16_t made_by =
        e.made_by
            ? static_cast<std::uint16_t>((*e.made_by & 0xFF00) | std::max<std::uint16_t>(*e.made_by & 0xFF, version))
            : static_cast<std::uint16_t>(kMadeByUnix | version);
    put(out, kCentralSig, 4);
    put(out, made_by, 2);
    put(out, version, 2);
    put(out, e.flags, 2);
    put(out, e.method, 2);
    put(out, e.time, 2);
    put(out, e.date, 2);
    put(out, e.crc, 4);
    put(out, large ? 0xFFFFFFFFu : e.compressed, 4);
    put(out, large ? 0xFFFFFFFFu : e.uncompressed, 4);
    put(out, e.name.size(), 2);
    put(out, extra.size(), 2);
    put(out, 0, 2);  // comment length
    put(out, 0, 2);  // disk number
    put(out, 0, 2);  // internal attributes
    put(out, e.external_attributes, 4);
    put(out, e.offset > kZip64Limit ? 0xFFFFFFFFu : e.offset, 4);
    out += e.name;
    out += extra;
    if (out.size() >= kOutputBuffer) {
      impl_->append(out);
      out.clear();
    }
  }
  impl_->append(out);
  out.clear();
  const std::uint64_t cd_end = impl_->offset;
  const std::uint64_t count = entries_.size(), cd_size = cd_end - cd_offset;
  if (count > kMaxMembers || cd_offset > kZip64Limit || cd_size > kZip64Limit) {
    put(out, kZip64EndSig, 4);
    put(out, 44, 8);  // size of the rest of this record
    put(out, kZip64Version, 2);
    put(out, kZip64Version, 2);
    put(out, 0, 8);  // this disk, disk with the central directory
    put(out, count, 8);
    put(out, count, 8);
    put(out, cd_size, 8);
    put(out, cd_offset, 8);
    put(out, kZip64LocatorSig, 4);
    put(out, 0, 4);
    put(out, cd_end, 8);
    put(out, 1, 4);  // total disks
  }
  put(out, kEndSig, 4);
  put(out, 0, 4);  // disk numbers
  put(out, std::min(count, kMaxMembers), 2);
  put(out, std::min(count, kMaxMembers), 2);
  put(out, std::min<std::uint64_t>(cd_size, 0xFFFFFFFF), 4);
  put(out, std::min<std::uint64_t>(cd_offset, 0xFFFFFFFF), 4);
  put(out, 0, 2);  // comment length
  impl_->append(out);
}

void ZipWriter::finish() {
  if (impl_->member) throw Error("internal: ZIP finished with member '" + impl_->member->name + "' open");
  if (impl_->finished) return;
  write_central_directory();
  impl_->flush();
  impl_->finished = true;
}

}  // namespace zanj::zip
