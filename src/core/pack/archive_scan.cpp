#include "pack/archive_scan.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <utility>

#include "zanj/archive.hpp"
#include "zanj/format.hpp"
#include "zip/member_name.hpp"

namespace zanj::pack::archive_scan {
namespace {

std::string entry_kind(unsigned type) {
  switch (type) {
    case AE_IFLNK:
      return "a symbolic link";
    case AE_IFCHR:
      return "a character device";
    case AE_IFBLK:
      return "a block device";
    case AE_IFIFO:
      return "a FIFO";
    case AE_IFSOCK:
      return "a socket";
    default:
      return "not a regular file";
  }
}

}  // namespace

Reader::~Reader() {
  if (a) io::archive_library().read_free(a);
}

EntryWalker::EntryWalker(const std::string& archive, const ResourceLimits& limits)
    : lib_(io::archive_library()), archive_(archive), limits_(limits) {
  struct stat st {};
  if (::stat(archive.c_str(), &st) != 0) throw Error(archive + ": cannot read it", Exit::usage);
  // A bomb: more bytes than the ratio limit allows for an archive this size.
  max_bytes_ = std::min<std::uint64_t>(
      limits.max_total_bytes, static_cast<std::uint64_t>(st.st_size) * limits.max_ratio + (std::uint64_t{1} << 20));
  r_.a = lib_.read_new();
  lib_.read_support_format_all(r_.a);
  lib_.read_support_filter_all(r_.a);
  if (lib_.read_open_filename(r_.a, archive.c_str(), 1 << 16) != ARCHIVE_OK)
    throw Error(archive + ": " + why("not an archive libarchive reads"), Exit::usage);
}

std::optional<CheckedEntry> EntryWalker::next() {
  for (;;) {
    archive_entry* e = nullptr;
    const int h = lib_.read_next_header(r_.a, &e);
    if (h == ARCHIVE_EOF) return std::nullopt;
    if (h < ARCHIVE_WARN) throw Error(archive_ + ": " + why("unreadable entry"), Exit::invalid);
    const char* raw = lib_.entry_pathname_utf8(e);
    if (!raw) raw = lib_.entry_pathname(e);
    CheckedEntry entry{raw ? raw : "", false, std::nullopt, ""};
    std::string& name = entry.name;
    entry.shown = archive_ + ": entry '" + terminal_safe(name) + "'";
    if (++entries_ > limits_.max_entries)
      throw Error(archive_ + ": more than " + std::to_string(limits_.max_entries) + " entries", Exit::invalid);
    while (name.rfind("./", 0) == 0) name.erase(0, 2);
    const unsigned type = lib_.entry_filetype(e);
    if (type == AE_IFDIR) {
      while (!name.empty() && name.back() == '/') name.pop_back();
      if (name.empty() || name == ".") continue;
    }
    if (auto problem = zip::member_name_problem(name))
      throw Error(entry.shown + ": " + *problem + "; nothing packed", Exit::invalid);
    if (lib_.entry_hardlink(e)) throw Error(entry.shown + " is a hard link; nothing packed", Exit::invalid);
    if (type == AE_IFDIR) {
      entry.directory = true;
      return entry;
    }
    if (type != AE_IFREG) throw Error(entry.shown + " is " + entry_kind(type) + "; nothing packed", Exit::invalid);
    if (lib_.entry_size_is_set(e)) {
      const auto size = static_cast<std::uint64_t>(std::max<la_int64_t>(lib_.entry_size(e), 0));
      if (size > max_bytes_ - total_)
        throw Error(entry.shown + " declares more bytes than the archive's size allows (--max-ratio); nothing packed",
                    Exit::invalid);
      total_ += size;
      entry.size = size;
    }
    current_ = entry;
    return entry;
  }
}

std::uint64_t EntryWalker::read(const ChunkSink& sink) {
  if (!buffer_) buffer_ = std::make_unique_for_overwrite<char[]>(kChunk);
  std::uint64_t done = 0;
  for (;;) {
    const la_ssize_t n = lib_.read_data(r_.a, buffer_.get(), kChunk);
    if (n < 0) throw Error(current_.shown + ": " + why("unreadable data"), Exit::invalid);
    if (n == 0) return done;
    done += static_cast<std::uint64_t>(n);
    if (current_.size ? done > *current_.size : (total_ += static_cast<std::uint64_t>(n)) > max_bytes_)
      throw Error(
          current_.shown + ": the archive unpacks to more bytes than its size allows (--max-ratio); nothing packed",
          Exit::invalid);
    if (!sink(std::string_view(buffer_.get(), static_cast<std::size_t>(n)))) return done;
  }
}

std::string EntryWalker::why(const char* fallback) const {
  const char* text = lib_.error_string(r_.a);
  return text ? text : fallback;
}

void MemberSpool::add(const std::string& name, const std::function<void(const ChunkSink&)>& fill) {
  if (!file_) file_ = std::make_unique<io::SpoolFile>();
  const std::uint64_t offset = file_->size();
  fill([&](std::string_view chunk) {
    file_->append(chunk);
    return true;
  });
  ranges_[name] = Range{offset, file_->size() - offset};
}

void MemberSpool::read(const std::string& name, const ChunkSink& sink) {
  const auto it = ranges_.find(name);
  const Range range = it->second;
  ranges_.erase(it);
  const auto buffer = std::make_unique_for_overwrite<char[]>(kChunk);
  for (std::uint64_t done = 0; done < range.size;) {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(kChunk, range.size - done));
    file_->read_at(range.offset + done, buffer.get(), n);
    if (!sink(std::string_view(buffer.get(), n))) return;
    done += n;
  }
}

