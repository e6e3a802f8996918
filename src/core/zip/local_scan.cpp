// Scanning for local headers (APPNOTE 4.3.7, 4.3.9): see local_scan.hpp. A signature can also
// occur by chance inside compressed data, so a header is only taken as a member when what it
// says is borne out by the bytes after it: its data ends inside the file where another record
// (or the cut) begins, or, with a data descriptor, the data decodes to its end and the
// descriptor there agrees. A header that is not borne out never makes the scan skip bytes.
#include "zip/local_scan.hpp"
#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "zanj/error.hpp"
#include "zip/crc32.hpp"
#include "zip/member_decoder.hpp"
#include "zip/member_name.hpp"
#include "zip/zip_directory.hpp"
#include "zip/zip_format.hpp"

namespace zanj::zip {
namespace {

constexpr std::size_t kBlock = std::size_t{1} << 20;

std::uint64_t le(const char* bytes, std::size_t width) {
  std::uint64_t v = 0;
  for (std::size_t i = width; i-- > 0;) v = v << 8 | static_cast<unsigned char>(bytes[i]);
  return v;
}

/// Where the next `signature` starts at or after `from`, or nullopt.
std::optional<std::uint64_t> find_signature(const io::ByteSource& source, std::uint64_t from, std::uint32_t signature) {
  char sig[4];
  for (int i = 0; i < 4; ++i) sig[i] = static_cast<char>(signature >> (8 * i));
  if (from + 4 > source.size()) return std::nullopt;
  // Sized to what is left and not zeroed: verify runs this on every archive whose directory is
  // broken, and clearing a 1 MiB block per call was most of the time spent on small ones.
  const auto size = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, source.size() - from));
  const std::unique_ptr<char[]> block(new char[size]);
  while (from + 4 <= source.size()) {
    const std::size_t got = source.read_some(from, block.get(), size);
    if (got < 4) return std::nullopt;
    const void* hit = memmem(block.get(), got, sig, 4);
    if (hit) return from + static_cast<std::uint64_t>(static_cast<const char*>(hit) - block.get());
    from += got - 3;  // a signature may straddle two blocks
  }
  return std::nullopt;
}

/// Does a ZIP record (or the cut: fewer than 4 bytes left) begin at `at`?
bool record_or_end_at(const io::ByteSource& source, std::uint64_t at) {
  if (at > source.size()) return false;
  char bytes[4];
  if (source.size() - at < 4) return true;
  source.read_at(at, bytes, 4);
  const std::uint64_t sig = le(bytes, 4);
  return sig == kLocalSig || sig == kCentralSig || sig == kEndSig || sig == kZip64EndSig || sig == kDescriptorSig;
}

/// What one signature turned out to be.
struct Attempt {
  std::optional<ZipEntry> entry;
  std::optional<LostMember> lost;
  std::uint64_t next = 0;  ///< where the scan goes on
  /// For a lost member cut off (or 0): where its header says it ends. A complete member found
  /// before that shows it was a chance signature inside data, and it is not reported.
  std::uint64_t claimed_end = 0;
};

ZipEntry entry_from(const LocalHeader& h, std::uint64_t at) {
  ZipEntry e;
  e.name = h.name;
  e.version_needed = h.version_needed, e.flags = h.flags, e.method = h.method;
  e.dos_time = h.dos_time, e.dos_date = h.dos_date, e.crc32 = h.crc32;
  e.compressed_size = h.compressed_size, e.uncompressed_size = h.uncompressed_size;
  e.local_header_offset = at;
  e.has_zip64_extra = h.has_zip64_extra;
  return e;
}

/// A member the cut went through: only the last header in a file can be one, so a complete
/// member found after it shows it was a chance signature.
Attempt cut_off(Attempt attempt) {
  attempt.claimed_end = UINT64_MAX;
  return attempt;
}

class Scanner {
 public:
  Scanner(const io::ByteSource& source, const LocalScanLimits& limits) : source_(source), limits_(limits) {}

