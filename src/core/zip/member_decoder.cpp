// Member data from the central directory, decoded here: one streaming loop for every method,
// bounded by the declared size, by a ratio of output to compressed input actually consumed,
// and checked against the declared CRC-32.
#include "zip/member_decoder.hpp"

#include <bzlib.h>
#include <libdeflate.h>
#include <lzma.h>
#include <zlib.h>
#include <zstd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <vector>

#include "zanj/error.hpp"
#include "zip/crc32.hpp"
#include "zip/zip_format.hpp"

namespace zanj::zip {
namespace {

using Kind = MemberDataError::Kind;

constexpr std::size_t kMaxPiece = 1 << 20;     // compressed bytes read at once, at most
constexpr std::size_t kOutBuffer = 256 << 10;  // decoded bytes handed to the sink at once, at most
// Output a member may run ahead of its ratio while streaming: the first bytes of any stream
// (headers, tables) say little about the ratio, and small members should never trip it.
constexpr std::uint64_t kRatioSlack = 1 << 20;
constexpr std::uint64_t kDeflateRatio = 1032;        // 258 bytes from 2 bits
constexpr std::uint64_t kXzMemoryLimit = 128 << 20;  // liblzma refuses streams needing more

unsigned clamp_uint(std::size_t n) { return static_cast<unsigned>(std::min<std::size_t>(n, UINT_MAX)); }

class StoredDecoder final : public MemberDecoder {
 public:
  Step decode(std::string_view in, char* out, std::size_t out_size) override {
    const std::size_t n = std::min(in.size(), out_size);
    std::copy_n(in.data(), n, out);
    return {n, n, false};  // ends when the compressed bytes do
  }
};

/// A raw-deflate state kept by each thread and reset between members: inflateInit2 allocates
/// its state (and inflate its 32 KiB window) anew each time, which on many small members costs
/// more than the inflating. A decoder made while the thread's state is in use gets its own.
struct ThreadInflater {
  z_stream z{};
  bool ready = false, busy = false;
  ThreadInflater() = default;
  ThreadInflater(const ThreadInflater&) = delete;
  ThreadInflater& operator=(const ThreadInflater&) = delete;
  ~ThreadInflater() {
    if (ready) inflateEnd(&z);
  }
};
thread_local ThreadInflater t_inflater;

class DeflateDecoder final : public MemberDecoder {
 public:
  DeflateDecoder() {
    if (!t_inflater.busy) {
      z_ = &t_inflater.z;
      if (t_inflater.ready && inflateReset(z_) == Z_OK) {
        t_inflater.busy = true;
        return;
      }
      if (t_inflater.ready) inflateEnd(z_);
      t_inflater.ready = false;
    } else {
      own_ = std::make_unique<z_stream>();
      z_ = own_.get();
    }
    *z_ = z_stream{};
    if (inflateInit2(z_, -MAX_WBITS) != Z_OK) throw Error("out of memory (zlib)");  // raw deflate, as in ZIP
    if (!own_) t_inflater.ready = t_inflater.busy = true;
  }
  ~DeflateDecoder() override {
    if (own_)
      inflateEnd(z_);
    else
      t_inflater.busy = false;
  }
  DeflateDecoder(const DeflateDecoder&) = delete;
  DeflateDecoder& operator=(const DeflateDecoder&) = delete;

  Step decode(std::string_view in, char* out, std::size_t out_size) override {
    z_->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
    z_->avail_in = clamp_uint(in.size());
    z_->next_out = reinterpret_cast<Bytef*>(out);
    z_->avail_out = clamp_uint(out_size);
    const unsigned in_before = z_->avail_in, out_before = z_->avail_out;
    const int r = inflate(z_, Z_NO_FLUSH);
    if (r != Z_OK && r != Z_STREAM_END && r != Z_BUF_ERROR) throw Error(z_->msg ? z_->msg : "corrupt deflate data");
    return {in_before - z_->avail_in, out_before - z_->avail_out, r == Z_STREAM_END};
  }

 private:
  std::unique_ptr<z_stream> own_;  // set when the thread's state was in use
  z_stream* z_ = nullptr;
};

class Bzip2Decoder final : public MemberDecoder {
 public:
  Bzip2Decoder() {
    if (BZ2_bzDecompressInit(&s_, 0, 0) != BZ_OK) throw Error("out of memory (bzip2)");
  }
  ~Bzip2Decoder() override { BZ2_bzDecompressEnd(&s_); }
  Bzip2Decoder(const Bzip2Decoder&) = delete;
  Bzip2Decoder& operator=(const Bzip2Decoder&) = delete;

