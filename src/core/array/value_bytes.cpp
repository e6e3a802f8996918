#include "array/value_bytes.hpp"

#include <cstdint>
#include <cstring>

namespace zanj::array {
namespace {

inline std::uint16_t swap(std::uint16_t u) { return __builtin_bswap16(u); }
inline std::uint32_t swap(std::uint32_t u) { return __builtin_bswap32(u); }
inline std::uint64_t swap(std::uint64_t u) { return __builtin_bswap64(u); }

template <typename Unit>
void swap_units(char* data, std::size_t size) {
  for (std::size_t i = 0; i + sizeof(Unit) <= size; i += sizeof(Unit)) {
    Unit u;
    std::memcpy(&u, data + i, sizeof u);
    u = swap(u);
    std::memcpy(data + i, &u, sizeof u);
  }
}

}  // namespace

Dtype little_endian(const Dtype& dtype) {
  Dtype out = dtype;
  if (out.order == ByteOrder::big) out.order = ByteOrder::little;
  return out;
}

void swap_to_little_endian(char* data, std::size_t size, const Dtype& dtype) {
  if (!dtype.needs_byteswap()) return;
  switch (dtype.swap_unit()) {
    case 2:
      swap_units<std::uint16_t>(data, size);
      break;
    case 4:
      swap_units<std::uint32_t>(data, size);
      break;
    case 8:
      swap_units<std::uint64_t>(data, size);
      break;
    default:
      break;  // single bytes: nothing to swap
  }
}

}  // namespace zanj::array
