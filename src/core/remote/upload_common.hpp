#pragma once
// What the three uploads (s3_upload, gcs_upload, put_upload) share: a part's bytes as a byte
// source for http_call, the one line -v prints per request, and the errors they raise.
#include <cstring>
#include <string>
#include <string_view>

#include "io/byte_source.hpp"
#include "remote/http_call.hpp"
#include "zanj/safe_files.hpp"

namespace zanj::remote {

/// Bytes held elsewhere (a part being sent), read by http_call's upload.
class ViewSource final : public io::ByteSource {
 public:
  explicit ViewSource(std::string_view bytes) : bytes_(bytes) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void read_at(std::uint64_t offset, void* buffer, std::size_t n) const override {
    std::memcpy(buffer, bytes_.data() + offset, n);
  }
  std::size_t read_some(std::uint64_t offset, void* buffer, std::size_t n) const override;

 private:
  std::string_view bytes_;
};

/// Perform `call`, logging "METHOD DISPLAY: HTTP 200" with -v (the display has no secret).
HttpReply upload_call(const HttpCall& call, const RemoteOptions& options);

/// Throw the error for an unexpected reply to `what` ("part 3", "completing the upload"):
/// Error(InArchive{display}, ..., usage); 412 is "already exists" (Exit::invalid, for
/// --no-clobber); `auth_note` is added to 401 and 403.
[[noreturn]] void upload_failed(const std::string& display, const std::string& what, const HttpReply& reply,
                                const std::string& auth_note = {});

/// Throw Error(InArchive{display}, "interrupted") when a signal is pending.
void stop_if_interrupted(const std::string& display);

/// Check --part-size (kMinPartSize..kMaxPartSize). Throws Error (usage).
void check_part_size(std::uint64_t part_size);

/// The text between <tag> and </tag> in an XML reply, with &quot; &amp; &lt; &gt; &apos; undone; "" if absent.
std::string xml_field(std::string_view xml, std::string_view tag);

}  // namespace zanj::remote
