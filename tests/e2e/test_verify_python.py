"""End-to-end: `zanj verify`'s verdict is the Python library's, plus safety (zanj-verify(1)).

The rule (zanj-verify(1), EXIT STATUS): exit 0 means the reference loader (zanj 0.6.0, muutils 0.9,
numpy, Python 3.11; docs/format.md) loads the archive and gets the values zanj shows; exit 1 means it
would fail or get other values, or zanj refuses the archive for safety (ambiguity between
readers, unsafe names, bombs). Anything else odd is a warning, an error only with --strict.

CASES is the table: each archive is built here from the valid archive of malformed_gen.py with
one change, next to the verdict verify must give and why (what Python does with it):
  "ok"                 exit 0, no errors and no warnings
  "ok+warning CODE"    exit 0 with warning CODE; exit 1 with --strict
  "invalid CODE"       exit 1 with error CODE ("invalid" alone: any error)
`needs` names the part of zanj the verdict rests on besides verify's own rules ("json": the
JSON parser, "zip": the ZIP reader), to say where to look when one fails. Each case is its own test method
(test_<name>), so `-k` selects cases.
"""
import json
import os
import struct
import tempfile
import unittest

from common import ZanjTest, main, run
from malformed_gen import ARRAY, Member, archive, build_zip, document, main_doc, members, meta_doc, npy


def edit(main=None, meta=None, **kw):
    """The valid archive with main_doc() and meta_doc() changed by the given functions."""
    m, t = main_doc(), meta_doc()
    if main:
        main(m)
    if meta:
        meta(t)
    return archive(main=m, meta=t, **kw)


def path_of(member, path):
    """A meta change: externals_info[member]["path"] = path."""
    return lambda t: t["externals_info"][member].update(path=path)


def raw_main(change, index=1):
    """The valid archive with __zanj__.json's text changed by `change` (bytes -> bytes)."""
    ms = members()
    ms[index] = Member(ms[index].name, change(ms[index].data))
    return build_zip(ms)


def raw_meta(change):
    return raw_main(change, index=0)


def array_in_list(d):
    """Move the external array into a list, at index 1: {"items": ["first", ARRAY]}."""
    d["items"] = ["first", d.pop("arr")]


def array_under_key(key):
    def change(d):
        d[key] = d.pop("arr")
    return change


def external_array_node(shape, dtype, ref="arr.npy"):
    count = 1
    for n in shape:
        count *= n
    return {"__muutils_format__": "numpy.ndarray:external", "$ref": ref, "shape": list(shape), "dtype": dtype,
            "n_elements": count}


def npy_member(descr, shape, data=b""):
    """An .npy member with an arbitrary header (numpy would refuse some) and the given data."""
    return npy(descr, shape, data=data)


def array_as(descr, shape, data=b""):
    """The archive's external array replaced by one of this header, with a matching node."""
    def change(d):
        d["arr"] = external_array_node(shape, descr)

    def change_meta(t):
        t["externals_info"]["arr.npy"]["len(data)"] = shape[0]
    return edit(main=change, meta=change_meta, arr=npy_member(descr, shape, data))


def table_with_columns(columns, lines=None):
    def change(d):
        d["tab"]["columns"] = columns
    return edit(main=change, **({} if lines is None else {"tab": lines}))


def array_in_list_lines(path=("lst", 2), ref="arr.npy"):
    """A long list of large arrays: the list's .jsonl holds the array's reference node in line 2,
    and externals_info reaches it through the list (the loader populates the list first)."""
    node = dict(ARRAY, **{"$ref": ref})
    lines = b"0\n1\n" + json.dumps(node).encode() + b"\n3\n4\n"

    def change(d):
        d.pop("arr")
    return edit(main=change, meta=path_of("arr.npy", list(path)), lst=lines)


def with_member_name(name, flags=None):
    """The external array stored under `name` (and referred to by that name); `flags` overrides
    the general purpose flags of both headers (0: no UTF-8 flag)."""
    ms = members()
    main, meta = main_doc(), meta_doc()
    key = name[:-len(".npy")]
    main[key] = dict(main.pop("arr"), **{"$ref": name})
    meta["externals_info"][name] = dict(meta["externals_info"].pop("arr.npy"), path=[key])
    ms[0] = Member("__zanj_meta__.json", document(meta))
    ms[1] = Member("__zanj__.json", document(main))
    overrides = {} if flags is None else {"flags": flags}
    ms[2] = Member(name, ms[2].data, zip64_local=True, local=overrides, central=overrides)
    return build_zip(ms)


