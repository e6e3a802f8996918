// Writing a PackPlan: the reference's member order and headers (zip_writer.hpp), through the
// output's byte sink (a temporary file beside it, or an upload), which appears only once complete.
#include "zanj/pack.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <ctime>
#include <variant>

#include "base/thread_pool.hpp"
#include "zanj/error.hpp"
#include "zanj/safe_files.hpp"
#include "zanj/archive.hpp"
#include "zip/zip_writer.hpp"
#include "source/output_sink.hpp"
#include "pack/pack_plan.hpp"
#include "base/private_access.hpp"

namespace zanj {
namespace {

constexpr std::size_t kChunk = std::size_t{1} << 20;

/// Streams each member's bytes from its source into the writer.
class MemberWriter {
 public:
  MemberWriter(zip::ZipWriter& zip, const pack::PackPlan& plan,
               const std::function<void(const PackProgress&)>& progress)
      : zip_(zip), progress_(progress) {
    state_.bytes_total = plan.known_bytes();
  }

  /// Write members [first, last) of `plan`; returns how many were consumed (a run of
  /// members from one archive is read in one pass).
  std::size_t write_from(const std::vector<pack::PlannedMember>& members, std::size_t first) {
    const pack::PlannedMember& m = members[first];
    if (const auto* src = std::get_if<pack::ArchiveMemberSource>(&m.source))
      return copy_archive_run(members, first, *src);
    begin(m);
    if (const auto* file = std::get_if<pack::DiskFileSource>(&m.source)) {
      copy_file(file->path);
    } else if (const auto* slice = std::get_if<std::shared_ptr<const pack::FileSliceSource>>(&m.source)) {
      put((*slice)->header);
      copy_range(**slice);
    } else if (const auto* entry = std::get_if<pack::SequentialMemberSource>(&m.source)) {
      entry->archive->read(m.name, [&](std::string_view chunk) {
        put(chunk);
        return true;
      });
    } else if (const auto* lines = std::get_if<pack::JsonLinesSource>(&m.source)) {
      std::string buffer;
      for (const Json& item : lines->items) {
        write_json(buffer, item);
        buffer += '\n';
        if (buffer.size() >= kChunk) flush(buffer);
      }
      flush(buffer);
    } else {
      put(std::get<pack::BytesSource>(m.source).bytes);
    }
    zip_.end_member();
    return 1;
  }

 private:
  void begin(const pack::PlannedMember& m) {
    // force_zip64 and the 1980 date: what the reference's zipf.open(key, "w", force_zip64=True) gives.
    zip_.begin_member(m.name, zip::ZipMemberOptions{true, m.size, zip::DosDateTime{}});
  }

  void put(std::string_view bytes) {
    zip_.write(bytes);
    state_.bytes_done += bytes.size();
    if (progress_) progress_(state_);
  }
  void flush(std::string& buffer) {
    put(buffer);
    buffer.clear();
  }

  void copy_file(const std::string& path) {
    pack::read_file_chunks(path, [&](std::string_view chunk) {
      put(chunk);
      return true;
    });
  }

  void copy_range(const pack::FileSliceSource& slice) {
    const std::shared_ptr<const io::ByteSource> file =
        slice.file ? slice.file : std::make_shared<const io::FileSource>(slice.path);
    std::string buffer;
    for (std::uint64_t done = 0; done < slice.bytes;) {
      buffer.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, slice.bytes - done)));
      file->read_at(slice.offset + done, buffer.data(), buffer.size());
      put(buffer);
      done += buffer.size();
    }
  }

  std::size_t copy_archive_run(const std::vector<pack::PlannedMember>& members, std::size_t first,
                               const pack::ArchiveMemberSource& src) {
    std::vector<const ZipEntry*> run;
    for (std::size_t i = first; i < members.size(); ++i) {
      const auto* s = std::get_if<pack::ArchiveMemberSource>(&members[i].source);
      if (!s || s->archive != src.archive) break;
      run.push_back(s->entry);
    }
    std::size_t next = first;
    src.archive->read_each(run, [&](const ZipEntry& e, const Archive::MemberReader& read) {
      // read_each goes in storage order; plan_pack lists a run in that order too.
      if (&e != run[next - first]) throw Error("internal: " + src.archive->name() + " members out of order");
      begin(members[next]);
      read([&](std::string_view chunk) {
        put(chunk);
        return true;
      });
      zip_.end_member();
      ++next;
    });
    return run.size();
  }

  zip::ZipWriter& zip_;
  const std::function<void(const PackProgress&)>& progress_;
  PackProgress state_;
};

}  // namespace

