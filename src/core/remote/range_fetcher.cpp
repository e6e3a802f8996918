#include "remote/range_fetcher.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

#include "base/text_trim.hpp"
#include "remote/http_call.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {
/// "bytes FIRST-LAST/TOTAL" (TOTAL may be "*"; "bytes */TOTAL" in a 416). Outside the unnamed
/// namespace: RangeFetcher::Exchange, which has external linkage, holds one.
struct HttpContentRange {
  std::optional<std::uint64_t> first, last, total;
};

namespace {

constexpr double kMaxRetryAfter = 60;          // seconds: a longer wait is not worth holding a command for
constexpr std::size_t kErrorBodyBytes = 4096;  // of an error page, enough for S3's <Code>

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::optional<std::uint64_t> number(std::string_view text) {
  if (text.empty() || text.size() > 19) return std::nullopt;
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

std::optional<HttpContentRange> parse_content_range(std::string_view text) {
  text = base::trim_line(text);
  if (lower(text.substr(0, 6)) != "bytes ") return std::nullopt;
  text.remove_prefix(6);
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos) return std::nullopt;
  HttpContentRange range;
  if (const std::string_view total = text.substr(slash + 1); total != "*") {
    range.total = number(total);
    if (!range.total) return std::nullopt;
  }
  const std::string_view span = text.substr(0, slash);
  if (span == "*") return range;
  const std::size_t dash = span.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  range.first = number(span.substr(0, dash));
  range.last = number(span.substr(dash + 1));
  if (!range.first || !range.last || *range.last < *range.first) return std::nullopt;
  return range;
}

std::string range_text(std::uint64_t first, std::uint64_t last) {
  return std::to_string(first) + "-" + std::to_string(last);
}

bool retryable(CURLcode code) {
  switch (code) {
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_COULDNT_RESOLVE_HOST:
      return true;
    default:
      return false;
  }
}

bool retryable_status(long status) { return status == 408 || status == 429 || (status >= 500 && status <= 504); }

}  // namespace

/// One request and what came back.
struct RangeFetcher::Exchange {
  const RangeFetcher* fetcher = nullptr;
  bool suffix = false;                // Range: bytes=-N (open)
  std::uint64_t first = 0, last = 0;  // bytes=first-last, or N in `last` for a suffix
  char* out = nullptr;
  std::size_t capacity = 0;
  std::string* grow = nullptr;                                   // open: the tail, grown as it arrives
  const std::function<void(std::string_view)>* whole = nullptr;  // open with --download
  // The response (the last one, after redirects):
  long status = 0;
  std::string content_range, etag, last_modified, retry_after, content_length;
  bool checked = false;
  HttpContentRange range;
  std::size_t got = 0;                                    // body bytes kept
  std::string fatal;                                      // a problem no retry fixes
  std::string error_body;                                 // the start of a 400's body (S3 says ExpiredToken there)
  std::shared_ptr<const RequestCredentials> credentials;  // what signed the request
};

struct RangeFetcher::Outcome {
  std::string problem;      // empty: the request succeeded (possibly short: resume)
  double retry_after = -1;  // seconds the server asked for
  bool rejected = false;    // the server refused the credentials (retry_with_new_credentials)
};

namespace {

std::size_t on_range_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto& ex = *static_cast<RangeFetcher::Exchange*>(user);
  const std::string_view line = base::trim_line(std::string_view(data, size * count));
  if (line.substr(0, 5) == "HTTP/") {  // a new response (after a redirect or a 100): start over
    const std::size_t space = line.find(' ');
    ex.status = space == std::string_view::npos ? 0 : static_cast<long>(number(line.substr(space + 1, 3)).value_or(0));
    ex.content_range.clear(), ex.etag.clear(), ex.last_modified.clear(), ex.retry_after.clear();
    ex.content_length.clear();
    return size * count;
  }
  const std::size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * count;
  const std::string name = lower(base::trim_line(line.substr(0, colon)));
  const std::string value(base::trim_line(line.substr(colon + 1)));
  if (name == "content-range")
    ex.content_range = value;
  else if (name == "etag")
    ex.etag = value;
  else if (name == "last-modified")
    ex.last_modified = value;
  else if (name == "retry-after")
    ex.retry_after = value;
  else if (name == "content-length")
    ex.content_length = value;
  return size * count;
}

