#pragma once
// The object tree of a report page: nested lists, one item per node with its kind, dtype,
// shape, storage and size, each container a <details> element, open on the top two levels and
// closed below them (and for long lists of strings such as a model's class_source); a large
// tree is plain lists that the page's script folds below the second level. Every array also gets its statistics row,
// histogram and heatmap thumbnail, from one pass over its values (profile_array), and a flag for NaN, infinities or all
// zeros. Beyond 1,000 arrays only the largest get figures; the others show their statistics on their line; a container
// lists its first 20,000 children and counts the others, so a tree of 50,000 nodes stays a page of a few MiB.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "report/verified_values.hpp"
#include "zanj/summary.hpp"

namespace zanj::report {

/// What the other sections of the page need to know about each array the tree met.
struct ArrayRecord {
  std::string path;
  std::uint64_t bytes = 0;   ///< values' size (unpacked)
  std::uint64_t packed = 0;  ///< compressed size of its member (0 for inline arrays)
  bool external = false;     ///< stored in its own member
  std::uint64_t nan = 0, inf = 0;
  bool all_zero = false;
  bool unreadable = false;
  std::string anchor;  ///< id of its tree item ("" unless flagged or unreadable, and listed)
  bool flagged() const { return nan || inf || all_zero || unreadable; }
};

/// How each array (in walk order) is profiled: the largest 1,000 get their figures (bins 0 and
/// heatmap_side 0 for the others); thumbnails full size within a byte budget, small after.
std::vector<ProfileOptions> plan_arrays(const ZanjFile& file, const ProfileOptions& options);
/// Tell `verified` which members hold external arrays, with each one's plan.
void expect_external_arrays(const ZanjFile& file, const ProfileOptions& options, VerifiedValues& verified);

/// The profile of an external array's member already read (VerifiedValues::take), or nullopt.
using TakenValues = std::function<std::optional<ArrayProfile>(const std::string& member)>;

/// Takes the tree's text written so far (`text`, left empty), so that the tree is never one
/// string: a tree of 50,000 nodes grown in one string was copied at every doubling of it.
using TreeSpill = std::function<void(std::string& text)>;

/// The tree below `file`'s root as HTML, appended to `out`; one record per array. Arrays whose
/// profile `taken` has are not read again (it may be empty). With `spill`, `out` is handed to it
/// whenever it holds kTreePieceBytes or more at the end of an item; what is left at the end stays in `out`.
std::vector<ArrayRecord> write_object_tree(std::string& out, const ZanjFile& file, const ProfileOptions& options,
                                           const TakenValues& taken = {}, const TreeSpill& spill = {});
/// The size of the pieces write_object_tree spills (it spills at the first item's end past it).
constexpr std::size_t kTreePieceBytes = std::size_t{64} * 1024;

/// The statistics table and the figures of one array (used by the tree and by comparisons).
void write_array_figures(std::string& out, std::string_view path, const ArrayNode& array, const ArrayProfile& profile);

/// " NaN", " ±Inf" flags (class "flag") and an " all zero" note (class "note") for an array,
/// as HTML (empty when none apply).
std::string array_flags(const ArrayProfile& profile);

}  // namespace zanj::report