  Step decode(std::string_view in, char* out, std::size_t out_size) override {
    s_.next_in = const_cast<char*>(in.data());
    s_.avail_in = clamp_uint(in.size());
    s_.next_out = out;
    s_.avail_out = clamp_uint(out_size);
    const unsigned in_before = s_.avail_in, out_before = s_.avail_out;
    const int r = BZ2_bzDecompress(&s_);
    if (r != BZ_OK && r != BZ_STREAM_END) throw Error("corrupt bzip2 data (libbz2 error " + std::to_string(r) + ")");
    return {in_before - s_.avail_in, out_before - s_.avail_out, r == BZ_STREAM_END};
  }

 private:
  bz_stream s_{};
};

std::string lzma_problem(lzma_ret r) {
  switch (r) {
    case LZMA_MEM_ERROR:
      return "out of memory (liblzma)";
    case LZMA_MEMLIMIT_ERROR:
      return "the stream needs more than " + std::to_string(kXzMemoryLimit >> 20) + " MiB to decode";
    case LZMA_FORMAT_ERROR:
      return "not an xz stream";
    case LZMA_OPTIONS_ERROR:
      return "unsupported LZMA options";
    case LZMA_DATA_ERROR:
      return "corrupt LZMA data";
    default:
      return "LZMA error " + std::to_string(static_cast<int>(r));
  }
}

/// liblzma, for both ZIP-LZMA (raw LZMA1 after a small header) and xz (a whole .xz stream).
class LzmaDecoder final : public MemberDecoder {
 public:
  /// `zip_header`: method 14's 2-byte version, 2-byte property size and 5 property bytes
  /// come first. `declared` bounds the dictionary: a valid stream never reaches further back
  /// than its own length, so a hostile 4 GiB dictionary is not allocated for a small member.
  LzmaDecoder(bool zip_header, std::uint64_t declared) : zip_header_(zip_header), declared_(declared) {
    if (!zip_header_) start(lzma_stream_decoder(&s_, kXzMemoryLimit, 0));
  }
  ~LzmaDecoder() override { lzma_end(&s_); }
  LzmaDecoder(const LzmaDecoder&) = delete;
  LzmaDecoder& operator=(const LzmaDecoder&) = delete;

  Step decode(std::string_view in, char* out, std::size_t out_size) override {
    Step step;
    if (!started_) {
      step.consumed = take_header(in);
      in.remove_prefix(step.consumed);
      if (!started_) return step;
    }
    s_.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
    s_.avail_in = in.size();
    s_.next_out = reinterpret_cast<std::uint8_t*>(out);
    s_.avail_out = out_size;
    const lzma_ret r = lzma_code(&s_, LZMA_RUN);
    if (r != LZMA_OK && r != LZMA_STREAM_END && r != LZMA_BUF_ERROR) throw Error(lzma_problem(r));
    step.consumed += in.size() - s_.avail_in;
    step.produced = out_size - s_.avail_out;
    step.finished = r == LZMA_STREAM_END;
    return step;
  }

 private:
  static constexpr std::size_t kHeader = 9, kProps = 5;

  void start(lzma_ret r) {
    if (r != LZMA_OK) throw Error(lzma_problem(r));
    started_ = true;
  }

  std::size_t take_header(std::string_view in) {
    const std::size_t take = std::min(kHeader - header_.size(), in.size());
    header_.append(in.substr(0, take));
    if (header_.size() >= 4) {
      const unsigned props = static_cast<unsigned char>(header_[2]) | static_cast<unsigned char>(header_[3]) << 8;
      if (props != kProps) throw Error("LZMA properties of " + std::to_string(props) + " bytes (expected 5)");
    }
    if (header_.size() < kHeader) return take;
    lzma_filter filters[2] = {{LZMA_FILTER_LZMA1, nullptr}, {LZMA_VLI_UNKNOWN, nullptr}};
    if (lzma_properties_decode(&filters[0], nullptr, reinterpret_cast<const std::uint8_t*>(header_.data()) + 4,
                               kProps) != LZMA_OK)
      throw Error("invalid LZMA properties");
    auto* options = static_cast<lzma_options_lzma*>(filters[0].options);
    const std::uint64_t enough = std::max<std::uint64_t>(declared_, LZMA_DICT_SIZE_MIN);
    if (options->dict_size > enough) options->dict_size = static_cast<std::uint32_t>(enough);
    const lzma_ret r = lzma_raw_decoder(&s_, filters);
    std::free(options);
    start(r);
    return take;
  }

