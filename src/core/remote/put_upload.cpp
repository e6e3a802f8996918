#include "remote/put_upload.hpp"

#include "remote/upload_common.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {

PutUpload::PutUpload(const RemoteUrl& url, const OutputOptions& options)
    : url_(url), options_(options), staged_(std::make_unique<io::SpoolFile>()) {}

void PutUpload::write(std::string_view bytes) {
  stop_if_interrupted(url_.display);
  staged_->append(bytes);
  size_ += bytes.size();
}

OutputObject PutUpload::commit() {
  stop_if_interrupted(url_.display);
  HttpCall call;
  call.method = "PUT";
  call.url = url_.text;  // with its query (a presigned URL's signature): never printed
  if (const auto it = options_.remote.url_credentials.find(url_.text); it != options_.remote.url_credentials.end())
    call.url = it->second;
  call.display = url_.display;
  call.headers = options_.remote.headers;
  call.headers.push_back("Content-Type: application/octet-stream");
  if (options_.no_clobber) call.headers.push_back("If-None-Match: *");
  call.upload = staged_.get();
  const HttpReply reply = upload_call(call, options_.remote);
  if (reply.status != 200 && reply.status != 201 && reply.status != 204)
    upload_failed(url_.display, "uploading", reply);
  return {reply.header("etag"), {}};
}

}  // namespace zanj::remote