def eocd_in_comment():
    """A second end record inside the first one's comment (not at the end of the file, so a
    reader that checks the comment length skips it): Python takes the last PK\\5\\6 signature
    and reads the empty archive it describes, without any ZANJ member."""
    hidden = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, 0, 0, 0, 0, 0)
    comment = hidden + b"zz"
    return archive()[:-2] + struct.pack("<H", len(comment)) + comment


LONG_INT = b"9" * 4301

CASES = [
    # ---- externals_info paths, walked with Python subscripts (zanj's populate_externals)
    ("path_str_index_into_list", lambda: edit(main=array_in_list, meta=path_of("arr.npy", ["items", "1"])),
     "invalid externals_info_mismatch", None, "list['1'] is a TypeError: a list needs an int"),
    ("path_int_key_into_dict", lambda: edit(main=array_under_key("7"), meta=path_of("arr.npy", [7])),
     "invalid externals_info_mismatch", None, "dict[7] is a KeyError: JSON keys are str"),
    ("path_true_as_index", lambda: edit(main=array_in_list, meta=path_of("arr.npy", ["items", True])),
     "ok", None, "bool is an int: list[True] is list[1]"),
    ("path_negative_index", lambda: edit(main=array_in_list, meta=path_of("arr.npy", ["items", -1])),
     "ok", None, "list[-1] is the last element"),
    ("path_index_out_of_range", lambda: edit(main=array_in_list, meta=path_of("arr.npy", ["items", -3])),
     "invalid externals_info_mismatch", None, "list[-3] of two elements is an IndexError"),
    ("path_float_index", lambda: edit(main=array_in_list, meta=path_of("arr.npy", ["items", 1.0])),
     "invalid externals_info_mismatch", None, "the loader asserts every key is a str or an int"),
    ("path_true_into_dict", lambda: edit(main=array_under_key("True"), meta=path_of("arr.npy", [True])),
     "invalid externals_info_mismatch", None, "dict[True] is a KeyError"),
    ("path_empty", lambda: edit(meta=path_of("arr.npy", [])),
     "invalid externals_info_mismatch", None, "the loader asserts len(path) > 0"),
    ("path_string_is_characters", lambda: edit(main=array_under_key("a"), meta=path_of("arr.npy", "a")),
     "ok", None, "tuple('a') is ('a',): a one-character string path works"),
    ("path_to_other_members_node", lambda: edit(meta=path_of("arr.npy", ["tab"])),
     "invalid externals_info_mismatch", None, "the loader asserts the node's $ref is the member's name"),
    ("path_to_plain_dict", lambda: edit(main=lambda d: d.update(x={"$ref": "arr.npy"}),
                                        meta=path_of("arr.npy", ["x"])),
     "invalid externals_info_mismatch", None,
     "loads, but as a plain dict with a 'data' key, and the node at 'arr' keeps no data"),
    ("path_through_external_list", array_in_list_lines,
     "ok", None, "the list is populated first (shorter path), then line 2 is walked into"),
    ("path_through_list_other_ref", lambda: array_in_list_lines(ref="other.npy"),
     "invalid externals_info_mismatch", None, "the loader asserts the node in line 2 has $ref 'arr.npy'"),
    ("path_through_list_past_end", lambda: array_in_list_lines(path=("lst", 9)),
     "invalid externals_info_mismatch", None, "the list has 5 lines: IndexError"),
    ("path_through_list_true", lambda: array_in_list_lines(path=("lst", True, "x")),
     "invalid externals_info_mismatch", None, "line 1 is the int 1: subscripting it is a TypeError"),
    ("path_through_array", lambda: edit(meta=path_of("lst.jsonl", ["arr", 0])),
     "invalid externals_info_mismatch", None, "an ndarray is not a list or dict: TypeError"),

    # ---- dtypes and shapes numpy refuses, and npy data lengths
    ("npy_zero_itemsize_U0", lambda: array_as("<U0", (4, 3)),
     "invalid npy_invalid", None, "numpy refuses a zero itemsize dtype"),
    ("npy_zero_itemsize_S0", lambda: array_as("|S0", (4,)),
     "invalid npy_invalid", None, "numpy refuses a zero itemsize dtype"),
    ("npy_void_V0", lambda: array_as("|V0", (4,)),
     "invalid npy_invalid", None, "void (and a zero itemsize) is not an array zanj can show"),
    ("node_dtype_U0", lambda: edit(main=lambda d: d["arr"].update(dtype="<U0")),
     "invalid bad_reference", None, "the loader converts to the node's dtype, which numpy refuses"),
    ("inline_dtype_S0", lambda: edit(main=lambda d: d.update(s={
        "__muutils_format__": "numpy.ndarray:array_list_meta", "data": ["", ""], "shape": [2], "dtype": "|S0",
        "n_elements": 2})),
     "invalid inline_array_invalid", None, "np.array(data, dtype='|S0') is refused"),
    ("npy_shape_over_intp_with_zero", lambda: array_as("|u1", (2 ** 62, 0, 4)),
     "invalid npy_invalid", None, "numpy skips zero dims, and 2**62 * 4 overflows intp: 'array is too big'"),
    ("npy_dim_over_int64", lambda: array_as("|u1", (2 ** 63, 0)),
     "invalid npy_invalid", None, "2**63 does not convert to int64"),
    ("npy_negative_dim", lambda: edit(arr=npy_member("<f4", (-1, 3))),
     "invalid npy_invalid", None, "negative dimensions are not allowed"),
    ("npy_huge_empty_ok", lambda: array_as("<f8", (10 ** 18, 0)),
     "ok", None, "10**18 * 8 bytes fits intp, and the array is empty"),
    ("npy_trailing_bytes", lambda: edit(arr=npy("<f4", (4, 3)) + b"1234"),
     "ok+warning npy_trailing_data", None, "numpy reads prod(shape) * itemsize bytes and ignores the rest"),
    ("npy_short_data", lambda: edit(arr=npy("<f4", (4, 3))[:-4]),
     "invalid npy_data_size", None, "numpy fails on a short read"),

    # ---- tables and members
    ("table_duplicate_columns", lambda: table_with_columns(["a", "b", "a"]),
     "ok", None, "pandas builds the frame from the rows; a dict row holds 'a' once"),
    ("table_row_missing_column", lambda: table_with_columns(["a", "b"], b'{"a": 1, "b": "x"}\n{"a": 2}\n'
                                                                        b'{"a": 3, "b": 1}\n'),
     "invalid table_columns", None, "pandas fills NaN where zanj shows the row as it is"),
    ("unreferenced_member", lambda: archive(extra=[Member("stray.bin", b"hello")]),
     "ok+warning unreferenced_member", None, "the loader opens only the members externals_info lists"),
    ("unreferenced_unsafe_name", lambda: archive(extra=[Member("../stray.bin", b"hello")]),
     "invalid unsafe_name", None, "safety: Python ignores it, but extracting it would escape"),

    # ---- JSON as Python's json reads it (the JSON parser's branch)
    ("json_number_minus", lambda: raw_main(lambda t: t.replace(b'"generated"', b"99999999999999999999-1")),
     "invalid json_invalid", "json", "json.loads fails: extra data after a number"),
    ("json_leading_zero", lambda: raw_main(lambda t: t.replace(b'"generated"', b"01")),
     "invalid json_invalid", None, "json.loads refuses leading zeros"),
    ("json_nan_key", lambda: raw_main(lambda t: t.replace(b'"name"', b"NaN", 1)),
     "invalid json_invalid", None, "object keys must be strings"),
    ("json_long_integer", lambda: raw_main(lambda t: t.replace(b'"generated"', LONG_INT)),
     "invalid json_invalid", "json", "int() refuses more than 4,300 digits"),
    ("json_integer_at_limit", lambda: raw_main(lambda t: t.replace(b'"generated"', LONG_INT[:4300])),
     "ok", None, "4,300 digits are still accepted"),
    ("json_1e400", lambda: raw_main(lambda t: t.replace(b'"generated"', b"1e400")),
     "ok", "json", "json reads 1e400 as inf"),
    ("json_lone_surrogate", lambda: raw_main(lambda t: t.replace(b'"generated"', b'"\\ud800"')),
     "ok", "json", "json accepts lone surrogate escapes"),
    ("json_bom_main", lambda: raw_main(lambda t: b"\xef\xbb\xbf" + t),
     "ok+warning bom", "json", "json.load of bytes skips a UTF-8 BOM"),
    ("json_bom_jsonl_line", lambda: archive(lst=b"0\n\xef\xbb\xbf1\n2\n3\n4\n"),
     "ok+warning bom", "json", "json.loads of a bytes line skips a UTF-8 BOM"),
    ("json_duplicate_key", lambda: raw_main(lambda t: t.replace(b'"name": "generated"',
                                                                b'"name": "a", "name": "generated"')),
     "ok+warning duplicate_key", "json", "the last value wins, as zanj shows it"),
    ("json_externals_info_duplicate_key",
     lambda: raw_meta(lambda t: t.replace(b'"externals_info": {',
                                          b'"externals_info": {"arr.npy": {"item_type": "npy", "path": ["lst"]}, ')),
     "ok+warning duplicate_key", "json", "the last 'arr.npy' entry, the right one, is the one the loader sees"),
    ("json_ref_behind_duplicate_key", lambda: raw_main(lambda t: t.replace(b'"lst": {', b'"arr": 5, "lst": {')),
     "invalid externals_info_mismatch", "json", "the last 'arr' (5) wins: the walk never reaches the node"),

    # ---- ZIP: names and ambiguity between readers (the ZIP reader's branch)
    ("zip_non_ascii_without_utf8_flag", lambda: with_member_name("café.npy", flags=0),
     "invalid", "zip", "Python decodes the name as cp437: 'cafÃ©.npy' is not 'café.npy', KeyError"),
    ("zip_nfd_name", lambda: with_member_name("cafe\u0301.npy"),
     "ok", "zip", "the byte-exact NFD name is found"),
    ("zip_nfc_name", lambda: with_member_name("caf\u00e9.npy"),
     "ok", None, "a non-ASCII name with the UTF-8 flag"),
    ("zip_eocd_in_comment", eocd_in_comment,
     "invalid ambiguous_end_record", "zip", "Python reads the archive of the last end record, zanj the first: readers disagree"),
    ("zip_duplicate_name", lambda: archive(extra=[Member("arr.npy", npy("<f4", (4, 3)), zip64_local=True)]),
     "invalid duplicate_name", None, "safety: Python takes the last, other readers the first"),
    ("zip_nfc_nfd_twins", lambda: archive(extra=[Member("caf\u00e9.npy", b"1"), Member("cafe\u0301.npy", b"2")]),
     "invalid ambiguous_name", "zip", "safety: names equal after normalization (macOS, libarchive) are ambiguous"),
    ("zip_local_name_differs", lambda: build_zip(members()[:2] + [Member("arr.npy", npy("<f4", (4, 3)),
                                                                         local={"name": b"arx.npy"})]
                                                 + members()[3:]),
     "invalid cd_local_mismatch", None, "zipfile: 'File name in directory and header differ'"),
    ("zip_local_name_is_another_member",
     lambda: build_zip(members()[:2] + [Member("arr.npy", npy("<f4", (4, 3)), local={"name": b"lst.jsonl"})]
                       + members()[3:]),
     "invalid cd_local_mismatch", None, "safety: a reader going by local headers finds two 'lst.jsonl'; "
                                        "zipfile refuses the mismatch"),
]


