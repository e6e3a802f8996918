// save_page: a report page goes to its file whole or not at all (a CI job that is killed
// half-way leaves no truncated page behind), through the output's byte sink.
#include <memory>
#include <string>

#include "source/output_sink.hpp"
#include "zanj/error.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"

namespace zanj {

void save_page(const std::string& path, std::string_view page) { save_page(path, page, OutputOptions{}); }

OutputObject save_page(const std::string& path, std::string_view page, const OutputOptions& options) {
  const std::unique_ptr<io::ByteSink> sink = source::open_output(path, options);
  sink->write(page);
  return sink->commit();
}

std::uint64_t save_streamed_page(const std::string& path, const std::function<void(const PageWriter&)>& produce,
                                 const OutputOptions& options) {
  std::unique_ptr<io::ByteSink> sink;
  produce([&](std::string_view text) {
    if (!sink) sink = source::open_output(path, options);
    sink->write(text);
  });
  if (!sink) sink = source::open_output(path, options);  // an empty page is still a file
  sink->commit();
  return sink->size();
}

}  // namespace zanj
