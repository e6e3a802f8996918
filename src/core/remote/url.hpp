#pragma once
// URLs given where an archive is expected: http://, https://, s3://bucket/key and gs://bucket/object. Parsed once,
// here, so that every message names the URL the same way, without the user:password a URL may
// carry or its query's values (libcurl still gets the URL as given: that is how it sends those
// credentials).
#include <optional>
#include <string>
#include <string_view>

namespace zanj::remote {

struct RemoteUrl {
  enum class Scheme { http, https, s3, gs };
  Scheme scheme = Scheme::http;
  std::string text;         ///< as given: what libcurl fetches (http and https)
  std::string display;      ///< for messages: `text` without any user:password
  std::string bucket, key;  ///< s3 and gs only
};

/// The URL `path` names, or nullopt when it is not one (a file name). Schemes are matched
/// without regard to case. Throws Error(display + ": ...", Exit::usage) for a URL that names
/// no host, or an s3:// or gs:// URL without both a bucket and a key.
std::optional<RemoteUrl> parse_remote_url(std::string_view path);

/// `url` with the user:password of its authority (if any) removed and, for http and https,
/// its query's values replaced by an ellipsis (a presigned URL's X-Amz-Signature, a token:
/// credentials too): "https://u:p@h/x?sig=abc&v" gives "https://h/x?sig=…&v". Anything that
/// is not a URL is returned unchanged.
std::string without_credentials(std::string_view url);
/// `url` with its query's values replaced by an ellipsis (as without_credentials does).
std::string without_query_values(std::string_view url);

}  // namespace zanj::remote
