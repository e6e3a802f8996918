#include "base/shared_library.hpp"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>

#include "zanj/error.hpp"

namespace zanj::base {

SharedLibrary::SharedLibrary(void* handle, std::string soname, std::string feature)
    : handle_(handle), soname_(std::move(soname)), feature_(std::move(feature)) {}

const SharedLibrary& SharedLibrary::load(std::string_view feature, std::initializer_list<const char*> sonames) {
  return *try_load(feature, sonames).value_or_throw(Exit::usage);
}

Result<const SharedLibrary*> SharedLibrary::try_load(std::string_view feature,
                                                     std::initializer_list<const char*> sonames) {
  // Opened libraries live until exit: their functions may be in use on other threads while
  // the process ends, and dlclose would buy nothing for a command-line run.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<SharedLibrary>, std::less<>> opened;
  if (sonames.size() == 0) return Failure{std::string(feature) + ": no library named"};
  const std::string key = *sonames.begin();
  std::lock_guard lock(mutex);
  if (auto found = opened.find(key); found != opened.end()) return found->second.get();
  std::string failures;
  for (const char* soname : sonames) {
    // RTLD_LOCAL: the library's symbols stay out of the global namespace, so two versions of
    // a dependency in one process cannot capture each other's calls.
    if (void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
      auto library = std::unique_ptr<SharedLibrary>(new SharedLibrary(handle, soname, std::string(feature)));
      return opened.emplace(key, std::move(library)).first->second.get();
    }
    const char* reason = dlerror();
    if (!failures.empty()) failures += "; ";
    failures += reason ? reason : soname;
  }
  return Failure{std::string(feature) + " needs " + key + ": " + failures};
}

Result<void*> SharedLibrary::find_address(const char* name) const {
  dlerror();  // clear a stale error: a symbol's address may legitimately be null
  void* address = dlsym(handle_, name);
  if (address == nullptr) {
    const char* reason = dlerror();
    return Failure{feature_ + ": " + soname_ + " has no " + name +
                   (reason ? std::string(" (") + reason + ")" : std::string())};
  }
  return address;
}

}  // namespace zanj::base
