"""Temporary credentials refreshed before they expire (issue 28; docs/remote.md, "Credentials"):
a loopback container endpoint and GCE metadata server hand out credentials good for 2 seconds,
and an upload made slow on purpose (each part or chunk held back) outlives them: zanj asks the
same source again before they expire, -v says so once per refresh, and the fakes count the
refreshes and refuse any expired token. A token a server refuses is refreshed once and the
request retried; a refusal that stays is an error. No key or token appears in any output."""
import os
import shutil
import tempfile
import unittest
import urllib.request

from common import ZanjTest, main, run, CORPUS
from remote_servers import S3RVER, AwsCredentialServer, GcsServer, RecordingProxy, S3rver
from test_remote_write import make_inputs
from test_remote_s3 import ISOLATED

BUCKET = "models"
LIFETIME = 2    # seconds the fakes' credentials are good for
HOLD_BACK = 0.8  # seconds a chunk (or part 1; part N: N times) is held back: three outlive the credentials
EXPIRED = b"<Error><Code>ExpiredToken</Code><Message>The provided token has expired.</Message></Error>"


class Inputs:
    """The 12 MiB input (three 5 MiB parts), made once for the module."""
    tmp = big = None

    @classmethod
    def get(cls):
        if cls.big is None:
            cls.tmp = tempfile.mkdtemp(prefix="zanj-refresh-")
            _, cls.big = make_inputs(cls.tmp)
        return cls.big


def tearDownModule():
    if Inputs.tmp:
        shutil.rmtree(Inputs.tmp, True)


@unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps)")
class S3Refresh(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.s3 = S3rver(BUCKET)
        cls.s3.put("corpus/stored.zanj", os.path.join(CORPUS, "stored.zanj"))

    @classmethod
    def tearDownClass(cls):
        cls.s3.stop()

    def serve(self, lifetime, refuse):
        """A credentials fake (`lifetime`) and a proxy in front of s3rver that answers `refuse`'s
        (status, body) to requests whose session token it returns true for."""
        self.aws = AwsCredentialServer("S3RVER", "S3RVER", lifetime=lifetime)
        self.addCleanup(self.aws.stop)
        self.refused = []

        def fault(method, path, headers):
            token = headers.get("x-amz-security-token")
            answer = refuse(token) if token else None
            if answer:
                self.refused.append((method, path, token))
            return answer
        # Part N is held back N times HOLD_BACK: parts go up to four at a time, so this is what
        # makes the upload outlive its credentials (its completion comes after they expire).
        self.proxy = RecordingProxy(self.s3.endpoint, fault=fault, delay=lambda m, p: HOLD_BACK * int(
            p.split("partNumber=")[1].split("&")[0]) if "partNumber=" in p else 0)
        self.addCleanup(self.proxy.stop)

    def env(self, **source):
        env = dict(ISOLATED, ZANJ_S3_ENDPOINT=self.proxy.endpoint, AWS_ACCESS_KEY_ID=None,
                   AWS_SECRET_ACCESS_KEY=None, AWS_SESSION_TOKEN=None, AWS_REGION="us-east-1",
                   AWS_DEFAULT_REGION=None, AWS_ENDPOINT_URL=None, AWS_ENDPOINT_URL_S3=None,
                   AWS_CONTAINER_AUTHORIZATION_TOKEN=None, AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=None,
                   AWS_EC2_METADATA_SERVICE_ENDPOINT=None)
        env.update(source)
        return env

    def container(self):
        return dict(AWS_CONTAINER_CREDENTIALS_FULL_URI=f"{self.aws.endpoint}/container",
                    AWS_CONTAINER_AUTHORIZATION_TOKEN=AwsCredentialServer.CONTAINER_AUTHORIZATION)

    def assertNoSecret(self, r):
        text = r.out.decode(errors="replace") + r.err
        for secret in [*AwsCredentialServer.TOKENS.values(), AwsCredentialServer.CONTAINER_AUTHORIZATION,
                       AwsCredentialServer.IMDS_SESSION]:
            self.assertNotIn(secret, text)

    def test_a_multipart_upload_outlives_its_credentials(self):
        big = Inputs.get()
        self.serve(LIFETIME, lambda token: (400, EXPIRED) if self.aws.expired(token) else None)
        r = self.assertOk(run("pack", big, "--store", "--part-size", "5MiB", "-v", "-o",
                              f"s3://{BUCKET}/out/refreshed.zanj", env=self.env(**self.container())))
        parts = [p for m, p, _ in self.proxy.requests if m == "PUT" and "partNumber=" in p]
        self.assertEqual(len(parts), 3)
        # Refreshed ahead of time: never refused, and each refresh said once with -v.
        self.assertEqual(self.refused, [])
        self.assertGreaterEqual(self.aws.issued, 2)
        refreshes = [l for l in r.err.splitlines() if "credentials refreshed" in l]
        self.assertEqual(len(refreshes), self.aws.issued - 1, r.err)
        # Before the request that needs them: within the margin, or past the expiry when a part
        # held back for longer than the margin ended after it.
        self.assertRegex(refreshes[0], rf"s3://{BUCKET}/out/refreshed\.zanj: credentials refreshed \(they (were "
                         r"about to expire|had expired)\) from the container endpoint; they expire in [23] s$")
        self.assertGreater(len(set(h.get("x-amz-security-token") for _, _, h in self.proxy.requests)), 1)
        with urllib.request.urlopen(f"{self.s3.endpoint}/{BUCKET}/out/refreshed.zanj", timeout=10) as f:
            with open(big, "rb") as g:
                self.assertGreater(len(f.read()), len(g.read()) - 1024)
        self.assertNoSecret(r)

    def test_a_refused_token_is_refreshed_once_and_the_request_retried(self):
        # IMDS this time; its first token is refused as expired although its Expiration is far off.
        self.serve(3600, lambda token: (400, EXPIRED) if token.endswith("-0") else None)
        url = f"s3://{BUCKET}/corpus/stored.zanj"
        imds = dict(AWS_EC2_METADATA_DISABLED=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=self.aws.endpoint)
        r = self.assertOk(run("-v", "info", url, env=self.env(**imds)))
        self.assertEqual(self.aws.issued, 2)
        self.assertEqual(len(self.refused), 1)
        self.assertIn(f"{url}: credentials refreshed (the server answered HTTP 400 Bad Request (ExpiredToken)) "
                      f"from IMDSv2 ({self.aws.endpoint})", r.err)
        self.assertNoSecret(r)
        # A refusal that a refresh does not cure: one refresh, then the error names the sources.
        self.serve(3600, lambda token: 403)
        r = run("info", url, env=self.env(**self.container()))
        self.assertFails(r, 2, f"zanj: error: {url}: HTTP 403 Forbidden (credentials tried: ")
        self.assertEqual(self.aws.issued, 2)
        self.assertNoSecret(r)


class GcsRefresh(ZanjTest):
    def test_a_resumable_upload_outlives_its_token(self):
        big = Inputs.get()
        gcs = GcsServer(BUCKET, tokens=set())
        self.addCleanup(gcs.stop)
        gcs.token_lifetime, gcs.chunk_delay = LIFETIME, HOLD_BACK
        env = {"STORAGE_EMULATOR_HOST": gcs.host, "GCE_METADATA_HOST": gcs.host, "GOOGLE_OAUTH_ACCESS_TOKEN": None,
               "CLOUDSDK_AUTH_ACCESS_TOKEN": None, "GOOGLE_APPLICATION_CREDENTIALS": None,
               "CLOUDSDK_CONFIG": "/nonexistent", "HOME": "/nonexistent"}
        url = f"gs://{BUCKET}/out/refreshed.zanj"
        r = self.assertOk(run("pack", big, "--store", "--part-size", "5MiB", "-v", "-o", url, env=env))
        self.assertIn("out/refreshed.zanj", gcs.objects)
        self.assertEqual(gcs.refused, 0)
        self.assertGreaterEqual(gcs.issued, 2)
        self.assertIn(f"{url}: credentials refreshed (they were about to expire) from the metadata server "
                      f"({gcs.host}); they expire in 2 s", r.err)
        self.assertNotIn(GcsServer.METADATA_TOKEN, r.out.decode(errors="replace") + r.err)


if __name__ == "__main__":
    main()