  Attempt look_at(std::uint64_t at) const {
    ZipEntry probe;
    probe.local_header_offset = at;
    const base::Result<LocalHeader> local = read_local_header_result(source_, probe);
    if (!local) {
      // Cut short (or malformed) inside its own header: nothing after it can be trusted as
      // this member; go on looking right after the signature.
      return Attempt{std::nullopt, LostMember{partial_name(at), at, "cut off inside its local header"}, at + 4, at + 4};
    }
    const LocalHeader& h = *local;
    const auto lost = [&](std::string why, std::uint64_t next) {
      return Attempt{std::nullopt, LostMember{h.name, at, std::move(why)}, next};
    };
    if (h.flags & (kFlagEncrypted | kFlagStrongEncryption)) return lost("encrypted", h.data_offset);
    if (!(h.flags & kFlagDescriptor)) {
      const std::uint64_t present = source_.size() - h.data_offset;
      if (h.compressed_size > present) {
        Attempt cut = lost("cut off: " + std::to_string(present) + " of its " + std::to_string(h.compressed_size) +
                               " bytes of data are in the file",
                           h.data_offset);
        return cut_off(std::move(cut));
      }
      const std::uint64_t end = h.data_offset + h.compressed_size;
      if (!record_or_end_at(source_, end)) return Attempt{std::nullopt, std::nullopt, at + 1};  // not a header
      return Attempt{entry_from(h, at), std::nullopt, end};
    }
    if (h.method == static_cast<std::uint16_t>(ZipMethod::store)) return stored_with_descriptor(h, at);
    if (!method_decodable(h.method))
      return lost("compression " + method_name(h.method) + " with a data descriptor: its end cannot be found",
                  h.data_offset);
    return decoded_with_descriptor(h, at);
  }

 private:
  /// The name bytes of a header cut short, as far as they go.
  std::string partial_name(std::uint64_t at) const {
    char fixed[kLocalSize];
    if (source_.size() - at < kLocalSize) return "";
    source_.read_at(at, fixed, kLocalSize);
    const std::uint64_t name_len = le(fixed + 26, 2);
    const std::uint64_t have = std::min<std::uint64_t>(name_len, source_.size() - at - kLocalSize);
    std::string name(static_cast<std::size_t>(have), '\0');
    source_.read_at(at + kLocalSize, name.data(), name.size());
    return name;
  }

  /// Stored data has no end of its own: the member ends at a descriptor (with its signature,
  /// as writers put it) whose sizes are the distance to it and whose CRC-32 is that of the
  /// bytes before it. The data may hold such a descriptor too (stored bytes are anything):
  /// when two agree, which one ends the member cannot be told, and it is refused, not cut.
  Attempt stored_with_descriptor(const LocalHeader& h, std::uint64_t at) const {
    std::optional<std::pair<std::uint64_t, std::uint64_t>> first_sized, matched;  // (offset, length)
    std::uint32_t crc = 0;
    std::uint64_t crc_to = h.data_offset;  // the CRC covers [data_offset, crc_to)
    const std::unique_ptr<char[]> block(new char[kBlock / 4]);
    for (auto found = find_signature(source_, h.data_offset, kDescriptorSig); found;
         found = find_signature(source_, *found + 1, kDescriptorSig)) {
      const std::uint64_t size = *found - h.data_offset;
      char bytes[24] = {};
      const std::size_t got = source_.read_some(*found, bytes, sizeof bytes);
      const auto stated_crc = static_cast<std::uint32_t>(got >= 8 ? le(bytes + 4, 4) : 0);
      const std::uint64_t length = descriptor_at(source_, *found, stated_crc, size, size);
      if (length == 0) continue;
      if (!first_sized) first_sized.emplace(*found, length);
      while (crc_to < *found) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(*found - crc_to, kBlock / 4));
        source_.read_at(crc_to, block.get(), n);
        crc = crc32_update(crc, block.get(), n);
        crc_to += n;
      }
      if (crc != stated_crc) continue;
      if (matched)
        return Attempt{std::nullopt,
                       LostMember{h.name, at,
                                  "ambiguous: the data descriptors at offsets " + std::to_string(matched->first) +
                                      " and " + std::to_string(*found) +
                                      " both agree with the bytes before them, so where the member ends cannot be "
                                      "told"},
                       h.data_offset};
      matched.emplace(*found, length);
    }
    // None whose CRC-32 agrees: the first whose sizes do, so extraction reports the bad CRC.
    if (!matched) matched = first_sized;
    if (!matched)
      return Attempt{std::nullopt, LostMember{h.name, at, "cut off before its data descriptor"}, h.data_offset,
                     UINT64_MAX};
    const std::uint64_t size = matched->first - h.data_offset;
    char bytes[8] = {};
    source_.read_at(matched->first, bytes, sizeof bytes);
    LocalHeader sized = h;
    sized.crc32 = static_cast<std::uint32_t>(le(bytes + 4, 4)), sized.compressed_size = size,
    sized.uncompressed_size = size;
    return Attempt{entry_from(sized, at), std::nullopt, matched->first + matched->second};
  }

  /// Decode to the end of the compressed stream (bounded by the ratio limit), then the
  /// descriptor there must name the same CRC-32 and sizes.
  Attempt decoded_with_descriptor(const LocalHeader& h, std::uint64_t at) const {
    const auto lost = [&](std::string why) {
      return Attempt{std::nullopt, LostMember{h.name, at, std::move(why)}, h.data_offset};
    };
    const std::uint64_t ratio = std::max<std::uint64_t>(1, allowed_ratio(h.method, limits_.max_ratio));
    // The ratio check below stops the decoder before it produces more than this.
    std::uint64_t max_output = UINT64_MAX;
    if (!__builtin_mul_overflow(source_.size() - h.data_offset, ratio, &max_output))
      max_output = max_output > UINT64_MAX - (1 << 20) ? UINT64_MAX : max_output + (1 << 20);
    std::unique_ptr<MemberDecoder> decoder = make_member_decoder(h.method, max_output);
    // Not zeroed (only what a read or the decoder writes is looked at): one pair per candidate
    // header, and a damaged archive can have many.
    const std::size_t in_size = kBlock / 4, out_size = kBlock;
    const std::unique_ptr<char[]> in(new char[in_size]), out(new char[out_size]);
    std::uint64_t read = 0, consumed = 0, produced = 0;
    std::uint32_t crc = 0;
    std::string_view pending;
    bool finished = false;
    try {
      while (!finished) {
        if (pending.empty()) {
          const std::uint64_t left = source_.size() - h.data_offset - read;
          if (left == 0) return cut_off(lost("cut off inside its data"));
          const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, in_size));
          source_.read_at(h.data_offset + read, in.get(), n);
          read += n;
          pending = std::string_view(in.get(), n);
        }
        const MemberDecoder::Step step = decoder->decode(pending, out.get(), out_size);
        if (step.consumed == 0 && step.produced == 0 && !step.finished) return lost("its data cannot be decoded");
        pending.remove_prefix(step.consumed);
        consumed += step.consumed, produced += step.produced;
        crc = crc32_update(crc, out.get(), step.produced);
        if (produced / ratio > consumed + (std::uint64_t{1} << 20) / ratio)
          return lost("decodes past " + std::to_string(ratio) + ":1 (--max-ratio)");
        finished = step.finished;
      }
    } catch (const Error& e) {  // boundary: undecodable data: this member is lost
      return lost(std::string("its data cannot be decoded: ") + e.what());
    }
    const std::uint64_t end = h.data_offset + consumed;
    const std::uint64_t length = descriptor_at(source_, end, static_cast<std::uint32_t>(crc), consumed, produced);
    if (length == 0 && source_.size() - end < 24) return cut_off(lost("cut off before its data descriptor"));
    if (length == 0) return lost("no data descriptor agreeing with its data follows it");
    LocalHeader sized = h;
    sized.crc32 = static_cast<std::uint32_t>(crc), sized.compressed_size = consumed, sized.uncompressed_size = produced;
    return Attempt{entry_from(sized, at), std::nullopt, end + length};
  }

  const io::ByteSource& source_;
  LocalScanLimits limits_;
};

}  // namespace

