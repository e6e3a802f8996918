// ZIP structure checks: our central directory against the local headers, the layout of the
// entries in the file, their names and methods, and the declared sizes against the limits.
// Nothing here inflates anything: a zip bomb (overlapping entries, impossible ratios, sizes
// over the limits) is reported from the headers alone, and its entries are marked so that
// the data pass does not inflate them.
#include <algorithm>
#include <numeric>
#include <optional>

#include "base/thread_pool.hpp"
#include "zip/local_scan.hpp"
#include "zip/member_decoder.hpp"
#include "zip/zip_format.hpp"
#include "zip/member_name.hpp"
#include "verify/verify_checks.hpp"

namespace zanj::verify {
namespace {

/// Bytes [begin, end) an entry occupies: local header, data and data descriptor.
std::string describe_type(const ZipEntry& e) {
  if (e.is_directory()) return "a directory";
  if (e.is_symlink()) return "a symbolic link";
  char mode[16];
  std::snprintf(mode, sizeof mode, "%06o", e.unix_mode());
  return std::string("not a regular file (mode ") + mode + ")";
}

/// Local header against central entry. Returns false when they disagree on something that
/// decides how the data is read (name, method, flags, sizes): readers that go by local headers
/// would read another member than the directory says, so such an entry is not inflated (and
/// Archive::read refuses it too).
bool compare_local(const ZipEntry& e, const zip::LocalHeader& h, VerifyReport& report) {
  std::string differ;  // the fields that disagree, joined by ", "
  bool readable = true;
  const auto check = [&](bool same, const char* what, bool decides_reading) {
    if (same) return;
    differ += differ.empty() ? what : std::string(", ") + what;
    readable = readable && !decides_reading;
  };
  // With a data descriptor the local CRC-32 and sizes may be zero (written before the data).
  const bool deferred = (h.flags & zip::kFlagDescriptor) != 0;
  const auto same = [&](std::uint64_t local, std::uint64_t central) {
    return local == central || (deferred && local == 0);
  };
  check(h.name == e.name, "name", true);
  check(h.method == e.method, "method", true);
  check(h.flags == e.flags, "flags", true);
  check(same(h.crc32, e.crc32), "CRC-32", false);
  check(same(h.compressed_size, e.compressed_size) &&
            same(h.zip64_compressed_size.value_or(e.compressed_size), e.compressed_size),
        "compressed size", true);
  check(same(h.uncompressed_size, e.uncompressed_size) &&
            same(h.zip64_uncompressed_size.value_or(e.uncompressed_size), e.uncompressed_size),
        "uncompressed size", true);
  if (!differ.empty())
    add_problem(report, Code::cd_local_mismatch, e.name, "", "central directory and local header disagree: " + differ);
  return readable;
}

/// One entry's own checks; its extent when the local header could be read.
std::optional<zip::MemberExtent> check_entry(const io::ByteSource& source, const ZipEntry& e, std::size_t index,
                                             const ResourceLimits& limits, std::vector<std::uint8_t>& inflatable,
                                             VerifyReport& report) {
  const auto refuse = [&](Code code, const std::string& message) {
    add_problem(report, code, e.name, "", message);
    inflatable[index] = false;
  };
  if (e.flags & (zip::kFlagEncrypted | zip::kFlagStrongEncryption)) refuse(Code::encrypted, "entry is encrypted");
  if (!e.is_regular_file()) refuse(Code::not_regular_file, "entry is " + describe_type(e));
  if (!zip::method_decodable(e.method))
    refuse(Code::unsupported_method,
           "compression " + method_name(e.method) + " (zanj reads store, deflate, bzip2, lzma, xz, zstd)");
  if (e.method == static_cast<std::uint16_t>(ZipMethod::store) && e.compressed_size != e.uncompressed_size)
    refuse(Code::size_mismatch, "stored entry with " + std::to_string(e.compressed_size) + " bytes declares " +
                                    std::to_string(e.uncompressed_size) + " uncompressed");
  // A ratio the method cannot reach (deflate: 1032:1) is a lie; any other ratio may be true
  // (bzip2 of zeros reaches millions to one): it is streamed, never past the declared size,
  // and only warned about.
  if (zip::method_decodable(e.method) && zip::declares_excess_ratio(e, UINT64_MAX)) {
    const std::uint64_t most = zip::method_physical_ratio(e.method);  // 0: none, but nothing comes from no bytes
    refuse(Code::ratio_lie, method_name(e.method) + " entry of " + std::to_string(e.compressed_size) +
                                " bytes claims " + std::to_string(e.uncompressed_size) + " (over " +
                                (most ? method_name(e.method) + "'s maximum of " + std::to_string(most) + ":1)"
                                      : std::string("what no compressed bytes can hold)")));
  } else if (zip::method_decodable(e.method) && zip::declares_excess_ratio(e, limits.max_ratio)) {
    add_problem(report, Code::high_ratio, e.name, "",
                method_name(e.method) + " entry of " + std::to_string(e.compressed_size) + " bytes declares " +
                    std::to_string(e.uncompressed_size) + ", over " + std::to_string(limits.max_ratio) +
                    ":1 (--max-ratio); read in full, never past its declared size");
  }
  const base::Result<zip::LocalHeader> local = zip::read_local_header_result(source, e);
  if (!local) {
    refuse(Code::bad_local_header, local.why());
    return std::nullopt;
  }
  const zip::LocalHeader& h = *local;
  if (!compare_local(e, h, report)) inflatable[index] = false;
  std::uint64_t end = h.data_offset + e.compressed_size;  // read_local_header checked it fits
  if (h.flags & zip::kFlagDescriptor) {
    const std::uint64_t length = zip::descriptor_at(source, end, e.crc32, e.compressed_size, e.uncompressed_size);
    if (length == 0)
      add_problem(report, Code::cd_local_mismatch, e.name, "",
                  "data descriptor missing or disagreeing with the central directory");
    end += length;
  }
  return zip::MemberExtent{e.local_header_offset, end, index};
}

void check_names(const std::vector<ZipEntry>& entries, VerifyReport& report) {
  for (const ZipEntry& e : entries) {
    if (const auto why = zip::member_name_problem(e.name)) {
      add_problem(report, Code::unsafe_name, e.name, "", "unsafe member name: " + *why);
    } else if (!e.utf8_flag() && std::any_of(e.name.begin(), e.name.end(), [](char c) { return c & 0x80; })) {
      add_problem(report, Code::utf8_flag_missing, e.name, "", "non-ASCII name without the UTF-8 flag");
    }
  }
  // Readers that pick one of several same-named entries pick differently (Python the last).
  for (const zip::NameClash& clash : zip::name_clashes(entries)) {
    const ZipEntry& first = entries[clash.entries.front()];
    if (clash.same_name) {
      add_problem(report, Code::duplicate_name, first.name, "",
                  std::to_string(clash.entries.size()) + " entries have this name");
      continue;
    }
    std::string others;
    for (std::size_t k = 1; k < clash.entries.size(); ++k)
      others += (k > 1 ? ", '" : "'") + zip::printable_name(entries[clash.entries[k]].name) + "'";
    add_problem(report, Code::ambiguous_name, first.name, "", "equal after Unicode normalization (NFD) to " + others);
  }
}

/// Declared sizes against the limits, before anything is inflated.
void check_sizes(const std::vector<ZipEntry>& entries, const ResourceLimits& limits, std::vector<bool>& inflatable,
                 VerifyReport& report) {
  std::uint64_t total = 0;
  bool overflow = false;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    overflow = overflow || __builtin_add_overflow(total, entries[i].uncompressed_size, &total);
    if (entries[i].uncompressed_size > limits.max_member_bytes) {
      add_problem(report, Code::too_large, entries[i].name, "",
                  "declares " + std::to_string(entries[i].uncompressed_size) + " bytes, over the limit of " +
                      std::to_string(limits.max_member_bytes) + " (--max-member-bytes); not inflated");
      inflatable[i] = false;
    }
  }
  if (overflow || total > limits.max_total_bytes) {
    add_problem(report, Code::too_large, "", "",
                "members declare " + (overflow ? std::string("more than 2^64") : std::to_string(total)) +
                    " bytes in total, over the limit of " + std::to_string(limits.max_total_bytes) +
                    " (--max-total-bytes); no member data was read");
    inflatable.assign(entries.size(), false);
  }
}

/// Entries must not share bytes with each other or with the central directory.
void check_layout(std::vector<zip::MemberExtent> extents, const zip::ZipDirectory& dir, std::uint64_t file_size,
                  std::vector<bool>& inflatable, VerifyReport& report) {
  const auto& entries = dir.entries;
  for (const auto& [later, earlier] : zip::overlapping_members(extents)) {  // sorts extents by offset
    add_problem(report, Code::overlapping_entries, entries[later].name, "",
                "shares bytes with '" + zip::printable_name(entries[earlier].name) + "'");
    inflatable[later] = inflatable[earlier] = false;
  }
  std::uint64_t covered = 0, gaps = 0;
  for (const zip::MemberExtent& x : extents) {
    if (x.begin > covered) gaps += x.begin - covered;
    if (x.end > dir.cd_offset) {
      add_problem(report, Code::overlaps_directory, entries[x.index].name, "",
                  "data runs into the central directory at offset " + std::to_string(dir.cd_offset));
      inflatable[x.index] = false;
    }
    covered = std::max(covered, x.end);
  }
  if (dir.cd_offset > covered) gaps += dir.cd_offset - covered;
  if (!dir.zip64 && dir.eocd_offset > dir.cd_offset + dir.cd_size)
    gaps += dir.eocd_offset - (dir.cd_offset + dir.cd_size);
  if (gaps > 0)
    add_problem(report, Code::unaccounted_bytes, "", "", std::to_string(gaps) + " bytes belong to no entry");
  const std::uint64_t end = dir.eocd_offset + zip::kEndSize + dir.comment.size();
  if (end < file_size)
    add_problem(report, Code::trailing_data, "", "", std::to_string(file_size - end) + " bytes after the end record");
}

}  // namespace

