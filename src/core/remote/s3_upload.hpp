#pragma once
// An s3:// object written as a byte sink: a multipart upload (CreateMultipartUpload, one
// UploadPart per --part-size bytes, retried with backoff by http_call, CompleteMultipartUpload)
// so that memory stays at about one part whatever the archive's size; an output smaller than
// one part is one PutObject. Up to four parts are sent at once while packing goes on, within
// a 128 MiB budget for the parts held (one being filled plus those in flight; a part of
// 128 MiB is sent alone). The object appears only when the upload completes: on an error,
// an interrupt or a destructor reached without commit(), the upload is aborted
// (AbortMultipartUpload) and nothing is left under the name. Signed as reads are
// (s3_address.hpp), with credentials refreshed before they expire (a long upload outlives an
// hour's STS or IMDS credentials); keys and signatures never reach a message.
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/thread_pool.hpp"

#include "io/byte_sink.hpp"
#include "io/temp_file.hpp"
#include "remote/http_call.hpp"
#include "remote/s3_address.hpp"
#include "remote/url.hpp"

namespace zanj::remote {

class S3Upload final : public io::ByteSink {
 public:
  /// Find credentials and, with --no-clobber, refuse an existing object early. Throws Error.
  S3Upload(const RemoteUrl& url, const OutputOptions& options);
  ~S3Upload() override;
  void write(std::string_view bytes) override;
  OutputObject commit() override;

 private:
  HttpCall request(const std::string& method, const std::string& query, const std::string& what) const;
  /// Hand the full part to a sender (or send it here when the budget allows no other).
  void send_part();
  /// Send part `number` (1-based) of `bytes`; returns its ETag. Runs on the senders.
  std::string upload_part(std::size_t number, const std::string& bytes) const;
  /// Wait until fewer than `limit` parts are in flight; rethrow a sender's error.
  void wait_for_senders(std::size_t limit);
  void abort() noexcept;

  io::InterruptDeferral deferral_;  // first: the pending signal is raised after the abort
  RemoteUrl url_;
  OutputOptions options_;
  std::string object_url_;
  std::shared_ptr<CredentialProvider> credentials_;  // refreshed as the upload goes on
  bool signed_ = false;
  std::string part_;
  std::uint64_t part_size_;
  std::string upload_id_;
  std::vector<std::string> etags_;  // by part number - 1; filled in by the senders
  bool committed_ = false;
  std::mutex mutex_;  // guards etags_' slots, in_flight_ and error_ between the senders and write()
  std::condition_variable part_done_;
  std::size_t in_flight_ = 0;
  std::exception_ptr error_;                   // the first sender's failure
  std::unique_ptr<base::ThreadPool> senders_;  // last: its workers stop before the members they use
};

}  // namespace zanj::remote
