#include "zanj/member_reader.hpp"

#include <string>

#include "zanj/error.hpp"

namespace zanj {

NpyHeader read_npy_member_header(const Archive& archive, const ZipEntry& entry, const NpyLimits& limits) {
  const std::string where = archive.name() + ": member '" + entry.name + "': ";
  try {
    // The fixed part (magic, version, length) says how much more to decode.
    const std::string fixed = archive.read_prefix(entry, 12);
    const std::uint64_t need = npy_header_size(fixed, limits);
    const std::string header = archive.read_prefix(entry, static_cast<std::size_t>(need));
    NpyHeader h = parse_npy_header(header, limits);
    if (h.data_offset > entry.uncompressed_size)
      throw Error("header runs past the end of the member");
    return h;
  } catch (const Error& e) {
    const std::string what = e.what();
    // Archive errors already name the archive; npy errors do not.
    throw Error(what.rfind(archive.name(), 0) == 0 ? what : where + what, e.exit());
  }
}

void for_each_jsonl_line(const Archive& archive, const ZipEntry& entry,
                         const std::function<bool(std::uint64_t, std::string_view)>& on_line,
                         std::uint64_t max_line_bytes) {
  for_each_line([&](const ChunkSink& sink) { archive.read(entry, sink); },
                archive.name() + ": member '" + entry.name + "'", on_line, max_line_bytes);
}

void for_each_line(const std::function<void(const ChunkSink&)>& stream, const std::string& where,
                   const std::function<bool(std::uint64_t, std::string_view)>& on_line,
                   std::uint64_t max_line_bytes) {
  std::string pending;  // the start of a line split across chunks
  std::uint64_t index = 0;
  bool stopped = false;
  auto too_long = [&] {
    throw Error(where + ": line " + std::to_string(index + 1) + " is longer than " + std::to_string(max_line_bytes) +
                " bytes");
  };
  stream([&](std::string_view chunk) {
    while (!chunk.empty()) {
      const std::size_t nl = chunk.find('\n');
      if (nl == std::string_view::npos) {
        if (pending.size() + chunk.size() > max_line_bytes) too_long();
        pending.append(chunk);
        return true;
      }
      std::string_view line = chunk.substr(0, nl);
      if (!pending.empty()) {
        if (pending.size() + line.size() > max_line_bytes) too_long();
        pending.append(line);
        line = pending;
      } else if (line.size() > max_line_bytes) {
        too_long();
      }
      if (!on_line(index++, line)) {
        stopped = true;
        return false;
      }
      pending.clear();
      chunk.remove_prefix(nl + 1);
    }
    return true;
  });
  if (!stopped && !pending.empty()) on_line(index, pending);
}

void for_each_jsonl_value(const Archive& archive, const ZipEntry& entry,
                          const std::function<bool(std::uint64_t, const Json&)>& on_value,
                          std::uint64_t max_line_bytes) {
  for_each_jsonl_line(
      archive, entry,
      [&](std::uint64_t index, std::string_view line) {
        Json value;
        try {
          value = parse_json(line, entry.name + " line " + std::to_string(index + 1));
        } catch (const Error& e) {
          throw Error(archive.name() + ": " + e.what());
        }
        return on_value(index, value);
      },
      max_line_bytes);
}

}  // namespace zanj
