"""End-to-end: `zanj pack` of .safetensors files (round trips through `zanj export`, hostile
headers refused with nothing written) and `diff` and `hash` taking .npz and .safetensors
operands, read as the object `pack` would make of them without writing anything."""
import json
import os
import shutil
import struct
import tempfile
import unittest
import zipfile

from common import ZanjTest, archives, corpus, external_array, main, npy_bytes, pack_values, run, write_zanj
from remote_servers import S3RVER, GcsServer, Nginx, S3rver

NGINX = shutil.which("nginx") or (os.path.exists("/usr/sbin/nginx") and "/usr/sbin/nginx")


def safetensors_bytes(tensors, metadata=None):
    """tensors: [(name, dtype, shape, data)] laid out back to back in order."""
    header, at = {}, 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [at, at + len(data)]}
        at += len(data)
    text = json.dumps(header).encode()
    return struct.pack("<Q", len(text)) + text + b"".join(t[3] for t in tensors)


def write_file(path, data):
    with open(path, "wb") as f:
        f.write(data)
    return path


def zanj_hash(*args):
    r = run("hash", *args)
    assert r.code == 0, r.err
    return r.out.split()[0]


def weights_zanj(path):
    """Three arrays at the root: float32, big-endian int64 and a 0-d float64."""
    members = {
        "w.npy": npy_bytes("<f4", (2, 3), pack_values("<f", [1.5, -2, 3, 4, 5, 6])),
        "b.npy": npy_bytes(">i8", (4,), pack_values(">q", [1, -2, 3, 1 << 40])),
        "s.npy": npy_bytes("<f8", (), pack_values("<d", [0.25])),
    }
    root = {"w": external_array("w.npy", "float32", [2, 3]), "b": external_array("b.npy", ">i8", [4]),
            "s": external_array("s.npy", "float64", [])}
    return write_zanj(path, root, members)


class PackSafetensorsRoundTrip(ZanjTest):
    def test_every_corpus_archive_export_then_pack_keeps_the_hash(self):
        restored = 0
        for name in archives():
            with self.subTest(archive=name), tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "x.safetensors")
                r = run("export", corpus(name), "-o", out, "--cast")
                if r.code != 0:  # strings and other dtypes safetensors lacks: nothing to pack
                    self.assertFails(r, 1)
                    continue
                packed = os.path.join(tmp, "back.zanj")
                r = run("pack", out, "-o", packed)
                self.assertOk(r)
                if "not restored" in r.err:  # the object refers to tables or lists safetensors cannot hold
                    self.assertIn("flat dict", r.err)
                    continue
                restored += 1
                self.assertEqual(zanj_hash(packed), zanj_hash(corpus(name)))
                self.assertEqual(zanj_hash(out), zanj_hash(corpus(name)))  # hash reads it in place
        self.assertGreater(restored, 3)

    def test_plain_file_is_a_flat_dict_like_an_npz(self):
        with tempfile.TemporaryDirectory() as tmp:
            st = write_file(os.path.join(tmp, "m.safetensors"), safetensors_bytes([
                ("layer.0/weight", "F32", [2, 2], pack_values("<f", [1, 2, 3, 4])),
                ("mask", "BOOL", [3], b"\x01\x00\x01"),
                ("ids", "U16", [2], pack_values("<H", [7, 65535])),
            ], {"format": "pt"}))
            npz = os.path.join(tmp, "m.npz")
            with zipfile.ZipFile(npz, "w") as z:
                z.writestr("layer.0/weight.npy", npy_bytes("<f4", (2, 2), pack_values("<f", [1, 2, 3, 4])))
                z.writestr("mask.npy", npy_bytes("|b1", (3,), b"\x01\x00\x01"))
                z.writestr("ids.npy", npy_bytes("<u2", (2,), pack_values("<H", [7, 65535])))
            out = os.path.join(tmp, "m.zanj")
            self.assertOk(run("pack", st, "-o", out))
            self.assertEqual(zanj_hash(out), zanj_hash(npz))
            r = self.assertOk(run("cat", out, "ids"))
            self.assertIn("65535", r.text)
            # Without the extension it is recognised by its first bytes.
            os.rename(st, os.path.join(tmp, "m.bin"))
            self.assertOk(run("pack", os.path.join(tmp, "m.bin"), "--force", "-o", out))
            self.assertEqual(zanj_hash(out), zanj_hash(npz))

    def test_bf16_is_refused_by_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            st = write_file(os.path.join(tmp, "m.safetensors"),
                            safetensors_bytes([("w", "BF16", [2], b"\x80\x3f\x00\x40")]))
            r = run("pack", st, "-o", os.path.join(tmp, "m.zanj"))
            self.assertFails(r, 1, "BF16 has no numpy dtype")
            self.assertEqual(os.listdir(tmp), ["m.safetensors"])


