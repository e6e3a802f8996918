// The members of a document once parsed (json_builder.hpp): duplicate keys settled as a
// Python dict settles them, and the strings a document still views of its own text copied
// out so the text can go.
#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <functional>

#include "json/json_builder.hpp"

namespace zanj::json {
/// A cheap hash of a short string (its first and last 8 bytes and its length): enough to
/// spread a document's keys over a cache's slots, where a collision only costs a copy, and to
/// tell most distinct keys apart before their bytes are compared. Fixed-size loads only: a
/// memcpy of a variable length is a call.
std::uint64_t JsonDocumentBuilder::short_hash(std::string_view s) {
  constexpr std::uint64_t kMix = 0x9E3779B97F4A7C15ull;
  const char* const p = s.data();
  const std::size_t n = s.size();
  std::uint64_t head = 0, tail = 0;
  if (n >= 8) {
    std::memcpy(&head, p, 8);
    std::memcpy(&tail, p + n - 8, 8);
  } else if (n >= 4) {  // two 4-byte loads that overlap when n < 8 cover every byte
    std::uint32_t first = 0, last = 0;
    std::memcpy(&first, p, 4);
    std::memcpy(&last, p + n - 4, 4);
    head = first;
    tail = last;
  } else if (n > 0) {
    head = static_cast<unsigned char>(p[0]) | static_cast<std::uint64_t>(static_cast<unsigned char>(p[n / 2])) << 8 |
           static_cast<std::uint64_t>(static_cast<unsigned char>(p[n - 1])) << 16;
  }
  std::uint64_t h = (head ^ (n * kMix)) * kMix;
  h = (h ^ tail ^ (h >> 29)) * kMix;
  return h >> 40;
}

// In a large document (kShareKeysFrom), a key is one node however often it repeats nearby:
// the records of a list or dict repeat
// the same keys, and a node per occurrence was half of a document of small dicts (871,251 of
// 1,848,111 nodes). Keys are only ever read as text, never as values of their own, so one
// node serves them all.
std::uint32_t JsonDocumentBuilder::key_at(const char* first) {
  if (end_ - begin_ < kShareKeysFrom) {  // a small document (a .jsonl line): nodes cost little
    const char* end = nullptr;
    return string_at(first, end);
  }
  // Most keys are short and plain: up to the quote, with no escape or control byte, they are
  // their own text, looked up before any node is made.
  const char* const stop = std::min(end_, first + kLongestSharedKey + 1);
  const char* const p = string_run_end(first, stop);
  if (p == stop || *p != '"') {
    const char* end = nullptr;
    return string_at(first, end);  // long, escaped or not a string at all: a node of its own
  }
  const std::string_view key(first, static_cast<std::size_t>(p - first));
  if (keys_.empty()) keys_.assign(kKeySlots, RecentKey{kNoKey, 0});
  // The slot keeps the key's hash: a slot that another key holds is told apart without reading
  // that key's node and text (a cache miss each: 5% of `info` on a 264,015-key object).
  const std::uint64_t hash = short_hash(key);
  RecentKey& slot = keys_[hash & (kKeySlots - 1)];
  if (slot.node != kNoKey && slot.hash == hash && doc_.text_of(doc_.nodes_[slot.node]) == key) return slot.node;
  slot = RecentKey{add_text(Json::Type::string, first, p), static_cast<std::uint32_t>(hash)};
  return slot.node;
}

// Copy what the nodes still view of the document's own text into the arena. Most of an
// indented document's bytes are spaces, punctuation and numbers, and a key repeated in every
// record is kept once (a small direct-mapped cache of recent strings finds most repeats; a miss
// only costs a copy): a 50,000-array __zanj__.json kept 8 MB of text for about 2 MB of
// distinct strings.
void JsonDocumentBuilder::copy_strings_out(JsonDocument& doc, std::size_t first, std::vector<RecentString>& recent) {
  const auto views_text = [](const Node& n) {
    return !n.in_arena && !n.in_spans && (n.type() == Json::Type::string || n.type() == Json::Type::big_integer);
  };
  const char* const text = doc.text();
  std::size_t viewed = 0, strings = 0;
  for (std::size_t i = first; i < doc.nodes_.size(); ++i)
    if (views_text(doc.nodes_[i])) viewed += doc.nodes_[i].size, ++strings;
  if (strings == 0) return;
  std::string& arena = doc.arena_;
  arena.reserve(arena.size() + viewed);  // an upper bound: only the pages written count, and it is trimmed at the end
  constexpr std::size_t kMostSlots = 4096, kLongest = 64;  // longer strings are rarely repeated
  // As many slots as strings, up to kMostSlots: each .jsonl line is a document of its own, and
  // clearing 4,096 slots for every one of millions of lines was 93% of verify's time on them.
  if (recent.empty()) recent.resize(std::bit_ceil(std::clamp<std::size_t>(strings, 1, kMostSlots)));
  const std::size_t slots = recent.size();
  for (std::size_t i = first; i < doc.nodes_.size(); ++i) {
    Node& n = doc.nodes_[i];
    if (!views_text(n)) continue;
    const std::string_view s(text + n.offset, n.size);
    RecentString* slot = nullptr;
    std::uint32_t tag = 0;
    if (s.size() <= kLongest) {
      const std::uint64_t hash = short_hash(s);
      tag = static_cast<std::uint32_t>(hash) | RecentString::kUsed;
      slot = &recent[hash & (slots - 1)];
      // The hash first: a slot another string holds is passed over without reading the arena.
      if (slot->tag == tag && slot->size == s.size() && arena.compare(slot->offset, s.size(), s) == 0) {
        n.offset = slot->offset;
        n.in_arena = true;
        continue;
      }
    }
    const std::uint64_t offset = arena.size();
    arena.append(s);
    if (slot) *slot = RecentString{offset, n.size, tag};
    n.offset = offset;
    n.in_arena = true;
  }
}

void JsonDocumentBuilder::release_text(JsonDocument& doc, std::vector<RecentString>& recent) {
  copy_strings_out(doc, 0, recent);
  std::string().swap(doc.owned_text_);  // before the trim, which may copy the arena
  doc.text_start_ = 0;
  doc.arena_.shrink_to_fit();
}

// Duplicate keys are resolved when the object closes: appends stay cheap, and small
// objects (nearly all of them) are checked by comparing keys, large ones through a hash map.
void JsonDocumentBuilder::resolve_duplicates() {
  const std::vector<Frame>& stack = stack_;
  std::uint32_t* members = pending_.data() + stack.back().first;  // (key, value) pairs
  const std::size_t n = (pending_.size() - stack.back().first) / 2;
  if (n < 2) return;
  const auto key_at = [&](std::size_t i) { return key_text(members[2 * i]); };
  std::size_t duplicates = 0;
  std::vector<std::size_t> first_of;  // for each member: index of the first member with its key
  const auto mark = [&](std::size_t i, std::size_t first) {
    if (first_of.empty()) {
      first_of.resize(n);
      for (std::size_t k = 0; k < n; ++k) first_of[k] = k;
    }
    first_of[i] = first;
    ++duplicates;
  };
  if (n <= 16) {
    // Pairs are compared by node first (a shared key is one node), then by hash, and by text
    // only where the hashes agree: nearly always a true duplicate.
    std::array<std::uint64_t, 16> hashes;
    for (std::size_t i = 0; i < n; ++i) hashes[i] = short_hash(key_at(i));
    for (std::size_t i = 1; i < n; ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (hashes[j] == hashes[i] && (members[2 * j] == members[2 * i] || key_at(j) == key_at(i))) {
          mark(i, first_of.empty() ? j : first_of[j]);
          break;
        }
  } else {
    // An open-addressing table of member indices (+1; 0 is free), 5 bytes per member where a
    // node-based hash map would take about 50 (the root's, closed last, is at the parse's
    // peak). The bits an index leaves free in its slot hold more of the key's hash, so a probe
    // compares text only when they agree: at 4/5 full a new key meets about 13 others, and
    // comparing each (a cache miss) was a third of `info`'s time on a 264,015-key root.
    const auto index_bits = static_cast<int>(std::bit_width(n));  // n + 1 fits
    const std::uint32_t index_mask = index_bits >= 32 ? UINT32_MAX : (std::uint32_t{1} << index_bits) - 1;
    std::vector<std::uint32_t> table(n + n / 4 + 1, 0);
    const std::size_t slots = table.size();
    const std::hash<std::string_view> hash;
    for (std::size_t i = 0; i < n; ++i) {
      const std::string_view key = key_at(i);
      const std::uint64_t h = hash(key);
      std::size_t slot = (h >> 32) % slots;
      const std::uint32_t tag = static_cast<std::uint32_t>(h) & ~index_mask;  // the slot took the high half
      for (;; slot = slot + 1 == slots ? 0 : slot + 1) {
        const std::uint32_t entry = table[slot];
        if (entry == 0) {
          table[slot] = tag | static_cast<std::uint32_t>(i + 1);
          break;
        }
        if ((entry & ~index_mask) != tag) continue;
        const std::size_t other = (entry & index_mask) - 1;
        if (members[2 * other] == members[2 * i] || key_at(other) == key) {
          mark(i, other);
          break;
        }
      }
    }
  }
  if (!duplicates) return;
  if (notes_.duplicate_keys == 0) {
    // The object's path: the keys (or indices) under which each enclosing container sits.
    for (std::size_t level = 0; level + 1 < stack.size(); ++level) {
      const Frame& f = stack[level];
      const std::size_t entries = (level + 1 < stack.size() ? stack[level + 1].first : pending_.size()) - f.first;
      notes_.first_duplicate.push_back(f.object ? std::string(key_text(f.key)) : std::to_string(entries));
    }
    for (std::size_t i = 0; i < n; ++i)
      if (first_of[i] != i) {
        notes_.first_duplicate.push_back(std::string(key_at(i)));
        break;
      }
  }
  notes_.duplicate_keys += duplicates;
  // Python's dict: the first position keeps the key, the last value wins.
  for (std::size_t i = 0; i < n; ++i)
    if (first_of[i] != i) members[2 * first_of[i] + 1] = members[2 * i + 1];
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (first_of[i] != i) continue;
    members[2 * kept] = members[2 * i];
    members[2 * kept + 1] = members[2 * i + 1];
    ++kept;
  }
  pending_.resize(stack.back().first + 2 * kept);
}

}  // namespace zanj::json
