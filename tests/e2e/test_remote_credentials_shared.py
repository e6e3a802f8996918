"""One set of credentials per command (issue 28; docs/remote.md, "Credentials"): a bucket
pattern over several archives, read by -j 4 threads, costs one token exchange with STS, IMDS or
the GCE metadata server (the listing and every archive share it), where it used to cost one per
archive. And a refresh ahead of expiry in the middle of a slow range read: the metadata server
hands out tokens good for 2 seconds, a read that outlasts several of them gets a new token
before each old one expires, and the fake refuses no request."""
import os
import re
import shutil
import tempfile
import unittest

from common import CORPUS, ZanjTest, main, run
from remote_servers import S3RVER, AwsCredentialServer, GcsServer, S3rver
from test_remote_s3 import ISOLATED
from test_remote_write import make_inputs

BUCKET = "models"
# Three archives under one pattern (each is read by a thread of its own with -j 4).
LAYOUT = {"run/a/model.zanj": "model.zanj", "run/b/model.zanj": "basic.zanj", "run/c/model.zanj": "dtypes.zanj"}
PATTERN = "run/*/model.zanj"
COMMANDS = (["verify", "-j", "4"], ["info", "--no-members"], ["hash", "-j", "4"], ["ls", "-1"])


def read(name):
    with open(os.path.join(CORPUS, name), "rb") as f:
        return f.read()


@unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps)")
class S3OneExchange(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.s3 = S3rver(BUCKET)
        for key, name in LAYOUT.items():
            cls.s3.put(key, os.path.join(CORPUS, name))
        cls.tmp = tempfile.TemporaryDirectory()
        cls.token_file = os.path.join(cls.tmp.name, "web-identity")
        with open(cls.token_file, "w") as f:
            f.write(AwsCredentialServer.WEB_IDENTITY + "\n")

    @classmethod
    def tearDownClass(cls):
        cls.s3.stop()
        cls.tmp.cleanup()

    def setUp(self):
        # A lifetime makes every answer a new token, counted in `issued` (an hour: no refresh).
        self.aws = AwsCredentialServer("S3RVER", "S3RVER", lifetime=3600)
        self.addCleanup(self.aws.stop)

    def env(self, **source):
        env = dict(ISOLATED, ZANJ_S3_ENDPOINT=self.s3.endpoint, AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None,
                   AWS_SESSION_TOKEN=None, AWS_REGION="us-east-1", AWS_DEFAULT_REGION=None, AWS_ENDPOINT_URL=None,
                   AWS_ENDPOINT_URL_S3=None, AWS_CONTAINER_AUTHORIZATION_TOKEN=None,
                   AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=None)
        env.update(source)
        return env

    def exchanges(self, method, path):
        return len([r for r in self.aws.requests if r[0] == method and r[1] == path])

    def test_web_identity_is_exchanged_once_for_a_pattern(self):
        env = self.env(AWS_WEB_IDENTITY_TOKEN_FILE=self.token_file, AWS_ROLE_ARN=AwsCredentialServer.ROLE_ARN,
                       AWS_ENDPOINT_URL_STS=self.aws.endpoint)
        for command in COMMANDS:
            with self.subTest(command=command[0]):
                start = self.aws.issued
                r = self.assertOk(run("-v", *command, f"s3://{BUCKET}/{PATTERN}", env=env))
                self.assertEqual(self.aws.issued - start, 1, r.err)
                self.assertEqual(r.err.count(": credentials: web identity"), 1, r.err)
        self.assertEqual(self.exchanges("POST", "/"), len(COMMANDS))

    def test_imds_is_asked_once_for_a_pattern(self):
        env = self.env(AWS_EC2_METADATA_DISABLED=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=self.aws.endpoint)
        r = self.assertOk(run("-v", "verify", "-j", "4", f"s3://{BUCKET}/{PATTERN}", env=env))
        self.assertEqual(self.aws.issued, 1)
        self.assertEqual(self.exchanges("PUT", "/latest/api/token"), 1)
        # The operands named one by one share it too.
        r = self.assertOk(run("info", "--no-members", *[f"s3://{BUCKET}/{key}" for key in LAYOUT], env=env))
        self.assertEqual(self.aws.issued, 2)


class GcsOneExchange(ZanjTest):
    def setUp(self):
        self.gcs = GcsServer(BUCKET)
        self.addCleanup(self.gcs.stop)
        self.gcs.token_lifetime = 3600  # every metadata answer a new token, counted in `issued`
        for key, name in LAYOUT.items():
            self.gcs.put(key, read(name))
        self.env = {"STORAGE_EMULATOR_HOST": self.gcs.host, "GCE_METADATA_HOST": self.gcs.host,
                    "GOOGLE_OAUTH_ACCESS_TOKEN": None, "CLOUDSDK_AUTH_ACCESS_TOKEN": None,
                    "GOOGLE_APPLICATION_CREDENTIALS": None, "CLOUDSDK_CONFIG": "/nonexistent", "HOME": "/nonexistent"}

    def test_the_metadata_server_is_asked_once_for_a_pattern(self):
        for command in COMMANDS:
            with self.subTest(command=command[0]):
                start = self.gcs.issued
                r = self.assertOk(run("-v", *command, f"gs://{BUCKET}/{PATTERN}", env=self.env))
                self.assertEqual(self.gcs.issued - start, 1, r.err)
                self.assertEqual(r.err.count(": credentials: the metadata server"), 1, r.err)
        tokens = [h.get("Authorization") for m, p, h in self.gcs.requests if p.startswith("/storage/")]
        self.assertEqual(len(set(tokens)), len(COMMANDS))  # one token per command, on every request


class GcsRefreshDuringRead(ZanjTest):
    """A stored 12 MiB archive read with every media request held back 0.3 s (a dozen ranges,
    about 4 s in all): the read outlasts several 2-second tokens, each refreshed within its last
    0.5 s (the margin) or, when the next request comes later, before that request is sent."""

    LIFETIME = 2
    MEDIA_DELAY = 0.3

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="zanj-shared-")
        _, big_npz = make_inputs(cls.tmp)
        cls.big = os.path.join(cls.tmp, "big.zanj")
        r = run("pack", big_npz, "--store", "-o", cls.big)
        assert r.code == 0, r.err

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, True)

    def test_a_token_expiring_mid_read_is_refreshed_before_a_request_needs_it(self):
        gcs = GcsServer(BUCKET, tokens=set())  # only the tokens it issued, and each only until it expires
        self.addCleanup(gcs.stop)
        gcs.token_lifetime, gcs.media_delay = self.LIFETIME, self.MEDIA_DELAY
        with open(self.big, "rb") as f:
            gcs.put("big.zanj", f.read())
        env = {"STORAGE_EMULATOR_HOST": gcs.host, "GCE_METADATA_HOST": gcs.host, "GOOGLE_OAUTH_ACCESS_TOKEN": None,
               "CLOUDSDK_AUTH_ACCESS_TOKEN": None, "GOOGLE_APPLICATION_CREDENTIALS": None,
               "CLOUDSDK_CONFIG": "/nonexistent", "HOME": "/nonexistent"}
        url = f"gs://{BUCKET}/big.zanj"
        r = self.assertOk(run("-v", "-v", "verify", url, env=env))
        ranges = re.findall(rf"^zanj: info: GET {re.escape(url)} bytes=\S+: (\d+), \d+ bytes$", r.err, re.M)
        self.assertGreater(len(ranges), 4, r.err)
        self.assertEqual(set(ranges), {"206"}, r.err)  # no request failed, none was retried
        self.assertEqual(gcs.refused, 0)
        self.assertGreaterEqual(gcs.issued, 2, r.err)  # the read outlasted the first token
        refreshes = [l for l in r.err.splitlines() if "credentials refreshed" in l]
        self.assertEqual(len(refreshes), gcs.issued - 1, r.err)
        # Usually "about to expire"; on a loaded machine the next request may come after the
        # expiry, and it is then refreshed first ("had expired"): either way no request carried an
        # expired token (the fake would have refused it, above).
        for line in refreshes:
            self.assertRegex(line, rf"{re.escape(url)}: credentials refreshed \(they (were about to expire|had "
                             r"expired)\) from the metadata server \(127\.0\.0\.1:\d+\); they expire in 2 s$")
        self.assertNotIn(GcsServer.METADATA_TOKEN, r.out.decode(errors="replace") + r.err)


if __name__ == "__main__":
    main()
