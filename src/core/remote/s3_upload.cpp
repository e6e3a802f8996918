#include "remote/s3_upload.hpp"

#include <cstdlib>

#include "remote/upload_common.hpp"
#include "zanj/error.hpp"

namespace zanj {
namespace {

// S3 allows 10,000 parts: every 1,000 the part size doubles (up to kMaxPartSize), so the
// default 16 MiB parts reach about 1 TiB while memory stays one part.
constexpr std::size_t kMaxParts = 10000;
constexpr std::size_t kPartsPerSize = 1000;
// A request that cleans up after a failure does not wait long.
constexpr double kAbortTimeout = 15;

}  // namespace

S3Upload::S3Upload(const RemoteUrl& url, const OutputOptions& options)
    : url_(url), options_(options), part_size_(options.part_size) {
  check_part_size(part_size_);
  const Environment environment = [](const char* name) { return std::getenv(name); };
  S3Access access = s3_access(url, url.display, environment, options.remote);
  object_url_ = std::move(access.url);
  credentials_ = std::move(access.credentials);
  signed_ = !credentials_->current()->sigv4.empty();  // a refresh keeps the source: signed stays signed
  if (options.no_clobber) {
    // Early, before any byte is sent; the upload's own If-None-Match: * is what is atomic.
    HttpCall probe = request("GET", "", "checking for an existing object");
    probe.headers.push_back("Range: bytes=0-0");
    const HttpReply reply = upload_call(probe, options.remote);
    if (reply.status == 200 || reply.status == 206)
      throw Error(InArchive{url.display}, "already exists (--no-clobber)", Exit::invalid);
    if (reply.status != 404 && reply.status != 416)
      upload_failed(url.display, "checking for an existing object", reply, credentials_->auth_note());
  }
  part_.reserve(part_size_);
}

S3Upload::~S3Upload() {
  if (!committed_) abort();
}

HttpCall S3Upload::request(const std::string& method, const std::string& query, const std::string& what) const {
  HttpCall call;
  call.method = method;
  call.url = object_url_ + query;
  call.display = url_.display + (what.empty() ? "" : " (" + what + ")");
  // The body's hash is not computed: the payload is named unsigned (TLS protects it), which
  // every S3 implementation accepts for uploads. This header wins over the credentials' own.
  if (signed_) call.headers.push_back("x-amz-content-sha256: UNSIGNED-PAYLOAD");
  call.headers.insert(call.headers.end(), options_.remote.headers.begin(), options_.remote.headers.end());
  call.credentials = credentials_.get();
  return call;
}

void S3Upload::write(std::string_view bytes) {
  stop_if_interrupted(url_.display);
  size_ += bytes.size();
  while (!bytes.empty()) {
    const std::size_t n = std::min<std::size_t>(bytes.size(), part_size_ - part_.size());
    part_.append(bytes.substr(0, n));
    bytes.remove_prefix(n);
    if (part_.size() == part_size_) send_part();
  }
}

void S3Upload::send_part() {
  stop_if_interrupted(url_.display);
  if (upload_id_.empty()) {
    const HttpReply reply = upload_call(request("POST", "?uploads", "starting a multipart upload"), options_.remote);
    if (reply.status != 200)
      upload_failed(url_.display, "starting a multipart upload", reply, credentials_->auth_note());
    upload_id_ = xml_field(reply.body, "UploadId");
    if (upload_id_.empty()) throw Error(InArchive{url_.display}, "the server gave no UploadId", Exit::usage);
  }
  if (etags_.size() >= kMaxParts)
    throw Error(InArchive{url_.display}, "more than 10,000 parts; use a larger --part-size", Exit::usage);
  const std::string number = std::to_string(etags_.size() + 1);
  const std::string what = "part " + number;
  HttpCall call = request("PUT", "?partNumber=" + number + "&uploadId=" + percent_encode(upload_id_), what);
  const ViewSource body(part_);
  call.upload = &body;
  const HttpReply reply = upload_call(call, options_.remote);
  if (reply.status != 200) upload_failed(url_.display, what, reply, credentials_->auth_note());
  const std::string etag = reply.header("etag");
  if (etag.empty()) throw Error(InArchive{url_.display}, what + ": the server gave no ETag", Exit::usage);
  etags_.push_back(etag);
  part_.clear();
  if (etags_.size() % kPartsPerSize == 0 && part_size_ < kMaxPartSize) {
    part_size_ = std::min(part_size_ * 2, kMaxPartSize);
    part_.reserve(part_size_);
  }
}

OutputObject S3Upload::commit() {
  stop_if_interrupted(url_.display);
  OutputObject object;
  if (upload_id_.empty()) {
    // Smaller than one part: one PutObject.
    HttpCall call = request("PUT", "", "");
    const ViewSource body(part_);
    call.upload = &body;
    if (options_.no_clobber) call.headers.push_back("If-None-Match: *");
    const HttpReply reply = upload_call(call, options_.remote);
    if (reply.status != 200) upload_failed(url_.display, "uploading", reply, credentials_->auth_note());
    object.etag = reply.header("etag");
    committed_ = true;
    return object;
  }
  if (!part_.empty()) send_part();
  std::string xml = "<CompleteMultipartUpload>";
  for (std::size_t i = 0; i < etags_.size(); ++i) {
    std::string etag;  // quotes escaped, as S3's own XML writes them
    for (const char c : etags_[i]) etag += c == '"' ? std::string("&quot;") : std::string(1, c);
    xml += "<Part><PartNumber>" + std::to_string(i + 1) + "</PartNumber><ETag>" + etag + "</ETag></Part>";
  }
  xml += "</CompleteMultipartUpload>";
  HttpCall call = request("POST", "?uploadId=" + percent_encode(upload_id_), "completing the upload");
  call.body = xml;
  call.headers.push_back("Content-Type: application/xml");
  if (options_.no_clobber) call.headers.push_back("If-None-Match: *");
  const HttpReply reply = upload_call(call, options_.remote);
  // A 200 may still carry an <Error> (S3 fails a completion after it began answering).
  if (reply.status != 200 || reply.body.find("<Error>") != std::string::npos) {
    HttpReply failed = reply;
    if (failed.status == 200) failed.status = 500;
    upload_failed(url_.display, "completing the upload", failed, credentials_->auth_note());
  }
  object.etag = xml_field(reply.body, "ETag");
  committed_ = true;
  return object;
}

void S3Upload::abort() noexcept {
  if (upload_id_.empty()) return;  // nothing on the server yet
  try {
    HttpCall call = request("DELETE", "?uploadId=" + percent_encode(upload_id_), "aborting the upload");
    call.despite_interrupt = true;
    call.total_timeout = kAbortTimeout;
    const HttpReply reply = upload_call(call, options_.remote);
    if (reply.status != 204 && reply.status != 200 && reply.status != 404 && options_.remote.warn)
      options_.remote.warn(url_.display + ": the multipart upload could not be aborted (" +
                           (reply.status ? http_status_text(reply.status) : reply.problem) +
                           "); its parts stay until the bucket's lifecycle rule removes them");
  } catch (...) {  // cleanup: a destructor throws nothing
  }
  upload_id_.clear();
}

}  // namespace zanj
