#pragma once
// Test archives built in memory: .npy members (any dtype, order and shape) and .jsonl members
// beside a __zanj__.json, stored uncompressed through zip_builder.hpp.
#include <memory>
#include <string>
#include <vector>

#include "zanj/archive.hpp"
#include "io/byte_source.hpp"
#include "array/dtype.hpp"
#include "array/npy_header.hpp"
#include "zip_builder.hpp"
#include "zip/archive_access.hpp"

namespace zanj::test {

/// A complete .npy member: numpy's header, then `data` as given (already in the right order).
inline std::string npy_member(const std::string& descr, bool fortran, const std::vector<std::uint64_t>& shape,
                              const std::string& data) {
  return array::make_npy_header(array::parse_descr(descr), fortran, shape) + data;
}

/// An archive of the given members, held in memory.
inline Archive memory_archive(const std::vector<TestMember>& members, const std::string& name = "test.zanj") {
  return zip::open_archive(std::make_unique<io::MemorySource>(build_zip(members).bytes), name);
}

/// Little-endian bytes of a sequence of values of one type.
template <typename T>
std::string bytes_of(const std::vector<T>& values) {
  return std::string(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

/// The same bytes with each `unit`-byte group reversed (little <-> big endian).
inline std::string swapped(std::string bytes, std::size_t unit) {
  for (std::size_t i = 0; i + unit <= bytes.size(); i += unit)
    for (std::size_t a = i, b = i + unit - 1; a < b; ++a, --b) std::swap(bytes[a], bytes[b]);
  return bytes;
}

}  // namespace zanj::test
