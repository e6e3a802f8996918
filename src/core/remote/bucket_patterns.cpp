#include "zanj/many_archives.hpp"

#include <algorithm>
#include <cstdlib>

#include "remote/bucket_listing.hpp"
#include "remote/bucket_pattern.hpp"
#include "remote/url.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

unsigned page_size(const remote::Environment& environment) {
  const std::string text = remote::variable(environment, "ZANJ_LIST_PAGE_SIZE");
  if (text.empty()) return 1000;
  unsigned size = 0;
  for (const char c : text) {
    if (c < '0' || c > '9' || size > 1000)
      size = 1001;
    else
      size = size * 10 + static_cast<unsigned>(c - '0');
  }
  if (size < 1 || size > 1000)
    throw Error("ZANJ_LIST_PAGE_SIZE=" + text + ": not a number of names from 1 to 1000", Exit::usage);
  return size;
}

}  // namespace

bool is_bucket_pattern(std::string_view operand) {
  if (operand.size() < 5) return false;
  std::string scheme(operand.substr(0, 5));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "s3://" && scheme != "gs://") return false;
  const std::size_t slash = operand.find('/', 5);
  return slash != std::string_view::npos && remote::is_key_pattern(operand.substr(slash + 1));
}

std::vector<std::string> expand_bucket_pattern(const std::string& pattern, const RemoteOptions& options) {
  const auto url = remote::parse_remote_url(pattern);
  if (!url || (url->scheme != remote::RemoteUrl::Scheme::s3 && url->scheme != remote::RemoteUrl::Scheme::gs))
    throw Error(remote::without_credentials(pattern) + ": not an s3:// or gs:// pattern", Exit::usage);
  const remote::Environment environment = [](const char* name) { return std::getenv(name); };
  const std::string prefix(remote::pattern_literal_prefix(url->key));
  std::vector<std::string> names =
      remote::list_bucket(*url, prefix, url->display, environment, options, page_size(environment));
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const std::string scheme = url->scheme == remote::RemoteUrl::Scheme::s3 ? "s3://" : "gs://";
  std::vector<std::string> urls;
  for (const std::string& name : names)
    if (remote::key_matches(url->key, name)) {
      std::string matched = scheme;
      matched += url->bucket;
      matched += '/';
      matched += name;
      urls.push_back(std::move(matched));
    }
  return urls;
}

}  // namespace zanj