  bool zip_header_;
  std::uint64_t declared_;
  bool started_ = false;
  std::string header_;
  lzma_stream s_ = LZMA_STREAM_INIT;
};

class ZstdDecoder final : public MemberDecoder {
 public:
  ZstdDecoder() : d_(ZSTD_createDCtx()) {
    if (!d_) throw Error("out of memory (zstd)");
  }
  ~ZstdDecoder() override { ZSTD_freeDCtx(d_); }
  ZstdDecoder(const ZstdDecoder&) = delete;
  ZstdDecoder& operator=(const ZstdDecoder&) = delete;

  Step decode(std::string_view in, char* out, std::size_t out_size) override {
    ZSTD_inBuffer input{in.data(), in.size(), 0};
    ZSTD_outBuffer output{out, out_size, 0};
    const std::size_t r = ZSTD_decompressStream(d_, &output, &input);  // window bounded by zstd's default limit
    if (ZSTD_isError(r)) throw Error(std::string("corrupt zstd data: ") + ZSTD_getErrorName(r));
    return {input.pos, output.pos, r == 0};
  }

 private:
  ZSTD_DCtx* d_;
};

std::unique_ptr<MemberDecoder> decoder_for(std::uint16_t method, std::uint64_t declared) {
  switch (static_cast<ZipMethod>(method)) {
    case ZipMethod::store:
      return std::make_unique<StoredDecoder>();
    case ZipMethod::deflate:
      return std::make_unique<DeflateDecoder>();
    case ZipMethod::bzip2:
      return std::make_unique<Bzip2Decoder>();
    case ZipMethod::lzma:
      return std::make_unique<LzmaDecoder>(true, declared);
    case ZipMethod::xz:
      return std::make_unique<LzmaDecoder>(false, declared);
    case ZipMethod::zstd:
      return std::make_unique<ZstdDecoder>();
    default:
      return nullptr;
  }
}

/// Reads go by the central directory; the local header must describe the same member.
void check_local_header(const ZipEntry& e, const LocalHeader& h, const std::string& archive_name) {
  const bool deferred = (h.flags & kFlagDescriptor) != 0;  // CRC-32 and sizes in a data descriptor
  const auto same = [&](std::uint64_t local, std::uint64_t central) {
    return local == central || (deferred && local == 0);
  };
  std::string differ;
  const auto check = [&](bool ok, const char* what) {
    if (!ok) differ += (differ.empty() ? "" : ", ") + std::string(what);
  };
  check(h.name == e.name, "name");
  check(h.method == e.method, "method");
  check(same(h.crc32, e.crc32), "CRC-32");
  check(same(h.compressed_size, e.compressed_size) &&
            same(h.zip64_compressed_size.value_or(e.compressed_size), e.compressed_size),
        "compressed size");
  check(same(h.uncompressed_size, e.uncompressed_size) &&
            same(h.zip64_uncompressed_size.value_or(e.uncompressed_size), e.uncompressed_size),
        "uncompressed size");
  if (!differ.empty())
    throw Error(InArchive{archive_name}, InMember{e.name},
                "central directory and local header disagree (" + differ + "); not read");
}

/// Deflated members up to this size (both ways) are decoded whole, by libdeflate.
constexpr std::uint64_t kSmallWhole = 256 << 10;

/// A small deflated member in one call: libdeflate decodes a whole buffer several times faster
/// than zlib streams it, and many-member archives are mostly such members. Only the good case
/// is taken here: anything else (bad data, longer or shorter than declared, wrong CRC-32)
/// returns false and the streaming loop reads the member again and says what is wrong, so
/// every message stays the streaming loop's. Returns true when the member was handed to `sink`.
bool decode_small_whole(const io::ByteSource& source, const ZipEntry& entry, const LocalHeader& local,
                        const ChunkSink& sink) {
  struct Buffers {
    libdeflate_decompressor* decompressor = nullptr;
    std::vector<char> in, out;
    Buffers() = default;
    Buffers(const Buffers&) = delete;
    Buffers& operator=(const Buffers&) = delete;
    ~Buffers() { libdeflate_free_decompressor(decompressor); }
  };
  thread_local Buffers buffers;
  // A sink may read another member on this thread (a row's array, read while its .jsonl
  // streams): the buffers hold the bytes it was handed, so that read takes the streaming path,
  // which has buffers of its own.
  thread_local bool in_use = false;
  if (in_use) return false;
  struct InUse {
    bool& flag;
    explicit InUse(bool& f) : flag(f) { flag = true; }
    ~InUse() { flag = false; }
    InUse(const InUse&) = delete;
    InUse& operator=(const InUse&) = delete;
  } const hold(in_use);
  if (!buffers.decompressor && !(buffers.decompressor = libdeflate_alloc_decompressor())) return false;
  const auto in_size = static_cast<std::size_t>(entry.compressed_size);
  const auto out_size = static_cast<std::size_t>(entry.uncompressed_size);
  if (buffers.in.size() < in_size) buffers.in.resize(in_size);
  if (buffers.out.size() < std::max<std::size_t>(out_size, 1)) buffers.out.resize(std::max<std::size_t>(out_size, 1));
  source.read_at(local.data_offset, buffers.in.data(), in_size);  // read_local_header checked it is there
  std::size_t used_in = 0, produced = 0;
  const libdeflate_result r = libdeflate_deflate_decompress_ex(buffers.decompressor, buffers.in.data(), in_size,
                                                               buffers.out.data(), out_size, &used_in, &produced);
  if (r != LIBDEFLATE_SUCCESS || produced != out_size) return false;
  if (crc32_update(0, buffers.out.data(), produced) != entry.crc32) return false;
  if (produced > 0) sink(std::string_view(buffers.out.data(), produced));
  return true;
}

}  // namespace

std::unique_ptr<MemberDecoder> make_member_decoder(std::uint16_t method, std::uint64_t max_output) {
  return decoder_for(method, max_output);
}

bool method_decodable(std::uint16_t method) {
  switch (static_cast<ZipMethod>(method)) {
    case ZipMethod::store:
    case ZipMethod::deflate:
    case ZipMethod::bzip2:
    case ZipMethod::lzma:
    case ZipMethod::xz:
    case ZipMethod::zstd:
      return true;
    default:
      return false;
  }
}

std::uint64_t method_physical_ratio(std::uint16_t method) {
  if (method == static_cast<std::uint16_t>(ZipMethod::store)) return 1;
  if (method == static_cast<std::uint16_t>(ZipMethod::deflate)) return kDeflateRatio;
  return 0;
}

std::uint64_t allowed_ratio(std::uint16_t method, std::uint64_t max_ratio) {
  const std::uint64_t physical = method_physical_ratio(method);
  return physical == 0 ? std::max<std::uint64_t>(max_ratio, 1)
                       : std::min(physical, std::max<std::uint64_t>(max_ratio, 1));
}

bool declares_excess_ratio(const ZipEntry& e, std::uint64_t max_ratio) {
  if (e.method == static_cast<std::uint16_t>(ZipMethod::store)) return false;  // verify's size_mismatch
  const std::uint64_t ratio = allowed_ratio(e.method, max_ratio);
  // A physical bound is exact up to rounding; a configured one leaves small members alone.
  const std::uint64_t slack = ratio == method_physical_ratio(e.method) ? ratio : kRatioSlack;
  std::uint64_t most = 0;
  if (__builtin_mul_overflow(e.compressed_size, ratio, &most) || __builtin_add_overflow(most, slack, &most))
    return false;
  return e.uncompressed_size > most;
}

void stream_member(const io::ByteSource& source, const ZipEntry& entry, const std::string& archive_name,
                   const MemberStreamOptions& options, const ChunkSink& sink) {
  // Built only for a message: many small members must not pay a string each.
  const auto who_text = [&] { return "member '" + entry.name + "'"; };
  const auto named = [&] { return InMember{entry.name, true}; };  // the messages name it themselves
  const bool whole = options.prefix == UINT64_MAX;
  if (entry.encrypted())
    throw MemberDataError(Kind::undecodable, InArchive{archive_name}, named(), who_text() + " is encrypted");
  auto decoder = decoder_for(entry.method, entry.uncompressed_size);
  if (!decoder)
    throw MemberDataError(Kind::undecodable, InArchive{archive_name}, named(),
                          who_text() + " uses compression " + method_name(entry.method) + ", which zanj does not read");
  LocalHeader local;
  try {
    local = read_local_header(source, entry);
  } catch (const Error& e) {  // context: the member joins the message
    throw Error(InArchive{archive_name}, InMember{entry.name}, e.what(), e.exit());
  }
  check_local_header(entry, local, archive_name);
  const std::uint64_t ratio = allowed_ratio(entry.method, options.max_ratio);
  const bool physical = ratio == method_physical_ratio(entry.method);  // over it is a lie, not a choice
  if (whole && declares_excess_ratio(entry, options.max_ratio))
    throw MemberDataError(
        Kind::too_long, InArchive{archive_name}, named(),
        who_text() + " declares " + std::to_string(entry.uncompressed_size) + " bytes from " +
            std::to_string(entry.compressed_size) + ", over " +
            (physical              ? method_name(entry.method) + "'s maximum of " + std::to_string(ratio) + ":1"
             : ratio == UINT64_MAX ? std::string("what no compressed bytes can hold")
                                   : "the ratio limit of " + std::to_string(ratio) + ":1 (--max-ratio)") +
            "; not decoded");
  if (whole && entry.uncompressed_size > options.max_member_bytes)
    throw Error(InArchive{archive_name}, named(),
                who_text() + " declares " + std::to_string(entry.uncompressed_size) + " bytes, over the limit of " +
                    std::to_string(options.max_member_bytes) + " (raise with --max-member-bytes); not decoded");

  if (whole && entry.method == static_cast<std::uint16_t>(ZipMethod::deflate) && entry.compressed_size <= kSmallWhole &&
      entry.uncompressed_size <= kSmallWhole && decode_small_whole(source, entry, local, sink))
    return;

  // Buffers no larger than the member can use: many small members are the common case.
  std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(options.first_piece, entry.compressed_size));
  const std::size_t in_capacity =
      static_cast<std::size_t>(std::min<std::uint64_t>(kMaxPiece, std::max<std::uint64_t>(entry.compressed_size, 1)));
  const std::size_t out_capacity = static_cast<std::size_t>(std::min<std::uint64_t>(
      {kOutBuffer, std::max<std::uint64_t>(entry.uncompressed_size, 1), std::max<std::uint64_t>(options.prefix, 1)}));
  const auto input = std::make_unique_for_overwrite<char[]>(in_capacity);
  const auto output = std::make_unique_for_overwrite<char[]>(out_capacity);