std::string pack::zanj_json_text(const Json& value) { return to_json(value, JsonStyle{1, '\t'}); }

namespace {

/// write_pack_to, or the plan to write instead when `plan`'s recheck finds it wrong (the
/// archive is then left unfinished, for the caller to abandon).
std::variant<PackSummary, std::shared_ptr<const pack::PackPlan>> try_write_pack_to(
    const pack::PackPlan& plan, io::ByteSink& sink, const std::string& name, const PackSettings& settings,
    const std::function<void(const PackProgress&)>& progress) {
  zip::ZipWriterOptions options{plan.method, settings.level, base::threads_or_cpus(settings.threads)};
  zip::ZipWriter zip(sink, name, options);
  const zip::ZipMemberOptions json_member{false, 0, zip::DosDateTime::from_unix(std::time(nullptr))};
  zip.add_member(std::string(kMetaMember), plan.meta_text ? *plan.meta_text : pack::zanj_json_text(plan.meta),
                 json_member);
  zip.add_member(std::string(kMainMember), plan.root_text ? *plan.root_text : pack::zanj_json_text(plan.root),
                 json_member);
  MemberWriter members(zip, plan, progress);
  for (std::size_t i = 0; i < plan.members.size();) i += members.write_from(plan.members, i);
  pack::PlanCheck check{nullptr, plan.known_bytes(), {}};
  if (plan.recheck) check = plan.recheck(plan);
  if (check.redo) return check.redo;
  zip.finish();

  PackSummary summary;
  summary.members = zip.member_count();
  summary.output_bytes = zip.bytes_written();
  summary.input_bytes = check.known_bytes;
  summary.notes = std::move(check.notes);
  return summary;
}

}  // namespace

PackSummary pack::write_pack_to(const pack::PackPlan& plan, io::ByteSink& sink, const std::string& name,
                                const PackSettings& settings,
                                const std::function<void(const PackProgress&)>& progress) {
  auto written = try_write_pack_to(plan, sink, name, settings, progress);
  if (auto* summary = std::get_if<PackSummary>(&written)) return *summary;
  throw Error("internal: " + name + ": the plan changed while it was written");
}

void check_replaceable(const std::string& out_path, Replace replace) {
  if (replace == Replace::yes || source::is_output_url(out_path)) return;
  struct stat existing {};
  if (::lstat(out_path.c_str(), &existing) == 0 && !S_ISDIR(existing.st_mode))
    throw Error(out_path + ": exists (use --force to replace it)", Exit::usage);
}

PackSummary pack::write_pack(const pack::PackPlan& plan, const std::string& out_path, const PackSettings& settings,
                             const std::function<void(const PackProgress&)>& progress) {
  OutputOptions output = settings.output;
  check_replaceable(out_path, settings.replace);
  // The file sink's rename then refuses to replace too, so a file made meanwhile is not lost.
  if (settings.replace == Replace::no && !source::is_output_url(out_path)) output.no_clobber = true;
  std::shared_ptr<const pack::PackPlan> redo;
  for (const pack::PackPlan* current = &plan;;) {
    // A plan proved wrong by the rest of its input is written again, from the start, into a
    // fresh output: the abandoned one is removed (a file) or aborted (an upload).
    const std::unique_ptr<io::ByteSink> sink = source::open_output(out_path, output);
    auto written = try_write_pack_to(*current, *sink, out_path, settings, progress);
    if (auto* summary = std::get_if<PackSummary>(&written)) {
      summary->object = sink->commit();
      if (redo) summary->notes = redo->notes;  // the plan written is not the one whose notes were said
      return *summary;
    }
    redo = std::get<std::shared_ptr<const pack::PackPlan>>(std::move(written));
    current = redo.get();
  }
}

PackJob prepare_pack(const std::vector<PackInput>& inputs, const PackSettings& settings) {
  PackJob job;
  PrivateAccess::impl_pointer(job) = std::make_shared<const PrivateAccess::Impl<PackJob>>(
      PrivateAccess::Impl<PackJob>{pack::plan_pack(inputs, settings)});
  return job;
}

const std::vector<std::string>& PackJob::notes() const { return impl_->plan.notes; }
std::uint64_t PackJob::known_bytes() const { return impl_->plan.known_bytes(); }

PackSummary write_pack(const PackJob& job, const std::string& out_path, const PackSettings& settings,
                       const std::function<void(const PackProgress&)>& progress) {
  return pack::write_pack(PrivateAccess::impl(job).plan, out_path, settings, progress);
}

}  // namespace zanj
