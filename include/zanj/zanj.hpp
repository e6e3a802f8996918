#pragma once
// The zanj C++ API, all of it: read .zanj archives (ZIP files written by the Python ZANJ
// library) without Python. Open an archive (archive.hpp), walk its object tree (tree.hpp),
// read arrays and slices (array.hpp), print values (format.hpp), summarize (summary.hpp),
// verify (verify.hpp), diff (diff.hpp), extract (extract.hpp) and pack (pack.hpp).
// Everything returns views and accessors, never storage; see version.hpp for what is stable.
#include "zanj/archive.hpp"
#include "zanj/array.hpp"
#include "zanj/diff.hpp"
#include "zanj/error.hpp"
#include "zanj/extract.hpp"
#include "zanj/format.hpp"
#include "zanj/hash.hpp"
#include "zanj/json.hpp"
#include "zanj/limits.hpp"
#include "zanj/pack.hpp"
#include "zanj/report.hpp"
#include "zanj/safe_files.hpp"
#include "zanj/summary.hpp"
#include "zanj/tree.hpp"
#include "zanj/verify.hpp"
#include "zanj/version.hpp"
