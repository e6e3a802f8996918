"""gs://BUCKET/OBJECT URLs (issue 28) against a loopback GCS JSON API (remote_servers.GcsServer):
every command gives what it gives on the file; the generation is pinned; each credential source
works alone and in its order; a refused request names the sources tried; and no token, refresh
token, client secret or private key appears in any output, -v -v included."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest
import zipfile

from common import CORPUS, ZanjTest, archives, external_array, main, run, write_reference_zanj
from remote_servers import GcsServer, free_port
from test_remote_faults import npy_int64

BUCKET = "models"
OPENSSL = shutil.which("openssl")
ACCESS_TOKEN = "ya29.from-the-environment-31d7"


def without_transfer(text):
    out = []
    for line in text.splitlines():
        value = json.loads(line)
        value.pop("bytes_fetched", None)
        value.pop("requests", None)
        out.append(value)
    return out


@unittest.skipUnless(OPENSSL, "openssl is not installed")
class Gcs(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.key = os.path.join(cls.tmp.name, "key.pem")
        cls.public_key = os.path.join(cls.tmp.name, "public.pem")
        subprocess.run([OPENSSL, "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", cls.key],
                       check=True, capture_output=True)
        subprocess.run([OPENSSL, "pkey", "-in", cls.key, "-pubout", "-out", cls.public_key], check=True, capture_output=True)
        with open(cls.key) as f:
            cls.private_key = f.read()
        tokens = {ACCESS_TOKEN, GcsServer.REFRESHED_TOKEN, GcsServer.JWT_TOKEN, GcsServer.METADATA_TOKEN}
        cls.gcs = GcsServer(BUCKET, tokens=tokens, public_key=cls.public_key)
        cls.names = [os.path.basename(a) for a in archives()]
        for name in cls.names:
            with open(os.path.join(CORPUS, name), "rb") as f:
                cls.gcs.put(f"corpus/{name}", f.read())
        cls.dead_port = free_port()  # nothing listens there: the metadata server is absent
        cls.authorized_user = cls.write("authorized_user.json", {
            "type": "authorized_user", "client_id": "client-1.apps.googleusercontent.com",
            "client_secret": GcsServer.CLIENT_SECRET, "refresh_token": GcsServer.REFRESH_TOKEN,
            "token_uri": cls.gcs.token_uri})
        cls.service_account = cls.write("service_account.json", {
            "type": "service_account", "project_id": "p", "private_key_id": "k1", "private_key": cls.private_key,
            "client_email": "reader@p.iam.gserviceaccount.com", "token_uri": cls.gcs.token_uri})
        cls.empty_dir = os.path.join(cls.tmp.name, "empty")
        os.mkdir(cls.empty_dir)

    @classmethod
    def tearDownClass(cls):
        cls.gcs.stop()
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, value):
        path = os.path.join(cls.tmp.name, name)
        with open(path, "w") as f:
            json.dump(value, f)
        return path

    def env(self, **changes):
        """No credentials at all, the metadata server absent, plus `changes`."""
        base = {"STORAGE_EMULATOR_HOST": self.gcs.host, "GOOGLE_OAUTH_ACCESS_TOKEN": None,
                "CLOUDSDK_AUTH_ACCESS_TOKEN": None, "GOOGLE_APPLICATION_CREDENTIALS": None,
                "CLOUDSDK_CONFIG": self.empty_dir, "HOME": self.empty_dir,
                "GCE_METADATA_HOST": f"127.0.0.1:{self.dead_port}"}
        base.update(changes)
        return base

    def url(self, name="stored.zanj"):
        return f"gs://{BUCKET}/corpus/{name}"

    def secrets(self):
        key_lines = [l for l in self.private_key.splitlines() if l and not l.startswith("-----")]
        return [ACCESS_TOKEN, GcsServer.REFRESHED_TOKEN, GcsServer.JWT_TOKEN, GcsServer.METADATA_TOKEN,
                GcsServer.REFRESH_TOKEN, GcsServer.CLIENT_SECRET] + key_lines

    def assertNoSecret(self, r):
        text = r.out.decode(errors="replace") + r.err
        for secret in self.secrets():
            self.assertNotIn(secret, text)

    def test_every_command_gives_the_file_output(self):
        env = self.env(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN)
        prefix = f"gs://{BUCKET}/corpus/"
        for name in self.names:
            for args in (["info"], ["ls", "-l"], ["ls", "--members"], ["verify"], ["stats"], ["cat"], ["hash"],
                         ["report"]):
                with self.subTest(archive=name, command=args):
                    on_file = run(*args, name, cwd=CORPUS)
                    on_url = run(*args, self.url(name), env=env)
                    self.assertEqual(on_url.code, on_file.code, on_url.err)
                    self.assertEqual(on_url.out.replace(prefix.encode(), b""), on_file.out)
                    self.assertEqual(on_url.err.replace(prefix, ""), on_file.err)
            for args in (["info", "--json"], ["ls", "--json"], ["verify", "--json"], ["hash", "--json"]):
                with self.subTest(archive=name, command=args):
                    on_file = run(*args, name, cwd=CORPUS)
                    on_url = run(*args, self.url(name), env=env)
                    self.assertEqual(on_url.code, on_file.code, on_url.err)
                    self.assertEqual(without_transfer(on_url.out.decode().replace(prefix, "")),
                                     without_transfer(on_file.out.decode()))

    def test_extract_and_diff(self):
        env = self.env(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN)
        with tempfile.TemporaryDirectory() as tmp:
            self.assertOk(run("extract", "-C", os.path.join(tmp, "f"), os.path.join(CORPUS, "model.zanj")))
            self.assertOk(run("extract", "-C", os.path.join(tmp, "u"), self.url("model.zanj"), env=env))
            for d, _, files in os.walk(os.path.join(tmp, "f")):
                for f in files:
                    mine = os.path.join(d, f)
                    with open(mine, "rb") as a, open(mine.replace(os.path.join(tmp, "f"), os.path.join(tmp, "u"), 1), "rb") as b:
                        self.assertEqual(a.read(), b.read(), f)
        self.assertOk(run("diff", self.url("basic.zanj"), os.path.join(CORPUS, "basic.zanj"), env=env))

    def test_media_requests_are_ranges_pinned_to_the_generation(self):
        start = len(self.gcs.requests)
        self.assertOk(run("verify", self.url("model.zanj"), env=self.env(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN)))
        seen = [r for r in self.gcs.requests[start:] if r[1].startswith("/storage/")]
        self.assertEqual(seen[0][1], f"/storage/v1/b/{BUCKET}/o/corpus%2Fmodel.zanj")  # metadata first
        for method, path, headers in seen[1:]:
            self.assertTrue(path.endswith("?alt=media&ifGenerationMatch=1000"), path)
            self.assertRegex(headers["Range"], r"^bytes=\d*-\d+$")
            self.assertEqual(headers["Authorization"], f"Bearer {ACCESS_TOKEN}")

    def test_a_replaced_object_is_an_error(self):
        # Larger than the first request's tail: verify needs a second request, which sees the
        # object replaced.
        big = os.path.join(self.tmp.name, "big.zanj")
        write_reference_zanj(big, {"data": external_array("data.npy", "int64", [20000])},
                             {"data.npy": npy_int64(20000)}, compress=zipfile.ZIP_STORED)
        with open(big, "rb") as f:
            self.gcs.put("changing/model.zanj", f.read())
        with self.gcs.lock:
            self.gcs.media_count, self.gcs.replace_after = 0, 1
        try:
            r = run("verify", f"gs://{BUCKET}/changing/model.zanj", env=self.env(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN))
        finally:
            with self.gcs.lock:
                self.gcs.replace_after = None
        self.assertFails(r, 2, f"zanj: error: gs://{BUCKET}/changing/model.zanj: the file changed on the server")

    def test_a_missing_object(self):
        r = run("info", self.url("missing.zanj"), env=self.env(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN))
        self.assertFails(r, 2, f"zanj: error: {self.url('missing.zanj')}: HTTP 404 Not Found")

    def used(self, env, expected_source, expected_token):
        start = len(self.gcs.requests)
        r = self.assertOk(run("-v", "-v", "info", self.url(), env=env))
        self.assertIn(f"zanj: info: {self.url()}: credentials: {expected_source}", r.err)
        storage = [h for _, p, h in self.gcs.requests[start:] if p.startswith("/storage/")]
        self.assertTrue(storage)
        for headers in storage:
            self.assertEqual(headers.get("Authorization"), f"Bearer {expected_token}" if expected_token else None)
        self.assertNoSecret(r)
        return r

    def test_each_source_alone(self):
        for name in ("GOOGLE_OAUTH_ACCESS_TOKEN", "CLOUDSDK_AUTH_ACCESS_TOKEN"):
            with self.subTest(source=name):
                self.used(self.env(**{name: ACCESS_TOKEN}), name, ACCESS_TOKEN)
        with self.subTest(source="authorized_user"):
            self.used(self.env(GOOGLE_APPLICATION_CREDENTIALS=self.authorized_user),
                      f"GOOGLE_APPLICATION_CREDENTIALS ({self.authorized_user})", GcsServer.REFRESHED_TOKEN)
        with self.subTest(source="service_account"):
            self.used(self.env(GOOGLE_APPLICATION_CREDENTIALS=self.service_account),
                      f"GOOGLE_APPLICATION_CREDENTIALS ({self.service_account})", GcsServer.JWT_TOKEN)
        with tempfile.TemporaryDirectory() as config:
            shutil.copy(self.service_account, os.path.join(config, "application_default_credentials.json"))
            with self.subTest(source="CLOUDSDK_CONFIG"):
                self.used(self.env(CLOUDSDK_CONFIG=config), "gcloud application default credentials "
                          f"({config}/application_default_credentials.json)", GcsServer.JWT_TOKEN)
        with tempfile.TemporaryDirectory() as home:
            os.makedirs(os.path.join(home, ".config", "gcloud"))
            shutil.copy(self.authorized_user, os.path.join(home, ".config", "gcloud", "application_default_credentials.json"))
            with self.subTest(source="~/.config/gcloud"):
                self.used(self.env(CLOUDSDK_CONFIG=None, HOME=home), "gcloud application default credentials "
                          f"({home}/.config/gcloud/application_default_credentials.json)", GcsServer.REFRESHED_TOKEN)
        with self.subTest(source="metadata server"):
            self.used(self.env(GCE_METADATA_HOST=self.gcs.host), f"the metadata server ({self.gcs.host})",
                      GcsServer.METADATA_TOKEN)
            self.assertTrue(any(p.startswith("/computeMetadata/") and h.get("Metadata-Flavor") == "Google"
                                for _, p, h in self.gcs.requests))

    def test_sources_in_order(self):
        everything = dict(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN, GOOGLE_APPLICATION_CREDENTIALS=self.service_account,
                          GCE_METADATA_HOST=self.gcs.host)
        with tempfile.TemporaryDirectory() as config:
            shutil.copy(self.authorized_user, os.path.join(config, "application_default_credentials.json"))
            everything["CLOUDSDK_CONFIG"] = config
            self.used(self.env(**everything), "GOOGLE_OAUTH_ACCESS_TOKEN", ACCESS_TOKEN)
            everything["GOOGLE_OAUTH_ACCESS_TOKEN"] = None
            self.used(self.env(**everything), f"GOOGLE_APPLICATION_CREDENTIALS ({self.service_account})", GcsServer.JWT_TOKEN)
            everything["GOOGLE_APPLICATION_CREDENTIALS"] = None
            self.used(self.env(**everything), "gcloud application default credentials "
                      f"({config}/application_default_credentials.json)", GcsServer.REFRESHED_TOKEN)

    def test_anonymous_on_a_public_bucket(self):
        with GcsServer(BUCKET) as public:
            with open(os.path.join(CORPUS, "basic.zanj"), "rb") as f:
                public.put("basic.zanj", f.read())
            r = self.assertOk(run("-v", "info", f"gs://{BUCKET}/basic.zanj", env=self.env(STORAGE_EMULATOR_HOST=f"http://{public.host}/")))
            self.assertIn("credentials: anonymous", r.err)
            self.assertFalse(any("Authorization" in h for _, _, h in public.requests))

    def test_refused_requests_name_the_sources_tried(self):
        r = run("info", self.url(), env=self.env())
        self.assertFails(r, 2, f"zanj: error: {self.url()}: HTTP 401 Unauthorized (credentials tried: ")
        for what in ("GOOGLE_OAUTH_ACCESS_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS: not set",
                     "application_default_credentials.json: no such file", "the metadata server", "used: anonymous"):
            self.assertIn(what, r.err)

    def test_a_broken_source_is_an_error_not_anonymous(self):
        bad = self.write("bad_refresh.json", {"type": "authorized_user", "client_id": "c", "client_secret": "wrong-secret-11",
                                              "refresh_token": "wrong-refresh-22", "token_uri": self.gcs.token_uri})
        r = run("info", self.url(), env=self.env(GOOGLE_APPLICATION_CREDENTIALS=bad))
        self.assertFails(r, 2, f"zanj: error: {self.url()}: Google Cloud credentials from GOOGLE_APPLICATION_CREDENTIALS")
        self.assertIn("HTTP 400 Bad Request (invalid_grant)", r.err)
        r = run("-v", "-v", "info", self.url(), env=self.env(GOOGLE_APPLICATION_CREDENTIALS=bad))
        self.assertEqual(r.code, 2, r.err)
        self.assertNotIn("wrong-secret-11", r.err)
        self.assertNotIn("wrong-refresh-22", r.err)
        missing = os.path.join(self.tmp.name, "nowhere.json")
        self.assertFails(run("info", self.url(), env=self.env(GOOGLE_APPLICATION_CREDENTIALS=missing)), 2, "no such file")
        wrong_type = self.write("external.json", {"type": "external_account"})
        self.assertFails(run("info", self.url(), env=self.env(GOOGLE_APPLICATION_CREDENTIALS=wrong_type)), 2,
                         "'external_account' are not supported")
        garbled = self.write("garbled.json", {"type": "service_account", "client_email": "a@b", "private_key": "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
                                              "token_uri": self.gcs.token_uri})
        r = run("info", self.url(), env=self.env(GOOGLE_APPLICATION_CREDENTIALS=garbled))
        self.assertFails(r, 2, "not a PEM private key")
        self.assertNotIn("AAAA", r.err)

    def test_json_output_holds_no_secret(self):
        for env in (self.env(GOOGLE_OAUTH_ACCESS_TOKEN=ACCESS_TOKEN), self.env(GOOGLE_APPLICATION_CREDENTIALS=self.service_account),
                    self.env(GOOGLE_APPLICATION_CREDENTIALS=self.authorized_user), self.env(GCE_METADATA_HOST=self.gcs.host)):
            for args in (["-v", "-v", "info", "--json"], ["-v", "-v", "verify", "--json"], ["-v", "-v", "ls", "-l"]):
                self.assertNoSecret(self.assertOk(run(*args, self.url("model.zanj"), env=env)))


if __name__ == "__main__":
    main()
