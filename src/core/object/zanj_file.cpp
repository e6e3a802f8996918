#include "zanj/zanj_file.hpp"

#include "zanj/error.hpp"

#ifndef ZANJ_VERSION
#define ZANJ_VERSION "0.0.0"
#endif

namespace zanj {

ZanjFile::ZanjFile(const std::string& path, const ZanjLimits& limits) : ZanjFile(Archive(path), limits) {}

ZanjFile::ZanjFile(Archive opened, const ZanjLimits& limits) : archive(std::move(opened)) {
  const ZipEntry* main = archive.find(kMainMember);
  if (!main) throw Error(archive.name() + ": no __zanj__.json member (not a ZANJ archive)");
  root = read_json_member(*main, limits, &json_values);
  json_bytes = main->uncompressed_size;
  held = HeldJsonValues(json_values);
  const ZipEntry* meta_entry = archive.find(kMetaMember);
  if (!meta_entry) {
    problems.push_back("no __zanj_meta__.json member");
    return;
  }
  // Both trees stay loaded, so they share one --max-json-values budget: the meta gets what the
  // main document left (it is small in real archives; the budget is what bounds memory).
  ZanjLimits meta_limits = limits;
  meta_limits.json.max_values = limits.json.max_values - json_values;
  meta_limits.max_json_bytes = limits.max_json_bytes - json_bytes;
  try {
    meta = read_json_member(*meta_entry, meta_limits, &json_values);
    json_bytes += meta_entry->uncompressed_size;
    held = HeldJsonValues(json_values);
  } catch (const Error& e) {
    problems.push_back(e.what());
  }
}

Json ZanjFile::read_json_member(const ZipEntry& entry, const ZanjLimits& limits, std::uint64_t* values) const {
  if (entry.uncompressed_size > limits.max_json_bytes)
    throw Error(archive.name() + ": " + entry.name + ": its size of " + std::to_string(entry.uncompressed_size) +
                " bytes exceeds the limit of " + std::to_string(limits.max_json_bytes) +
                " (raise with --max-json-bytes)");
  const std::string text = archive.read_all(entry, limits.max_json_bytes);
  try {
    JsonParseNotes notes;
    Json parsed = parse_json(text, entry.name, limits.json, &notes);
    if (values) *values += notes.values;
    return parsed;
  } catch (const Error& e) {
    throw Error(archive.name() + ": " + e.what());
  }
}

std::string version_report() {
  std::string out = "zanj " ZANJ_VERSION "\n";
  out += archive_library_versions();
  out += "\n";
  return out;
}

}  // namespace zanj
