#pragma once
// libcurl, opened the first time a URL is read (base/shared_library.hpp says why it is never
// linked). <curl/curl.h> is used for its types and constants only; every call goes through
// these pointers, looked up once.
#include <curl/curl.h>

namespace zanj::remote {

struct CurlLibrary {
  decltype(&curl_easy_init) easy_init;
  decltype(&curl_easy_cleanup) easy_cleanup;
  decltype(&curl_easy_reset) easy_reset;
  decltype(&curl_easy_setopt) easy_setopt;
  decltype(&curl_easy_perform) easy_perform;
  decltype(&curl_easy_getinfo) easy_getinfo;
  decltype(&curl_easy_strerror) easy_strerror;
  decltype(&curl_slist_append) slist_append;
  decltype(&curl_slist_free_all) slist_free_all;
  decltype(&curl_version_info) version_info;
};

/// libcurl.so.4, opened and initialised (curl_global_init) once per process; safe from any
/// thread. Throws Error(Exit::usage) saying that remote archives need libcurl when it is not
/// installed, or when it is older than 7.75 (no AWS SigV4 signing).
const CurlLibrary& curl_library();

}  // namespace zanj::remote
