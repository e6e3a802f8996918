// `export`: writing the planned arrays and object as .npz, .safetensors or a directory.
#include "zanj/export.hpp"

#include <sys/stat.h>

#include <ctime>
#include <memory>
#include <set>

#include "export/archive_writer.hpp"
#include "export/export_plan.hpp"
#include "export/npy_stream.hpp"
#include "export/safetensors_writer.hpp"
#include "export/staged_directory.hpp"
#include "io/file_sink.hpp"
#include "remote/url.hpp"
#include "source/output_sink.hpp"
#include "zanj/error.hpp"
#include "zanj/format.hpp"
#include "zip/zip_writer.hpp"

namespace zanj {
namespace {

/// Counts bytes for the progress callback.
class ProgressCounter {
 public:
  ProgressCounter(const std::function<void(const ExportProgress&)>& callback, std::uint64_t total)
      : callback_(callback) {
    state_.bytes_total = total;
  }
  void add(std::uint64_t n) {
    state_.bytes_done += n;
    if (callback_) callback_(state_);
  }

 private:
  const std::function<void(const ExportProgress&)>& callback_;
  ExportProgress state_;
};

/// Where the files of a layout go: members of an .npz, or files of a staged directory.
class LayoutSink {
 public:
  virtual ~LayoutSink() = default;
  virtual void begin(const std::string& name, std::uint64_t size) = 0;
  virtual void write(std::string_view bytes) = 0;
  virtual void end() = 0;
};

class NpzSink : public LayoutSink {
 public:
  NpzSink(io::ByteSink& out, const std::string& name)
      : zip_(out, name, zip::ZipWriterOptions{ZipMethod::store, 0, 1}) {}
  // numpy.savez opens each member with force_zip64=True and the current time.
  void begin(const std::string& name, std::uint64_t size) override {
    zip_.begin_member(name, zip::ZipMemberOptions{true, size, zip::DosDateTime::from_unix(std::time(nullptr))});
  }
  void write(std::string_view bytes) override { zip_.write(bytes); }
  void end() override { zip_.end_member(); }
  zip::ZipWriter& zip() { return zip_; }

 private:
  zip::ZipWriter zip_;
};

class DirectorySink : public LayoutSink {
 public:
  explicit DirectorySink(exporter::StagedDirectory& dir) : dir_(dir) {}
  void begin(const std::string& name, std::uint64_t) override {
    fd_ = dir_.create_file(name);
    name_ = name;
  }
  void write(std::string_view bytes) override {
    exporter::write_all(fd_.get(), bytes, name_);
    bytes_ += bytes.size();
  }
  std::uint64_t bytes() const { return bytes_; }
  void end() override {
    if (!fd_.close()) throw Error("cannot write '" + name_ + "'", Exit::usage);
  }

 private:
  exporter::StagedDirectory& dir_;
  UniqueFd fd_;
  std::string name_;
  std::uint64_t bytes_ = 0;
};

class ArchiveSink : public LayoutSink {
 public:
  explicit ArchiveSink(exporter::ArchiveWriter& writer) : writer_(writer) {}
  void begin(const std::string& name, std::uint64_t size) override { writer_.begin(name, size); }
  void write(std::string_view bytes) override { writer_.write(bytes); }
  void end() override { writer_.end(); }

