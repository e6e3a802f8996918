"""s3://BUCKET/KEY URLs (docs/remote.md) against s3rver on 127.0.0.1: every command gives what it gives
on the file, and signed requests carry libcurl's AWS SigV4 headers (s3rver checks signatures
made with its own key pair; a loopback recording proxy shows the headers themselves)."""
import os
import re
import unittest

from common import CORPUS, ZanjTest, archives, main, run
from remote_servers import S3RVER, RecordingProxy, S3rver

BUCKET = "models"
# No credential source but the one a test names: no shared files, profile, web identity,
# container endpoint or instance metadata (credentials_aws.hpp).
ISOLATED = {"AWS_SHARED_CREDENTIALS_FILE": "/nonexistent/credentials", "AWS_CONFIG_FILE": "/nonexistent/config",
            "AWS_PROFILE": None, "AWS_DEFAULT_PROFILE": None, "AWS_WEB_IDENTITY_TOKEN_FILE": None, "AWS_ROLE_ARN": None,
            "AWS_CONTAINER_CREDENTIALS_FULL_URI": None, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI": None,
            "AWS_EC2_METADATA_DISABLED": "true"}
# s3rver's own key pair: it checks the signatures made with it (and refuses other key ids).
SIGNED = {**ISOLATED, "AWS_ACCESS_KEY_ID": "S3RVER", "AWS_SECRET_ACCESS_KEY": "S3RVER",
          "AWS_REGION": "eu-west-3", "AWS_SESSION_TOKEN": None, "AWS_DEFAULT_REGION": None,
          "AWS_ENDPOINT_URL": None, "AWS_ENDPOINT_URL_S3": None}
ANONYMOUS = {**ISOLATED, "AWS_ACCESS_KEY_ID": None, "AWS_SECRET_ACCESS_KEY": None, "AWS_SESSION_TOKEN": None,
             "AWS_ENDPOINT_URL": None, "AWS_ENDPOINT_URL_S3": None}


@unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps --test)")
class S3(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.s3 = S3rver(BUCKET)
        cls.names = [os.path.basename(a) for a in archives()]
        for name in cls.names:
            cls.s3.put(f"corpus/{name}", os.path.join(CORPUS, name))

    @classmethod
    def tearDownClass(cls):
        cls.s3.stop()

    def env(self, base, endpoint=None):
        return dict(base, ZANJ_S3_ENDPOINT=endpoint or self.s3.endpoint)

    def test_every_command_gives_the_file_output(self):
        for name in self.names:
            url = f"s3://{BUCKET}/corpus/{name}"
            for args in (["info"], ["ls", "-l"], ["verify"], ["stats"], ["cat"]):
                with self.subTest(archive=name, command=args[0]):
                    on_file = run(*args, name, cwd=CORPUS)
                    on_url = run(*args, url, env=self.env(SIGNED))
                    self.assertEqual(on_url.code, on_file.code, on_url.err)
                    self.assertEqual(on_url.out.replace(f"s3://{BUCKET}/corpus/".encode(), b""), on_file.out)

    def test_info_within_the_budget(self):
        for name in self.names:
            with self.subTest(archive=name):
                r = self.assertOk(run("info", "--json", f"s3://{BUCKET}/corpus/{name}", env=self.env(SIGNED)))
                self.assertLessEqual(r.json()["requests"], 4)
                self.assertLessEqual(r.json()["bytes_fetched"], os.path.getsize(os.path.join(CORPUS, name)) + 64 * 1024)

    def test_anonymous_without_credentials(self):
        r = self.assertOk(run("info", "--json", f"s3://{BUCKET}/corpus/stored.zanj", env=self.env(ANONYMOUS)))
        self.assertLessEqual(r.json()["requests"], 4)

    def test_requests_are_signed_with_sigv4(self):
        proxy = RecordingProxy(self.s3.endpoint)
        try:
            self.assertOk(run("info", f"s3://{BUCKET}/corpus/stored.zanj", env=self.env(SIGNED, proxy.endpoint)))
            self.assertOk(run("info", f"s3://{BUCKET}/corpus/stored.zanj", env=self.env(ANONYMOUS, proxy.endpoint)))
        finally:
            proxy.stop()
        signed = [r for r in proxy.requests if "Authorization" in r[2]]
        anonymous = [r for r in proxy.requests if "Authorization" not in r[2]]
        self.assertTrue(signed and anonymous, proxy.requests)
        for method, path, headers in signed:
            self.assertEqual(path, f"/{BUCKET}/corpus/stored.zanj")  # path style on an endpoint
            self.assertRegex(headers["Authorization"],
                             r"^AWS4-HMAC-SHA256 Credential=S3RVER/\d{8}/eu-west-3/s3/aws4_request, "
                             r"SignedHeaders=[a-z0-9;-]*x-amz-content-sha256[a-z0-9;-]*, Signature=[0-9a-f]{64}$")
            self.assertIn("x-amz-date;", headers["Authorization"].replace("x-amz-date,", "x-amz-date;") + ";")
            self.assertRegex(headers["X-Amz-Date"], r"^\d{8}T\d{6}Z$")
            self.assertEqual(headers["x-amz-content-sha256"], "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
            self.assertIn("Range", headers)

    def test_a_missing_key_is_a_usage_error(self):
        r = run("info", f"s3://{BUCKET}/corpus/missing.zanj", env=self.env(SIGNED))
        self.assertFails(r, 2, f"zanj: error: s3://{BUCKET}/corpus/missing.zanj: HTTP 404 Not Found")


if __name__ == "__main__":
    main()
