"""Archives read from URLs (docs/remote.md): every command gives on http://127.0.0.1/NAME, served by
a real nginx, what it gives on the file itself, within the byte and request budgets the
docs/remote.md states (counted from nginx's access log)."""
import json
import os
import shutil
import tempfile
import unittest
import zipfile

from common import CORPUS, ZanjTest, archives, facts, main, run
from remote_servers import Nginx

NGINX = shutil.which("nginx") or (os.path.exists("/usr/sbin/nginx") and "/usr/sbin/nginx")
KIB = 1024


def without_transfer(text):
    """A --json line without the URL-only keys."""
    out = []
    for line in text.splitlines():
        value = json.loads(line)
        value.pop("bytes_fetched", None)
        value.pop("requests", None)
        out.append(value)
    return out


def directory_bytes(archive):
    with zipfile.ZipFile(archive) as z:
        return sum(46 + len(i.orig_filename.encode()) + len(i.extra) + len(i.comment) for i in z.infolist())


def json_member_bytes(archive):
    with zipfile.ZipFile(archive) as z:
        return sum(i.compress_size + 30 + len(i.orig_filename.encode()) + len(i.extra)
                   for i in z.infolist() if i.filename in ("__zanj__.json", "__zanj_meta__.json"))


def array_paths(name):
    return ["/".join(str(p) for p in a["path"]) for a in facts(name)["arrays"]]


@unittest.skipUnless(NGINX, "nginx (Debian nginx-light) is not installed")
class SameOutputAsTheFile(ZanjTest):
    @classmethod
    def setUpClass(cls):
        os.environ["PATH"] = os.environ.get("PATH", "") + ":/usr/sbin"
        cls.nginx = Nginx(CORPUS)
        cls.prefix = cls.nginx.url("")

    @classmethod
    def tearDownClass(cls):
        cls.nginx.stop()

    def both(self, name, *args):
        """Run `args` with NAME on the file (in the corpus directory) and on its URL."""
        url = self.nginx.url(name)
        on_file = run(*[name if a == "FILE" else a for a in args], cwd=CORPUS)
        on_url = run(*[url if a == "FILE" else a for a in args])
        return on_file, on_url

    def assertSame(self, name, *args, json_lines=False):
        on_file, on_url = self.both(name, *args)
        self.assertEqual(on_url.code, on_file.code, f"{args}: {on_url.err}")
        out_file, out_url = on_file.out, on_url.out.replace(self.prefix.encode(), b"")
        if json_lines:
            self.assertEqual(without_transfer(out_url.decode()), without_transfer(out_file.decode()), args)
        else:
            self.assertEqual(out_url, out_file, args)
        self.assertEqual(on_url.err.replace(self.prefix, ""), on_file.err, args)
        return on_url

    def test_every_command_on_every_corpus_archive(self):
        for path in archives():
            name = os.path.basename(path)
            with self.subTest(archive=name):
                for args in (["info", "FILE"], ["ls", "FILE"], ["ls", "-l", "FILE"], ["ls", "-1", "FILE"],
                             ["ls", "--members", "FILE"], ["verify", "FILE"], ["stats", "FILE"], ["cat", "FILE"],
                             ["hash", "FILE"], ["report", "FILE"]):
                    self.assertSame(name, *args)
                for args in (["info", "--json", "FILE"], ["ls", "--json", "FILE"], ["verify", "--json", "FILE"],
                             ["ls", "--members", "--json", "FILE"], ["stats", "--json", "FILE"],
                             ["hash", "--json", "FILE"]):
                    self.assertSame(name, *args, json_lines=True)
                for array in array_paths(name)[:4]:
                    self.assertSame(name, "cat", "FILE", array)
                    self.assertSame(name, "cat", "--format", "npy", "FILE", array)
                self.assertOk(run("diff", self.nginx.url(name), os.path.join(CORPUS, name)))

    def test_extract_writes_the_same_files(self):
        for name in ("basic.zanj", "stored.zanj", "model.zanj"):
            with tempfile.TemporaryDirectory() as tmp:
                self.assertOk(run("extract", "-C", os.path.join(tmp, "f"), os.path.join(CORPUS, name)))
                self.assertOk(run("extract", "-C", os.path.join(tmp, "u"), self.nginx.url(name)))
                for d, _, files in os.walk(os.path.join(tmp, "f")):
                    for f in files:
                        mine = os.path.join(d, f)
                        theirs = mine.replace(os.path.join(tmp, "f"), os.path.join(tmp, "u"), 1)
                        with open(mine, "rb") as a, open(theirs, "rb") as b:
                            self.assertEqual(a.read(), b.read(), f)

    def test_json_reports_bytes_and_requests(self):
        self.nginx.reset_log()
        report = run("info", "--json", self.nginx.url("stored.zanj")).json()
        served = self.nginx.requests()
        self.assertEqual(report["requests"], len(served))
        self.assertEqual(report["bytes_fetched"], sum(r[1] for r in served))
        self.assertNotIn("bytes_fetched", run("info", "--json", os.path.join(CORPUS, "stored.zanj")).json())


