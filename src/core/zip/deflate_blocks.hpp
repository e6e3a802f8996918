#pragma once
// Where the blocks of a raw deflate stream (RFC 1951) lie, found without inflating it: block
// headers are parsed and Huffman symbols decoded only to step over them (no output, no window,
// no copies of matches), stored blocks skipped by their length. DeflateStream needs the start
// of the last block of each compressed piece; inflating the piece again to find it cost a
// quarter as much CPU as compressing it (bench/RESULTS.md).
#include <cstdint>
#include <string_view>

namespace zanj::zip {

/// Bit positions in a deflate stream, counted from the low bit of its first byte.
struct DeflateBlockEnds {
  std::uint64_t last_header_bit = 0;  ///< where the header of the final block (BFINAL set) starts
  std::uint64_t end_bit = 0;          ///< just after the final block's end-of-block code
};

/// Walk `stream` block by block. Throws Error when it is not exactly one complete deflate
/// stream: a malformed header or code, a cut, or bytes after the final block's byte. Only the
/// structure is checked: a match reaching before the stream's start is not noticed (nothing
/// is decoded), which makes no difference to where the blocks are.
DeflateBlockEnds find_deflate_block_ends(std::string_view stream);

}  // namespace zanj::zip