std::size_t on_range_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& ex = *static_cast<RangeFetcher::Exchange*>(user);
  const std::size_t n = size * count;
  return ex.fetcher->take_body(ex, std::string_view(data, n)) ? n : 0;  // 0 aborts the transfer
}

}  // namespace

RangeFetcher::RangeFetcher(FetchTarget target, RemoteOptions options)
    : target_(std::move(target)), options_(std::move(options)) {
  curl_library();  // a missing libcurl is reported before anything else
}

RangeFetcher::~RangeFetcher() {
  for (CURL* handle : handles_) curl_library().easy_cleanup(handle);
}

TransferCount RangeFetcher::transfer() const { return TransferCount{bytes_.load(), requests_.load()}; }

void RangeFetcher::fail(const std::string& what) const { throw Error(InArchive{target_.display}, what, Exit::usage); }

void RangeFetcher::log(const std::string& line) const {
  if (!options_.log) return;
  std::lock_guard lock(log_mutex_);
  options_.log(line);
}

CURL* RangeFetcher::take_handle() const {
  {
    std::lock_guard lock(handles_mutex_);
    if (!handles_.empty()) {
      CURL* handle = handles_.back();
      handles_.pop_back();
      curl_library().easy_reset(handle);  // keeps its connections open
      return handle;
    }
  }
  CURL* handle = curl_library().easy_init();
  if (handle == nullptr) fail("libcurl could not start a request");
  return handle;
}

void RangeFetcher::give_back(CURL* handle) const {
  std::lock_guard lock(handles_mutex_);
  handles_.push_back(handle);
}

std::string RangeFetcher::too_large_hint(std::uint64_t bytes) const {
  return "the server ignores range requests (it answered 200 with the whole file, " + std::to_string(bytes) +
         " bytes or more, past --download-max " + std::to_string(options_.download_max) +
         "); --download fetches it whole";
}

bool RangeFetcher::check_response(Exchange& ex) const {
  // The version pinned by the first response must be the one answering.
  const bool other_version =
      (!etag_.empty() && !ex.etag.empty() && ex.etag != etag_) ||
      (etag_.empty() && !last_modified_.empty() && !ex.last_modified.empty() && ex.last_modified != last_modified_);
  if (other_version && ex.status / 100 == 2) {
    ex.fatal = "the file changed on the server while it was being read (" +
               std::string(etag_.empty() ? "Last-Modified " + last_modified_ + " became " + ex.last_modified
                                         : "ETag " + etag_ + " became " + ex.etag) +
               ")";
    return false;
  }
  if (ex.status == 200) {
    if (ex.whole && !options_.download && number(ex.content_length).value_or(0) > options_.download_max) {
      ex.fatal = too_large_hint(*number(ex.content_length));
      return false;
    }
    if (ex.whole) return true;
    ex.fatal = ex.suffix ? "the server ignores range requests (it answered 200 with the whole file); "
                           "--download fetches it whole"
                         : "the file changed on the server while it was being read (a range request was answered "
                           "with the whole file)";
    return false;
  }
  if (ex.status != 206) return true;  // an error page: read and dropped, the status decides
  const auto range = parse_content_range(ex.content_range);
  const std::string asked = ex.suffix ? "-" + std::to_string(ex.last) : range_text(ex.first, ex.last);
  bool matches = range && range->first && range->total;
  // A suffix may come back as another range (s3rver answers bytes=-N with bytes 0-N): the bytes
  // are still the ones Content-Range names, so they are kept where it says, and the tail is
  // fetched when it is needed.
  if (matches && ex.suffix)
    matches = *range->last < *range->total && *range->last - *range->first <= ex.last;  // "0-N": N + 1 bytes
  else if (matches)
    matches = *range->first == ex.first && *range->last == ex.last && *range->total == size_;
  if (!matches) {
    ex.fatal = "the server answered bytes=" + asked + " with Content-Range '" + ex.content_range + "'";
    return false;
  }
  ex.range = *range;
  return true;
}

