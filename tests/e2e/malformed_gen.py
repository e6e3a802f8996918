"""The malformed-archive suite, generated (never copied): one archive per thing `zanj verify`
checks, each built from a small valid ZANJ archive with exactly one lie. Standard library only.

cases() -> [Case]; each Case has the archive bytes, the exit status verify must give, the
problem code it must report, and extra verify arguments (low limits). Valid edge cases
(bzip2, LZMA, Zip64, data descriptors, extreme but honest ratios) are in the list too, with
want_exit 0.
"""
import json
import struct
import zlib

from zipgen import BZIP2, DEFLATE, LZMA, STORE, Member, build_zip


class Case:
    def __init__(self, name, data, want_exit, code=None, args=()):
        self.name, self.data, self.want_exit, self.code, self.args = name, data, want_exit, code, list(args)


def npy(descr, shape, data=None, fortran=False):
    """An .npy member as numpy.save writes it (version 1.0, data 64-byte aligned)."""
    shape_text = "(" + "".join(f"{d}, " for d in shape)[:-2] + ("," if len(shape) == 1 else "") + ")"
    head = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape_text)
    pad = 64 - (10 + len(head) + 1) % 64
    head = head + " " * (pad % 64) + "\n"
    if data is None:
        count = 1
        for d in shape:
            count *= d
        data = bytes(count * int(descr[2:]))
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode() + data


def document(obj):
    return json.dumps(obj, indent="\t", allow_nan=True).encode()


ARRAY = {"__muutils_format__": "numpy.ndarray:external", "$ref": "arr.npy", "shape": [4, 3],
         "dtype": "float32", "n_elements": 12}
LIST = {"__muutils_format__": "list:external", "$ref": "lst.jsonl"}
TABLE = {"__muutils_format__": "pandas.DataFrame:external", "$ref": "tab.jsonl", "len(data)": 3,
         "columns": ["a", "b"], "data[0]": {"a": 1, "b": "x"}}


def main_doc():
    return {
        "name": "generated",
        "arr": dict(ARRAY),
        "lst": dict(LIST),
        "tab": dict(TABLE),
        "small": {"__muutils_format__": "numpy.ndarray:array_list_meta", "data": [[1, 2], [3, 4]],
                  "shape": [2, 2], "dtype": "int64", "n_elements": 4},
        "hx": {"__muutils_format__": "numpy.ndarray:array_hex_meta", "data": "0100020003000400",
               "shape": [4], "dtype": "int16", "n_elements": 4},
        "b6": {"__muutils_format__": "numpy.ndarray:array_b64_meta", "data": "AQAB", "shape": [3],
               "dtype": "bool", "n_elements": 3},
    }


def meta_doc():
    return {
        "zanj_cfg": {"array_mode": "array_list_meta", "external_array_threshold": 8,
                     "external_list_threshold": 4, "compress": 8},
        "externals_info": {
            "arr.npy": {"item_type": "npy", "path": ["arr"], "len(data)": 4},
            "lst.jsonl": {"item_type": "jsonl", "path": ["lst"], "len(data)": 5, "data[0]": 0},
            "tab.jsonl": {"item_type": "jsonl", "path": ["tab"], "len(data)": 3},
        },
        "timestamp": 1700000000.0,
    }


LIST_LINES = b"0\n1\n2\n3\n4\n"
TABLE_LINES = b'{"a": 1, "b": "x"}\n{"a": NaN, "b": "y"}\n{"a": 3, "b": null}\n'


def members(method=DEFLATE, main=None, meta=None, arr=None, lst=LIST_LINES, tab=TABLE_LINES, extra=()):
    """The valid archive's members, in Python's order, with any part replaced."""
    return [
        Member("__zanj_meta__.json", document(meta if meta is not None else meta_doc()), method),
        Member("__zanj__.json", document(main if main is not None else main_doc()), method),
        Member("arr.npy", arr if arr is not None else npy("<f4", (4, 3)), method, zip64_local=True),
        Member("lst.jsonl", lst, method, zip64_local=True),
        Member("tab.jsonl", tab, method, zip64_local=True),
        *extra,
    ]