  std::uint64_t fed = 0, consumed = 0, produced = 0;
  std::size_t in_pos = 0, in_len = 0;
  std::uint32_t crc = 0;
  for (;;) {
    if (in_pos == in_len && fed < entry.compressed_size) {
      in_len = static_cast<std::size_t>(std::min<std::uint64_t>({piece, in_capacity, entry.compressed_size - fed}));
      source.read_at(local.data_offset + fed, input.get(), in_len);  // read_local_header checked it is there
      fed += in_len;
      in_pos = 0;
      piece = std::min(piece * 2, kMaxPiece);
    }
    MemberDecoder::Step step;
    try {
      step = decoder->decode(std::string_view(input.get() + in_pos, in_len - in_pos), output.get(), out_capacity);
    } catch (const Error& e) {  // context: the member joins the message
      throw MemberDataError(Kind::undecodable, InArchive{archive_name}, named(),
                            who_text() + " cannot be decoded: " + e.what());
    }
    in_pos += step.consumed;
    consumed += step.consumed;
    if (step.produced > 0) {
      std::string_view chunk(output.get(), step.produced);
      if (!whole) chunk = chunk.substr(0, static_cast<std::size_t>(options.prefix - produced));
      if (whole && produced + chunk.size() > entry.uncompressed_size)
        throw MemberDataError(
            Kind::too_long, InArchive{archive_name}, named(),
            who_text() + " inflates past its declared size of " + std::to_string(entry.uncompressed_size) + " bytes");
      std::uint64_t allowed = 0;
      if (__builtin_mul_overflow(ratio, consumed, &allowed) || __builtin_add_overflow(allowed, kRatioSlack, &allowed))
        allowed = UINT64_MAX;
      if (produced + chunk.size() > allowed)
        throw MemberDataError(
            Kind::too_long, InArchive{archive_name}, named(),
            who_text() + " expands more than " + std::to_string(ratio) + ":1 while decoding (" +
                (physical ? method_name(entry.method) + "'s maximum" : std::string("ratio limit, --max-ratio")) +
                "); reading stopped");
      produced += chunk.size();
      if (whole) crc = crc32_update(crc, chunk.data(), chunk.size());
      if (!sink(chunk) || (!whole && produced >= options.prefix)) return;
    }
    if (step.finished) break;
    if (step.consumed == 0 && step.produced == 0) {
      if (in_pos < in_len)
        throw MemberDataError(Kind::undecodable, InArchive{archive_name}, named(),
                              who_text() + " cannot be decoded: the decoder stalls");
      if (fed == entry.compressed_size) break;  // every compressed byte used, the stream never ended
    }
  }
  if (!whole) return;
  if (produced != entry.uncompressed_size)
    throw MemberDataError(Kind::too_short, InArchive{archive_name}, named(),
                          who_text() + " is truncated: " + std::to_string(produced) + " of " +
                              std::to_string(entry.uncompressed_size) + " bytes");
  if (crc != entry.crc32)
    throw MemberDataError(Kind::crc_mismatch, InArchive{archive_name}, named(),
                          who_text() + " is corrupt: CRC-32 mismatch");
}

}  // namespace zanj::zip
