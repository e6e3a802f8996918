#include "remote/s3_upload.hpp"

#include <cstdlib>

#include "remote/upload_common.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {
namespace {

// S3 allows 10,000 parts: every 1,000 the part size doubles (up to kMaxPartSize), so the
// default 16 MiB parts reach about 1 TiB while memory stays one part.
constexpr std::size_t kMaxParts = 10000;
constexpr std::size_t kPartsPerSize = 1000;
// A request that cleans up after a failure does not wait long.
constexpr double kAbortTimeout = 15;
// Parts held at once (the one being filled and those being sent) stay within this, and at most
// kMaxSenders are sent at once: S3 takes parts in any order, and a store's per-request time
// (s3rver: 0.1-0.7 s a part) is then spent while packing goes on.
constexpr std::uint64_t kPartBudget = std::uint64_t{128} << 20;
constexpr std::size_t kMaxSenders = 4;

/// Parts that may be in flight beside the one being filled, for parts of `part_size` bytes.
std::size_t senders_for(std::uint64_t part_size) {
  const std::uint64_t held = kPartBudget / part_size;
  return held <= 1 ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(held - 1, kMaxSenders));
}

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
  if (committed_) return;
  // Parts still being sent finish first (an interrupt cuts them short), so that none lands
  // after the abort and keeps its storage.
  if (senders_) {
    try {
      senders_->wait();
    } catch (...) {  // cleanup: the upload is aborted whatever a part did
    }
  }
  abort();
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
  const std::size_t number = etags_.size() + 1;
  const std::size_t senders = senders_for(part_size_);
  if (senders == 0) {
    wait_for_senders(1);  // none in flight: this part alone is held
    std::string etag = upload_part(number, part_);
    const std::lock_guard<std::mutex> lock(mutex_);
    etags_.push_back(std::move(etag));
    part_.clear();
  } else {
    wait_for_senders(senders);
    if (!senders_) senders_ = std::make_unique<base::ThreadPool>(static_cast<unsigned>(kMaxSenders));
    auto bytes = std::make_shared<std::string>(std::move(part_));
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      etags_.emplace_back();
      ++in_flight_;
    }
    senders_->submit([this, number, bytes] {
      std::string etag;
      std::exception_ptr failure;
      try {
        etag = upload_part(number, *bytes);
      } catch (...) {  // boundary: the first failure is rethrown by write() or commit()
        failure = std::current_exception();
      }
      const std::lock_guard<std::mutex> lock(mutex_);
      etags_[number - 1] = std::move(etag);
      if (failure && !error_) error_ = failure;
      --in_flight_;
      part_done_.notify_all();
    });
    part_ = std::string();
  }
  if (etags_.size() % kPartsPerSize == 0 && part_size_ < kMaxPartSize)
    part_size_ = std::min(part_size_ * 2, kMaxPartSize);
  part_.reserve(part_size_);
}

std::string S3Upload::upload_part(std::size_t number, const std::string& bytes) const {
  const std::string what = "part " + std::to_string(number);
  HttpCall call =
      request("PUT", "?partNumber=" + std::to_string(number) + "&uploadId=" + percent_encode(upload_id_), what);
  const ViewSource body(bytes);
  call.upload = &body;
  const HttpReply reply = upload_call(call, options_.remote);
  if (reply.status != 200) upload_failed(url_.display, what, reply, credentials_->auth_note());
  std::string etag = reply.header("etag");
  if (etag.empty()) throw Error(InArchive{url_.display}, what + ": the server gave no ETag", Exit::usage);
  return etag;
}

void S3Upload::wait_for_senders(std::size_t limit) {
  std::unique_lock<std::mutex> lock(mutex_);
  part_done_.wait(lock, [&] { return in_flight_ < limit || error_; });
  if (error_) std::rethrow_exception(error_);
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
  wait_for_senders(1);
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

}  // namespace zanj::remote
