#pragma once
// A gs:// object written as a byte sink: a resumable upload session (JSON API,
// uploadType=resumable), filled one chunk at a time (--part-size rounded down to a multiple of
// 256 KiB, as GCS requires). Each 308 says, in its Range header, how much the server has
// kept: whatever it did not is sent again from there. A session takes its chunks in order, so
// one is sent at a time, but on a thread of its own while the next is filled (for chunks up to
// 64 MiB: two held at once stay within 128 MiB; larger ones are sent as they fill). The object appears only when the
// last chunk (the one that names the total size) is accepted; on an error, an interrupt or a destructor reached without
// commit(), the session is cancelled (DELETE) and nothing is left.
#include <memory>
#include <string>

#include "base/thread_pool.hpp"

#include "io/byte_sink.hpp"
#include "io/temp_file.hpp"
#include "remote/credential_provider.hpp"
#include "remote/url.hpp"

namespace zanj::remote {

class GcsUpload final : public io::ByteSink {
 public:
  /// Find credentials and open the session (with --no-clobber, ifGenerationMatch=0: an
  /// existing object answers 412). Throws Error.
  GcsUpload(const RemoteUrl& url, const OutputOptions& options);
  ~GcsUpload() override;
  void write(std::string_view bytes) override;
  OutputObject commit() override;

 private:
  /// Send `bytes` (which start at offset_), as many times as the server needs to keep them
  /// all; returns the final reply's body when `last`.
  std::string send(std::string& bytes, bool last);
  /// Wait for the chunk being sent, if any; rethrow its failure.
  void wait_for_sender();
  void cancel() noexcept;

  io::InterruptDeferral deferral_;  // first: the pending signal is raised after the cancel
  RemoteUrl url_;
  OutputOptions options_;
  std::shared_ptr<CredentialProvider> credentials_;  // the bearer token, refreshed as the upload goes on
  std::string session_;
  std::string buffer_;        ///< the chunk being filled
  std::string sending_;       ///< the chunk being sent: bytes from offset_ on, not yet kept
  std::uint64_t offset_ = 0;  ///< bytes the server has kept (the sender's while one runs)
  std::size_t chunk_;
  bool done_ = false;
  std::unique_ptr<base::ThreadPool> sender_;  // last: its worker stops before the members it uses
};

}  // namespace zanj::remote
