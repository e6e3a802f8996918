#include "remote/url.hpp"

#include <algorithm>
#include <cctype>

#include "zanj/archive.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

/// The length of `path`'s scheme prefix ("https://": 8) when it is one we read, else 0.
std::size_t scheme_length(std::string_view path, remote::RemoteUrl::Scheme& scheme) {
  const auto starts = [&](std::string_view prefix) {
    return path.size() > prefix.size() && std::equal(prefix.begin(), prefix.end(), path.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(b)) == a;
           });
  };
  if (starts("http://")) return scheme = remote::RemoteUrl::Scheme::http, 7;
  if (starts("https://")) return scheme = remote::RemoteUrl::Scheme::https, 8;
  if (starts("s3://")) return scheme = remote::RemoteUrl::Scheme::s3, 5;
  if (starts("gs://")) return scheme = remote::RemoteUrl::Scheme::gs, 5;
  return 0;
}

}  // namespace

bool is_remote_url(std::string_view path) {
  remote::RemoteUrl::Scheme scheme{};
  return scheme_length(path, scheme) != 0;
}

std::string remote::without_query_values(std::string_view url) {
  const std::size_t query = url.find('?');
  if (query == std::string_view::npos) return std::string(url);
  const std::size_t fragment = std::min(url.find('#', query), url.size());
  std::string out(url.substr(0, query + 1));
  std::string_view rest = url.substr(query + 1, fragment - query - 1);
  while (true) {
    const std::size_t end = std::min(rest.find('&'), rest.size());
    const std::string_view field = rest.substr(0, end);
    const std::size_t equals = field.find('=');
    // A presigned URL's signature and a token are credentials: only the names are shown.
    out += equals == std::string_view::npos || equals + 1 == field.size()
               ? std::string(field)
               : std::string(field.substr(0, equals + 1)) + "\xE2\x80\xA6";
    if (end == rest.size()) break;
    out += '&';
    rest.remove_prefix(end + 1);
  }
  return out + std::string(url.substr(fragment));
}

std::string remote::without_credentials(std::string_view url) {
  remote::RemoteUrl::Scheme scheme{};
  const std::size_t start = scheme_length(url, scheme);
  if (start == 0) return std::string(url);
  const std::size_t authority_end = std::min(url.find_first_of("/?#", start), url.size());
  const std::size_t at = url.substr(0, authority_end).rfind('@');
  // s3:// and gs:// have no query: a '?' there is part of the key.
  const bool web = scheme == remote::RemoteUrl::Scheme::http || scheme == remote::RemoteUrl::Scheme::https;
  std::string out = at == std::string_view::npos || at < start
                        ? std::string(url)
                        : std::string(url.substr(0, start)) + std::string(url.substr(at + 1));
  return web ? remote::without_query_values(out) : out;
}

std::optional<remote::RemoteUrl> remote::parse_remote_url(std::string_view path) {
  remote::RemoteUrl url;
  const std::size_t start = scheme_length(path, url.scheme);
  if (start == 0) return std::nullopt;
  url.text = std::string(path);
  url.display = remote::without_credentials(path);
  const std::string_view rest = std::string_view(url.display).substr(start);
  const std::size_t authority_end = std::min(rest.find_first_of("/?#"), rest.size());
  if (authority_end == 0) throw Error(InArchive{url.display}, "the URL names no host", Exit::usage);
  if (url.scheme == remote::RemoteUrl::Scheme::s3 || url.scheme == remote::RemoteUrl::Scheme::gs) {
    const bool s3 = url.scheme == remote::RemoteUrl::Scheme::s3;
    if (url.display != url.text)
      throw Error(
          url.display + (s3 ? ": s3:// URLs take no user:password (use AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)"
                            : ": gs:// URLs take no user:password (use GOOGLE_APPLICATION_CREDENTIALS)"),
          Exit::usage);
    url.bucket = std::string(rest.substr(0, authority_end));
    if (authority_end < rest.size() && rest[authority_end] == '/')
      url.key = std::string(rest.substr(authority_end + 1));
    if (url.key.empty())
      throw Error(url.display + (s3 ? ": an s3:// URL names a bucket and a key: s3://BUCKET/KEY"
                                    : ": a gs:// URL names a bucket and an object: gs://BUCKET/OBJECT"),
                  Exit::usage);
  }
  return url;
}

}  // namespace zanj
