#include "remote/http_call.hpp"

#include <algorithm>
#include <cmath>
#include <chrono>
#include <limits>
#include <memory>
#include <thread>

#include "base/text_trim.hpp"
#include "io/temp_file.hpp"
#include "remote/curl_library.hpp"
#include "remote/curl_setup.hpp"

namespace zanj::remote {
namespace {

constexpr std::size_t kMaxBody = 1 << 20;

struct Received {
  HttpReply* reply;
  bool too_long = false;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& received = *static_cast<Received*>(user);
  const std::size_t n = size * count;
  if (received.reply->body.size() + n > kMaxBody) {
    received.too_long = true;
    return 0;
  }
  received.reply->body.append(data, n);
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& reply = *static_cast<Received*>(user)->reply;
  const std::string_view line(data, size * count);
  if (line.substr(0, 5) == "HTTP/") {
    reply.headers.clear();
  } else if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
    std::string name(base::trim_line(line.substr(0, colon)));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    reply.headers.emplace_back(std::move(name), std::string(base::trim_line(line.substr(colon + 1))));
  }
  return size * count;
}

/// Ends a transfer once an interrupt is pending (an upload then cancels itself).
int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return *static_cast<const bool*>(user) || !io::interrupt_pending() ? 0 : 1;
}

struct UploadReader {
  const io::ByteSource* source;
  std::uint64_t offset = 0;
};

std::size_t on_read(char* out, std::size_t size, std::size_t count, void* user) {
  auto& reader = *static_cast<UploadReader*>(user);
  const std::size_t n = reader.source->read_some(reader.offset, out, size * count);
  reader.offset += n;
  return n;
}

HttpReply perform_once(const HttpCall& call, const RemoteOptions& options) {
  const CurlLibrary& curl = curl_library();
  HttpReply reply;
  std::unique_ptr<CURL, decltype(curl.easy_cleanup)> handle(curl.easy_init(), curl.easy_cleanup);
  if (!handle) {
    reply.problem = "libcurl could not start a request";
    return reply;
  }
  CURL* h = handle.get();
  Received received{&reply};
  char error[CURL_ERROR_SIZE] = {};
  CurlHeaders headers;
  for (const std::string& header : call.headers) headers.add(header);
  if (call.method != "GET") headers.add("Expect:");  // no 100-continue round trip
  CurlSetup setup;
  setup.url = &call.url;
  setup.connect_timeout = call.connect_timeout;
  setup.total_timeout = call.total_timeout;
  setup.sigv4 = &call.sigv4;
  setup.user_password = &call.user_password;
  setup.headers = &headers;
  setup.error = error;
  set_up_curl(h, setup, options);
  const bool despite_interrupt = call.despite_interrupt;
  curl.easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl.easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl.easy_setopt(h, CURLOPT_XFERINFODATA, &despite_interrupt);
  UploadReader reader{call.upload};
  if (call.upload) {
    curl.easy_setopt(h, CURLOPT_UPLOAD, 1L);
    curl.easy_setopt(h, CURLOPT_READFUNCTION, &on_read);
    curl.easy_setopt(h, CURLOPT_READDATA, &reader);
    curl.easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(call.upload->size()));
  } else if (call.method == "DELETE") {
    curl.easy_setopt(h, CURLOPT_CUSTOMREQUEST, "DELETE");
  } else if (call.method == "POST" || call.method == "PUT") {
    curl.easy_setopt(h, CURLOPT_POSTFIELDS, call.body.c_str());
    curl.easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(call.body.size()));
    if (call.method == "PUT") curl.easy_setopt(h, CURLOPT_CUSTOMREQUEST, "PUT");
  }
  curl.easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
  curl.easy_setopt(h, CURLOPT_HEADERDATA, &received);
  curl.easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl.easy_setopt(h, CURLOPT_WRITEDATA, &received);
  const CURLcode code = curl.easy_perform(h);
  if (received.too_long) {
    reply = HttpReply{};
    reply.problem = "the response is longer than 1 MiB";
    return reply;
  }
  if (code != CURLE_OK) {
    reply.status = 0;
    reply.problem = std::string(error[0] ? base::trim_line(error) : std::string_view(curl.easy_strerror(code)));
    return reply;
  }
  curl.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply.status);
  return reply;
}

}  // namespace

