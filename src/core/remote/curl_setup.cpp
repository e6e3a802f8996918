#include "remote/curl_setup.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace zanj::remote {
namespace {

constexpr long kMaxRedirects = 5;

bool starts_with_https(const std::string& url) {
  return url.size() >= 8 && std::equal(url.begin(), url.begin() + 8, "https://",
                                       [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; });
}

}  // namespace

CurlHeaders::~CurlHeaders() {
  if (list_) curl_library().slist_free_all(list_);
}

void CurlHeaders::add(const std::string& header) { list_ = curl_library().slist_append(list_, header.c_str()); }

double seconds_left(const RemoteOptions& options) {
  if (options.deadline <= 0) return std::numeric_limits<double>::infinity();
  const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - options.start;
  return options.deadline - spent.count();
}

std::string deadline_passed(const RemoteOptions& options) {
  std::string seconds = std::to_string(options.deadline);
  seconds.erase(seconds.find_last_not_of('0') + 1);
  if (!seconds.empty() && seconds.back() == '.') seconds.pop_back();
  return "the --deadline of " + seconds + " s passed";
}

void set_up_curl(CURL* handle, const CurlSetup& setup, const RemoteOptions& options) {
  const CurlLibrary& curl = curl_library();
  curl.easy_setopt(handle, CURLOPT_URL, setup.url->c_str());
  curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  if (setup.follow_redirects) {
    curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, 1L);
    curl.easy_setopt(handle, CURLOPT_MAXREDIRS, kMaxRedirects);
    curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, starts_with_https(*setup.url) ? "https" : "http,https");
  }
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);  // threads: no SIGALRM for DNS timeouts
  const double connect = setup.connect_timeout > 0 ? setup.connect_timeout : options.connect_timeout;
  curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(connect * 1000));
  // Idle: less than a byte a second for idle_timeout seconds (or less than --speed-limit for
  // --speed-time) ends the request (and retries it); --deadline ends it for good.
  const bool limit = options.speed_limit > 0;
  curl.easy_setopt(handle, CURLOPT_LOW_SPEED_LIMIT,
                   limit ? static_cast<long>(std::min<std::uint64_t>(options.speed_limit, 1L << 30)) : 1L);
  curl.easy_setopt(handle, CURLOPT_LOW_SPEED_TIME,
                   std::max(1L, std::lround(limit ? options.speed_time : options.idle_timeout)));
  const double left = seconds_left(options);
  if (setup.total_timeout > 0 && setup.total_timeout < left)
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, static_cast<long>(setup.total_timeout * 1000));
  else if (left < std::numeric_limits<double>::infinity())
    curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, std::max(1L, static_cast<long>(left * 1000)));
  if (setup.netrc) curl.easy_setopt(handle, CURLOPT_NETRC, static_cast<long>(CURL_NETRC_OPTIONAL));
  curl.easy_setopt(handle, CURLOPT_USERAGENT, "zanj");
  if (options.insecure) {
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 0L);
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  if (setup.sigv4 && !setup.sigv4->empty()) {
    curl.easy_setopt(handle, CURLOPT_AWS_SIGV4, setup.sigv4->c_str());
    curl.easy_setopt(handle, CURLOPT_USERPWD, setup.user_password ? setup.user_password->c_str() : "");
  }
  if (setup.headers && setup.headers->list()) curl.easy_setopt(handle, CURLOPT_HTTPHEADER, setup.headers->list());
  if (setup.error) curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, setup.error);
}

}  // namespace zanj::remote
