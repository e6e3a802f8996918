#include "remote/gcs_upload.hpp"

#include <cstdlib>

#include "json/json_parse.hpp"
#include "zanj/json.hpp"
#include "remote/gcs_address.hpp"
#include "remote/upload_common.hpp"
#include "zanj/error.hpp"

namespace zanj::remote {
namespace {

constexpr std::size_t kChunkUnit = 256 << 10;  // GCS: every chunk but the last a multiple of this
constexpr double kCancelTimeout = 15;
/// Rounds of a chunk in which the server keeps nothing before the upload is given up.
constexpr int kMaxStalls = 5;
/// Chunks up to this size are sent while the next one fills (two held at once).
constexpr std::size_t kOverlappedChunk = 64 << 20;

/// The last byte a 308's "Range: bytes=0-N" says the server holds, plus one; 0 without one.
std::uint64_t kept_bytes(const HttpReply& reply) {
  const std::string range = reply.header("range");
  const std::size_t dash = range.rfind('-');
  if (range.rfind("bytes=0-", 0) != 0 || dash == std::string::npos) return 0;
  return std::strtoull(range.c_str() + dash + 1, nullptr, 10) + 1;
}

}  // namespace

GcsUpload::GcsUpload(const RemoteUrl& url, const OutputOptions& options) : url_(url), options_(options) {
  check_part_size(options.part_size);
  chunk_ = static_cast<std::size_t>(options.part_size / kChunkUnit * kChunkUnit);
  const Environment environment = [](const char* name) { return std::getenv(name); };
  credentials_ = gcs_credential_provider(url.display, environment, options.remote);

  HttpCall call;
  call.method = "POST";
  call.url = gcs_endpoint(environment) + "/upload/storage/v1/b/" + percent_encode(url.bucket) +
             "/o?uploadType=resumable&name=" + percent_encode(url.key) +
             (options.no_clobber ? "&ifGenerationMatch=0" : "");
  call.display = url.display + " (starting a resumable upload)";
  call.credentials = credentials_.get();
  call.headers.push_back("Content-Type: application/json");
  call.body = "{}";
  const HttpReply reply = upload_call(call, options.remote);
  if (reply.status != 200 && reply.status != 201)
    upload_failed(url.display, "starting a resumable upload", reply, credentials_->auth_note());
  session_ = reply.header("location");
  if (session_.empty()) throw Error(InArchive{url.display}, "the server gave no upload session", Exit::usage);
  buffer_.reserve(chunk_);
}

GcsUpload::~GcsUpload() {
  if (done_) return;
  try {
    wait_for_sender();  // the chunk being sent ends first (an interrupt cuts it short)
  } catch (...) {       // cleanup: the session is cancelled whatever the chunk did
  }
  cancel();
}

void GcsUpload::wait_for_sender() {
  if (sender_) sender_->wait();
}

void GcsUpload::write(std::string_view bytes) {
  stop_if_interrupted(url_.display);
  size_ += bytes.size();
  while (!bytes.empty()) {
    const std::size_t n = std::min<std::size_t>(bytes.size(), chunk_ - buffer_.size());
    buffer_.append(bytes.substr(0, n));
    bytes.remove_prefix(n);
    if (buffer_.size() < chunk_) continue;
    wait_for_sender();
    sending_.swap(buffer_);
    buffer_.clear();
    buffer_.reserve(chunk_);
    if (chunk_ > kOverlappedChunk) {
      send(sending_, false);
    } else {
      if (!sender_) sender_ = std::make_unique<base::ThreadPool>(1);
      sender_->submit([this] { send(sending_, false); });  // its failure: rethrown by wait()
    }
  }
}

std::string GcsUpload::send(std::string& bytes, bool last) {
  // The session URL carries its upload id (a credential of sorts): never shown.
  const std::string display = url_.display + (last ? " (last chunk)" : " (chunk at " + std::to_string(offset_) + ")");
  const std::uint64_t end = offset_ + bytes.size();  // what this round must get kept
  for (int stalls = 0;;) {
    stop_if_interrupted(url_.display);
    const std::size_t pending = static_cast<std::size_t>(end - offset_);
    HttpCall call;
    call.method = "PUT";
    call.url = session_;
    call.display = display;
    call.credentials = credentials_.get();
    const std::string total = last ? std::to_string(end) : "*";
    call.headers.push_back(pending == 0 ? "Content-Range: bytes */" + total
                                        : "Content-Range: bytes " + std::to_string(offset_) + "-" +
                                              std::to_string(end - 1) + "/" + total);
    const ViewSource body(std::string_view(bytes).substr(0, pending));
    call.upload = &body;
    const HttpReply reply = upload_call(call, options_.remote);
    if (last && (reply.status == 200 || reply.status == 201)) {
      bytes.clear();
      offset_ = end;
      return reply.body;
    }
    if (reply.status != 308)
      upload_failed(url_.display, last ? "the last chunk" : "a chunk", reply, credentials_->auth_note());
    const std::uint64_t kept = kept_bytes(reply);
    if (kept < offset_ || kept > end)
      throw Error(InArchive{url_.display},
                  "the server reports keeping " + std::to_string(kept) + " bytes, not " + std::to_string(offset_) +
                      " to " + std::to_string(end),
                  Exit::usage);
    bytes.erase(0, static_cast<std::size_t>(kept - offset_));
    stalls = kept == offset_ ? stalls + 1 : 0;
    offset_ = kept;
    if (!last && offset_ == end) return {};
    if (stalls >= kMaxStalls)
      throw Error(InArchive{url_.display}, "the server keeps none of the chunk at " + std::to_string(offset_),
                  Exit::usage);
  }
}

OutputObject GcsUpload::commit() {
  wait_for_sender();
  const std::string body = send(buffer_, true);
  done_ = true;
  OutputObject object;
  if (const base::Result<Json> metadata = json::read_json(body, "metadata"))
    object.generation = std::string(metadata->string_at("generation"));
  return object;
}

void GcsUpload::cancel() noexcept {
  try {
    HttpCall call;
    call.method = "DELETE";
    call.url = session_;
    call.display = url_.display + " (cancelling the upload)";
    call.credentials = credentials_.get();
    call.despite_interrupt = true;
    call.total_timeout = kCancelTimeout;
    const HttpReply reply = upload_call(call, options_.remote);
    // GCS answers a cancelled session with 499; 404 or 410: already gone.
    if (reply.status != 499 && reply.status != 204 && reply.status != 200 && reply.status != 404 &&
        reply.status != 410 && options_.remote.warn)
      options_.remote.warn(url_.display + ": the upload session could not be cancelled (" +
                           (reply.status ? http_status_text(reply.status) : reply.problem) + "); it expires in a week");
  } catch (...) {  // cleanup: a destructor throws nothing
  }
  done_ = true;
}

}  // namespace zanj::remote