def archive(**kw):
    return build_zip(members(**kw))


def with_main(change):
    doc = main_doc()
    change(doc)
    return archive(main=doc)


def with_meta(change):
    doc = meta_doc()
    change(doc)
    return archive(meta=doc)


def patched(ms, index, local=None, central=None, **attrs):
    ms[index].local.update(local or {})
    ms[index].central.update(central or {})
    for k, v in attrs.items():
        setattr(ms[index], k, v)
    return build_zip(ms)


def zero_stream(size):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return c.compress(bytes(size)) + c.flush()


def valid_cases():
    big_zeros = npy("<f8", (512, 512))  # 2 MiB of zeros: deflate near its 1032:1 maximum
    zeros_main = main_doc()
    zeros_main["arr"].update(shape=[512, 512], dtype="float64", n_elements=512 * 512)
    zeros_meta = meta_doc()
    zeros_meta["externals_info"]["arr.npy"]["len(data)"] = 512
    empty_main, empty_meta = main_doc(), meta_doc()  # DataFrames go external even when empty
    empty_main["tab"].update({"len(data)": 0})
    empty_main["tab"].pop("data[0]")
    empty_meta["externals_info"]["tab.jsonl"]["len(data)"] = 0
    # nested deeper than json.dumps can write, within --max-json-depth 4096
    deep_main = b'{"deep": ' + b"[" * 4090 + b"]" * 4090 + b", " + document(main_doc())[1:]
    short_meta = meta_doc()  # len(data) of an array is its first dimension, 4
    short_meta["externals_info"]["arr.npy"]["len(data)"] = 3
    nested_meta = meta_doc()  # a large array as an item of a long (external) list
    nested_meta["externals_info"]["lst/1.npy"] = {"item_type": "npy", "path": ["lst", 1]}
    unicode_main = main_doc()
    unicode_main["ключ"] = {**ARRAY, "$ref": "ключ.npy"}
    unicode_meta = meta_doc()
    unicode_meta["externals_info"]["ключ.npy"] = {"item_type": "npy", "path": ["ключ"]}
    return [
        Case("valid_deflate", archive(), 0),
        Case("valid_stored", archive(method=STORE), 0),
        Case("valid_bzip2", archive(method=BZIP2), 0),
        Case("valid_lzma", archive(method=LZMA), 0),
        Case("valid_zip64_end", build_zip(members(), zip64_end=True), 0),
        Case("valid_descriptor", build_zip([Member(m.name, m.data, m.method, zip64_local=m.zip64_local,
                                                   descriptor=True) for m in members()]), 0),
        Case("valid_all_zero", archive(main=zeros_main, meta=zeros_meta, arr=big_zeros), 0),
        Case("valid_bzip2_all_zero", build_zip(members(main=zeros_main, meta=zeros_meta, arr=big_zeros, method=BZIP2)),
             0),  # about 14,700:1, legitimately: within --max-ratio's 10000:1 plus 1 MiB
        Case("valid_array_in_external_list", archive(
            lst=LIST_LINES.replace(b"1\n", json.dumps({**ARRAY, "$ref": "lst/1.npy"}).encode() + b"\n", 1),
            meta=nested_meta, extra=[Member("lst/1.npy", npy("<f4", (4, 3)), zip64_local=True)]), 0),
        Case("valid_empty_table", archive(main=empty_main, meta=empty_meta, tab=b""), 0),
        Case("valid_empty_table_stored", archive(main=empty_main, meta=empty_meta, tab=b"", method=STORE), 0),
        Case("valid_deep_json", build_zip([members()[0], Member("__zanj__.json", deep_main), *members()[2:]]), 0,
             None, ["--max-json-depth", "4096"]),
        Case("valid_unicode_name", archive(main=unicode_main, meta=unicode_meta,
                                           extra=[Member("ключ.npy", npy("<f4", (4, 3)))]), 0),
        Case("warn_trailing_data", build_zip(members(), trailing=b"junk"), 0, "trailing_data"),
        Case("warn_unaccounted_bytes", build_zip(members(), between=b"hidden bytes"), 0, "unaccounted_bytes"),
        Case("warn_utf8_flag_missing", build_zip(members(main=unicode_main, meta=unicode_meta, extra=[
            # Python decodes a name without the UTF-8 flag as cp437: the reference dangles.
            Member("ключ.npy", npy("<f4", (4, 3)), local={"flags": 0}, central={"flags": 0})])), 1, "dangling_ref"),
        Case("warn_externals_info_len", archive(meta=short_meta), 0, "externals_info_len"),
        Case("strict_trailing_data", build_zip(members(), trailing=b"junk"), 1, "trailing_data", ["--strict"]),
    ]