 private:
  exporter::ArchiveWriter& writer_;
};

void put_file(LayoutSink& sink, const std::string& name, std::string_view bytes, ProgressCounter& progress) {
  sink.begin(name, bytes.size());
  sink.write(bytes);
  sink.end();
  progress.add(0);
}

/// What checking an array (opening it before the output is created) leaves for writing it:
/// a few bytes, so that an export holds one opened array at a time, not every one.
struct CheckedArray {
  const ZipEntry* member = nullptr;  ///< an external array's: its .npy, copied as stored
  std::uint64_t npy_size = 0;
};

/// One .npy file per array, named by its keys. An inline array is opened again here.
std::uint64_t write_arrays(const ZanjFile& file, const exporter::ExportPlan& plan, LayoutSink& sink,
                           ProgressCounter& progress, const std::vector<CheckedArray>& arrays) {
  const auto put = [&](std::string_view chunk) {
    sink.write(chunk);
    progress.add(chunk.size());
    return true;
  };
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    sink.begin(plan.arrays[i].name + ".npy", arrays[i].npy_size);
    if (arrays[i].member)
      file.archive().read(*arrays[i].member, put);
    else
      exporter::ExportedArray(file.archive(), plan.arrays[i]).stream_npy(put);
    sink.end();
  }
  return arrays.size();
}

/// The folder layout: __zanj__.json, __zanj_meta__.json, one .npy per array, the other
/// members the object refers to, copied.
std::uint64_t write_layout(const ZanjFile& file, const exporter::ExportPlan& plan, LayoutSink& sink,
                           ProgressCounter& progress, const std::vector<CheckedArray>& arrays) {
  std::uint64_t files = 0;
  put_file(sink, std::string(kMainMember), exporter::object_text(plan, JsonStyle{1, '\t'}), progress);
  ++files;
  if (file.meta()) {
    put_file(sink, std::string(kMetaMember), to_json(file.meta(), JsonStyle{1, '\t'}), progress);
    ++files;
  }
  files += write_arrays(file, plan, sink, progress, arrays);
  for (const std::string& member : plan.members) {
    const ZipEntry* entry = file.archive().find(member);
    if (!entry) throw Error(InArchive{file.name()}, "no member '" + terminal_safe(member) + "'", Exit::invalid);
    sink.begin(member, entry->uncompressed_size);
    file.archive().read(*entry, [&](std::string_view chunk) {
      sink.write(chunk);
      progress.add(chunk.size());
      return true;
    });
    sink.end();
    ++files;
  }
  return files;
}

std::vector<std::string> layout_names(const exporter::ExportPlan& plan, bool with_json) {
  std::vector<std::string> names;
  if (with_json) names = {std::string(kMainMember), std::string(kMetaMember)};
  for (const exporter::ExportArray& a : plan.arrays) names.push_back(a.name + ".npy");
  if (with_json) names.insert(names.end(), plan.members.begin(), plan.members.end());
  std::set<std::string> seen;
  for (const std::string& n : names)
    if (!seen.insert(n).second)
      throw Error("two files would both be named '" + terminal_safe(n) + "'; export the subtrees separately",
                  Exit::invalid);
  return names;
}

ExportSummary write_safetensors(const ZanjFile& file, const exporter::ExportPlan& plan, const std::string& out,
                                const ExportSettings& settings,
                                const std::function<void(const ExportProgress&)>& callback) {
  // Every array is opened (and external headers checked, dtypes found) before the output is
  // created; each is opened again to be written.
  std::vector<exporter::SafetensorsTensor> tensors;
  std::vector<array::Dtype> dtypes;
  tensors.reserve(plan.arrays.size());
  dtypes.reserve(plan.arrays.size());
  std::uint64_t total = 0;
  for (const exporter::ExportArray& a : plan.arrays) {
    const exporter::ExportedArray array(file.archive(), a);
    tensors.push_back({a.name, "", array.shape(), array.value_bytes()});
    dtypes.push_back(array.dtype());
    total += array.value_bytes();
  }
  for (std::size_t i = 0; i < tensors.size(); ++i)
    tensors[i].dtype = exporter::safetensors_dtype(dtypes[i], settings.cast, tensors[i].shape, InArchive{file.name()},
                                                   AtPath{plan.arrays[i].path});
  dtypes = {};
  exporter::SafetensorsMetadata metadata;
  metadata.emplace_back("format", [](OutputBuffer& text) { text.write("zanj"); });
  metadata.emplace_back(std::string(kMainMember), [&](OutputBuffer& text) { exporter::write_object(plan, text); });
  if (file.meta())
    metadata.emplace_back(std::string(kMetaMember), [&](OutputBuffer& text) { write_json(text, file.meta()); });
  const std::unique_ptr<io::ByteSink> temp = source::open_output(out, settings.output);
  const std::uint64_t header_bytes =
      exporter::write_safetensors_header(tensors, metadata, [&](std::string_view piece) { temp->write(piece); });
  tensors = {};
  ProgressCounter progress(callback, total);
  std::string buffer;
  for (const exporter::ExportArray& a : plan.arrays) {
    exporter::ExportedArray(file.archive(), a).stream_values([&](std::string_view chunk) {
      // Small chunks are gathered: one write per MiB rather than one per value run.
      if (buffer.size() + chunk.size() > (std::size_t{1} << 20)) {
        temp->write(buffer);
        buffer.clear();
      }
      if (chunk.size() >= (std::size_t{1} << 20))
        temp->write(chunk);
      else
        buffer.append(chunk);
      progress.add(chunk.size());
      return true;
    });
  }
  temp->write(buffer);
  return {plan.arrays.size(), plan.arrays.size(), header_bytes + total, temp->commit()};
}

/// Tar-family names, as extensions and as --format names: libarchive's format and filter.
struct ArchiveName {
  std::string_view name, format, filter;
};
constexpr ArchiveName kArchiveNames[] = {
    {"tar", "paxr", ""},       {"tar.gz", "paxr", "gzip"},  {"tgz", "paxr", "gzip"},  {"tar.xz", "paxr", "xz"},
    {"txz", "paxr", "xz"},     {"tar.zst", "paxr", "zstd"}, {"tzst", "paxr", "zstd"}, {"tar.bz2", "paxr", "bzip2"},
    {"tbz2", "paxr", "bzip2"}, {"cpio", "cpio", ""},        {"7z", "7zip", ""},
};

void set_archive(ExportSettings& settings, std::string_view format, std::string_view filter) {
  settings.format = ExportFormat::archive;
  settings.archive_format = std::string(format);
  settings.archive_filter = std::string(filter);
}

}  // namespace