FactsReader::FactsReader(std::string what, const ResourceLimits& limits, FileFacts& facts)
    : what_(std::move(what)),
      facts_(facts),
      npy_(NpyLimits{limits.max_npy_header_bytes}),
      lines_(
          [this](std::uint64_t index, std::string_view line) {
            if (index == 0) facts_.first_line = std::string(line);
            return true;
          },
          limits.max_jsonl_line_bytes, what_, limits.max_jsonl_rows) {}

void FactsReader::feed(std::string_view chunk) {
  if (npy_open_) as_npy(chunk, false);
  if (lines_open_) as_lines(chunk, false);
}

void FactsReader::finish() {
  if (npy_open_) as_npy({}, true);
  if (lines_open_) as_lines({}, true);
}

void FactsReader::as_npy(std::string_view chunk, bool end) {
  try {
    if (end) {
      npy_.finish();
    } else {
      npy_.feed(chunk);
    }
    if (npy_.header()) {
      facts_.npy = *npy_.header();  // so no JSON lines (ArchiveTree::jsonl_stats says so)
      facts_.jsonl_error.reset();
      lines_open_ = false;
    } else if (end) {
      facts_.npy_error = std::make_shared<const Error>(what_ + ": not an .npy file");
    }
  } catch (const Error& err) {  // context: the file joins the message
    facts_.npy_error = std::make_shared<const Error>(what_ + ": " + err.what());
  }
  npy_open_ = npy_open_ && !end && !facts_.npy && !facts_.npy_error;
}

void FactsReader::as_lines(std::string_view chunk, bool end) {
  try {
    if (end) {
      lines_.finish();
      facts_.lines = lines_.lines();
    } else {
      lines_.feed(chunk);
    }
  } catch (const Error& err) {  // context: the splitter's errors name the file
    facts_.jsonl_error = std::make_shared<const Error>(err);
  }
  lines_open_ = lines_open_ && !end && !facts_.jsonl_error;
}

namespace {

/// A file an interrupted `extract` left (is_leftover_temp_name of its base name): learnt, not packed.
bool is_leftover(const std::string& name) {
  const std::size_t slash = name.rfind('/');
  return is_leftover_temp_name(slash == std::string::npos ? name : name.substr(slash + 1));
}

}  // namespace

void Scan::take(EntryWalker& walker, const CheckedEntry& e, const ChunkSink* copy) {
  if (e.directory) {
    folders_.insert(e.name);
    return;
  }
  if (sizes_.count(e.name)) throw Error(e.shown + " appears twice; nothing packed", Exit::invalid);
  if (is_leftover(e.name)) {
    notes_.push_back("skipped '" + zip::printable_name(e.name) + "', a temporary file left by an interrupted run");
    sizes_[e.name] = e.size ? *e.size : walker.read([](std::string_view) { return true; });
    return;
  }
  FileFacts& facts = files_[e.name];
  sizes_[e.name] = facts.size = learn(walker, e, facts, copy);
}

void Scan::check_folders() const {
  const auto refuse = [&](const std::string& name) {
    throw Error(archive_ + ": '" + zip::printable_name(name) + "' is both a file and a folder; nothing packed",
                Exit::invalid);
  };
  // The files as sizes_ has them, less the skipped ones: the facts of some may be forgotten.
  const auto is_file = [&](const std::string& name) { return sizes_.count(name) && !is_leftover(name); };
  for (const auto& [name, size] : sizes_) {
    if (is_leftover(name)) continue;
    for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1))
      if (is_file(name.substr(0, slash))) refuse(name.substr(0, slash));
  }
  for (const std::string& folder : folders_)
    if (is_file(folder)) refuse(folder);
}

std::string Scan::shown(const std::string& file) const { return archive_ + ": '" + zip::printable_name(file) + "'"; }

std::uint64_t Scan::learn(EntryWalker& walker, const CheckedEntry& e, FileFacts& facts, const ChunkSink* copy) {
  if (!copy && (e.name == kMainMember || e.name == kMetaMember)) {
    if (e.size && *e.size > limits_.max_json_bytes) return *e.size;
    std::string text;
    if (e.size) text.reserve(static_cast<std::size_t>(*e.size));  // kept: no slack of doubling
    const std::uint64_t size = walker.read([&](std::string_view chunk) {
      if (text.size() + chunk.size() > limits_.max_json_bytes) return false;
      text += chunk;
      return true;
    });
    if (size == text.size()) facts.text = std::move(text);
    return e.size ? *e.size : size;
  }
  FactsReader reader(shown(e.name), limits_, facts);
  bool whole = true;  // read to its end
  const std::uint64_t size = walker.read([&](std::string_view chunk) {
    if (reader.open()) reader.feed(chunk);
    if (copy) return (*copy)(chunk);
    whole = reader.open() || !e.size;  // a size not declared is counted to the end
    return whole;
  });
  if (whole) reader.finish();
  return e.size ? *e.size : size;
}

}  // namespace zanj::pack::archive_scan
