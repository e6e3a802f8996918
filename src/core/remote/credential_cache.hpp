#pragma once
// The credentials a command shares (zanj::CredentialCache in zanj/archive.hpp): one
// CredentialProvider per kind of URL (s3://, gs://), made by the first URL, listing or upload
// that needs it and handed to every later one. Without this, `verify -j 4` over a bucket
// pattern resolved the chain once per archive: one STS, IMDS, container or OAuth exchange per
// archive. The provider itself keeps the credentials current (credential_provider.hpp).
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "remote/credential_provider.hpp"
#include "zanj/archive.hpp"

namespace zanj::remote {

/// A provider and what the first resolution found beside it that addresses depend on.
struct SharedCredentials {
  std::shared_ptr<CredentialProvider> provider;
  std::string region;  ///< s3://: the profile's region (s3_address.hpp), which a refresh keeps
};

}  // namespace zanj::remote

namespace zanj {

class CredentialCache {
 public:
  using Resolve = std::function<remote::SharedCredentials()>;

  /// The credentials kept for `kind`, resolved by `resolve` the first time. Threads asking for
  /// the same kind at once wait for that one resolution; a resolution that throws is not kept
  /// (the next caller tries again). Different kinds resolve independently.
  remote::SharedCredentials get(std::string_view kind, const Resolve& resolve);

 private:
  struct Slot {
    std::mutex mutex;
    std::optional<remote::SharedCredentials> credentials;
  };
  std::mutex mutex_;  // guards slots_ (not the resolutions)
  std::map<std::string, std::unique_ptr<Slot>, std::less<>> slots_;
};

}  // namespace zanj

namespace zanj::remote {

/// options.credential_cache's credentials for `kind`, or `resolve()` when there is no cache.
SharedCredentials shared_credentials(const RemoteOptions& options, std::string_view kind,
                                     const CredentialCache::Resolve& resolve);

}  // namespace zanj::remote
