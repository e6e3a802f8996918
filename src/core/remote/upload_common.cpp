#include "remote/upload_common.hpp"

#include <algorithm>

#include "io/temp_file.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {

std::size_t ViewSource::read_some(std::uint64_t offset, void* buffer, std::size_t n) const {
  if (offset >= bytes_.size()) return 0;
  n = std::min<std::size_t>(n, bytes_.size() - offset);
  std::memcpy(buffer, bytes_.data() + offset, n);
  return n;
}

HttpReply upload_call(const HttpCall& call, const RemoteOptions& options) {
  HttpReply reply = http_call(call, options);
  if (options.log)
    options.log(call.method + " " + call.display + ": " +
                (reply.status ? http_status_text(reply.status) : "no response: " + reply.problem));
  return reply;
}

void upload_failed(const std::string& display, const std::string& what, const HttpReply& reply,
                   const std::string& auth_note) {
  if (io::interrupt_pending()) throw Error(InArchive{display}, "interrupted", Exit::usage);
  if (reply.status == 0) throw Error(InArchive{display}, what + ": " + reply.problem, Exit::usage);
  if (reply.status == 412) throw Error(InArchive{display}, "already exists (--no-clobber)", Exit::invalid);
  std::string reason = what + ": " + http_status_text(reply.status);
  // S3 and GCS say why in the body (<Message> or "message"); never the request itself.
  if (std::string message = xml_field(reply.body, "Message"); !message.empty()) reason += ": " + message;
  if (reply.status == 401 || reply.status == 403) reason += auth_note;
  throw Error(InArchive{display}, reason, Exit::usage);
}

void stop_if_interrupted(const std::string& display) {
  if (io::interrupt_pending()) throw Error(InArchive{display}, "interrupted", Exit::usage);
}

void check_part_size(std::uint64_t part_size) {
  if (part_size < kMinPartSize || part_size > kMaxPartSize)
    throw Error("--part-size must be 5 MiB to 128 MiB, not " + std::to_string(part_size) + " bytes", Exit::usage);
}

std::string xml_field(std::string_view xml, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  const std::size_t start = xml.find(open);
  if (start == std::string_view::npos) return {};
  const std::size_t end = xml.find(close, start + open.size());
  if (end == std::string_view::npos) return {};
  const std::string_view raw = xml.substr(start + open.size(), end - start - open.size());
  std::string out;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    bool replaced = false;
    static constexpr std::pair<std::string_view, char> kEntities[] = {
        {"&quot;", '"'}, {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&apos;", '\''}};
    for (const auto& [e, c] : kEntities) {
      if (raw.substr(i, e.size()) == e) {
        out += c;
        i += e.size() - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += raw[i];
  }
  return out;
}

}  // namespace zanj::remote