ZipStructure check_zip_structure(const io::ByteSource& source, const zip::ZipDirectory& directory,
                                 const ResourceLimits& limits, unsigned threads, VerifyReport& report) {
  const auto& entries = directory.entries;
  ZipStructure out;
  out.inflatable.assign(entries.size(), true);
  std::vector<zip::MemberExtent> extents;
  if (directory.other_end_record)
    add_problem(report, Code::ambiguous_end_record, "", "",
                "end records at offsets " + std::to_string(directory.eocd_offset) + " (read) and " +
                    std::to_string(*directory.other_end_record) +
                    " both open as a directory: readers list different members");
  if (directory.python_offset_shift != 0)
    add_problem(report, Code::ambiguous_end_record, "", "",
                "the central directory ends " + std::to_string(directory.python_offset_shift) +
                    " bytes before the end records: Python's zipfile shifts every offset by that and reads "
                    "another directory");
  {
    // The entries in runs, each run's local headers read on one thread, forward through a
    // window of its own where the directory lists the members in storage order, as writers do
    // (a copy each, not a system call each); each run's findings are merged in directory order,
    // so the report is the one a single pass writes. A flag a byte, not a bit: runs set their
    // entries' flags side by side.
    constexpr std::size_t kRun = 2048;
    const std::size_t runs = (entries.size() + kRun - 1) / kRun;
    std::vector<VerifyReport> found(runs);
    std::vector<std::vector<zip::MemberExtent>> run_extents(runs);
    std::vector<std::uint8_t> inflatable(entries.size(), 1);
    std::optional<base::ThreadPool> pool;
    if (threads > 1 && runs > 1) pool.emplace(std::min<unsigned>(threads, static_cast<unsigned>(runs)) - 1);
    base::for_each_index(pool ? &*pool : nullptr, runs, 1, [&](std::size_t run) {
      std::optional<io::ReadWindow> window;
      if (entries.size() > 1 && io::ahead_pays_off(source)) window.emplace(source);
      const io::ByteSource& headers = window ? *window : source;
      for (std::size_t i = run * kRun; i < std::min(entries.size(), (run + 1) * kRun); ++i)
        if (auto extent = check_entry(headers, entries[i], i, limits, inflatable, found[run]))
          run_extents[run].push_back(*extent);
    });
    for (std::size_t run = 0; run < runs; ++run) {
      merge_report(report, found[run]);
      extents.insert(extents.end(), run_extents[run].begin(), run_extents[run].end());
    }
    for (std::size_t i = 0; i < entries.size(); ++i) out.inflatable[i] = inflatable[i] != 0;
  }
  check_names(entries, report);
  check_layout(std::move(extents), directory, source.size(), out.inflatable, report);
  check_sizes(entries, limits, out.inflatable, report);
  return out;
}

}  // namespace zanj::verify
