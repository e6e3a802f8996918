"""URLs on a server that misbehaves (docs/remote.md): each fault ends in the right output after
recovery or in one clear `zanj: error: URL: ...` line with exit 2, never in wrong output."""
import os
import struct
import tempfile
import time
import zipfile

from common import ZanjTest, external_array, main, run, write_reference_zanj
from remote_servers import FaultServer

NAME = "big.zanj"  # larger than the first request's tail (64 KiB): info needs a second request


def npy_int64(n):
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }" % n
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + struct.pack(f"<{n}q", *range(n))
QUICK = ["--retries", "3", "--idle-timeout", "1", "--connect-timeout", "2"]


class Faults(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        write_reference_zanj(os.path.join(cls.tmp.name, NAME), {"data": external_array("data.npy", "int64", [20000])},
                             {"data.npy": npy_int64(20000)}, compress=zipfile.ZIP_STORED)
        cls.server = FaultServer(cls.tmp.name, slow_seconds=3)
        cls.expected = run("info", "--json", os.path.join(cls.tmp.name, NAME)).json()

    @classmethod
    def tearDownClass(cls):
        cls.server.stop()
        cls.tmp.cleanup()

    def info(self, fault, *extra):
        url = self.server.url(fault, NAME)
        return url, run(*QUICK, *extra, "info", "--json", url, timeout=30)

    def assertRecovers(self, fault, *extra):
        url, r = self.info(fault, *extra)
        self.assertOk(r)
        got = r.json()
        self.assertEqual(got.pop("file"), url)
        got.pop("bytes_fetched"), got.pop("requests")
        expected = dict(self.expected)
        expected.pop("file")
        self.assertEqual(got, expected)
        return r

    def test_a_dropped_connection_is_resumed(self):
        r = self.assertRecovers("drop")
        self.assertGreaterEqual(self.server.counts[f"/drop/{NAME}"], 3)

    def test_a_500_is_retried(self):
        self.assertRecovers("500")

    def test_a_429_waits_for_retry_after(self):
        start = time.monotonic()
        self.assertRecovers("429")
        self.assertGreaterEqual(time.monotonic() - start, 1.0)

    def test_a_stalled_response_times_out_and_is_retried(self):
        self.assertRecovers("slow")

    def test_a_server_ignoring_ranges_is_downloaded_within_download_max(self):
        r = self.assertRecovers("ignore")  # every answer is 200: no count matters
        self.assertEqual(r.err, "")
        r = self.assertRecovers("ignore", "-v")
        self.assertIn("the server ignores range requests; fetched the whole file", r.err)
        url, r = self.info("ignore", "--download-max", "1000")
        self.assertFails(r, 2, f"zanj: error: {url}: the server ignores range requests")
        self.assertIn("--download fetches it whole", r.err)
        r = self.assertRecovers("ignore", "--download", "--download-max", "1000")
        self.assertEqual(r.err, "")  # asked for: silent

    def test_a_trickle_ends_at_the_speed_limit_or_the_deadline(self):
        url = self.server.url("trickle", NAME) + "?speed"
        start = time.monotonic()
        r = run("--retries", "0", "--speed-limit", "100", "--speed-time", "2", "info", url, timeout=30)
        self.assertFails(r, 2, f"zanj: error: {url}: ")
        self.assertLess(time.monotonic() - start, 10)
        url = self.server.url("trickle", NAME) + "?deadline"
        start = time.monotonic()
        r = run("--retries", "5", "--deadline", "2", "info", url, timeout=30)
        self.assertFails(r, 2, f"zanj: error: {url}: the --deadline of 2 s passed")
        self.assertLess(time.monotonic() - start, 6)

    def test_query_values_are_never_shown(self):
        secret = "?X-Amz-Signature=deadbeef5678&X-Amz-Credential=AKIDSECRET&plain"
        shown = "?X-Amz-Signature=\u2026&X-Amz-Credential=\u2026&plain"
        url = self.server.url("ok", NAME)
        r = self.assertOk(run("-v", "-v", "info", "--json", url + secret))
        self.assertEqual(r.json()["file"], url + shown)
        self.assertIn(f"GET {url}{shown} bytes=", r.err)
        missing = self.server.url("ok", "missing.zanj")
        r = run("-v", "-v", "ls", missing + secret)
        self.assertEqual(r.code, 2, r.err)
        self.assertIn(missing + shown, r.err)
        for text in (r.err, self.assertOk(run("-v", "verify", url + secret)).out.decode()):
            self.assertNotIn("deadbeef5678", text)
            self.assertNotIn("AKIDSECRET", text)

    def test_a_file_changing_between_requests_is_an_error(self):
        url, r = self.info("etag")
        self.assertFails(r, 2, f"zanj: error: {url}: the file changed on the server")

    def test_verify_and_extract_report_a_failed_transfer_not_a_bad_archive(self):
        for fault in ("etag", "badrange"):
            url = self.server.url(fault, NAME) + "?verify"
            self.assertFails(run(*QUICK, "verify", url, timeout=30), 2, f"zanj: error: {url}: ")
            url = self.server.url(fault, NAME) + "?extract"
            with tempfile.TemporaryDirectory() as out, tempfile.TemporaryDirectory() as local:
                self.assertFails(run(*QUICK, "extract", "-C", out, url, timeout=30), 2, f"zanj: error: {url}: ")
                self.assertOk(run("extract", "-C", local, os.path.join(self.tmp.name, NAME)))
                for name in os.listdir(out):  # nothing half-written: what is there is whole
                    with open(os.path.join(out, name), "rb") as a, open(os.path.join(local, name), "rb") as b:
                        self.assertEqual(a.read(), b.read(), name)

    def test_a_wrong_content_range_is_an_error(self):
        url, r = self.info("badrange")
        self.assertFails(r, 2, f"zanj: error: {url}: the server answered bytes=")

    def test_retries_are_bounded(self):
        url = self.server.url("500", NAME) + "?bounded"
        r = run("--retries", "0", "info", url, timeout=30)
        self.assertFails(r, 2, f"zanj: error: {url}: HTTP 500")


class Credentials(ZanjTest):
    """Headers from --http-header and ZANJ_HTTP_HEADER, and ~/.netrc, reach the server and
    nowhere else."""

    def test_headers_and_netrc_are_sent_and_never_shown(self):
        with tempfile.TemporaryDirectory() as home:
            write_reference_zanj(os.path.join(home, NAME), {"data": external_array("data.npy", "int64", [20000])},
                                 {"data.npy": npy_int64(20000)}, compress=zipfile.ZIP_STORED)
            with open(os.path.join(home, ".netrc"), "w") as f:
                f.write("machine 127.0.0.1 login netrcuser password netrcsecret\n")
            os.chmod(os.path.join(home, ".netrc"), 0o600)
            server = FaultServer(home)
            try:
                r = run("-v", "--http-header", "X-Api-Key: CLISECRET", "info", "--json", server.url("ok", NAME),
                        env={"ZANJ_HTTP_HEADER": "X-Team: ENVSECRET", "HOME": home})
                self.assertOk(r)
                for secret in ("CLISECRET", "ENVSECRET", "netrcsecret", "netrcuser"):
                    self.assertNotIn(secret, r.err + r.out.decode())
                self.assertTrue(server.headers)
                for headers in server.headers:
                    self.assertEqual(headers.get("X-Api-Key"), "CLISECRET")
                    self.assertEqual(headers.get("X-Team"), "ENVSECRET")
                    self.assertTrue(headers.get("Authorization", "").startswith("Basic "), headers)
            finally:
                server.stop()


if __name__ == "__main__":
    main()
