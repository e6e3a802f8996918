#pragma once
// `pack` of a tar, 7z, cpio (any archive libarchive reads), streamed: the archive is read front
// to back twice and never unpacked.
//
// The first pass, before anything is written, checks every entry and refuses the archive for a
// hostile one: absolute names, '..', names unsafe as paths, symbolic and hard links, device
// nodes, FIFOs and sockets, a name twice or both a file and a folder, more entries than
// max_entries, more bytes than max_total_bytes or max_ratio times the archive's size (a bomb).
// It keeps what planning needs and nothing more: each file's size, the text of the two JSON
// members, each .npy header, each text file's line count and first line (the rest of an .npy
// is skipped, which for an uncompressed tar is a seek).
//
// The second pass streams the members into the output in the plan's order. A member the
// archive holds before its turn is spooled to an unnamed temporary file until then; none is
// when the archive lists its members in the plan's order, as `zanj export` writes them.
#include <memory>
#include <string>

#include "pack/repack.hpp"
#include "zanj/limits.hpp"

namespace zanj {

/// True when `path`'s name says libarchive should read it: .tar, .tar.gz, .tgz, .tar.xz, .txz,
/// .tar.zst, .tzst, .tar.bz2, .tbz2, .7z, .cpio.
bool is_libarchive_input(const std::string& path);

/// The archive as the folder it holds, for plan_repack (the first pass). Its sources read the
/// archive again (the second pass) when the plan is written. Throws Error (invalid) naming
/// the entry and what is wrong with it, (usage) when the archive cannot be read or libarchive
/// is missing.
std::unique_ptr<PackTree> scan_archive(const std::string& archive, const ResourceLimits& limits);

}  // namespace zanj
