#include "source/output_sink.hpp"

#include "io/file_sink.hpp"
#include "remote/gcs_upload.hpp"
#include "remote/put_upload.hpp"
#include "remote/s3_upload.hpp"
#include "remote/url.hpp"
#include "zanj/error.hpp"

namespace zanj {

bool is_output_url(const std::string& path) { return parse_remote_url(path).has_value(); }

std::unique_ptr<ByteSink> open_output(const std::string& path, const OutputOptions& options) {
  if (const std::optional<RemoteUrl> url = parse_remote_url(path)) {
    switch (url->scheme) {
      case RemoteUrl::Scheme::s3:
        return std::make_unique<S3Upload>(*url, options);
      case RemoteUrl::Scheme::gs:
        return std::make_unique<GcsUpload>(*url, options);
      case RemoteUrl::Scheme::http:
      case RemoteUrl::Scheme::https:
        return std::make_unique<PutUpload>(*url, options);
    }
  }
  return std::make_unique<FileSink>(path, options.no_clobber ? Replace::no : Replace::yes);
}

}  // namespace zanj
