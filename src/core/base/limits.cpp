#include "zanj/limits.hpp"

namespace zanj {

ResourceLimits& reader_limits() {
  static ResourceLimits limits;
  return limits;
}

}  // namespace zanj