std::uint64_t descriptor_at(const io::ByteSource& source, std::uint64_t at, std::uint32_t crc, std::uint64_t compressed,
                            std::uint64_t uncompressed) {
  char bytes[24] = {};
  const std::size_t got = at < source.size() ? source.read_some(at, bytes, sizeof bytes) : 0;
  for (const bool signature : {true, false})
    for (const std::size_t width : {8u, 4u}) {
      const std::size_t start = signature ? 4 : 0, length = start + 4 + 2 * width;
      if (got < length || (signature && le(bytes, 4) != kDescriptorSig)) continue;
      if (le(bytes + start, 4) == crc && le(bytes + start + 4, width) == compressed &&
          le(bytes + start + 4 + width, width) == uncompressed)
        return length;
    }
  return 0;
}

LocalScan scan_local_headers(const io::ByteSource& source, const LocalScanLimits& limits) {
  LocalScan out;
  const Scanner scanner(source, limits);
  std::uint64_t at = 0;
  std::vector<std::pair<std::size_t, std::uint64_t>> lost_ends;  // (index in out.lost, claimed end)
  while (auto found = find_signature(source, at, kLocalSig)) {
    if (out.entries.size() + out.lost.size() >= limits.max_entries) {
      out.lost.push_back({"", *found,
                          "more local headers than the limit of " + std::to_string(limits.max_entries) +
                              " (--max-entries); the scan stopped here"});
      break;
    }
    Attempt attempt = scanner.look_at(*found);
    if (attempt.entry) {
      std::erase_if(lost_ends, [&](const std::pair<std::size_t, std::uint64_t>& l) {
        if (l.second <= *found) return false;
        out.lost[l.first].name.clear();  // marked; removed below
        out.lost[l.first].offset = UINT64_MAX;
        return true;
      });
      out.entries.push_back(std::move(*attempt.entry));
    }
    if (attempt.lost) {
      if (attempt.claimed_end) lost_ends.emplace_back(out.lost.size(), attempt.claimed_end);
      out.lost.push_back(std::move(*attempt.lost));
    }
    at = std::max(attempt.next, *found + 1);
  }
  std::erase_if(out.lost, [](const LostMember& l) { return l.offset == UINT64_MAX; });
  return out;
}

}  // namespace zanj::zip