def overlapping():
    """inner.npy's local header and data hidden inside outer.bin's data, both in the directory."""
    inner = Member("inner.npy", b"x" * 64, STORE)
    hidden = build_zip([inner])[: 30 + len(inner.name) + len(inner.data)]
    ms = members(extra=[Member("outer.bin", hidden, STORE)])
    at = build_zip(ms).index(hidden)
    inner.shares, inner.central = 0, {"offset": at}
    return build_zip(ms + [inner])


def zip_bomb():
    """40 directory entries sharing one 20 MiB deflate stream (the overlapping-entries bomb)."""
    stream = zero_stream(20 << 20)
    return build_zip([Member(f"bomb{i}.bin", bytes(20 << 20), DEFLATE, raw=stream, shares=None if i == 0 else 0)
                      for i in range(40)])


def zip_cases():
    ms = members
    good = build_zip(ms())
    cd_at = good.rindex(b"PK\x01\x02")  # the last central entry
    table_size = len(zlib.compress(TABLE_LINES, 9)) - 6  # raw deflate: no zlib header and trailer
    return [
        Case("no_eocd", good[: len(good) // 2], 1, "no_eocd"),
        Case("not_a_zip", b"this is not a zip file\n" * 20, 1, "no_eocd"),
        Case("eocd_count", build_zip(ms(), end={"entries_disk": 3, "entries": 3}), 1, "eocd_inconsistent"),
        Case("eocd_offset", build_zip(ms(), end={"cd_offset": 7}), 1, "bad_central_directory"),
        Case("zip64_disagrees", build_zip(ms(), zip64_end=True, end={"entries_disk": 4, "entries": 4}), 1,
             "zip64_inconsistent"),
        Case("zip64_locator", build_zip(ms(), zip64_end=True, zip64={"locator_offset": 3}), 1, "zip64_inconsistent"),
        Case("bad_cd_signature", good[:cd_at] + b"PK\x01\x09" + good[cd_at + 4:], 1, "bad_central_directory"),
        Case("local_missing", patched(ms(), 2, central={"offset": 5}), 1, "bad_local_header"),
        Case("local_name", patched(ms(), 2, local={"name": b"arx.npy"}), 1, "cd_local_mismatch"),
        Case("local_method", patched(ms(), 2, local={"method": STORE}), 1, "cd_local_mismatch"),
        Case("local_size", patched(ms(), 3, local={"usize": 7}, zip64_local=False), 1, "cd_local_mismatch"),
        Case("local_zip64_size", patched(ms(), 3, local={"extra": struct.pack("<HHQQ", 1, 16, 99, 99)}), 1,
             "cd_local_mismatch"),
        Case("local_crc", patched(ms(), 2, local={"crc": 1}), 1, "cd_local_mismatch"),
        Case("local_flags", patched(ms(), 2, local={"flags": 0x800}), 1, "cd_local_mismatch"),
        Case("overlapping", overlapping(), 1, "overlapping_entries"),
        Case("zip_bomb_overlap", zip_bomb(), 1, "overlapping_entries"),
        Case("data_past_end", patched(ms(), 4, local={"csize": 99999}, central={"csize": 99999},
                                      zip64_local=False), 1, "bad_local_header"),
        Case("overlaps_directory", patched(ms(), 4, local={"csize": table_size + 20},
                                           central={"csize": table_size + 20}, zip64_local=False), 1,
             "overlaps_directory"),
        Case("duplicate_name", archive(extra=[Member("lst.jsonl", LIST_LINES)]), 1, "duplicate_name"),
        Case("encrypted", patched(ms(), 3, local={"flags": 1}, central={"flags": 1}), 1, "encrypted"),
        Case("symlink", patched(ms(), 3, central={"attributes": 0o120777 << 16}), 1, "not_regular_file"),
        Case("device", patched(ms(), 3, central={"attributes": 0o020644 << 16}), 1, "not_regular_file"),
        Case("directory", archive(extra=[Member("dir/", b"", STORE)]), 1, "not_regular_file"),
        Case("unsupported_method", patched(ms(), 3, method=98), 1, "unsupported_method"),  # 98: PPMd
        Case("crc_mismatch", patched(ms(), 2, local={"crc": 0xDEADBEEF}, central={"crc": 0xDEADBEEF}), 1,
             "crc_mismatch"),
        Case("size_lie_smaller", patched(ms(), 2, local={"usize": 100}, central={"usize": 100},
                                         zip64_local=False), 1, "size_lie"),
        Case("size_lie_larger", patched(ms(), 2, local={"usize": 300}, central={"usize": 300},
                                        zip64_local=False), 1, "size_mismatch"),
        Case("stored_sizes", patched(ms(method=STORE), 2, local={"usize": 300}, central={"usize": 300},
                                     zip64_local=False), 1, "size_mismatch"),
        Case("ratio_lie", patched(ms(), 2, local={"usize": 4_000_000_000}, central={"usize": 4_000_000_000},
                                  zip64_local=False), 1, "ratio_lie"),
        Case("size_lie_bzip2", patched(ms(method=BZIP2), 2, local={"usize": 100}, central={"usize": 100},
                                       zip64_local=False), 1, "size_lie"),
        Case("corrupt_deflate", patched(ms(), 3, raw=b"\xff" * 20), 1, "data_corrupt"),
        Case("too_many_entries", archive(), 1, "too_many_entries", ["--max-entries", "3"]),
        Case("too_large", archive(), 1, "too_large", ["--max-total-bytes", "1000"]),
    ]


def name_cases():
    cases = []
    for label, name in (("absolute", "/tmp/x.npy"), ("dotdot", "a/../../x.npy"), ("backslash", "a\\x.npy"),
                        ("drive", "C:x.npy"), ("nul", "a\0b.npy"), ("control", "a\x1bb.npy"),
                        ("not_utf8", b"a\xff.npy"), ("dot", "./x.npy")):
        cases.append(Case("unsafe_name_" + label, archive(extra=[Member(name, b"x")]), 1, "unsafe_name"))
    return cases


def zanj_cases():
    deep = main_doc()
    node = deep
    for _ in range(40):
        node["d"] = {}
        node = node["d"]
    return [
        Case("missing_main", build_zip([m for m in members() if m.name != b"__zanj__.json"]), 1, "missing_main"),
        Case("missing_meta", build_zip([m for m in members() if m.name != b"__zanj_meta__.json"]), 1, "missing_meta"),
        Case("main_invalid_json", build_zip([*members()[:1], Member("__zanj__.json", b'{"a": [1, 2}'),
                                             *members()[2:]]), 1, "json_invalid"),
        Case("json_too_deep", archive(main=deep), 1, "json_too_deep", ["--max-json-depth", "20"]),
        Case("json_too_deep_default", build_zip([*members()[:1], Member("__zanj__.json", b"[" * 1100 + b"]" * 1100),
                                                 *members()[2:]]), 1, "json_too_deep"),
        Case("meta_not_object", build_zip([Member("__zanj_meta__.json", b"[1, 2]"), *members()[1:]]), 1,
             "meta_not_object"),
        Case("no_externals_info", with_meta(lambda m: m.pop("externals_info")), 1, "no_externals_info"),
        Case("bad_reference", with_main(lambda d: d["arr"].pop("shape")), 1, "bad_reference"),
        Case("dangling_ref", with_main(lambda d: d["lst"].update({"$ref": "nope.jsonl"})), 1, "dangling_ref"),
        # a warning: the reference loader opens only the members externals_info lists
        Case("unreferenced_member", archive(extra=[Member("stray.bin", b"hello")]), 0, "unreferenced_member"),
        Case("externals_info_path", with_meta(lambda m: m["externals_info"]["arr.npy"].update(path=["lst"])), 1,
             "externals_info_mismatch"),
        Case("externals_info_type", with_meta(lambda m: m["externals_info"]["arr.npy"].update(item_type="jsonl")),
             1, "externals_info_mismatch"),
        Case("externals_info_missing", with_meta(lambda m: m["externals_info"].pop("tab.jsonl")), 1,
             "externals_info_mismatch"),
    ]


def value_cases():
    def main_with(path, **fields):
        def change(d):
            d[path].update(fields)
        return change
    return [
        Case("npy_bad_magic", archive(arr=b"NOTNPY" + npy("<f4", (4, 3))[6:]), 1, "npy_invalid"),
        Case("npy_object_dtype", archive(arr=npy("|O8", (4, 3))), 1, "npy_invalid"),
        Case("npy_header_too_long", archive(), 1, "npy_invalid", ["--max-npy-header", "16"]),
        Case("npy_shape_mismatch", archive(arr=npy("<f4", (3, 4))), 1, "npy_mismatch"),
        Case("npy_dtype_mismatch", archive(arr=npy("<f8", (4, 3))), 1, "npy_mismatch"),
        Case("npy_data_short", archive(arr=npy("<f4", (4, 3))[:-5]), 1, "npy_data_size"),
        # a warning: numpy reads the bytes the shape needs and ignores the rest
        Case("npy_data_long", archive(arr=npy("<f4", (4, 3)) + b"1234"), 0, "npy_trailing_data"),
        Case("jsonl_invalid_line", archive(lst=b"0\n1\n{oops\n3\n4\n"), 1, "jsonl_invalid"),
        Case("jsonl_row_count", archive(lst=b"0\n1\n2\n"), 1, "jsonl_row_count"),
        Case("table_row_count", with_main(main_with("tab", **{"len(data)": 7})), 1, "jsonl_row_count"),
        Case("table_columns", archive(tab=b'{"a": 1, "b": "x"}\n{"a": 2}\n{"a": 3, "c": 1}\n'), 1, "table_columns"),
        Case("inline_hex_length", with_main(main_with("hx", data="01000200030004")), 1, "inline_array_invalid"),
        Case("inline_b64_length", with_main(main_with("b6", data="AQABAQ==")), 1, "inline_array_invalid"),
        Case("inline_nesting", with_main(main_with("small", data=[[1, 2], [3]])), 1, "inline_array_invalid"),
        Case("inline_n_elements", with_main(main_with("small", n_elements=5)), 1, "inline_array_invalid"),
    ]


def cases():
    return valid_cases() + zip_cases() + name_cases() + zanj_cases() + value_cases()


if __name__ == "__main__":  # write the suite to a directory, for looking at it by hand
    import os
    import sys
    out = sys.argv[1] if len(sys.argv) > 1 else "malformed_suite"
    os.makedirs(out, exist_ok=True)
    for c in cases():
        with open(os.path.join(out, c.name + ".zanj"), "wb") as f:
            f.write(c.data)
    print(f"{len(cases())} archives in {out}")
