#include "report/verified_values.hpp"

#include "array/npy_header.hpp"
#include "summary/array_profile.hpp"
#include "zanj/error.hpp"

namespace zanj::report {

/// One expected member: its header gathered first, then its elements (an element split
/// between two chunks waits in `carry`).
struct VerifiedValues::Member {
  std::vector<std::uint64_t> shape;
  ProfileOptions options;
  std::string head, carry;
  std::optional<NpyHeader> header;
  std::optional<ProfileBuilder> builder;
  std::uint64_t bytes = 0;  // data bytes received
  bool usable = true;

  void restart() {
    head.clear();
    carry.clear();
    header.reset();
    builder.reset();
    bytes = 0;
    usable = true;
  }

  void feed(std::string_view chunk) {
    if (!usable) return;
    if (!header) {
      head.append(chunk);
      if (head.size() < 12) return;
      const Result<std::uint64_t> size = read_npy_header_size(head);
      if (size && head.size() < *size) return;
      Result<NpyHeader> read = read_npy_header(head);  // fails as the size did, if it did
      if (!read) {
        usable = false;
        return;
      }
      header = std::move(*read);
      const Dtype& dtype = header->dtype;
      if (header->fortran_order || dtype.needs_byteswap() || dtype.itemsize == 0 || header->shape != shape ||
          !is_numeric(dtype)) {
        usable = false;
        return;
      }
      builder.emplace(dtype, shape, options);
      chunk = std::string_view(head).substr(header->data_offset);
    }
    bytes += chunk.size();
    const std::size_t size = builder->item_size();
    if (!carry.empty()) {
      const std::size_t need = std::min(size - carry.size(), chunk.size());
      carry.append(chunk.substr(0, need));
      chunk.remove_prefix(need);
      if (carry.size() < size) return;
      builder->add(carry.data(), size);
      carry.clear();
    }
    const std::size_t whole = chunk.size() / size * size;
    builder->add(chunk.data(), whole);
    carry.assign(chunk.substr(whole));
    if (!head.empty()) head = std::string();  // the header's bytes are no longer needed
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
  if (!m.usable || !m.builder || !m.carry.empty()) return std::nullopt;
  const Result<std::uint64_t> data_bytes = m.header->checked_data_bytes();
  if (!data_bytes || m.bytes != *data_bytes) return std::nullopt;
  ArrayProfile profile = m.builder->result();
  at->second.reset();
  return profile;
}

}  // namespace zanj::report
