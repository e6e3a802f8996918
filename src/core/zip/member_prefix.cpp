#include "zip/member_prefix.hpp"

#include "zip/member_decoder.hpp"

namespace zanj::zip {

std::optional<std::string> read_member_prefix(const io::ByteSource& source, const ZipEntry& entry, std::size_t n,
                                              const std::string& archive_name) {
  std::string out;
  if (n == 0) return out;
  MemberStreamOptions options;
  options.prefix = n;
  options.first_piece = 4096;  // a .npy header inflates from far less than this
  stream_member(source, entry, archive_name, options, [&](std::string_view chunk) {
    out.append(chunk);
    return true;
  });
  return out;
}

}  // namespace zanj::zip
