#pragma once
// Member data, read the one way zanj reads it: from the central-directory entry, through the
// local header found at its offset (checked against the entry), then exactly compressed_size
// bytes from there, decoded in bounded chunks. No read ever looks a member up by a name some
// other reader reports. Decoders: stored, deflate (zlib), bzip2 (libbz2), ZIP-LZMA and xz
// (liblzma), zstd (libzstd).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "zanj/archive.hpp"
#include "io/byte_source.hpp"
#include "zip/zip_directory.hpp"

namespace zanj::zip {

/// One method's decompressor, fed in pieces.
class MemberDecoder {
 public:
  virtual ~MemberDecoder() = default;
  struct Step {
    std::size_t consumed = 0;  ///< bytes of `in` used
    std::size_t produced = 0;  ///< bytes written to `out`
    bool finished = false;     ///< the compressed stream has ended
  };
  /// Decode from `in` into `out` (out_size > 0). Throws Error (message without any prefix)
  /// for a corrupt stream.
  virtual Step decode(std::string_view in, char* out, std::size_t out_size) = 0;
};

/// A decoder for a ZIP method, or nullptr when zanj cannot decode it. `max_output` is the most
/// the stream may produce before the caller stops it: it bounds the memory a decoder sets
/// aside (an LZMA dictionary, whose size the stream itself names), so a hostile header cannot
/// ask for gigabytes when the size is not declared.
std::unique_ptr<MemberDecoder> make_member_decoder(std::uint16_t method, std::uint64_t max_output);
bool method_decodable(std::uint16_t method);

/// Most bytes a method can physically produce per compressed byte, or 0 when it has no useful
/// bound (deflate: 258 bytes from 2 bits, 1032:1).
std::uint64_t method_physical_ratio(std::uint16_t method);
/// The ratio an entry may have under `max_ratio`: the smaller of it and the method's physical
/// bound; stored data is 1:1.
std::uint64_t allowed_ratio(std::uint16_t method, std::uint64_t max_ratio);
/// The entry declares more than allowed_ratio() times its compressed size, plus 1 MiB (deflate:
/// plus 1032 bytes, its bound being physical).
bool declares_excess_ratio(const ZipEntry& entry, std::uint64_t max_ratio);

struct MemberStreamOptions {
  /// Stop after this many bytes, skip the size and CRC-32 checks (for a prefix).
  std::uint64_t prefix = UINT64_MAX;
  /// A ratio refusal, for a caller that wants one (decoding stops past it); none by default:
  /// a truthful member of any ratio is read, bounded by its declared size and
  /// max_member_bytes. Deflate is held to its physical 1032:1 either way.
  std::uint64_t max_ratio = UINT64_MAX;
  /// A whole member declaring more is refused before decoding (--max-member-bytes).
  std::uint64_t max_member_bytes = UINT64_MAX;
  std::size_t first_piece = 64 << 10;  ///< first read of compressed data; later ones double
};

/// Stream `entry`'s bytes to `sink`. Throws Error when the local header is unreadable or
/// disagrees with the entry, MemberDataError when the data is undecodable, over its ratio,
/// longer or shorter than declared, or fails its CRC-32. `archive_name` prefixes messages.
void stream_member(const io::ByteSource& source, const ZipEntry& entry, const std::string& archive_name,
                   const MemberStreamOptions& options, const ChunkSink& sink);

}  // namespace zanj::zip
