#pragma once
// What `pack` is about to write, decided before the output is opened: the object
// (__zanj__.json), the metadata, and each external member with where its bytes come from.
// Also the reference library's rules for naming external members and for describing them
// in `externals_info`, written once here for every kind of input.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "zanj/archive.hpp"
#include "io/byte_source.hpp"
#include "zanj/json.hpp"
#include "array/npy_header.hpp"
#include "io/byte_sink.hpp"
#include "zanj/pack.hpp"
#include "zip/zip_directory.hpp"

namespace zanj::pack {

/// A member copied from another archive (an .npz), streamed.
struct ArchiveMemberSource {
  std::shared_ptr<const Archive> archive;
  const ZipEntry* entry = nullptr;
};
/// A file on disk (an .npy input, a file of an extracted directory), streamed.
struct DiskFileSource {
  std::string path;
};
/// An .npy member made of a header built here and a range of a file's bytes (a tensor of a
/// .safetensors input), streamed.
struct FileSliceSource {
  std::string path;
  std::string header;  ///< the .npy header
  std::uint64_t offset = 0, bytes = 0;
  std::shared_ptr<const io::ByteSource> file;  ///< the bytes, when `path` names no file on disk (a URL, stdin)
};
/// Members of an archive that is read front to back only (a tar: archive_input.hpp), handed
/// out in whatever order they are asked for.
class SequentialMembers {
 public:
  virtual ~SequentialMembers() = default;
  /// Stream member `name`'s bytes to `sink`. Throws Error when it cannot.
  virtual void read(const std::string& name, const ChunkSink& sink) = 0;
};
/// A member of such an archive, streamed: the one its PlannedMember names.
struct SequentialMemberSource {
  std::shared_ptr<SequentialMembers> archive;
};
/// A `.jsonl` member: one compact JSON value per line, each ended by "\n".
struct JsonLinesSource {
  JsonArray items;
};
/// Bytes built in memory (an .npy made from an inline array).
struct BytesSource {
  std::string bytes;
};
/// Where a member's bytes come from. A plan holds one for each of up to tens of thousands of
/// members, so every alternative is kept to 32 bytes: a FileSliceSource (96) is held by pointer.
using MemberSource = std::variant<ArchiveMemberSource, DiskFileSource, std::shared_ptr<const FileSliceSource>,
                                  SequentialMemberSource, JsonLinesSource, BytesSource>;
static_assert(sizeof(MemberSource) <= 40, "an alternative of MemberSource grew past 32 bytes: hold it by pointer");

struct PlannedMember {
  std::string name;
  MemberSource source;
  std::uint64_t size = 0;  ///< bytes it will hold when known in advance (0 for jsonl), for progress
};

struct PackPlan;
/// What a plan made before all of its input was read learns once its members are written.
struct PlanCheck {
  std::shared_ptr<const PackPlan> redo;  ///< the plan to write instead, from the start; null when it was right
  std::uint64_t known_bytes = 0;         ///< the members' sizes, now known
  std::vector<std::string> notes;        ///< the notes of the plan all of the input makes, when it was right
};

struct PackPlan {
  Json root;                             ///< __zanj__.json (null when root_text is set by a repack)
  std::optional<std::string> root_text;  ///< exact bytes to store instead of `root` (unchanged input)
  Json meta;                             ///< __zanj_meta__.json (null when meta_text is set by a repack)
  std::optional<std::string> meta_text;  ///< its bytes instead of `meta`, written as they were planned
  std::vector<PlannedMember> members;    ///< external members, in the order they are written
  /// Things worth a warning that did not stop the plan. Empty for a plan with a recheck: what
  /// is worth saying is known only once all of the input is read (PlanCheck::notes).
  std::vector<std::string> notes;
  ZipMethod method = ZipMethod::deflate;  ///< how the members are to be compressed
  /// Set for a plan made from what an archive streamed in one pass held first (archive_input):
  /// called, with this plan, after its members are written and before the archive is
  /// finished, to say whether the rest of the input proved it right.
  std::function<PlanCheck(const PackPlan&)> recheck;
  std::uint64_t known_bytes() const;  ///< sum of the members' known sizes
};

/// One external member as the reference's externals_info describes it.
struct ExternalInfo {
  std::string member;
  std::string item_type;  ///< "npy" or "jsonl"
  JsonArray path;         ///< dict keys (strings) and list indices (integers)
  JsonObject details;     ///< "type(data)", "len(data)", "data[0]" as the reference writes them
};

/// The externals of one archive, with the reference's naming rules.
class ExternalRegistry {
 public:
  /// The member name for an external at `path`: its segments joined by '/' (not escaped, as
  /// the reference does) plus "." + item_type. Throws Error when the reference would refuse
  /// it against the externals added so far (the same name twice; one external's path a
  /// '/'-prefix of another's), when `path` is empty (the root never goes external), or when
  /// the name is not safe as a file path.
  std::string name_for(const JsonArray& path, std::string_view item_type) const;
  /// Register an external named by name_for(). The reference checks a list's name before
  /// storing its elements and registers it after them, so elements may sit below it.
  void add(ExternalInfo info);
  const std::vector<ExternalInfo>& entries() const { return entries_; }
  /// The meta's `externals_info`: member -> {item_type, path, details...}, ordered by path
  /// length (stable), as the reference orders it.
  Json externals_info() const;