bool RangeFetcher::take_body(Exchange& ex, std::string_view data) const {
  bytes_ += data.size();
  if (!ex.checked) {
    ex.checked = true;
    if (!check_response(ex)) return false;
  }
  if (ex.status == 200 && ex.whole) {
    if (!options_.download && ex.got + data.size() > options_.download_max) {
      ex.fatal = too_large_hint(ex.got + data.size());
      return false;
    }
    (*ex.whole)(data);
    ex.got += data.size();
    return true;
  }
  if (ex.status == 400 && ex.error_body.size() < kErrorBodyBytes)
    ex.error_body.append(data.substr(0, kErrorBodyBytes - ex.error_body.size()));
  if (ex.status != 206) return true;
  const std::size_t room = ex.grow ? static_cast<std::size_t>(*ex.range.last - *ex.range.first + 1) : ex.capacity;
  if (data.size() > room - ex.got) {
    ex.fatal = "the server sent more bytes than the range it announced";
    return false;
  }
  if (ex.grow)
    ex.grow->append(data);
  else
    std::memcpy(ex.out + ex.got, data.data(), data.size());
  ex.got += data.size();
  return true;
}

void RangeFetcher::configure(CURL* handle, Exchange& ex, CurlHeaders& headers, char* error) const {
  const CurlLibrary& curl = curl_library();
  for (const std::string& header : target_.headers) headers.add(header);
  if (ex.credentials)
    for (const std::string& header : ex.credentials->headers) headers.add(header);
  for (const std::string& header : options_.headers) headers.add(header);
  // Pinning: a strong ETag is compared by If-Match (412 when it changed) and If-Range; a date
  // by If-Unmodified-Since and If-Range. Weak ETags cannot be: the response is checked instead.
  if (!ex.suffix) {
    if (!etag_.empty() && etag_.rfind("W/", 0) != 0) {
      headers.add("If-Match: " + etag_);
      headers.add("If-Range: " + etag_);
    } else if (!last_modified_.empty()) {
      headers.add("If-Unmodified-Since: " + last_modified_);
      headers.add("If-Range: " + last_modified_);
    }
  }
  CurlSetup setup;
  setup.url = &target_.url;
  setup.follow_redirects = true;
  setup.netrc = true;
  if (ex.credentials) {
    setup.sigv4 = &ex.credentials->sigv4;
    setup.user_password = &ex.credentials->user_password;
  }
  setup.headers = &headers;
  setup.error = error;
  set_up_curl(handle, setup, options_);
  const std::string range = ex.suffix ? "-" + std::to_string(ex.last) : range_text(ex.first, ex.last);
  curl.easy_setopt(handle, CURLOPT_RANGE, range.c_str());  // copied by libcurl
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, &on_range_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, &ex);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, &on_range_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &ex);
}

RangeFetcher::Outcome RangeFetcher::perform(Exchange& ex) const {
  const CurlLibrary& curl = curl_library();
  ex.fetcher = this;
  if (target_.credentials) ex.credentials = target_.credentials->current();  // refreshed when about to expire
  CURL* handle = take_handle();
  CurlHeaders headers;
  char error[CURL_ERROR_SIZE] = {};
  configure(handle, ex, headers, error);
  ++requests_;
  const CURLcode code = curl.easy_perform(handle);
  give_back(handle);
  const std::string range = ex.suffix ? "-" + std::to_string(ex.last) : range_text(ex.first, ex.last);
  if (code == CURLE_OPERATION_TIMEDOUT && seconds_left(options_) <= 0) {
    log("GET " + target_.display + " bytes=" + range + ": " + deadline_passed(options_));
    fail(deadline_passed(options_));
  }
  log("GET " + target_.display + " bytes=" + range + ": " +
      (ex.status ? std::to_string(ex.status) : std::string("no response")) + ", " + std::to_string(ex.got) + " bytes");
  if (!ex.fatal.empty()) fail(ex.fatal);
  Outcome outcome;
  if (code != CURLE_OK) {
    const std::string why(error[0] ? base::trim_line(error) : std::string_view(curl.easy_strerror(code)));
    if (!retryable(code)) fail(std::string(why));
    outcome.problem = std::string(why);
    return outcome;
  }
  if (ex.status == 206 || (ex.status == 200 && ex.whole)) return outcome;
  if (ex.status == 412) fail("the file changed on the server while it was being read (412 Precondition Failed)");
  if (retryable_status(ex.status)) {
    outcome.problem = http_status_text(ex.status);
    if (const auto seconds = number(ex.retry_after)) outcome.retry_after = static_cast<double>(*seconds);
    return outcome;
  }
  if (ex.status == 416 && ex.suffix) return outcome;  // an empty file; open() reads its size
  if (credentials_rejected(ex.status, ex.error_body)) {
    outcome.rejected = true;
    return outcome;
  }
  fail(http_status_text(ex.status));
}