def verdict(text):
    kind, _, code = text.partition(" ")
    return kind, code or None


def report(path, *args):
    r = run("verify", "--json", *args, path, timeout=60)
    return r, json.loads(r.text)


class VerifyIsPython(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def check_case(self, name, build, want, why):
        path = os.path.join(self.tmp.name, name + ".zanj")
        with open(path, "wb") as f:
            f.write(build())
        kind, code = verdict(want)
        r, rep = report(path)
        errors = [p["code"] for p in rep["errors"]]
        warnings = [p["code"] for p in rep["warnings"]]
        context = f"{name} ({why}): {rep['errors']} {rep['warnings']}"
        self.assertFalse(rep["strict"])
        if kind == "ok":
            self.assertEqual((r.code, errors, warnings), (0, [], []), context)
        elif kind == "ok+warning":
            self.assertEqual((r.code, errors), (0, []), context)
            self.assertIn(code, warnings, context)
            r, rep = report(path, "--strict")  # the same report, now failing
            self.assertEqual((r.code, rep["ok"], rep["strict"]), (1, False, True), context)
            self.assertIn(code, [p["code"] for p in rep["warnings"]], context)
        else:
            self.assertEqual(kind, "invalid", name)
            self.assertEqual((r.code, rep["ok"]), (1, False), context)
            if code:
                self.assertIn(code, errors, context)

    def test_strict_text_says_why_it_fails(self):
        path = os.path.join(self.tmp.name, "strict.zanj")
        with open(path, "wb") as f:
            f.write(archive(extra=[Member("stray.bin", b"hello")]))
        r = run("verify", path)
        self.assertEqual((r.code, r.text.splitlines()[0]), (0, path + ": ok (1 warning)"))
        r = run("verify", "--strict", path)
        self.assertEqual((r.code, r.text.splitlines()[0]), (1, path + ": INVALID (1 warning, --strict)"))
        self.assertRegex(r.text.splitlines()[1], r"^  warning \[unreferenced_member\] stray\.bin: ")

    def test_table_names_each_case_once(self):
        names = [c[0] for c in CASES]
        self.assertEqual(len(names), len(set(names)))
        for _, _, want, needs, why in CASES:
            self.assertIn(verdict(want)[0], ("ok", "ok+warning", "invalid"))
            self.assertIn(needs, (None, "json", "zip"))
            self.assertTrue(why)


def _add(name, build, want, why):
    setattr(VerifyIsPython, "test_" + name, lambda self: self.check_case(name, build, want, why))


for _name, _build, _want, _needs, _why in CASES:
    _add(_name, _build, _want, _why)


if __name__ == "__main__":
    main()