void choose_export_format(ExportSettings& settings, const std::string& out, std::string_view name) {
  if (name.empty()) {
    settings.format = ExportFormat::directory;
    if (out.ends_with(".npz")) settings.format = ExportFormat::npz;
    if (out.ends_with(".safetensors")) settings.format = ExportFormat::safetensors;
    for (const ArchiveName& a : kArchiveNames)
      if (out.ends_with("." + std::string(a.name))) set_archive(settings, a.format, a.filter);
    return;
  }
  if (name == "npz")
    settings.format = ExportFormat::npz;
  else if (name == "safetensors")
    settings.format = ExportFormat::safetensors;
  else if (name == "dir")
    settings.format = ExportFormat::directory;
  else {
    for (const ArchiveName& a : kArchiveNames)
      if (name == a.name) return set_archive(settings, a.format, a.filter);
    // libarchive's own names ("ustar", "cpio+gzip"): checked when the writer is set up.
    const std::size_t plus = name.find('+');
    if (name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_+") != std::string_view::npos)
      throw Error("unknown export format '" + terminal_safe(name) + "'", Exit::usage);
    set_archive(settings, name.substr(0, plus), plus == std::string_view::npos ? "" : name.substr(plus + 1));
  }
}

std::string export_format_name(const ExportSettings& settings) {
  switch (settings.format) {
    case ExportFormat::npz:
      return "npz";
    case ExportFormat::safetensors:
      return "safetensors";
    case ExportFormat::directory:
      return "dir";
    case ExportFormat::archive:
      return settings.archive_format + (settings.archive_filter.empty() ? "" : "+" + settings.archive_filter);
  }
  return "?";
}

ExportSummary export_object(const ZanjFile& file, std::string_view path, const std::string& out,
                            const ExportSettings& settings,
                            const std::function<void(const ExportProgress&)>& progress) {
  const bool safetensors = settings.format == ExportFormat::safetensors;
  const exporter::ExportPlan plan = exporter::plan_export(file, path, safetensors ? "" : ".npy");
  if (safetensors) return write_safetensors(file, plan, out, settings, progress);
  // Every array is opened (and external headers checked) before the output is created.
  std::vector<CheckedArray> arrays;
  arrays.reserve(plan.arrays.size());
  for (const exporter::ExportArray& a : plan.arrays) {
    const exporter::ExportedArray array(file.archive(), a);
    arrays.push_back({array.member(), array.npy_size()});
  }

  const bool layout = settings.format == ExportFormat::directory || settings.format == ExportFormat::archive;
  const std::vector<std::string> names = layout_names(plan, layout);
  if (layout) exporter::check_file_names(names);
  std::uint64_t total = 0;
  for (const CheckedArray& a : arrays) total += a.npy_size;
  ProgressCounter counter(progress, total);
  ExportSummary summary;
  summary.arrays = arrays.size();
  if (settings.format == ExportFormat::npz) {
    const std::unique_ptr<io::ByteSink> output = source::open_output(out, settings.output);
    NpzSink sink(*output, out);
    summary.files = write_arrays(file, plan, sink, counter, arrays);
    sink.zip().finish();
    summary.output_bytes = sink.zip().bytes_written();
    summary.object = output->commit();
    return summary;
  }
  if (settings.format == ExportFormat::archive) {
    // Set up first: an unknown format or filter is refused before OUT is touched.
    if (source::is_output_url(out))
      throw Error(remote::without_credentials(out) + ": tar-family archives are written to files only", Exit::usage);
    exporter::ArchiveWriter writer(settings.archive_format, settings.archive_filter, out);
    io::FileSink output(out, settings.output.no_clobber ? Replace::no : Replace::yes);
    writer.open(output.fd());
    ArchiveSink sink(writer);
    summary.files = write_layout(file, plan, sink, counter, arrays);
    writer.close();
    output.commit();
    struct stat st {};
    summary.output_bytes = ::stat(out.c_str(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    return summary;
  }
  if (source::is_output_url(out))
    throw Error(remote::without_credentials(out) + ": a directory is written locally only", Exit::usage);
  exporter::StagedDirectory dir(out, settings.force);
  DirectorySink sink(dir);
  summary.files = write_layout(file, plan, sink, counter, arrays);
  summary.output_bytes = sink.bytes();
  dir.commit();
  return summary;
}

}  // namespace zanj
