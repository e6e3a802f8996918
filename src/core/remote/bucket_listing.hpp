#pragma once
// The names of a bucket's objects under a prefix, every page of them: S3's ListObjectsV2
// (continuation tokens) and GCS's objects.list (page tokens). What bucket patterns are expanded
// from (include/zanj/many_archives.hpp). Signed and authorized as reads are (the same
// credentials chain); -v logs one line per page.
#include <string>
#include <vector>

#include "remote/environment.hpp"
#include "remote/url.hpp"
#include "zanj/archive.hpp"

namespace zanj::remote {

/// Every object name of `bucket.bucket` that starts with `prefix`, in the store's order (S3 and
/// GCS both list in byte order), asking for at most `page_size` names per request (1 to 1000).
/// `bucket.scheme` is s3 or gs. Throws Error(InArchive{what}, ..., Exit::usage) naming `what`
/// (the pattern) when a page cannot be had; a 401 or 403 names the credentials tried.
std::vector<std::string> list_bucket(const RemoteUrl& bucket, const std::string& prefix, const std::string& what,
                                     const Environment& environment, const RemoteOptions& options,
                                     unsigned page_size = 1000);

/// The names and the continuation token in one ListObjectsV2 answer (XML): the <Key> of each
/// <Contents>, entities decoded; the token is "" unless <IsTruncated> is true.
struct ListingPage {
  std::vector<std::string> names;
  std::string next;
};
ListingPage parse_s3_listing(const std::string& xml);
/// The same for one GCS objects.list answer (JSON: items[].name, nextPageToken). Throws
/// Error(Exit::usage) when it is not such an answer.
ListingPage parse_gcs_listing(const std::string& json);

}  // namespace zanj::remote