class PackHostileSafetensors(ZanjTest):
    """Each refused with exit status 1, a message saying what is wrong, and nothing written."""

    def check_refused(self, data, message):
        with tempfile.TemporaryDirectory() as tmp:
            st = write_file(os.path.join(tmp, "in.safetensors"), data)
            r = run("pack", st, "-o", os.path.join(tmp, "out.zanj"))
            self.assertFails(r, 1, message)
            self.assertIn("in.safetensors", r.err)
            self.assertEqual(os.listdir(tmp), ["in.safetensors"])
            # diff and hash refuse it too (diff: status 2, an operand it cannot read).
            self.assertFails(run("hash", st), 1, message)
            self.assertFails(run("diff", st, st), 2, message)
            self.assertEqual(os.listdir(tmp), ["in.safetensors"])

    def test_header_length_past_the_file(self):
        self.check_refused(struct.pack("<Q", 1 << 40) + b'{"a": 1}', "past the end of the file")

    def test_overlapping_offsets(self):
        header = json.dumps({"a": {"dtype": "U8", "shape": [4], "data_offsets": [0, 4]},
                             "b": {"dtype": "U8", "shape": [2], "data_offsets": [2, 4]}}).encode()
        self.check_refused(struct.pack("<Q", len(header)) + header + b"abcd", "overlaps")

    def test_huge_declared_shape(self):
        header = json.dumps({"a": {"dtype": "F64", "shape": [1 << 31, 1 << 31, 1 << 31],
                                   "data_offsets": [0, 8]}}).encode()
        self.check_refused(struct.pack("<Q", len(header)) + header + bytes(8), "too large")
        header = json.dumps({"a": {"dtype": "F64", "shape": [1 << 20], "data_offsets": [0, 8]}}).encode()
        self.check_refused(struct.pack("<Q", len(header)) + header + bytes(8), "needs 8388608 bytes")

    def test_bad_json(self):
        header = b'{"a": {"dtype": "U8", "shape": [1], "data_offsets": [0, 1]'
        self.check_refused(struct.pack("<Q", len(header)) + header + b"x", "header")

    def test_offsets_past_the_data(self):
        header = json.dumps({"a": {"dtype": "U8", "shape": [100], "data_offsets": [0, 100]}}).encode()
        self.check_refused(struct.pack("<Q", len(header)) + header + b"x", "past the end of the file")


