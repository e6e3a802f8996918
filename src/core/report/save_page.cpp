// save_page: a report page goes to its file whole or not at all (a CI job that is killed
// half-way leaves no truncated page behind).
#include <string>

#include "io/temp_file.hpp"
#include "zanj/error.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"

namespace zanj {

void save_page(const std::string& path, std::string_view page) {
  const std::size_t slash = path.rfind('/');
  const std::string directory = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  if (name.empty() || name == "." || name == "..") throw Error("'" + path + "' is not a file name", Exit::usage);
  const UniqueFd dir = open_user_directory(directory, CreateDirs::no);
  TempFile file(dir.get(), name);
  file.write(page);
  file.commit(name, Replace::yes);
}

}  // namespace zanj