bool RangeFetcher::retry_with_new_credentials(const Exchange& ex, bool& refreshed) const {
  const std::string status = http_status_text(ex.status) + (ex.status == 400 ? " (ExpiredToken)" : "");
  if (target_.credentials && !refreshed) {
    refreshed = true;
    if (target_.credentials->after_rejection(ex.credentials, status)) return true;
  }
  fail(target_.credentials ? status + target_.credentials->auth_note() : status);
}

void RangeFetcher::pause_before_retry(int failures, double retry_after) const {
  double seconds = 0.1 * static_cast<double>(1 << std::min(failures - 1, 6));  // 0.1, 0.2, 0.4, ... s
  if (retry_after >= 0) seconds = std::min(retry_after, kMaxRetryAfter);
  if (seconds >= seconds_left(options_)) fail(deadline_passed(options_));
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
}

RangeFetcher::Opening RangeFetcher::open(std::size_t tail_bytes,
                                         const std::function<void(std::string_view)>& whole_body) {
  Opening opening;
  bool refreshed = false;
  for (int failures = 0;;) {
    Exchange ex;
    ex.suffix = true;
    ex.last = tail_bytes;
    opening.tail.clear();
    ex.grow = &opening.tail;
    if (whole_body) ex.whole = &whole_body;  // a server ignoring ranges: the file whole, within --download-max
    const Outcome outcome = perform(ex);
    if (outcome.rejected && retry_with_new_credentials(ex, refreshed)) continue;
    const bool short_tail = ex.status == 206 && ex.range.first && ex.got != *ex.range.last - *ex.range.first + 1;
    if (outcome.problem.empty() && !short_tail) {
      etag_ = ex.etag;
      last_modified_ = ex.last_modified;
      if (ex.status == 200) {
        log(target_.display + ": the server ignores range requests; fetched the whole file (" + std::to_string(ex.got) +
            " bytes) into a temporary file");
        opening.whole = true;
        opening.size = ex.got;
      } else if (ex.status == 416) {
        const auto range = parse_content_range(ex.content_range);
        if (!range || !range->total || *range->total != 0) fail("the server refused the range request (416)");
        opening.size = 0;
      } else {
        opening.size = *ex.range.total;
        opening.tail_offset = *ex.range.first;
      }
      size_ = opening.size;
      return opening;
    }
    if (ex.status == 200 && ex.whole && ex.got > 0) fail("the download was cut short: " + outcome.problem);
    if (++failures > options_.retries)
      fail(outcome.problem.empty() ? "the server keeps cutting the response short" : outcome.problem);
    pause_before_retry(failures, outcome.retry_after);
  }
}

void RangeFetcher::fetch(std::uint64_t offset, char* out, std::size_t n) const {
  std::size_t done = 0;
  bool refreshed = false;
  for (int failures = 0; done < n;) {
    Exchange ex;
    ex.first = offset + done;
    ex.last = offset + n - 1;
    ex.out = out + done;
    ex.capacity = n - done;
    const Outcome outcome = perform(ex);
    if (outcome.rejected && retry_with_new_credentials(ex, refreshed)) continue;
    done += ex.got;  // a range cut short is resumed from here
    if (done == n) return;
    if (++failures > options_.retries)
      fail((outcome.problem.empty() ? "the server keeps cutting responses short" : outcome.problem) +
           " (gave up after " + std::to_string(options_.retries) + " retries)");
    pause_before_retry(failures, outcome.retry_after);
  }
}

}  // namespace zanj::remote
