#pragma once
// Working through many archives. Bucket patterns: an s3:// or gs:// URL whose object name holds
// `*`, `?` or `**` ("s3://bucket/run-7/*/model.zanj") stands for every object it matches, found
// by listing the bucket; `*` and `?` stay within one folder ('/'), `**` crosses them. And
// several archives read at once, their results taken in order.
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "zanj/archive.hpp"

namespace zanj {

/// Whether `operand` is such a pattern: an s3:// or gs:// URL with `*` or `?` in its object name.
bool is_bucket_pattern(std::string_view operand);

/// The URLs of the objects `pattern` matches, sorted (byte order), found by listing the bucket
/// under the pattern's literal prefix, page after page, with the credentials reads use; empty
/// when none matches. Throws Error(pattern + ": ...", Exit::usage) when the bucket cannot be
/// listed. ZANJ_LIST_PAGE_SIZE (1 to 1000, default 1000) sets the names asked for per request.
std::vector<std::string> expand_bucket_pattern(const std::string& pattern, const RemoteOptions& options);

/// One budget of threads (-j) for `archives` archives: how many are read at once, and the
/// threads each one gets (`jobs` 0: the CPUs this process may use). One archive: all the
/// threads go to it; several: up to `jobs` archives at once, the threads left over shared.
struct JobSplit {
  unsigned archives_at_once = 1, threads_each = 1;
};
JobSplit split_jobs(unsigned jobs, std::size_t archives);

/// Run `work(i)` for i in [0, count), up to `at_once` at a time on the core's thread pool, and
/// `emit(i)` on the calling thread in order 0, 1, 2, ... as soon as work(i) and the emits before
/// it are done. Work starts in a window of `at_once`: at most that many results wait to be
/// emitted, so what each holds (an archive's buffered output) stays bounded. An exception
/// work(i) throws is rethrown in emit's turn for i, once the earlier ones were emitted; the work
/// not yet started is then abandoned. `at_once` 1 runs everything on the calling thread.
void run_in_order(std::size_t count, unsigned at_once, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& emit);

}  // namespace zanj