 private:
  std::set<std::string> joined_;  ///< reserved paths joined by '/', without the extension
  std::set<std::string> names_;
  std::vector<ExternalInfo> entries_;
};

/// The reference node of an array stored as member `member` from an .npy header, with its
/// externals_info entry registered (what the reference writes for a numpy array, or with
/// `torch` for a tensor: "torch.Tensor:external" and a "torch." dtype).
Json external_array_node(const std::string& member, const array::NpyHeader& h, ExternalRegistry& externals,
                         const JsonArray& path, bool torch = false);

/// The "zanj_cfg" the reference writes, for these settings (`compress` is the ZIP method).
Json default_zanj_cfg(std::uint64_t array_threshold, std::uint64_t list_threshold, std::uint16_t compress);
/// "sysinfo" naming this tool: {"zanj_cli": {"name": "zanj", "version", "zlib", "libdeflate"}}.
Json tool_sysinfo();
/// {"zanj_cfg", "sysinfo", "externals_info", "timestamp"} in the reference's key order.
Json make_meta(Json zanj_cfg, Json sysinfo, Json externals_info, double timestamp);
/// Seconds since the epoch, with sub-second precision (the meta's "timestamp").
double now_timestamp();

/// The header of an .npy file, reading only its first bytes. Throws Error naming the file.
array::NpyHeader read_npy_file_header(const io::FileSource& file, const NpyLimits& limits = {});
/// Throws Error unless `size` is exactly the header plus the values it describes: anything
/// else is a broken array the reference would fail on.
void check_npy_size(const array::NpyHeader& header, std::uint64_t size, const std::string& what);
/// Stream a file to `sink` in chunks of about 1 MiB (stops when the sink returns false).
void read_file_chunks(const std::string& path, const ChunkSink& sink);
/// A whole file as text (a JSON input); refuses files over `max_bytes`.
std::string read_text_file(const std::string& path, std::uint64_t max_bytes);

/// Python's type name of a JSON value as the reference loads it: "int", "float", "str",
/// "bool", "NoneType", "list", "dict".
std::string_view python_type_name(const Json& value);

}  // namespace zanj::pack

namespace zanj {

/// PackJob's private state.
struct PackJob::Plan {
  pack::PackPlan plan;
};

}  // namespace zanj

namespace zanj::pack {

/// Plan the archive for an .npz already opened (from a URL, standard input): its arrays as a
/// lone input's dict, as plan_pack plans a local one.
PackPlan plan_npz(const std::shared_ptr<const Archive>& npz, const PackSettings& settings);
/// The same for a .safetensors file's bytes, `name` naming them in messages.
PackPlan plan_safetensors(const std::shared_ptr<const io::ByteSource>& bytes, const std::string& name,
                          const PackSettings& settings);
/// Plan the archive for `inputs` (prepare_pack's plan; the tests look inside it).
PackPlan plan_pack(const std::vector<PackInput>& inputs, const PackSettings& settings);
/// Write a plan's archive to `sink`, empty (`name` for messages); the caller commits it. A
/// plan whose recheck asks for another is refused (Error, internal): a sink cannot start over.
PackSummary write_pack_to(const PackPlan& plan, io::ByteSink& sink, const std::string& name,
                          const PackSettings& settings, const std::function<void(const PackProgress&)>& progress = {});
/// Write a plan (write_pack of a PackJob).
PackSummary write_pack(const PackPlan& plan, const std::string& out_path, const PackSettings& settings,
                       const std::function<void(const PackProgress&)>& progress = {});
/// The JSON text of a ZANJ JSON member: tab-indented like the reference's json.dumps.
std::string zanj_json_text(const Json& value);

}  // namespace zanj::pack
