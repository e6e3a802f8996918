#pragma once
// Memory a buffer no longer needs, given back while the buffer lives: the JSON parser is done
// with the text of each fragment before the next, and a large document's text would otherwise
// stay resident beside the nodes built from it (json/json_parse.cpp).
#include <cstddef>

namespace zanj::base {

/// Gives the whole pages inside [begin, begin + bytes) back to the system. The buffer stays
/// allocated; what those pages held is gone (they read as zeros if touched again), so only
/// bytes never read again may be given back. The partial pages at either end are kept.
void discard_pages(char* begin, std::size_t bytes) noexcept;

}  // namespace zanj::base
