"""A ZIP writer for tests that can lie: every header field can be overridden, so the tests
build broken archives byte by byte instead of copying them. Standard library only.

build_zip([Member(...), ...]) -> bytes. A Member holds the real (uncompressed) data and the
method; `local` and `central` override fields of its local header and central directory
entry after the true values are computed (keys: see LOCAL_FIELDS / CENTRAL_FIELDS).
"""
import bz2
import struct
import zipfile
import zlib

STORE, DEFLATE, BZIP2, LZMA = 0, 8, 12, 14
UNIX_FILE = 0o100644 << 16
FLAG_UTF8 = 0x800


def compress(data, method):
    if method == STORE:
        return data
    if method == DEFLATE:
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        return c.compress(data) + c.flush()
    if method == BZIP2:
        return bz2.compress(data)
    if method == LZMA:  # zip's LZMA framing (version, properties) as Python's zipfile writes it
        c = zipfile.LZMACompressor()
        return c.compress(data) + c.flush()
    return data  # unknown methods: stored bytes under a foreign method number


class Member:
    def __init__(self, name, data=b"", method=DEFLATE, *, zip64_local=False, descriptor=False,
                 local=None, central=None, raw=None, shares=None):
        self.name = name.encode("utf-8") if isinstance(name, str) else name
        self.data = data.encode("utf-8") if isinstance(data, str) else data
        self.method = method
        self.zip64_local = zip64_local  # Python's force_zip64: a Zip64 extra on the local header
        self.descriptor = descriptor    # flag bit 3, CRC and sizes after the data
        self.local = dict(local or {})
        self.central = dict(central or {})
        self.raw = raw                  # compressed bytes to write instead of compress(data)
        self.shares = shares            # index of a member whose bytes this entry reuses: no local
                                        # header of its own, its central entry points at that one


def _flags(m):
    flags = 0
    if any(b >= 0x80 for b in m.name):
        flags |= FLAG_UTF8
    if m.method == LZMA:
        flags |= 0x02  # end-of-stream marker present, as zipfile writes it
    if m.descriptor:
        flags |= 0x08
    return flags


def _local_header(m, crc, csize, usize):
    f = dict(version=20, flags=_flags(m), method=m.method, time=0, date=0x21, crc=crc,
             csize=csize, usize=usize, name=m.name, extra=b"")
    if m.zip64_local:
        f["extra"] = struct.pack("<HHQQ", 1, 16, usize, csize)
    if m.descriptor:
        f.update(crc=0, csize=0, usize=0)
        if m.zip64_local:
            f["extra"] = struct.pack("<HHQQ", 1, 16, 0, 0)
    f.update(m.local)
    return struct.pack("<IHHHHHIIIHH", 0x04034B50, f["version"], f["flags"], f["method"], f["time"],
                       f["date"], f["crc"] & 0xFFFFFFFF, f["csize"], f["usize"], len(f["name"]),
                       len(f["extra"])) + f["name"] + f["extra"]


def _central(m, crc, csize, usize, offset):
    f = dict(made_by=0x0314, version=20, flags=_flags(m), method=m.method, time=0, date=0x21,
             crc=crc, csize=csize, usize=usize, name=m.name, extra=b"", disk=0,
             attributes=UNIX_FILE, offset=offset)
    f.update(m.central)
    return struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, f["made_by"], f["version"], f["flags"],
                       f["method"], f["time"], f["date"], f["crc"] & 0xFFFFFFFF, f["csize"],
                       f["usize"], len(f["name"]), len(f["extra"]), 0, f["disk"], 0,
                       f["attributes"], f["offset"]) + f["name"] + f["extra"]


def build_zip(members, *, comment=b"", zip64_end=False, end=None, zip64=None, trailing=b"",
              between=b""):
    """`end` / `zip64` override end record / Zip64 end record fields; `between` is written
    between the last member and the central directory; `trailing` after the end record."""
    out = bytearray()
    offsets, sizes = [], []
    for m in members:
        payload = m.raw if m.raw is not None else compress(m.data, m.method)
        crc, csize, usize = zlib.crc32(m.data), len(payload), len(m.data)
        sizes.append((crc, csize, usize))
        offsets.append(len(out))
        if m.shares is not None:
            continue
        out += _local_header(m, crc, csize, usize) + payload
        if m.descriptor:
            out += struct.pack("<IIQQ" if m.zip64_local else "<IIII", 0x08074B50, crc, csize, usize)
    out += between
    cd_offset = len(out)
    for m, (crc, csize, usize), off in zip(members, sizes, offsets):
        out += _central(m, crc, csize, usize, off if m.shares is None else offsets[m.shares])
    cd_size = len(out) - cd_offset
    count = len(members)
    if zip64_end:
        z = dict(size=44, disk=0, cd_disk=0, entries_disk=count, entries=count, cd_size=cd_size,
                 cd_offset=cd_offset, locator_disk=0, locator_offset=len(out), disks=1)
        z.update(zip64 or {})
        out += struct.pack("<IQHHIIQQQQ", 0x06064B50, z["size"], 45, 45, z["disk"], z["cd_disk"],
                           z["entries_disk"], z["entries"], z["cd_size"], z["cd_offset"])
        out += struct.pack("<IIQI", 0x07064B50, z["locator_disk"], z["locator_offset"], z["disks"])
    e = dict(disk=0, cd_disk=0, entries_disk=count, entries=count, cd_size=cd_size,
             cd_offset=cd_offset, comment=comment)
    if zip64_end:
        e.update(entries_disk=0xFFFF, entries=0xFFFF, cd_size=0xFFFFFFFF, cd_offset=0xFFFFFFFF)
    e.update(end or {})
    out += struct.pack("<IHHHHIIH", 0x06054B50, e["disk"], e["cd_disk"], e["entries_disk"],
                       e["entries"], e["cd_size"], e["cd_offset"], len(e["comment"])) + e["comment"]
    return bytes(out + trailing)
