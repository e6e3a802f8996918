#include "report/verified_values.hpp"

#include "array/npy_header.hpp"
#include "summary/array_profile.hpp"
#include "zanj/error.hpp"

namespace zanj::report {

/// One expected member. Its reading state (`Work`: the header gathered first, then the
/// elements, an element split between two chunks waiting in `carry`) exists only while verify
/// reads it; once every byte has come, only the finished profile is kept. A report of 50,000
/// small members then holds 50,000 small profiles, not 50,000 profile builders.
struct VerifiedValues::Member {
  std::vector<std::uint64_t> shape;
  ProfileOptions options;
  struct Work {
    std::string head, carry;
    std::optional<NpyHeader> header;
    std::optional<ProfileBuilder> builder;
    std::uint64_t bytes = 0, data_bytes = 0;  // data bytes received, and expected
  };
  std::unique_ptr<Work> work;
  std::unique_ptr<ArrayProfile> result;  // every byte arrived, no more than the header says
  bool usable = true;

  void restart() {
    work = std::make_unique<Work>();
    result.reset();
    usable = true;
  }

  void fail() {
    usable = false;
    work.reset();
  }

  void feed(std::string_view chunk) {
    if (!usable) return;
    if (result || !work) {  // bytes past the end the header gives
      if (!chunk.empty()) fail();
      return;
    }
    Work& w = *work;
    if (!w.header) {
      w.head.append(chunk);
      if (w.head.size() < 12) return;
      const Result<std::uint64_t> size = read_npy_header_size(w.head);
      if (size && w.head.size() < *size) return;
      Result<NpyHeader> read = read_npy_header(w.head);  // fails as the size did, if it did
      if (!read) return fail();
      w.header = std::move(*read);
      const Dtype& dtype = w.header->dtype;
      const Result<std::uint64_t> data_bytes = w.header->checked_data_bytes();
      if (w.header->fortran_order || dtype.needs_byteswap() || dtype.itemsize == 0 || w.header->shape != shape ||
          !is_numeric(dtype) || !data_bytes)
        return fail();
      w.data_bytes = *data_bytes;
      w.builder.emplace(dtype, shape, options);
      chunk = std::string_view(w.head).substr(w.header->data_offset);
    }
    w.bytes += chunk.size();
    if (w.bytes > w.data_bytes) return fail();
    const std::size_t size = w.builder->item_size();
    if (!w.carry.empty()) {
      const std::size_t need = std::min(size - w.carry.size(), chunk.size());
      w.carry.append(chunk.substr(0, need));
      chunk.remove_prefix(need);
      if (w.carry.size() < size) return;
      w.builder->add(w.carry.data(), size);
      w.carry.clear();
    }
    const std::size_t whole = chunk.size() / size * size;
    w.builder->add(chunk.data(), whole);
    w.carry.assign(chunk.substr(whole));
    if (!w.head.empty()) w.head = std::string();  // the header's bytes are no longer needed
    if (w.bytes == w.data_bytes && w.carry.empty()) {
      result = std::make_unique<ArrayProfile>(w.builder->result());
      work.reset();
    }
  }
};

VerifiedValues::VerifiedValues() = default;
VerifiedValues::~VerifiedValues() = default;

void VerifiedValues::expect(const std::string& member, const ArrayNode& node, const ProfileOptions& options) {
  auto [at, fresh] = members_.try_emplace(member);
  if (!fresh) {  // two arrays share a member: let each read its own
    at->second.reset();
    return;
  }
  at->second = std::make_unique<Member>();
  at->second->shape = node.shape;
  at->second->options = options;
}

std::function<void(std::string_view)> VerifiedValues::sink(const std::string& member) {
  Member* m = nullptr;
  {
    const std::lock_guard lock(mutex_);
    const auto at = members_.find(member);
    if (at == members_.end() || !at->second) return nullptr;
    m = at->second.get();
  }
  m->restart();  // a member is read by one thread at a time; a retried read starts again
  return [m](std::string_view chunk) { m->feed(chunk); };
}

std::optional<ArrayProfile> VerifiedValues::take(const std::string& member, bool broken) {
  const std::lock_guard lock(mutex_);
  const auto at = members_.find(member);
  if (at == members_.end() || !at->second || broken) return std::nullopt;
  Member& m = *at->second;
  if (!m.usable || !m.result) return std::nullopt;
  ArrayProfile profile = std::move(*m.result);
  at->second.reset();
  return profile;
}

}  // namespace zanj::report
