#pragma once
// The zanj C++ API, all of it: read .zanj archives (ZIP files written by the Python ZANJ
// library) without Python. The stable core (core.hpp): open an archive (archive.hpp), walk
// its object tree (tree.hpp), read arrays and slices (array.hpp), print values (format.hpp).
// The operations on it, one header each: summarize (summary.hpp), verify (verify.hpp), diff
// (diff.hpp), content digests (hash.hpp), HTML pages (report.hpp), extract (extract.hpp),
// pack (pack.hpp) and export (export.hpp). Everything returns views and accessors, never
// storage; core.hpp says what is stable.
#include "zanj/core.hpp"
// The operations.
#include "zanj/diff.hpp"
#include "zanj/pack.hpp"
#include "zanj/export.hpp"
#include "zanj/extract.hpp"
#include "zanj/hash.hpp"
#include "zanj/safe_files.hpp"
#include "zanj/report.hpp"
#include "zanj/summary.hpp"
#include "zanj/verify.hpp"
