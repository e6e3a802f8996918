#include "zanj/member_prefix.hpp"

#include <zlib.h>

#include <algorithm>
#include <memory>

#include "zanj/archive.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

constexpr std::uint16_t kStored = 0, kDeflated = 8;
constexpr std::size_t kInputPiece = 4096;  // a .npy header inflates from far less than this

struct InflateStream {
  z_stream z{};
  InflateStream() {
    if (inflateInit2(&z, -MAX_WBITS) != Z_OK) throw Error("out of memory (zlib)");  // raw deflate, as in ZIP
  }
  ~InflateStream() { inflateEnd(&z); }
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;
};

}  // namespace

std::optional<std::string> read_member_prefix(const ByteSource& source, const ZipEntry& entry, std::size_t n,
                                              const std::string& archive_name) {
  if (entry.encrypted() || (entry.method != kStored && entry.method != kDeflated)) return std::nullopt;
  const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(n, entry.uncompressed_size));
  LocalHeader local;
  try {
    local = read_local_header(source, entry);
  } catch (const Error& e) {
    throw Error(archive_name + ": member '" + entry.name + "': " + e.what(), e.exit());
  }
  std::string out(want, '\0');
  if (entry.method == kStored) {
    const auto got = source.read_some(local.data_offset, out.data(),
                                      static_cast<std::size_t>(std::min<std::uint64_t>(want, entry.compressed_size)));
    out.resize(got);
    return out;
  }
  InflateStream stream;
  stream.z.next_out = reinterpret_cast<Bytef*>(out.data());
  stream.z.avail_out = static_cast<uInt>(want);
  std::uint64_t consumed = 0;
  char input[kInputPiece];
  while (stream.z.avail_out > 0 && consumed < entry.compressed_size) {
    const auto piece = static_cast<std::size_t>(std::min<std::uint64_t>(kInputPiece, entry.compressed_size - consumed));
    const std::size_t got = source.read_some(local.data_offset + consumed, input, piece);
    if (got == 0) break;  // the file ends early: the full read reports it
    consumed += got;
    stream.z.next_in = reinterpret_cast<Bytef*>(input);
    stream.z.avail_in = static_cast<uInt>(got);
    const int r = inflate(&stream.z, Z_NO_FLUSH);
    if (r == Z_STREAM_END) break;
    if (r != Z_OK && r != Z_BUF_ERROR)
      throw MemberDataError(MemberDataError::Kind::undecodable,
                            archive_name + ": member '" + entry.name + "' cannot be decoded: " +
                                (stream.z.msg ? stream.z.msg : "corrupt deflate data"));
  }
  out.resize(want - stream.z.avail_out);
  return out;
}

}  // namespace zanj
