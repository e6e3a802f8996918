#include "remote/credential_cache.hpp"

namespace zanj {

std::shared_ptr<CredentialCache> make_credential_cache() { return std::make_shared<CredentialCache>(); }

remote::SharedCredentials CredentialCache::get(std::string_view kind, const Resolve& resolve) {
  Slot* slot = nullptr;
  {
    std::lock_guard lock(mutex_);
    auto it = slots_.find(kind);
    if (it == slots_.end()) it = slots_.emplace(std::string(kind), std::make_unique<Slot>()).first;
    slot = it->second.get();  // stays where it is: slots are never removed
  }
  std::lock_guard lock(slot->mutex);
  if (!slot->credentials) slot->credentials = resolve();
  return *slot->credentials;
}

remote::SharedCredentials remote::shared_credentials(const RemoteOptions& options, std::string_view kind,
                                                     const CredentialCache::Resolve& resolve) {
  return options.credential_cache ? options.credential_cache->get(kind, resolve) : resolve();
}

}  // namespace zanj
