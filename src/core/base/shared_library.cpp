#include "base/shared_library.hpp"

#include <dlfcn.h>

#include <map>
#include <memory>
#include <mutex>

#include "zanj/error.hpp"

namespace zanj {

SharedLibrary::SharedLibrary(void* handle, std::string soname, std::string feature)
    : handle_(handle), soname_(std::move(soname)), feature_(std::move(feature)) {}

const SharedLibrary& SharedLibrary::load(std::string_view feature, std::initializer_list<const char*> sonames) {
  // Opened libraries live until exit: their functions may be in use on other threads while
  // the process ends, and dlclose would buy nothing for a command-line run.
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<SharedLibrary>, std::less<>> opened;
  if (sonames.size() == 0) throw Error(std::string(feature) + ": no library named", Exit::usage);
  const std::string key = *sonames.begin();
  std::lock_guard lock(mutex);
  if (auto found = opened.find(key); found != opened.end()) return *found->second;
  std::string failures;
  for (const char* soname : sonames) {
    // RTLD_LOCAL: the library's symbols stay out of the global namespace, so two versions of
    // a dependency in one process cannot capture each other's calls.
    if (void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL)) {
      auto library = std::unique_ptr<SharedLibrary>(new SharedLibrary(handle, soname, std::string(feature)));
      return *opened.emplace(key, std::move(library)).first->second;
    }
    const char* reason = dlerror();
    if (!failures.empty()) failures += "; ";
    failures += reason ? reason : soname;
  }
  throw Error(std::string(feature) + " needs " + key + ": " + failures, Exit::usage);
}

void* SharedLibrary::address_of(const char* name) const {
  dlerror();  // clear a stale error: a symbol's address may legitimately be null
  void* address = dlsym(handle_, name);
  if (address == nullptr) {
    const char* reason = dlerror();
    throw Error(
        feature_ + ": " + soname_ + " has no " + name + (reason ? std::string(" (") + reason + ")" : std::string()),
        Exit::usage);
  }
  return address;
}

}  // namespace zanj
