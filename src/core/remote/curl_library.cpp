#include "remote/curl_library.hpp"

#include <string>

#include "base/shared_library.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {
namespace {

constexpr unsigned kOldestVersion = 0x074b00;  // 7.75.0: CURLOPT_AWS_SIGV4

CurlLibrary open_curl() {
  const base::SharedLibrary& so = base::SharedLibrary::load("remote archives", {"libcurl.so.4"});
  CurlLibrary curl{};
  curl.easy_init = so.symbol<decltype(curl_easy_init)>("curl_easy_init");
  curl.easy_cleanup = so.symbol<decltype(curl_easy_cleanup)>("curl_easy_cleanup");
  curl.easy_reset = so.symbol<decltype(curl_easy_reset)>("curl_easy_reset");
  curl.easy_setopt = so.symbol<decltype(curl_easy_setopt)>("curl_easy_setopt");
  curl.easy_perform = so.symbol<decltype(curl_easy_perform)>("curl_easy_perform");
  curl.easy_getinfo = so.symbol<decltype(curl_easy_getinfo)>("curl_easy_getinfo");
  curl.easy_strerror = so.symbol<decltype(curl_easy_strerror)>("curl_easy_strerror");
  curl.slist_append = so.symbol<decltype(curl_slist_append)>("curl_slist_append");
  curl.slist_free_all = so.symbol<decltype(curl_slist_free_all)>("curl_slist_free_all");
  curl.version_info = so.symbol<decltype(curl_version_info)>("curl_version_info");
  const curl_version_info_data* version = curl.version_info(CURLVERSION_NOW);
  if (version == nullptr || version->version_num < kOldestVersion)
    throw Error(std::string("remote archives need libcurl 7.75 or newer; ") + so.soname() + " is " +
                    (version ? version->version : "of unknown version"),
                Exit::usage);
  // curl_global_init is not thread-safe in older libcurl: done here, once (load_table_once).
  const auto global_init = so.symbol<decltype(curl_global_init)>("curl_global_init");
  if (global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
    throw Error("remote archives: libcurl could not be initialised", Exit::usage);
  return curl;
}

}  // namespace

const CurlLibrary& curl_library() { return base::load_table_once<CurlLibrary, open_curl>(); }

}  // namespace zanj::remote
