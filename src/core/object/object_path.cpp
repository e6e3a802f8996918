#include "object/tree_json.hpp"

#include <charconv>
#include <mutex>

#include "zanj/error.hpp"
#include "base/utf8.hpp"
#include "base/hex_digit.hpp"

namespace zanj {

void append_escaped_segment(std::string& out, std::string_view segment) {
  static constexpr char hex[] = "0123456789ABCDEF";
  if (segment.empty()) {
    out += "~e";  // an empty key, which "" (the root) and "a//" cannot say
    return;
  }
  // Most keys are printable ASCII without '~' or '/': appended whole, without decoding.
  bool plain = true;
  for (const char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x7F || c == '~' || c == '/') {
      plain = false;
      break;
    }
  }
  if (plain) {
    out.append(segment);
    return;
  }
  std::uint32_t cp = 0;
  while (!segment.empty()) {
    std::size_t len = base::utf8_sequence(segment, cp);
    const bool raw = len != 0 && cp >= 0x20 && !(cp >= 0x7F && cp <= 0x9F);
    if (len == 0) len = 1;
    if (raw && cp == '~') {
      out += "~0";
    } else if (raw && cp == '/') {
      out += "~1";
    } else if (raw) {
      out.append(segment.substr(0, len));
    } else {
      for (unsigned char c : segment.substr(0, len)) {  // terminal-safe, and back to the same bytes
        out += "~x";
        out += hex[c >> 4];
        out += hex[c & 15];
      }
    }
    segment.remove_prefix(len);
  }
}

std::string escape_path_segment(std::string_view segment) {
  std::string out;
  out.reserve(segment.size());
  append_escaped_segment(out, segment);
  return out;
}

std::string join_path(const PathSegments& segments) {
  std::string out;
  for (const auto& s : segments) {
    if (!out.empty()) out += '/';
    append_escaped_segment(out, s);
  }
  return out;
}

std::string child_path(std::string_view parent, std::string_view segment) {
  std::string out(parent);
  if (!out.empty()) out += '/';
  append_escaped_segment(out, segment);
  return out;
}

namespace {
[[noreturn]] void bad_escape(std::string_view path) {
  throw Error("bad object path '" + terminal_safe(path) +
                  "': '~' starts an escape: ~0 is '~', ~1 is '/', ~e an empty key, ~xNN the byte NN (hex)",
              Exit::usage);
}
}  // namespace

PathSegments split_path(std::string_view path) {
  PathSegments out;
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  if (path.empty()) return out;
  std::string current;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '/') {
      out.push_back(std::move(current));
      current.clear();
    } else if (c == '~') {
      const char next = i + 1 < path.size() ? path[i + 1] : '\0';
      if (next == '0' || next == '1') {
        current += next == '0' ? '~' : '/';
        ++i;
      } else if (next == 'x' && i + 3 < path.size() && base::hex_digit_value(path[i + 2]) >= 0 &&
                 base::hex_digit_value(path[i + 3]) >= 0) {
        current += static_cast<char>(base::hex_digit_value(path[i + 2]) * 16 + base::hex_digit_value(path[i + 3]));
        i += 3;
      } else if (next == 'e' && current.empty() && (i + 2 == path.size() || path[i + 2] == '/')) {
        ++i;  // "~e" is a whole segment: the empty key
      } else {
        bad_escape(path);
      }
    } else {
      current += c;
    }
  }
  out.push_back(std::move(current));
  return out;
}

namespace {
bool parse_index(std::string_view s, std::size_t& index) {
  if (s.empty() || (s.size() > 1 && s.front() == '0')) return false;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), index);
  return ec == std::errc() && ptr == s.data() + s.size();
}
}  // namespace

JsonView object::KeyIndex::find(JsonView object, std::string_view key) {
  if (!object.is_object() || object.size() < kIndexFrom) return object.find(key);
  const json::JsonViewIdentity identity = json::view_identity(object);
  // Paths into one object mostly come in its keys' order (externals_info lists the members in
  // the order the writer met the nodes): the key after this thread's last find in the same
  // object is tried first, a neighbour in memory, where a hash lookup is two or three cache
  // misses on 50,000 keys. A guess only: taken where no key repeats.
  thread_local const KeyIndex* guess_by = nullptr;
  thread_local json::JsonViewIdentity guess_in{};
  thread_local std::size_t guess = 0;
  const Keys* keys = nullptr;
  {
    const std::shared_lock read(mutex_);
    if (const auto it = indexes_.find(identity); it != indexes_.end()) keys = &it->second;
  }
  if (!keys) {
    const std::unique_lock write(mutex_);
    auto [it, created] = indexes_.try_emplace(identity);
    if (created) {  // another thread may have made it while this one waited
      it->second.position.reserve(object.size());
      std::size_t at = 0;
      for (const auto [k, v] : object.members())
        it->second.unique &= it->second.position.try_emplace(k, at++).second;  // the first of equal keys
    }
    keys = &it->second;
  }
  if (keys->unique && guess_by == this && guess_in == identity && guess + 1 < object.size() &&
      object.key(guess + 1) == key)
    return object[++guess];
  const auto hit = keys->position.find(key);
  if (hit == keys->position.end()) return JsonView();
  guess_by = this, guess_in = identity, guess = hit->second;
  return object[hit->second];
}

const Json* object::follow_path(const Json& root, const PathSegments& segments, std::size_t* found,
                                object::KeyIndex* index) {
  const Json* node = &root;
  std::size_t matched = 0;
  for (const auto& seg : segments) {
    const Json* next = nullptr;
    if (node->is_object()) {
      next = index ? json::json_ptr(index->find(json::view_of(*node), seg)) : node->find(seg);
    } else if (node->is_array()) {
      std::size_t position = 0;
      if (parse_index(seg, position) && position < node->as_array().size()) next = &node->as_array()[position];
    }
    if (!next) break;
    node = next;
    ++matched;
  }
  if (found) *found = matched;
  return matched == segments.size() ? node : nullptr;
}

JsonView follow_path(JsonView root, const PathSegments& segments, std::size_t* found) {
  JsonView node = root;
  std::size_t matched = 0;
  for (const auto& seg : segments) {
    JsonView next;
    if (node.is_object()) {
      next = node.find(seg);
    } else if (node.is_array()) {
      std::size_t position = 0;
      if (parse_index(seg, position) && position < node.size()) next = node[position];
    }
    if (!next) break;
    node = next;
    ++matched;
  }
  if (found) *found = matched;
  return matched == segments.size() ? node : JsonView();
}

bool object::path_from_json(const Json& list, PathSegments& out) {
  if (!list.is_array()) return false;
  out.clear();
  for (const auto& item : list.as_array()) {
    std::uint64_t index = 0;
    if (item.is_string()) {
      out.push_back(item.as_string());
    } else if (item.get_uint64(index)) {
      out.push_back(std::to_string(index));
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace zanj
