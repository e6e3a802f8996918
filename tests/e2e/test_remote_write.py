"""Writing outputs to URLs (docs/remote.md, "Writing"): `pack -o`, `report -o` and `export -o` with
s3:// (s3rver, a real S3 server, on 127.0.0.1), gs:// (the suite's GCS JSON API server) and a plain
PUT URL. What is uploaded reads back with the same `zanj hash` as a local pack, passes Python's
zipfile (written with data descriptors: the upload cannot seek back), and appears only when complete:
a failure or SIGINT mid-upload leaves no object."""
import hashlib
import io
import json
import os
import random
import shutil
import signal
import struct
import subprocess
import tempfile
import time
import unittest
import urllib.request
import zipfile

from common import ZANJ, ZanjTest, corpus, environment, main, npy_bytes, reference_read_problems, run
from remote_servers import S3RVER, GcsServer, PutServer, RecordingProxy, S3rver

BUCKET = "models"
MiB = 1 << 20
ISOLATED = {"AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials", "AWS_CONFIG_FILE": "/nonexistent/config",
            "AWS_PROFILE": None, "AWS_DEFAULT_PROFILE": None, "AWS_WEB_IDENTITY_TOKEN_FILE": None, "AWS_ROLE_ARN": None,
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": None, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": None,
            "AWS_EC2_METADATA_DISABLED": "true", "AWS_ACCESS_KEY_ID": "S3RVER", "AWS_SECRET_ACCESS_KEY": "S3RVER",
            "AWS_REGION": "eu-west-3", "AWS_SESSION_TOKEN": None, "AWS_DEFAULT_REGION": None,
            "AWS_ENDPOINT_URL": None, "AWS_ENDPOINT_URL_S3": None}
GCS_TOKEN = "ya29.upload-secret-3f2a"


def make_inputs(tmp):
    """A small .npz and a 12 MiB one of random bytes (stored: three 5 MiB parts), as numpy.savez
    writes them."""
    small = os.path.join(tmp, "small.npz")
    with zipfile.ZipFile(small, "w") as z:
        z.writestr("a.npy", npy_bytes("<f8", (1000,), struct.pack("<1000d", *range(1000))))
        z.writestr("b.npy", npy_bytes("<i4", (3, 4), struct.pack("<12i", *[1] * 12)))
    big = os.path.join(tmp, "big.npz")
    with zipfile.ZipFile(big, "w") as z:
        z.writestr("noise.npy", npy_bytes("|u1", (12 * MiB,), random.Random(7).randbytes(12 * MiB)))
        z.writestr("x.npy", npy_bytes("<i8", (10,), struct.pack("<10q", *range(10))))
    return small, big


