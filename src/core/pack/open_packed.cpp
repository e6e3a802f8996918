// Any input `pack` reads as arrays, opened as the .zanj object `pack` would make of it, for
// commands that compare or digest objects (diff, hash): nothing is written under a name.
#include <algorithm>
#include <memory>

#include "io/spool_file.hpp"
#include "io/byte_sink.hpp"
#include "pack/pack_plan.hpp"
#include "pack/safetensors_input.hpp"
#include "source/input.hpp"
#include "zanj/pack.hpp"
#include "zip/archive_access.hpp"

namespace zanj {
namespace {

PackSettings object_settings(const OpenOptions& options) {
  PackSettings settings;
  settings.method = ZipMethod::store;  // the object is what counts, not how it is compressed
  settings.threads = 1;
  settings.limits = options.limits;
  return settings;
}

/// The archive `plan` writes, opened. It is written to an unnamed file under $TMPDIR: the
/// kernel removes it however the process ends. Its size is about the arrays' bytes, so memory
/// stays bounded whatever the input's size.
ZanjFile open_plan(const pack::PackPlan& plan, const std::string& name, const OpenOptions& options,
                   const ZanjLimits& limits) {
  auto spool = std::make_unique<io::SpoolFile>();
  io::FdSink sink(spool->fd(), name);
  pack::write_pack_to(plan, sink, name, object_settings(options));
  spool->sync_size();
  return ZanjFile(zip::open_archive(std::move(spool), name, options.limits), limits);
}

/// An .npz by its content: a ZIP of .npy members and nothing else (no __zanj__.json).
bool holds_only_arrays(const Archive& archive) {
  const auto& entries = archive.entries();
  return !entries.empty() && !archive.find(kMainMember) &&
         std::all_of(entries.begin(), entries.end(), [](const ZipEntry& e) { return e.name.ends_with(".npy"); });
}

}  // namespace

bool is_array_file_operand(const std::string& path) {
  return !is_remote_url(path) && !is_stdin_path(path) && (path.ends_with(".npz") || path.ends_with(".safetensors"));
}

ZanjFile open_as_zanj(const std::string& path, const OpenOptions& options, const ZanjLimits& limits,
                      OperandKind* kind) {
  OperandKind ignored{};
  OperandKind& found = kind ? *kind : ignored;
  found = OperandKind::zanj;
  if (is_array_file_operand(path)) {  // by name: planned, and refused, as pack plans the file
    found = path.ends_with(".npz") ? OperandKind::npz : OperandKind::safetensors;
    return open_plan(pack::plan_pack({PackInput{"", path, false}}, object_settings(options)), path, options, limits);
  }
  // By content: a URL, standard input, a file of any other name.
  std::unique_ptr<io::ByteSource> source = source::open_input(path, options.remote);
  const std::string name = input_display_name(path);
  if (pack::looks_like_safetensors(*source)) {
    found = OperandKind::safetensors;
    const std::shared_ptr<const io::ByteSource> bytes(std::move(source));
    return open_plan(pack::plan_safetensors(bytes, name, object_settings(options)), name, options, limits);
  }
  Archive archive = zip::open_archive(std::move(source), name, options.limits);
  if (!holds_only_arrays(archive)) return ZanjFile(std::move(archive), limits);
  found = OperandKind::npz;
  return open_plan(pack::plan_npz(std::make_shared<const Archive>(std::move(archive)), object_settings(options)), name,
                   options, limits);
}

}  // namespace zanj
