// The walk of a large document's fragments (json_fragments.cpp cuts them), on the calling
// thread alone or on several (JsonLimits::threads).
//
// Beside the caller, a fragment can be walked apart when it closes none of the containers it
// continues: all it does to the document is add entries to the innermost of those (and leave
// containers of its own open). Such a part is walked into a document of its own, its nodes
// numbered from 0, its strings in its own arena; the builder then joins the parts in document
// order, renumbering their nodes and moving their entries onto its open containers, so the
// document is the one the serial walk builds (the same values, and the same verdict). The
// fragments around it (the first, the last, those closing what they continue) are the
// builder's own, and so is any part whose walk failed or met what only the builder can
// judge: each of those is walked again here, and so says what is wrong, and where, as the
// serial walk would.
#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>

#include <simdjson.h>

#include "base/memory_pages.hpp"
#include "base/thread_pool.hpp"
#include "json/json_builder.hpp"

namespace zanj::json {

struct JsonDocumentBuilder::WalkedPart {
  JsonDocument doc;                    ///< its nodes, child lists and arena; its text is the fragment's
  std::vector<std::uint32_t> pending;  ///< new entries of the innermost container it continues, then of `open`'s
  std::vector<Frame> open;             ///< the containers it opened and left open, outermost first
  std::uint32_t key = kNoKey;          ///< the key its innermost continued object read last
  std::uint64_t values = 0;
  std::size_t packed_first = 0, packed_end = 0;  ///< the document's packed arrays it met
};

namespace {

/// Fragment `f` of `text` as a document of its own in `buffer`, with its opening and closing,
/// padded for simdjson; returns its size.
std::size_t fragment_text(const char* text, const JsonDocumentBuilder::Fragment& f, std::string& buffer) {
  const std::size_t size = f.opening.size() + (f.last - f.first) + f.closing.size();
  if (buffer.capacity() < size + simdjson::SIMDJSON_PADDING) buffer.reserve(size + simdjson::SIMDJSON_PADDING);
  buffer.assign(f.opening).append(text + f.first, f.last - f.first).append(f.closing);
  return size;
}

}  // namespace

void JsonDocumentBuilder::release_fragment(char* text, const Fragment& f) {
  if (!release_as_parsed_) return;
  // What the nodes so far view of text[0, f.last) goes to the arena, and those pages back to
  // the system: the text is not read there again (it is freed once the parse ends), and a
  // large document's text no longer stays resident beside all of its nodes.
  copy_strings_out(doc_, copied_nodes_, recent_);
  copied_nodes_ = doc_.nodes_.size();
  base::discard_pages(text, f.last);
}

void JsonDocumentBuilder::walk_here(TextParser& parser, char* text, const Fragment& f, bool last, std::string& buffer) {
  const std::size_t size = fragment_text(text, f, buffer);
  begin_ = buffer.data();
  end_ = begin_ + size;
  shift_ = f.first - f.opening.size();
  walk_text(parser, buffer.data(), size, buffer.capacity(), f.continued, last ? UINT64_MAX : f.closes);
  release_fragment(text, f);
}

bool JsonDocumentBuilder::walk_apart(TextParser& parser, const char* text, const Fragment& f, WalkedPart& part) const {
  std::string& buffer = part.doc.owned_text_;
  const std::size_t size = fragment_text(text, f, buffer);
  JsonParseNotes notes;
  JsonDocumentBuilder b(part.doc, buffer, what_, limits_, notes, false);
  b.places_ = places_;
  b.part_at_ = f.first - f.opening.size();
  part.packed_first = b.next_packed_ = static_cast<std::size_t>(
      std::lower_bound(places_.begin(), places_.end(), f.first,
                       [](const PackedPlace& place, std::size_t at) { return place.at < at; }) -
      places_.begin());
  // The innermost container it continues stands as the first frame (no node of its own); the
  // others are never reached: the part closes none of them.
  b.depth_base_ = f.continued - 1;
  b.stack_.push_back(Frame{kNoKey, f.opening.back() == '{', 0, kNoKey});
  b.walk_text(parser, buffer.data(), size, buffer.capacity(), f.continued, f.closes);
  // A duplicate key's note names the path to its object, which runs through containers the
  // part does not know.
  if (notes.duplicate_keys != 0) return false;
  if (release_as_parsed_) {
    std::vector<RecentString> recent;
    copy_strings_out(part.doc, 0, recent);
  }
  std::string().swap(buffer);
  part.pending = std::move(b.pending_);
  part.open.assign(b.stack_.begin() + 1, b.stack_.end());
  part.key = b.stack_.front().key;
  part.values = notes.values;
  part.packed_end = b.next_packed_;
  return true;
}

bool JsonDocumentBuilder::join_part(const Fragment& f, WalkedPart& part) {
  const std::vector<Node>& nodes = part.doc.nodes_;
  // Over the value limit: the builder's own walk says so where the serial walk would.
  if (notes_.values + part.values > limits_.max_values || doc_.nodes_.size() + nodes.size() >= UINT32_MAX - 1 ||
      next_packed_ != part.packed_first)
    return false;
  const auto node_shift = static_cast<std::uint32_t>(doc_.nodes_.size());
  const std::uint64_t child_shift = doc_.children_.size(), arena_shift = doc_.arena_.size();
  const std::uint64_t text_shift = f.first - f.opening.size();
  for (Node n : nodes) {
    const Json::Type type = n.type();
    if ((type == Json::Type::array || type == Json::Type::object) && !n.packed) {
      n.offset += child_shift;
    } else if (type == Json::Type::string || type == Json::Type::big_integer) {
      if (n.in_arena)
        n.offset += arena_shift;
      else if (!n.in_spans)
        n.offset += text_shift;  // the part's text was the fragment alone
    }
    doc_.nodes_.push_back(n);
  }
  for (const std::uint32_t child : part.doc.children_) doc_.children_.push_back(child + node_shift);
  doc_.arena_.append(part.doc.arena_);
  const std::size_t pending_at = pending_.size();
  for (const std::uint32_t entry : part.pending) pending_.push_back(entry + node_shift);
  if (part.key != kNoKey) stack_.back().key = part.key + node_shift;
  for (Frame frame : part.open) {
    frame.node += node_shift;
    frame.first += pending_at;
    if (frame.object) frame.key += node_shift;  // an object open at a cut has read a key
    stack_.push_back(frame);
  }
  notes_.values += part.values;
  ++notes_.parts_joined;
  next_packed_ = part.packed_end;
  if (release_as_parsed_) copied_nodes_ = doc_.nodes_.size();  // its strings are in the arena already
  return true;
}

void JsonDocumentBuilder::parse_fragments(char* text, const std::vector<Fragment>& fragments) {
  const std::size_t n = fragments.size();
  std::vector<bool> apart(n, false);
  std::size_t parts = 0;
  for (std::size_t k = 1; k + 1 < n; ++k) {
    const Fragment& f = fragments[k];
    apart[k] = f.continued > 0 && f.lowest == f.continued;
    parts += apart[k] ? 1 : 0;
  }
  if (limits_.threads > 1 && parts >= 2) {
    parse_fragments_beside(text, fragments, apart,
                           static_cast<unsigned>(std::min<std::size_t>(limits_.threads - 1, parts - 1)));
    return;
  }
  const TextParserPtr parser = make_text_parser();
  std::string buffer;
  for (std::size_t k = 0; k < n; ++k) walk_here(*parser, text, fragments[k], k + 1 == n, buffer);
}

namespace {

enum class PartState : std::uint8_t { free, taken, walked, failed, here };

/// Tells the helpers to stop when it goes, however the walk ends.
class StopOnExit {
 public:
  StopOnExit(std::mutex& mutex, std::condition_variable& changed, bool& stopping)
      : mutex_(mutex), changed_(changed), stopping_(stopping) {}
  StopOnExit(const StopOnExit&) = delete;
  StopOnExit& operator=(const StopOnExit&) = delete;
  ~StopOnExit() {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex& mutex_;
  std::condition_variable& changed_;
  bool& stopping_;
};

}  // namespace

void JsonDocumentBuilder::parse_fragments_beside(char* text, const std::vector<Fragment>& fragments,
                                                 const std::vector<bool>& apart, unsigned helpers) {
  const std::size_t n = fragments.size();
  // Parts are walked at most this far past the fragment being joined: what they hold until
  // joined (their nodes) stays a few fragments' worth.
  const std::size_t window = std::size_t{helpers} + 1;
  std::mutex mutex;
  std::condition_variable changed;  // a part was walked, or the builder moved on
  std::vector<PartState> state(n, PartState::free);
  std::vector<std::unique_ptr<WalkedPart>> walked(n);
  std::size_t joining = 0;  // the fragment the builder takes next
  bool stopping = false;
  // Under the lock: the first part past `joining` in the window that nobody walks yet, now
  // taken; n when none.
  const auto claim = [&]() -> std::size_t {
    const std::size_t end = std::min(n, joining + 1 + window);
    for (std::size_t j = joining + 1; j < end; ++j)
      if (apart[j] && state[j] == PartState::free) {
        state[j] = PartState::taken;
        return j;
      }
    return n;
  };
  const auto any_left = [&] {
    for (std::size_t j = joining + 1; j < n; ++j)
      if (apart[j] && state[j] == PartState::free) return true;
    return false;
  };
  // Walks part j apart (without the lock) and hands it over.
  const auto walk_one = [&](TextParser& parser, std::size_t j) {
    std::unique_ptr<WalkedPart> part;
    bool done = false;
    try {  // whatever it throws, the part is handed over (failed): the builder waits for it
      part = std::make_unique<WalkedPart>();
      done = walk_apart(parser, text, fragments[j], *part);
    } catch (const std::exception&) {  // boundary: the builder walks it again itself and says what is wrong
      done = false;
    }
    const std::lock_guard lock(mutex);
    if (done) walked[j] = std::move(part);
    state[j] = done ? PartState::walked : PartState::failed;
    changed.notify_all();
  };
  const auto helper = [&] {
    const TextParserPtr parser = make_text_parser();
    std::unique_lock lock(mutex);
    for (;;) {
      std::size_t j = n;
      changed.wait(lock, [&] { return stopping || (j = claim()) != n || !any_left(); });
      if (j == n) return;  // stopping, or every part is taken
      lock.unlock();
      walk_one(*parser, j);
      lock.lock();
    }
  };
  // The pool is declared after what the helpers use, and `stop` after the pool: however this
  // ends (a fragment's error unwinds it), the helpers are told to stop, then joined, before
  // anything they use goes.
  base::ThreadPool pool(helpers);
  const StopOnExit stop_helpers{mutex, changed, stopping};
  for (unsigned h = 0; h < helpers; ++h) pool.submit(helper);

  const TextParserPtr parser = make_text_parser();
  std::string buffer;
  for (std::size_t k = 0; k < n; ++k) {
    std::unique_ptr<WalkedPart> part;
    bool here = false;
    {
      std::unique_lock lock(mutex);
      joining = k;
      changed.notify_all();  // the window moved on
      if (state[k] == PartState::free && !apart[k]) {
        state[k] = PartState::here;
        here = true;
      } else if (state[k] == PartState::free) {
        // Walked apart here too, and joined as any part is: which thread walks a part never
        // changes how it is read.
        state[k] = PartState::taken;
        lock.unlock();
        walk_one(*parser, k);
        lock.lock();
      }
      while (!here && state[k] == PartState::taken) {
        // Its part is being walked: walk a later one meanwhile rather than wait.
        if (const std::size_t j = claim(); j != n) {
          lock.unlock();
          walk_one(*parser, j);
          lock.lock();
        } else {
          changed.wait(lock);
        }
      }
      if (!here) part = std::move(walked[k]);  // none when its walk failed
    }
    if (part && join_part(fragments[k], *part)) {
      part.reset();
      release_fragment(text, fragments[k]);
    } else {
      part.reset();
      walk_here(*parser, text, fragments[k], k + 1 == n, buffer);
    }
  }
}

}  // namespace zanj::json