std::string HttpReply::header(const std::string& name) const {
  for (const auto& [key, value] : headers)
    if (key == name) return value;
  return {};
}

namespace {

/// A header's name, in lower case ("x-amz-content-sha256" of "X-Amz-Content-Sha256: ...").
std::string header_name(const std::string& header) {
  std::string name = header.substr(0, header.find(':'));
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name;
}

/// `call` signed or authorized with `credentials`; the call's own headers win over theirs (an
/// upload names its payload UNSIGNED-PAYLOAD).
HttpCall with_credentials(const HttpCall& call, const RequestCredentials& credentials) {
  HttpCall out = call;
  out.sigv4 = credentials.sigv4;
  out.user_password = credentials.user_password;
  for (const std::string& header : credentials.headers) {
    const std::string name = header_name(header);
    if (std::none_of(call.headers.begin(), call.headers.end(),
                     [&](const std::string& own) { return header_name(own) == name; }))
      out.headers.push_back(header);
  }
  return out;
}

}  // namespace

HttpReply http_call(const HttpCall& call, const RemoteOptions& options) {
  bool refreshed = false;  // one refresh and one retry after the server refuses the credentials
  for (int failures = 0;; ++failures) {
    if (seconds_left(options) <= 0) {
      HttpReply late;
      late.problem = deadline_passed(options);
      return late;
    }
    std::shared_ptr<const RequestCredentials> credentials;
    if (call.credentials) credentials = call.credentials->current();
    HttpReply reply =
        credentials ? perform_once(with_credentials(call, *credentials), options) : perform_once(call, options);
    if (credentials && !refreshed && credentials_rejected(reply.status, reply.body)) {
      refreshed = true;
      if (call.credentials->after_rejection(credentials, http_status_text(reply.status))) {
        --failures;  // not a failure of the server's: the retry is on top of options.retries
        continue;
      }
    }
    if (reply.status == 0 && seconds_left(options) <= 0) reply.problem = deadline_passed(options);
    const bool transient = (reply.status == 0 && reply.problem.find("Couldn't connect") == std::string::npos &&
                            reply.problem.find("Could not resolve") == std::string::npos &&
                            reply.problem.find("Failed to connect") == std::string::npos &&
                            reply.problem.find("longer than") == std::string::npos) ||
                           reply.status == 429 || (reply.status >= 500 && reply.status <= 504);
    if (!transient || failures >= options.retries || call.total_timeout > 0 ||
        (io::interrupt_pending() && !call.despite_interrupt))
      return reply;
    std::this_thread::sleep_for(std::chrono::milliseconds(100 << std::min(failures, 6)));
  }
}

std::string percent_encode(std::string_view text, std::string_view keep) {
  std::string out;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte >= 'A' && byte <= 'Z') || (byte >= 'a' && byte <= 'z') || (byte >= '0' && byte <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~' || keep.find(c) != std::string_view::npos) {
      out += c;
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += '%';
      out += kHex[byte >> 4];
      out += kHex[byte & 15];
    }
  }
  return out;
}

std::string http_status_text(long status) {
  std::string text = "HTTP " + std::to_string(status);
  switch (status) {
    case 400:
      return text + " Bad Request";
    case 401:
      return text + " Unauthorized";
    case 403:
      return text + " Forbidden";
    case 404:
      return text + " Not Found";
    case 410:
      return text + " Gone";
    case 412:
      return text + " Precondition Failed";
    case 429:
      return text + " Too Many Requests";
    case 500:
      return text + " Internal Server Error";
    case 502:
      return text + " Bad Gateway";
    case 503:
      return text + " Service Unavailable";
    case 504:
      return text + " Gateway Timeout";
    default:
      return text;
  }
}

}  // namespace zanj::remote
