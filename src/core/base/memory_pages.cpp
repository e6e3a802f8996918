// discard_pages (memory_pages.hpp): madvise(MADV_DONTNEED), which frees the pages of a private
// mapping (the kernel maps zero pages in again if they are touched).
#include "base/memory_pages.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>

namespace zanj::base {

void discard_pages(char* begin, std::size_t bytes) noexcept {
  static const auto page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  const auto first = (reinterpret_cast<std::uintptr_t>(begin) + page - 1) / page * page;
  const auto last = (reinterpret_cast<std::uintptr_t>(begin) + bytes) / page * page;
  if (last > first) (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

}  // namespace zanj::base
