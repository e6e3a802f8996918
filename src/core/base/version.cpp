// The one definition of zanj's version: the CMake project VERSION, through version.hpp.
#include "zanj/version.hpp"

namespace zanj {

std::string_view version() { return ZANJ_VERSION_STRING; }

}  // namespace zanj
