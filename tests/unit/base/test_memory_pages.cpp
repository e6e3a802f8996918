// discard_pages gives back only whole pages inside the range: the bytes before and after it,
// on the pages it shares with its neighbours, are kept.
#include <doctest/doctest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "base/memory_pages.hpp"

namespace zanj {

TEST_CASE("discard_pages empties the whole pages inside the range and keeps the rest") {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t size = 4 * page;
  void* mapped = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(mapped != MAP_FAILED);
  char* buffer = static_cast<char*>(mapped);
  std::memset(buffer, 'x', size);
  base::discard_pages(buffer + 100, 3 * page - 50);  // [100, 3 pages + 50): pages 1 and 2 whole, 0 and 3 partly
  CHECK(buffer[0] == 'x');
  CHECK(buffer[page - 1] == 'x');  // page 0: shared with what comes before
  CHECK(buffer[page] == 0);        // pages 1 and 2: wholly inside
  CHECK(buffer[3 * page - 1] == 0);
  CHECK(buffer[3 * page] == 'x');  // page 3: shared with what comes after
  CHECK(buffer[4 * page - 1] == 'x');
  base::discard_pages(buffer + 1, 10);  // inside one page: nothing
  CHECK(buffer[5] == 'x');
  munmap(mapped, size);
}

}  // namespace zanj