class DiffAndHashAcrossFormats(ZanjTest):
    def test_npz_safetensors_and_zanj_agree(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = weights_zanj(os.path.join(tmp, "run.zanj"))
            npz, st = os.path.join(tmp, "run.npz"), os.path.join(tmp, "run.safetensors")
            self.assertOk(run("export", src, "-o", npz))
            self.assertOk(run("export", src, "-o", st))
            before = sorted(os.listdir(tmp))
            digest = zanj_hash(src)
            self.assertEqual(zanj_hash(npz), digest)
            self.assertEqual(zanj_hash(st), digest)
            for a, b in ((npz, src), (src, npz), (st, src), (npz, st)):
                r = run("diff", a, b)
                self.assertEqual(r.code, 0, r.err + r.out.decode())
            packed = os.path.join(tmp, "packed.zanj")
            self.assertOk(run("pack", npz, "-o", packed))
            self.assertEqual(zanj_hash(packed), digest)
            os.remove(packed)
            self.assertEqual(sorted(os.listdir(tmp)), before)  # diff and hash wrote nothing
            # --json names the operand as given.
            r = self.assertOk(run("hash", "--json", npz))
            self.assertEqual(r.json()["file"], npz)

    def test_a_difference_is_reported(self):
        with tempfile.TemporaryDirectory() as tmp:
            src = weights_zanj(os.path.join(tmp, "run.zanj"))
            st = write_file(os.path.join(tmp, "other.safetensors"), safetensors_bytes([
                ("w", "F32", [2, 3], pack_values("<f", [1.5, -2, 3, 4, 5, 7])),
                ("b", "I64", [4], pack_values("<q", [1, -2, 3, 1 << 40])),
                ("s", "F64", [], pack_values("<d", [0.25])),
            ]))
            r = run("diff", st, src)
            self.assertEqual(r.code, 1, r.err)
            self.assertIn("w", r.out.decode())
            self.assertNotEqual(zanj_hash(st), zanj_hash(src))

    def test_recognised_by_content_from_a_url_stdin_or_any_name(self):
        """An operand without its extension's say (a URL, standard input, a file named
        otherwise) is an .npz when it is a ZIP of .npy members only and a .safetensors when it
        starts with a header length and JSON; a .zanj stays a .zanj whatever its name."""
        with tempfile.TemporaryDirectory() as tmp:
            src = weights_zanj(os.path.join(tmp, "run.zanj"))
            npz, st = os.path.join(tmp, "run.npz"), os.path.join(tmp, "run.safetensors")
            self.assertOk(run("export", src, "-o", npz))
            self.assertOk(run("export", src, "-o", st))
            digest = zanj_hash(src)
            renamed = {}
            for path, name in ((npz, "arrays.bin"), (st, "weights.data"), (src, "object.npz.part")):
                renamed[path] = os.path.join(tmp, name)
                shutil.copy(path, renamed[path])
            for path in renamed.values():
                with self.subTest(operand=path):
                    self.assertEqual(zanj_hash(path), digest)
                    self.assertOk(run("diff", path, src))
            for path in (npz, st):
                with self.subTest(stdin=path), open(path, "rb") as f:
                    r = self.assertOk(run("hash", "-", stdin=f))
                    self.assertEqual(r.out.split()[0], digest)
                with self.subTest(diff_stdin=path), open(path, "rb") as f:
                    self.assertOk(run("diff", "-", src, stdin=f))
            # A ZIP with anything but .npy members is no .npz: opened as a .zanj, and refused as one.
            other = os.path.join(tmp, "other.bin")
            with zipfile.ZipFile(other, "w") as z:
                z.writestr("a.npy", npy_bytes("<f8", (1,), pack_values("<d", [1])))
                z.writestr("notes.txt", "x")
            self.assertFails(run("hash", other), 1, "__zanj__.json")

    @unittest.skipUnless(NGINX, "needs nginx")
    def test_urls_are_recognised_by_content(self):
        with tempfile.TemporaryDirectory() as tmp:
            served = os.path.join(tmp, "served")
            os.mkdir(served)
            src = weights_zanj(os.path.join(served, "run.zanj"))
            self.assertOk(run("export", src, "-o", os.path.join(served, "run.npz")))
            self.assertOk(run("export", src, "-o", os.path.join(served, "run.safetensors")))
            for path, mode in [(tmp, 0o755), (served, 0o755)] + [(os.path.join(served, n), 0o644)
                                                                  for n in os.listdir(served)]:
                os.chmod(path, mode)  # nginx's worker runs as another user
            digest = zanj_hash(src)
            with Nginx(served) as nginx:
                for name in ("run.npz", "run.safetensors"):
                    with self.subTest(url=name):
                        self.assertEqual(zanj_hash(nginx.url(name)), digest)
                        self.assertOk(run("diff", nginx.url(name), src))
                        self.assertOk(run("diff", src, nginx.url(name)))

    def check_bucket_urls(self, put, url, env):
        """An .npz and a .safetensors in a bucket, under their names and under names that say
        nothing: diff and hash read each as the object pack makes of it, by its content."""
        with tempfile.TemporaryDirectory() as tmp:
            src = weights_zanj(os.path.join(tmp, "run.zanj"))
            digest = zanj_hash(src)
            for ext in ("npz", "safetensors"):
                path = os.path.join(tmp, "run." + ext)
                self.assertOk(run("export", src, "-o", path))
                for key in (f"run.{ext}", f"unnamed-{ext}"):
                    put(key, path)
                    with self.subTest(url=url(key)):
                        r = self.assertOk(run("hash", url(key), env=env))
                        self.assertEqual(r.out.split()[0], digest)
                        self.assertOk(run("diff", url(key), src, env=env))
                        self.assertOk(run("diff", src, url(key), env=env))
            # An object that differs is said to: the comparison is not vacuous.
            self.assertEqual(run("diff", url("run.npz"), corpus("basic.zanj"), env=env).code, 1)

    @unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps --test)")
    def test_s3_urls_are_recognised_by_content(self):
        env = {"AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials", "AWS_CONFIG_FILE": "/nonexistent/config",
               "AWS_PROFILE": None, "AWS_DEFAULT_PROFILE": None, "AWS_WEB_IDENTITY_TOKEN_FILE": None,
               "AWS_ROLE_ARN": None, "AWS_CONTAINER_CREDENTIALS_FULL_URI": None,
               "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": None, "AWS_EC2_METADATA_DISABLED": "true",
               "AWS_ACCESS_KEY_ID": "S3RVER", "AWS_SECRET_ACCESS_KEY": "S3RVER", "AWS_REGION": "eu-west-3",
               "AWS_SESSION_TOKEN": None, "AWS_DEFAULT_REGION": None, "AWS_ENDPOINT_URL": None,
               "AWS_ENDPOINT_URL_S3": None}
        with S3rver("models") as s3:
            env["ZANJ_S3_ENDPOINT"] = s3.endpoint
            self.check_bucket_urls(s3.put, lambda key: f"s3://models/{key}", env)

    def test_gs_urls_are_recognised_by_content(self):
        token = "ya29.sniff-secret-41c9"
        with GcsServer("models", tokens={token}) as gcs:
            def put(key, path):
                with open(path, "rb") as f:
                    gcs.put(key, f.read())
            env = {"STORAGE_EMULATOR_HOST": gcs.host, "GOOGLE_OAUTH_ACCESS_TOKEN": token}
            self.check_bucket_urls(put, lambda key: f"gs://models/{key}", env)

    def test_npz_that_pack_refuses_is_an_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            npz = os.path.join(tmp, "bad.npz")
            with zipfile.ZipFile(npz, "w") as z:
                z.writestr("a.npy", b"not an npy file at all")
            self.assertFails(run("hash", npz), 1, "bad.npz")
            self.assertFails(run("diff", npz, npz), 2, "bad.npz")
            self.assertEqual(os.listdir(tmp), ["bad.npz"])


if __name__ == "__main__":
    main()
