// Any input `pack` reads as arrays, opened as the .zanj object `pack` would make of it, for
// commands that compare or digest objects (diff, hash): nothing is written under a name.
#include <memory>

#include "io/spool_file.hpp"
#include "io/byte_sink.hpp"
#include "pack/pack_plan.hpp"
#include "zanj/pack.hpp"
#include "zip/archive_access.hpp"

namespace zanj {

bool is_array_file_operand(const std::string& path) {
  return !is_remote_url(path) && !is_stdin_path(path) && (path.ends_with(".npz") || path.ends_with(".safetensors"));
}

ZanjFile open_as_zanj(const std::string& path, const OpenOptions& options, const ZanjLimits& limits) {
  if (!is_array_file_operand(path)) return ZanjFile(Archive(path, options), limits);
  PackSettings settings;
  settings.method = ZipMethod::store;  // the object is what counts, not how it is compressed
  settings.threads = 1;
  settings.limits = options.limits;
  const PackPlan plan = plan_pack({PackInput{"", path, false}}, settings);
  // An unnamed file under $TMPDIR: the kernel removes it however the process ends. Its size
  // is about the arrays' bytes, so memory stays bounded whatever the input's size.
  auto spool = std::make_unique<SpoolFile>();
  FdSink sink(spool->fd(), path);
  write_pack_to(plan, sink, path, settings);
  spool->sync_size();
  return ZanjFile(open_archive(std::move(spool), path, options.limits), limits);
}

}  // namespace zanj
