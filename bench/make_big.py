"""Write a large .zanj for benchmarks, the way the reference library lays it out (Python's
zipfile, deflate, Zip64 extras on external members): MEMBERS .npy members of SIZE_MB each,
half with 4 bits of entropy per byte (quantized weights: deflate halves them), half random
(incompressible), plus a table. Standard library only.

usage: make_big.py OUT.zanj [TOTAL_MB] [MEMBERS]
"""
import json
import os
import struct
import sys
import zipfile


def npy_header(n_floats):
    head = "{'descr': '<f4', 'fortran_order': False, 'shape': (%d,), }" % n_floats
    head += " " * (64 - (10 + len(head) + 1) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(head)) + head.encode()


def main():
    out = sys.argv[1]
    total_mb = int(sys.argv[2]) if len(sys.argv) > 2 else 512
    count = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    each = total_mb * (1 << 20) // count // 4 * 4
    table = bytes((i % 16) * 17 for i in range(256))  # 16 byte values: 4 bits of entropy
    main_doc, info = {}, {}
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        members = []
        for i in range(count):
            name = f"layer{i}.npy"
            data = os.urandom(each)
            if i % 2 == 0:
                data = data.translate(table)
            members.append((name, npy_header(each // 4) + data))
            main_doc[f"layer{i}"] = {"__muutils_format__": "numpy.ndarray:external", "$ref": name,
                                     "shape": [each // 4], "dtype": "float32", "n_elements": each // 4}
            info[name] = {"item_type": "npy", "path": [f"layer{i}"], "len(data)": each // 4}
        rows = "".join(json.dumps({"step": i, "loss": 1.0 / (i + 1)}) + "\n" for i in range(20000))
        main_doc["log"] = {"__muutils_format__": "pandas.DataFrame:external", "$ref": "log.jsonl",
                           "len(data)": 20000, "columns": ["step", "loss"]}
        info["log.jsonl"] = {"item_type": "jsonl", "path": ["log"], "len(data)": 20000}
        z.writestr("__zanj_meta__.json", json.dumps({"externals_info": info}, indent="\t"))
        z.writestr("__zanj__.json", json.dumps(main_doc, indent="\t"))
        for name, data in members + [("log.jsonl", rows.encode())]:
            info_entry = zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0))
            info_entry.compress_type = zipfile.ZIP_DEFLATED
            with z.open(info_entry, "w", force_zip64=True) as f:
                f.write(data)
    print(out, os.path.getsize(out) >> 20, "MiB on disk")


if __name__ == "__main__":
    main()