def check_archive(test, data, descriptors=True):
    """`data` passes zipfile's testzip and the reference loader's checks; with `descriptors`,
    every member has flag bit 3 (written without seeking)."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        test.assertIsNone(z.testzip())
        for info in z.infolist():
            test.assertEqual(bool(info.flag_bits & 0x08), descriptors, info.filename)
    with tempfile.NamedTemporaryFile(suffix=".zanj") as f:
        f.write(data)
        f.flush()
        test.assertEqual(reference_read_problems(f.name), [])
        verify = run("verify", f.name)
        test.assertEqual(verify.code, 0, verify.err)
        return run("hash", f.name).out.split()[0]


def local_hash(test, tmp, source, *options):
    out = os.path.join(tmp, "local.zanj")
    test.assertOk(run("pack", source, *options, "--force", "-o", out))
    with open(out, "rb") as f:
        check_archive(test, f.read(), descriptors=False)
    return run("hash", out).out.split()[0]


def interrupt_mid_upload(args, env, started):
    """Run zanj with `args`, send SIGINT once `started()` is true; -> (return code, stderr)."""
    p = subprocess.Popen([ZANJ, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=environment(env))
    deadline = time.time() + 60
    while not started() and time.time() < deadline and p.poll() is None:
        time.sleep(0.02)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=60)
    return p.returncode, err.decode(errors="replace")


@unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps --test)")
class S3Write(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.s3 = S3rver(BUCKET)
        cls.tmp = tempfile.mkdtemp(prefix="zanj-write-")
        cls.small, cls.big = make_inputs(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        cls.s3.stop()
        shutil.rmtree(cls.tmp, True)

    def env(self, endpoint=None):
        return dict(ISOLATED, ZANJ_S3_ENDPOINT=endpoint or self.s3.endpoint)

    def fetch(self, key):
        try:
            with urllib.request.urlopen(f"{self.s3.endpoint}/{BUCKET}/{key}", timeout=10) as r:
                return r.read()
        except urllib.error.HTTPError as e:
            self.assertEqual(e.code, 404)
            return None

    def test_pack_round_trip(self):
        want = local_hash(self, self.tmp, self.small)
        r = self.assertOk(run("pack", self.small, "--json", "-o", f"s3://{BUCKET}/out/small.zanj", env=self.env()))
        self.assertTrue(r.json()["etag"])
        self.assertEqual(r.json()["output"], f"s3://{BUCKET}/out/small.zanj")
        self.assertEqual(check_archive(self, self.fetch("out/small.zanj")), want)
        # zanj reads it back from the bucket too
        on_url = self.assertOk(run("hash", f"s3://{BUCKET}/out/small.zanj", env=self.env()))
        self.assertEqual(on_url.out.split()[0], want)

    def test_multipart_with_several_parts(self):
        want = local_hash(self, self.tmp, self.big, "--store")
        proxy = RecordingProxy(self.s3.endpoint)
        self.addCleanup(proxy.stop)
        r = self.assertOk(run("pack", self.big, "--store", "--part-size", "5MiB", "-v", "-v",
                              "-o", f"s3://{BUCKET}/out/big.zanj", env=self.env(proxy.endpoint)))
        parts = [p for m, p, _ in proxy.requests if m == "PUT" and "partNumber=" in p]
        self.assertEqual(len(parts), 3, proxy.requests)
        self.assertTrue(any(m == "POST" and "uploadId=" in p for m, p, _ in proxy.requests))
        self.assertIn("part 3", r.err)
        self.assertEqual(check_archive(self, self.fetch("out/big.zanj")), want)
        # signatures and keys stay out of -v -v
        self.assertNotIn("Signature=", r.err)
        self.assertNotIn("uploadId=", r.err)

    def test_parts_are_sent_while_one_is_held_up(self):
        # Part 1 waits 2 s at the proxy: parts 2 and 3 (and the packing that fills them) go on
        # meanwhile, so they reach the store before part 1 does, and the archive is whole.
        want = local_hash(self, self.tmp, self.big, "--store")
        arrived = {}

        def delay(method, path):
            if "partNumber=" not in path:
                return 0
            number = path.split("partNumber=")[1].split("&")[0]
            arrived[number] = time.monotonic()
            return 2 if number == "1" else 0

        proxy = RecordingProxy(self.s3.endpoint, delay=delay)
        self.addCleanup(proxy.stop)
        self.assertOk(run("pack", self.big, "--store", "--part-size", "5MiB", "-o", f"s3://{BUCKET}/out/overlap.zanj",
                          env=self.env(proxy.endpoint)))
        self.assertEqual(sorted(arrived), ["1", "2", "3"], proxy.requests)
        # One at a time, part 2 would come only once part 1 was answered, 2 s later.
        self.assertLess(arrived["2"] - arrived["1"], 1.5, arrived)
        self.assertEqual(check_archive(self, self.fetch("out/overlap.zanj")), want)

    def test_failure_mid_upload_leaves_no_object(self):
        def fault(method, path, headers):
            return 403 if method == "PUT" and "partNumber=2" in path else None
        proxy = RecordingProxy(self.s3.endpoint, fault=fault)
        self.addCleanup(proxy.stop)
        r = run("pack", self.big, "--store", "--part-size", "5MiB", "-o", f"s3://{BUCKET}/out/failed.zanj",
                env=self.env(proxy.endpoint))
        self.assertEqual(r.code, 2, r.err)
        self.assertIn("part 2", r.err)
        self.assertIsNone(self.fetch("out/failed.zanj"))
        self.assertTrue(any(m == "DELETE" and "uploadId=" in p for m, p, _ in proxy.requests), proxy.requests)

    def test_sigint_mid_upload_aborts(self):
        proxy = RecordingProxy(self.s3.endpoint, delay=lambda m, p: 2 if "partNumber=2" in p else 0)
        self.addCleanup(proxy.stop)
        code, err = interrupt_mid_upload(
            ["pack", self.big, "--store", "--part-size", "5MiB", "-o", f"s3://{BUCKET}/out/interrupted.zanj"],
            self.env(proxy.endpoint), lambda: any("partNumber=2" in p for _, p, _ in proxy.requests))
        self.assertEqual(code, -signal.SIGINT, err)
        self.assertIsNone(self.fetch("out/interrupted.zanj"))
        self.assertTrue(any(m == "DELETE" and "uploadId=" in p for m, p, _ in proxy.requests), proxy.requests)

    def test_no_clobber(self):
        url = f"s3://{BUCKET}/out/kept.zanj"
        self.assertOk(run("pack", self.small, "-o", url, env=self.env()))
        before = self.fetch("out/kept.zanj")
        r = run("pack", self.small, "--level", "1", "--no-clobber", "-o", url, env=self.env())
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("already exists", r.err)
        self.assertEqual(self.fetch("out/kept.zanj"), before)

    def test_report_and_export_to_s3(self):
        self.assertOk(run("report", corpus("basic.zanj"), "-o", f"s3://{BUCKET}/out/basic.html", env=self.env()))
        self.assertIn(b"<html", self.fetch("out/basic.html").lower())
        self.assertOk(run("export", corpus("basic.zanj"), "-o", f"s3://{BUCKET}/out/basic.npz", env=self.env()))
        with zipfile.ZipFile(io.BytesIO(self.fetch("out/basic.npz"))) as z:
            self.assertIsNone(z.testzip())


class GcsWrite(ZanjTest):
    def setUp(self):
        self.gcs = GcsServer(BUCKET, tokens={GCS_TOKEN})
        self.addCleanup(self.gcs.stop)
        self.tmp = tempfile.mkdtemp(prefix="zanj-write-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.small, self.big = make_inputs(self.tmp)

    def env(self):
        return {"STORAGE_EMULATOR_HOST": self.gcs.host, "GOOGLE_OAUTH_ACCESS_TOKEN": GCS_TOKEN}

    def test_pack_with_a_service_account_key(self):
        # A service account's token is only as able as the scope its JWT asks for: a read-only
        # scope cannot upload (GCS answers 403), so the one zanj asks for must allow writing.
        key, public = os.path.join(self.tmp, "key.pem"), os.path.join(self.tmp, "public.pem")
        subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
                       check=True, capture_output=True)
        subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", public], check=True, capture_output=True)
        gcs = GcsServer(BUCKET, tokens={GcsServer.JWT_TOKEN}, public_key=public)
        self.addCleanup(gcs.stop)
        with open(key) as f:
            account = {"type": "service_account", "project_id": "p", "private_key_id": "k1", "private_key": f.read(),
                       "client_email": "writer@p.iam.gserviceaccount.com", "token_uri": gcs.token_uri}
        credentials = os.path.join(self.tmp, "service_account.json")
        with open(credentials, "w") as f:
            json.dump(account, f)
        empty = os.path.join(self.tmp, "empty")
        os.mkdir(empty)
        env = {"STORAGE_EMULATOR_HOST": gcs.host, "GOOGLE_APPLICATION_CREDENTIALS": credentials,
               "GOOGLE_OAUTH_ACCESS_TOKEN": None, "CLOUDSDK_AUTH_ACCESS_TOKEN": None, "CLOUDSDK_CONFIG": empty,
               "HOME": empty, "GCE_METADATA_HOST": "127.0.0.1:9"}
        self.assertOk(run("pack", self.small, "-o", f"gs://{BUCKET}/out/by-account.zanj", env=env))
        self.assertIn("out/by-account.zanj", gcs.objects)
        self.assertIn("devstorage.read_write", gcs.jwt_scope)
        self.assertOk(run("info", f"gs://{BUCKET}/out/by-account.zanj", env=env))  # and reads with it

    def test_pack_round_trip_in_chunks(self):
        want = local_hash(self, self.tmp, self.big, "--store")
        r = self.assertOk(run("pack", self.big, "--store", "--part-size", "5MiB", "--json", "-v", "-v",
                              "-o", f"gs://{BUCKET}/out/big.zanj", env=self.env()))
        data, generation = self.gcs.objects["out/big.zanj"]
        self.assertEqual(r.json()["generation"], str(generation))
        self.assertEqual(check_archive(self, data), want)
        chunks = [h for m, p, h in self.gcs.requests if m == "PUT"]
        self.assertEqual(len(chunks), 3)
        self.assertTrue(all(h["Content-Range"].startswith("bytes ") for h in chunks))
        self.assertNotIn(GCS_TOKEN, r.err)
        self.assertNotIn("/upload/session/", r.err)

    def test_resume_after_a_short_308(self):
        self.gcs.short_keep = 1000  # the first chunk: only 1000 bytes kept
        want = local_hash(self, self.tmp, self.big, "--store")
        self.assertOk(run("pack", self.big, "--store", "--part-size", "5MiB", "-o", f"gs://{BUCKET}/out/resumed.zanj",
                          env=self.env()))
        starts = [h["Content-Range"] for m, p, h in self.gcs.requests if m == "PUT"]
        self.assertTrue(starts[1].startswith("bytes 1000-"), starts)
        self.assertEqual(check_archive(self, self.gcs.objects["out/resumed.zanj"][0]), want)

    def test_failure_cancels_the_session(self):
        self.gcs.fail_chunk = 2
        r = run("pack", self.big, "--store", "--part-size", "5MiB", "-o", f"gs://{BUCKET}/out/failed.zanj", env=self.env())
        self.assertEqual(r.code, 2, r.err)
        self.assertIn("403", r.err)
        self.assertNotIn("out/failed.zanj", self.gcs.objects)
        self.assertEqual(len(self.gcs.cancelled), 1)
        self.assertEqual(self.gcs.sessions, {})

    def test_sigint_cancels_the_session(self):
        self.gcs.chunk_delay = 1
        code, err = interrupt_mid_upload(
            ["pack", self.big, "--store", "--part-size", "5MiB", "-o", f"gs://{BUCKET}/out/interrupted.zanj"],
            self.env(), lambda: any(m == "PUT" for m, _, _ in self.gcs.requests))
        self.assertEqual(code, -signal.SIGINT, err)
        self.assertNotIn("out/interrupted.zanj", self.gcs.objects)
        self.assertEqual(len(self.gcs.cancelled), 1)

    def test_no_clobber_is_if_generation_match_0(self):
        self.gcs.put("out/kept.zanj", b"old")
        r = run("pack", self.small, "--no-clobber", "-o", f"gs://{BUCKET}/out/kept.zanj", env=self.env())
        self.assertEqual(r.code, 1, r.err)
        self.assertIn("already exists", r.err)
        self.assertEqual(self.gcs.objects["out/kept.zanj"][0], b"old")
        self.assertTrue(any("ifGenerationMatch=0" in p for m, p, _ in self.gcs.requests if m == "POST"))


class PutWrite(ZanjTest):
    def setUp(self):
        self.server = PutServer()
        self.addCleanup(self.server.stop)
        self.tmp = tempfile.mkdtemp(prefix="zanj-write-")
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.small, _ = make_inputs(self.tmp)

    def test_put_round_trip(self):
        want = local_hash(self, self.tmp, self.small)
        url = f"{self.server.endpoint}/up/small.zanj?X-Amz-Signature=secret-signature-91c"
        r = self.assertOk(run("pack", self.small, "--json", "-v", "-v", "-o", url))
        data = self.server.objects["/up/small.zanj"]
        self.assertEqual(r.json()["etag"], '"' + hashlib.md5(data).hexdigest() + '"')
        self.assertEqual(check_archive(self, data), want)
        self.assertNotIn("secret-signature-91c", r.err + r.text)

    def test_failure_leaves_nothing(self):
        self.server.fail = 403
        r = run("pack", self.small, "-o", f"{self.server.endpoint}/up/failed.zanj")
        self.assertEqual(r.code, 2, r.err)
        self.assertIn("403", r.err)
        self.assertEqual(self.server.objects, {})

    def test_no_clobber(self):
        self.server.objects["/up/kept.zanj"] = b"old"
        r = run("pack", self.small, "--no-clobber", "-o", f"{self.server.endpoint}/up/kept.zanj")
        self.assertEqual(r.code, 1, r.err)
        self.assertEqual(self.server.objects["/up/kept.zanj"], b"old")


if __name__ == "__main__":
    main()