@unittest.skipUnless(NGINX, "nginx (Debian nginx-light) is not installed")
class Budgets(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.nginx = Nginx(CORPUS)

    @classmethod
    def tearDownClass(cls):
        cls.nginx.stop()

    def served(self, *args):
        self.nginx.reset_log()
        self.assertOk(run(*args))
        requests = self.nginx.requests()
        for status, _, _ in requests:
            self.assertEqual(status, 206, requests)  # one range per request, never the whole file
        return sum(r[1] for r in requests), len(requests)

    def test_info_and_ls_fetch_the_directory_and_the_two_json_members(self):
        for name in map(os.path.basename, archives()):
            path = os.path.join(CORPUS, name)
            budget = directory_bytes(path) + json_member_bytes(path) + 64 * KIB
            for command in ("info", "ls"):
                with self.subTest(archive=name, command=command):
                    sent, count = self.served(command, self.nginx.url(name))
                    self.assertLessEqual(sent, budget)
                    self.assertLessEqual(count, 4)

    def test_verify_fetches_each_byte_once(self):
        for name in map(os.path.basename, archives()):
            path = os.path.join(CORPUS, name)
            with self.subTest(archive=name):
                sent, _ = self.served("verify", self.nginx.url(name))
                self.assertLessEqual(sent, 1.02 * os.path.getsize(path))

    def test_cat_of_a_stored_slice_fetches_little(self):
        sent, _ = self.served("cat", self.nginx.url("stored.zanj"), "data[100:110]")
        self.assertLessEqual(sent, 64 * KIB)

    def test_v_prints_each_request_without_credentials(self):
        self.nginx.reset_log()
        r = self.assertOk(run("-v", "info", "--http-header", "Authorization: Bearer TOPSECRET",
                              self.nginx.url("stored.zanj").replace("http://", "http://user:hunter2@")))
        lines = [l for l in r.err.splitlines() if " GET " in l]
        self.assertEqual(len(lines), len(self.nginx.requests()))
        self.assertIn("bytes=-65558: 206", lines[0])
        for secret in ("TOPSECRET", "hunter2", "user:"):
            self.assertNotIn(secret, r.err + r.out.decode())

    def test_a_missing_file_is_a_usage_error_naming_the_url(self):
        url = self.nginx.url("missing.zanj")
        self.assertFails(run("info", url), 2, f"zanj: error: {url}: HTTP 404 Not Found")


@unittest.skipUnless(NGINX and shutil.which("openssl"), "nginx or openssl is not installed")
class Tls(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.nginx = Nginx(CORPUS, tls=True)
        cls.base = f"https://127.0.0.1:{cls.nginx.tls_port}"

    @classmethod
    def tearDownClass(cls):
        cls.nginx.stop()

    def test_certificates_are_verified(self):
        url = f"{self.base}/basic.zanj"
        self.assertFails(run("info", url), 2, f"zanj: error: {url}: SSL certificate problem")

    def test_insecure_is_explicit_and_warns(self):
        r = self.assertOk(run("--insecure", "info", f"{self.base}/basic.zanj"))
        self.assertIn("zanj: warning: ", r.err)
        self.assertIn("not verified", r.err)

    def test_no_redirect_from_https_to_http(self):
        url = f"{self.base}/to-http/basic.zanj"
        r = run("--insecure", "info", url)
        self.assertEqual(r.code, 2, r.err)
        self.assertIn(f"zanj: error: {url}: ", r.err)


if __name__ == "__main__":
    main()
