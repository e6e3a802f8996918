#include "remote/bucket_listing.hpp"

#include <charconv>
#include <cstdint>
#include <optional>
#include <system_error>

#include "base/unicode.hpp"
#include "json/json_parse.hpp"
#include "remote/gcs_address.hpp"
#include "remote/http_call.hpp"
#include "remote/s3_address.hpp"
#include "zanj/error.hpp"
#include "zanj/json.hpp"

namespace zanj::remote {
namespace {

// A listing is one more request per thousand names; a bucket with this many pages under one
// prefix is not what a pattern on the command line is for (and a server that keeps returning
// the same token must not loop for ever).
constexpr int kMaxPages = 100000;

/// The code point of a character reference's body ("#233", "#xE9"); none when it is malformed
/// or not a Unicode scalar value (the text is then kept as it is).
std::optional<char32_t> character_reference(std::string_view entity) {
  if (entity.size() < 2 || entity[0] != '#') return std::nullopt;
  const bool hex = entity[1] == 'x' || entity[1] == 'X';
  const std::string_view digits = entity.substr(hex ? 2 : 1);
  std::uint32_t code = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), code, hex ? 16 : 10);
  if (ec != std::errc{} || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  if (code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return std::nullopt;
  return static_cast<char32_t>(code);
}

/// `text` with XML's five named entities and numeric references decoded (S3 escapes '&', '<'
/// and the like in keys, and writes control characters as references).
std::string xml_decode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '&') {
      out += text[i];
      continue;
    }
    const std::size_t end = text.find(';', i);
    if (end == std::string_view::npos) {
      out += text.substr(i);
      break;
    }
    const std::string_view entity = text.substr(i + 1, end - i - 1);
    if (entity == "amp")
      out += '&';
    else if (entity == "lt")
      out += '<';
    else if (entity == "gt")
      out += '>';
    else if (entity == "quot")
      out += '"';
    else if (entity == "apos")
      out += '\'';
    else if (const std::optional<char32_t> code = character_reference(entity))
      base::append_utf8(out, *code);
    else
      out += text.substr(i, end - i + 1);  // not an entity S3 writes: kept as it is
    i = end;
  }
  return out;
}

/// The raw text of the first <tag>...</tag> in `xml` at or after `from`, and where the element
/// ends (npos when there is none). A key's '<' is escaped, so no "</Key>" hides in a name.
std::size_t element(std::string_view xml, std::string_view tag, std::size_t from, std::string_view& text) {
  const std::string open_tag = "<" + std::string(tag) + ">", close_tag = "</" + std::string(tag) + ">";
  const std::size_t open = xml.find(open_tag, from);
  if (open == std::string_view::npos) return std::string_view::npos;
  const std::size_t start = open + open_tag.size();
  const std::size_t close = xml.find(close_tag, start);
  if (close == std::string_view::npos) return std::string_view::npos;
  text = xml.substr(start, close - start);
  return close + close_tag.size();
}

void log_page(const RemoteOptions& options, const std::string& what, const HttpReply& reply, std::size_t page) {
  if (options.log)
    options.log("GET " + what + " listing, page " + std::to_string(page + 1) + ": " +
                (reply.status ? std::to_string(reply.status) : "no response: " + reply.problem));
}

}  // namespace

ListingPage parse_s3_listing(const std::string& xml) {
  ListingPage page;
  std::size_t at = 0;
  std::string_view contents, text;
  while ((at = element(xml, "Contents", at, contents)) != std::string_view::npos)
    if (element(contents, "Key", 0, text) != std::string_view::npos) page.names.push_back(xml_decode(text));
  if (element(xml, "IsTruncated", 0, text) != std::string_view::npos && text == "true" &&
      element(xml, "NextContinuationToken", 0, text) != std::string_view::npos)
    page.next = xml_decode(text);
  return page;
}

ListingPage parse_gcs_listing(const std::string& json) {
  const base::Result<Json> answer = json::read_json(json, "listing");
  if (!answer || !answer->is_object()) throw Error("the listing is not a JSON object", Exit::usage);
  ListingPage page;
  if (const Json* items = answer->find("items"); items && items->is_array())
    for (const Json& item : items->as_array())
      if (item.is_object()) page.names.emplace_back(item.string_at("name"));
  page.next = std::string(answer->string_at("nextPageToken"));
  return page;
}

std::vector<std::string> list_bucket(const RemoteUrl& bucket, const std::string& prefix, const std::string& what,
                                     const Environment& environment, const RemoteOptions& options, unsigned page_size) {
  const auto fail = [&](const std::string& message) -> void { throw Error(InArchive{what}, message, Exit::usage); };
  page_size = std::clamp(page_size, 1u, 1000u);
  const bool s3 = bucket.scheme == RemoteUrl::Scheme::s3;
  HttpCall call;
  call.display = what;
  std::string base;
  std::shared_ptr<CredentialProvider> credentials;  // kept current over the pages
  if (s3) {
    RemoteUrl root = bucket;
    root.key.clear();
    S3Access access = s3_access(root, what, environment, options);
    base = std::move(access.url);
    credentials = std::move(access.credentials);
    // Path style names the bucket as the path ("ENDPOINT/BUCKET"), without a trailing '/'.
    if (base.size() > bucket.bucket.size() + 2 &&
        base.compare(base.size() - bucket.bucket.size() - 2, std::string::npos, "/" + bucket.bucket + "/") == 0)
      base.pop_back();
  } else {
    credentials = gcs_credential_provider(what, environment, options);
    base = gcs_endpoint(environment) + "/storage/v1/b/" + percent_encode(bucket.bucket) + "/o";
  }
  call.credentials = credentials.get();
  std::vector<std::string> names;
  std::string token;
  for (int page = 0; page < kMaxPages; ++page) {
    // S3's parameters in their canonical (sorted) order, each value encoded as SigV4 wants it,
    // so that the signature holds whichever way libcurl canonicalizes the query.
    if (s3) {
      call.url = base + "?" + (token.empty() ? "" : "continuation-token=" + percent_encode(token) + "&") +
                 "list-type=2&max-keys=" + std::to_string(page_size) + "&prefix=" + percent_encode(prefix);
    } else {
      call.url = base + "?fields=" + percent_encode("items(name),nextPageToken") +
                 "&maxResults=" + std::to_string(page_size) +
                 (token.empty() ? "" : "&pageToken=" + percent_encode(token)) + "&prefix=" + percent_encode(prefix);
    }
    const HttpReply reply = http_call(call, options);
    log_page(options, what, reply, static_cast<std::size_t>(page));
    if (reply.status == 0) fail("listing the bucket: " + reply.problem);
    if (reply.status == 401 || reply.status == 403)
      fail("listing the bucket: " + http_status_text(reply.status) + credentials->auth_note());
    if (reply.status == 404) fail("listing the bucket: " + http_status_text(reply.status) + " (no such bucket?)");
    if (reply.status != 200) fail("listing the bucket: " + http_status_text(reply.status));
    ListingPage listed;
    try {
      listed = s3 ? parse_s3_listing(reply.body) : parse_gcs_listing(reply.body);
    } catch (const Error& e) {  // context: the pattern joins the message
      fail(e.what());
    }
    for (std::string& name : listed.names)
      if (name.compare(0, prefix.size(), prefix) == 0) names.push_back(std::move(name));
    if (listed.next.empty()) return names;
    if (listed.next == token) fail("listing the bucket: the server repeated its page token");
    token = std::move(listed.next);
  }
  fail("listing the bucket: more than " + std::to_string(kMaxPages) + " pages");
  return names;
}

}  // namespace zanj::remote
