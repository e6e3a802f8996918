#pragma once
// URLs given where an archive is expected: http://, https:// and s3://bucket/key. Parsed once,
// here, so that every message names the URL the same way, without the user:password a URL may
// carry (libcurl still gets the URL as given: that is how it sends those credentials).
#include <optional>
#include <string>
#include <string_view>

namespace zanj {

struct RemoteUrl {
  enum class Scheme { http, https, s3 };
  Scheme scheme = Scheme::http;
  std::string text;     ///< as given: what libcurl fetches (http and https)
  std::string display;  ///< for messages: `text` without any user:password
  std::string bucket, key;  ///< s3 only
};

/// The URL `path` names, or nullopt when it is not one (a file name). Schemes are matched
/// without regard to case. Throws Error(display + ": ...", Exit::usage) for a URL that names
/// no host, or an s3:// URL without both a bucket and a key.
std::optional<RemoteUrl> parse_remote_url(std::string_view path);

/// `url` with the user:password of its authority (if any) removed: "https://u:p@h/x" gives
/// "https://h/x". Anything that is not a URL is returned unchanged.
std::string without_credentials(std::string_view url);

}  // namespace zanj
