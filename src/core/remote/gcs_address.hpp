#pragma once
// Where a gs://bucket/object URL is read from: Google Cloud Storage's JSON API. The object's
// metadata is asked for first (one GET): it gives the generation, which every media request
// then pins with ifGenerationMatch (an object replaced meanwhile answers 412, never bytes of
// the new one mixed with the old). The bytes are media downloads (alt=media), one Range each,
// through the range fetcher like any URL.
#include <memory>
#include <string>

#include "remote/credential_provider.hpp"
#include "remote/environment.hpp"
#include "remote/range_fetcher.hpp"
#include "remote/url.hpp"

namespace zanj::remote {

/// STORAGE_EMULATOR_HOST (as Google's client libraries read it; "host:port" gets http://),
/// else https://storage.googleapis.com; no trailing slash.
std::string gcs_endpoint(const Environment& environment);

/// ENDPOINT/storage/v1/b/BUCKET/o/OBJECT with both names percent-encoded ('/' too).
std::string gcs_object_url(const std::string& endpoint, const std::string& bucket, const std::string& object);

/// The bearer token for gs:// requests, found (credentials_gcp.hpp; -v names the source) and
/// kept current for as long as the provider lives: its headers hold "Authorization: Bearer T"
/// (none for anonymous requests). `what` names the URL or pattern in messages. Throws
/// Error(InArchive{what}, ..., usage) when a source is broken.
std::shared_ptr<CredentialProvider> gcs_credential_provider(const std::string& what, const Environment& environment,
                                                            const RemoteOptions& options, CredentialClock clock = {});

/// What the range fetcher is given for a gs:// URL: credentials found (credentials_gcp.hpp,
/// -v says which source), the metadata read, the media URL pinned to its generation. Throws
/// Error(display + ": ...", Exit::usage); a 401 or 403 names the credential sources tried.
FetchTarget gcs_fetch_target(const RemoteUrl& url, const Environment& environment, const RemoteOptions& options);

}  // namespace zanj::remote
