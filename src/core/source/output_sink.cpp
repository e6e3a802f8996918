#include "source/output_sink.hpp"

#include "io/file_sink.hpp"
#include "remote/gcs_upload.hpp"
#include "remote/put_upload.hpp"
#include "remote/s3_upload.hpp"
#include "remote/url.hpp"
#include "zanj/error.hpp"

namespace zanj::source {

bool is_output_url(const std::string& path) { return remote::parse_remote_url(path).has_value(); }

std::unique_ptr<io::ByteSink> open_output(const std::string& path, const OutputOptions& options) {
  if (const std::optional<remote::RemoteUrl> url = remote::parse_remote_url(path)) {
    switch (url->scheme) {
      case remote::RemoteUrl::Scheme::s3:
        return std::make_unique<remote::S3Upload>(*url, options);
      case remote::RemoteUrl::Scheme::gs:
        return std::make_unique<remote::GcsUpload>(*url, options);
      case remote::RemoteUrl::Scheme::http:
      case remote::RemoteUrl::Scheme::https:
        return std::make_unique<remote::PutUpload>(*url, options);
    }
  }
  return std::make_unique<io::FileSink>(path, options.no_clobber ? Replace::no : Replace::yes);
}

}  // namespace zanj::source
