#pragma once
// An http(s):// URL written as a byte sink: one PUT (a presigned URL, a WebDAV server). The
// length must be known before the request starts, so the output is first staged in an unnamed
// temporary file (spool_file.hpp; nothing is left behind) and sent by commit(). The object
// appears only if that PUT succeeds; a failed one leaves nothing of ours to remove.
#include <memory>
#include <string>

#include "io/byte_sink.hpp"
#include "io/spool_file.hpp"
#include "io/temp_file.hpp"
#include "remote/url.hpp"

namespace zanj::remote {

class PutUpload final : public io::ByteSink {
 public:
  PutUpload(const RemoteUrl& url, const OutputOptions& options);
  void write(std::string_view bytes) override;
  OutputObject commit() override;

 private:
  io::InterruptDeferral deferral_;
  RemoteUrl url_;
  OutputOptions options_;
  std::unique_ptr<io::SpoolFile> staged_;
};

}  // namespace zanj::remote
