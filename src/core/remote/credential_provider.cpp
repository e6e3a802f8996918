#include "remote/credential_provider.hpp"

#include <algorithm>

#include "remote/credentials_gcp.hpp"  // tried_note
#include "zanj/error.hpp"

namespace zanj::remote {
namespace {

using namespace std::chrono_literals;

constexpr std::chrono::milliseconds kMaxMargin = 5min;
/// After a refresh that failed while the old credentials still hold, the next try waits this
/// long (a metadata server that is down is not asked once per request).
constexpr std::chrono::milliseconds kRetryAfterFailure = 10s;
/// Credentials that are due as soon as they come (a clock ahead of the issuer's) are not asked
/// for again more often than this; a server's rejection still refreshes them at once.
constexpr std::chrono::milliseconds kMinInterval = 1s;

/// The digits of text[at, at + n) as a number, or -1.
int digits(std::string_view text, std::size_t at, std::size_t n) {
  if (at + n > text.size()) return -1;
  int value = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (text[i] < '0' || text[i] > '9') return -1;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

std::string seconds_text(std::chrono::milliseconds left) {
  return std::to_string(std::chrono::round<std::chrono::seconds>(left).count()) + " s";
}

}  // namespace

std::chrono::milliseconds refresh_margin(CredentialTime obtained, CredentialTime expires) {
  const auto lifetime = std::chrono::duration_cast<std::chrono::milliseconds>(expires - obtained);
  return std::clamp(lifetime / 4, std::chrono::milliseconds(0), kMaxMargin);
}

std::optional<CredentialTime> parse_utc_time(std::string_view text) {
  // YYYY-MM-DDTHH:MM:SS[.fraction](Z|+00:00)
  const int year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
  const int hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
  if (year < 0 || month < 1 || day < 1 || hour < 0 || minute < 0 || second < 0 || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || text[13] != ':' || text[16] != ':' || hour > 23 ||
      minute > 59 || second > 60)
    return std::nullopt;
  std::size_t at = 19;
  std::chrono::milliseconds fraction{0};
  if (at < text.size() && text[at] == '.') {
    int scale = 100;
    for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9'; ++at, scale /= 10)
      fraction += std::chrono::milliseconds((text[at] - '0') * scale);
  }
  const std::string_view zone = text.substr(at);
  if (zone != "Z" && zone != "z" && zone != "+00:00" && zone != "-00:00") return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year(year), std::chrono::month(static_cast<unsigned>(month)),
                                         std::chrono::day(static_cast<unsigned>(day))};
  if (!date.ok()) return std::nullopt;
  return std::chrono::time_point_cast<CredentialTime::duration>(std::chrono::sys_days(date) + std::chrono::hours(hour) +
                                                                std::chrono::minutes(minute) +
                                                                std::chrono::seconds(second) + fraction);
}

bool credentials_rejected(long status, std::string_view body) {
  return status == 401 || status == 403 ||
         (status == 400 && (body.find("<Code>ExpiredToken") != std::string_view::npos ||
                            body.find("<Code>TokenRefreshRequired</Code>") != std::string_view::npos));
}

CredentialProvider::CredentialProvider(RequestCredentials first, Resolve again, std::string what, Log log,
                                       CredentialClock clock)
    : again_(std::move(again)),
      what_(std::move(what)),
      log_(std::move(log)),
      clock_(clock ? std::move(clock) : CredentialClock([] { return std::chrono::system_clock::now(); })) {
  if (!again_) first.temporary = false;
  credentials_ = std::make_shared<const RequestCredentials>(std::move(first));
  obtained_ = clock_();
  next_try_ = obtained_ + kMinInterval;
}

void CredentialProvider::refresh(const std::string& why) {
  RequestCredentials fresh = again_();
  fresh.temporary = true;
  if (fresh.tried.empty()) fresh.tried = credentials_->tried;
  obtained_ = clock_();
  next_try_ = obtained_ + kMinInterval;
  ++refreshes_;
  if (log_) {
    std::string line = what_ + ": credentials refreshed (" + why + ") from " + fresh.source;
    if (fresh.expires)
      line += "; they expire in " +
              seconds_text(std::chrono::duration_cast<std::chrono::milliseconds>(*fresh.expires - obtained_));
    log_(line);
  }
  credentials_ = std::make_shared<const RequestCredentials>(std::move(fresh));
}

std::shared_ptr<const RequestCredentials> CredentialProvider::current() {
  std::lock_guard lock(mutex_);
  std::shared_ptr<const RequestCredentials> held = credentials_;  // a refresh replaces credentials_
  if (!held->temporary || !held->expires) return held;
  const CredentialTime expires = *held->expires, now = clock_();
  if (now < expires - refresh_margin(obtained_, expires) || now < next_try_) return held;
  try {
    refresh(now >= expires ? "they had expired" : "they were about to expire");
  } catch (const Error& e) {  // boundary: a failed early refresh is a note while the old ones hold
    if (now >= expires) throw;
    // The old ones still hold: keep them, and try again a little later.
    next_try_ = now + kRetryAfterFailure;
    if (log_)
      log_(what_ + ": refreshing the credentials failed; the current ones stay valid for " +
           seconds_text(std::chrono::duration_cast<std::chrono::milliseconds>(expires - now)) + ": " + e.reason());
  }
  return credentials_;
}

std::shared_ptr<const RequestCredentials> CredentialProvider::after_rejection(
    const std::shared_ptr<const RequestCredentials>& rejected, const std::string& why) {
  std::lock_guard lock(mutex_);
  if (!credentials_->temporary) return nullptr;
  if (credentials_ != rejected) return credentials_;  // another thread refreshed them already
  refresh("the server answered " + why);
  return credentials_;
}

std::string CredentialProvider::auth_note() const {
  std::lock_guard lock(mutex_);
  return tried_note(credentials_->tried, credentials_->source);
}

int CredentialProvider::refreshes() const {
  std::lock_guard lock(mutex_);
  return refreshes_;
}

}  // namespace zanj::remote
