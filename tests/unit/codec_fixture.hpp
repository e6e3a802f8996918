#pragma once
// Compressed test data for every method zanj decodes, made with the same libraries, and a
// one-member ZIP around it (method, sizes and CRC-32 as given, so they can lie).
#include <bzlib.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <stdexcept>
#include <string>

#include "zip_builder.hpp"

namespace zanj::test {

inline std::string deflate_raw(const std::string& data) {
  z_stream z{};
  deflateInit2(&z, 9, Z_DEFLATED, -MAX_WBITS, 9, Z_DEFAULT_STRATEGY);
  std::string out(deflateBound(&z, data.size()) + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

inline std::string bzip2_of(const std::string& data) {
  std::string out(data.size() + data.size() / 100 + 700, '\0');
  unsigned n = static_cast<unsigned>(out.size());
  if (BZ2_bzBuffToBuffCompress(out.data(), &n, const_cast<char*>(data.data()), static_cast<unsigned>(data.size()), 9, 0,
                               0) != BZ_OK)
    throw std::runtime_error("bzip2");
  out.resize(n);
  return out;
}

/// ZIP method 14: version 2 bytes, properties size 2 bytes, 5 property bytes, raw LZMA1.
inline std::string zip_lzma_of(const std::string& data) {
  lzma_options_lzma options;
  lzma_lzma_preset(&options, 6);
  lzma_filter filters[2] = {{LZMA_FILTER_LZMA1, &options}, {LZMA_VLI_UNKNOWN, nullptr}};
  std::string out = std::string("\x09\x14\x05\x00", 4);
  std::uint32_t props_size = 0;
  lzma_properties_size(&props_size, &filters[0]);
  std::string props(props_size, '\0');
  lzma_properties_encode(&filters[0], reinterpret_cast<std::uint8_t*>(props.data()));
  out += props;
  std::string body(data.size() + data.size() / 2 + 1024, '\0');
  std::size_t pos = 0;
  if (lzma_raw_buffer_encode(filters, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()), data.size(),
                             reinterpret_cast<std::uint8_t*>(body.data()), &pos, body.size()) != LZMA_OK)
    throw std::runtime_error("lzma");
  body.resize(pos);
  return out + body;
}

inline std::string xz_of(const std::string& data) {
  std::string out(data.size() + data.size() / 2 + 1024, '\0');
  std::size_t pos = 0;
  lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const std::uint8_t*>(data.data()), data.size(),
                          reinterpret_cast<std::uint8_t*>(out.data()), &pos, out.size());
  out.resize(pos);
  return out;
}

inline std::string zstd_of(const std::string& data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3));
  return out;
}

inline std::string compress_with(std::uint16_t method, const std::string& data) {
  switch (method) {
    case 0:
      return data;
    case 8:
      return deflate_raw(data);
    case 12:
      return bzip2_of(data);
    case 14:
      return zip_lzma_of(data);
    case 93:
      return zstd_of(data);
    case 95:
      return xz_of(data);
  }
  throw std::runtime_error("method");
}

struct RawMember {
  std::string name;
  std::uint16_t method = 0;
  std::string compressed;
  std::uint64_t uncompressed_size = 0;
  std::uint32_t crc = 0;
  std::string local_name;  ///< when not empty: the local header names this instead
  std::uint16_t flags = 0;
};

inline RawMember raw_member(std::string name, std::uint16_t method, const std::string& data) {
  return {std::move(name), method, compress_with(method, data), data.size(), crc32_of(data), "", 0};
}

/// A ZIP of members whose compressed bytes, sizes and CRC-32 are written exactly as given.
inline std::string raw_zip(const std::vector<RawMember>& members, const std::string& comment = "") {
  std::string out;
  std::vector<std::uint64_t> offsets;
  for (const RawMember& m : members) {
    offsets.push_back(out.size());
    const std::string& local = m.local_name.empty() ? m.name : m.local_name;
    put(out, 0x04034b50, 4);
    put(out, 20, 2);
    put(out, m.flags, 2);
    put(out, m.method, 2);
    put(out, 0, 2);
    put(out, 0x21, 2);
    put(out, m.crc, 4);
    put(out, m.compressed.size(), 4);
    put(out, m.uncompressed_size, 4);
    put(out, local.size(), 2);
    put(out, 0, 2);
    out += local + m.compressed;
  }
  const std::uint64_t cd = out.size();
  for (std::size_t i = 0; i < members.size(); ++i) {
    const RawMember& m = members[i];
    put(out, 0x02014b50, 4);
    put(out, 0x0314, 2);
    put(out, 20, 2);
    put(out, m.flags, 2);
    put(out, m.method, 2);
    put(out, 0, 2);
    put(out, 0x21, 2);
    put(out, m.crc, 4);
    put(out, m.compressed.size(), 4);
    put(out, m.uncompressed_size, 4);
    put(out, m.name.size(), 2);
    put(out, 0, 2);
    put(out, 0, 2);
    put(out, 0, 2);
    put(out, 0, 2);
    put(out, 0100644u << 16, 4);
    put(out, offsets[i], 4);
    out += m.name;
  }
  const std::uint64_t cd_size = out.size() - cd;
  put(out, 0x06054b50, 4);
  put(out, 0, 4);
  put(out, members.size(), 2);
  put(out, members.size(), 2);
  put(out, cd_size, 4);
  put(out, cd, 4);
  put(out, comment.size(), 2);
  return out + comment;
}

}  // namespace zanj::test
