"""The AWS credential chain for s3:// (issue 28): each source alone (environment, web identity
through STS, the shared files with a profile and its region, the container endpoint, IMDSv2 with
its session token), the order between them, -v naming the one used, and no key or token in any
output. s3rver checks the signatures; loopback fakes stand in for STS, the container endpoint
and IMDS; a recording proxy shows which session token was sent."""
import os
import tempfile
import unittest

from common import ZanjTest, main, run, CORPUS
from remote_servers import S3RVER, AwsCredentialServer, RecordingProxy, S3rver, free_port
from test_remote_s3 import ISOLATED

BUCKET = "models"
KEY = "corpus/stored.zanj"
URL = f"s3://{BUCKET}/{KEY}"
PROFILE_TOKEN = "profile-session-token-77e2"
ENV_TOKEN = "environment-session-token-0b94"


@unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps)")
class Chain(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.s3 = S3rver(BUCKET)
        cls.s3.put(KEY, os.path.join(CORPUS, "stored.zanj"))
        cls.proxy = RecordingProxy(cls.s3.endpoint)
        cls.aws = AwsCredentialServer("S3RVER", "S3RVER")
        cls.tmp = tempfile.TemporaryDirectory()
        cls.token_file = cls.write("web-identity", AwsCredentialServer.WEB_IDENTITY + "\n")
        cls.credentials = cls.write("credentials", f"""[default]
aws_access_key_id = NOT-THIS-ONE
aws_secret_access_key = nor-this-secret-4410

[reader]
aws_access_key_id = S3RVER
aws_secret_access_key = S3RVER
aws_session_token = {PROFILE_TOKEN}
""")
        cls.config = cls.write("config", """[default]
region = us-west-1

[profile reader]
region = ap-northeast-2
""")

    @classmethod
    def tearDownClass(cls):
        cls.proxy.stop()
        cls.aws.stop()
        cls.s3.stop()
        cls.tmp.cleanup()

    @classmethod
    def write(cls, name, text):
        path = os.path.join(cls.tmp.name, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def env(self, **changes):
        base = dict(ISOLATED, ZANJ_S3_ENDPOINT=self.proxy.endpoint, AWS_ACCESS_KEY_ID=None, AWS_SECRET_ACCESS_KEY=None,
                    AWS_SESSION_TOKEN=None, AWS_REGION=None, AWS_DEFAULT_REGION=None, AWS_ENDPOINT_URL=None,
                    AWS_ENDPOINT_URL_S3=None, AWS_ENDPOINT_URL_STS=None, AWS_CONTAINER_AUTHORIZATION_TOKEN=None,
                    AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=None)
        base.update(changes)
        return base

    def secrets(self):
        return [ENV_TOKEN, PROFILE_TOKEN, "nor-this-secret-4410", AwsCredentialServer.WEB_IDENTITY,
                AwsCredentialServer.CONTAINER_AUTHORIZATION, AwsCredentialServer.IMDS_SESSION,
                *AwsCredentialServer.TOKENS.values()]

    def used(self, env, source, token, region="us-east-1"):
        """Read URL with `env`: -v names `source`; every request signed with `token` (None:
        anonymous) for `region`; no secret in any output."""
        start = len(self.proxy.requests)
        r = self.assertOk(run("-v", "-v", "info", "--json", URL, env=env))
        self.assertIn(f"zanj: info: {URL}: credentials: {source}", r.err)
        seen = self.proxy.requests[start:]
        self.assertTrue(seen)
        for _, _, headers in seen:
            self.assertEqual(headers.get("x-amz-security-token"), token)
            if token:
                self.assertIn(f"/{region}/s3/aws4_request", headers["Authorization"])
        text = r.out.decode() + r.err
        for secret in self.secrets():
            self.assertNotIn(secret, text)
        return r

    def test_environment(self):
        self.used(self.env(AWS_ACCESS_KEY_ID="S3RVER", AWS_SECRET_ACCESS_KEY="S3RVER", AWS_SESSION_TOKEN=ENV_TOKEN),
                  "the environment (AWS_ACCESS_KEY_ID)", ENV_TOKEN)

    def web_identity(self):
        return dict(AWS_WEB_IDENTITY_TOKEN_FILE=self.token_file, AWS_ROLE_ARN=AwsCredentialServer.ROLE_ARN,
                    AWS_ENDPOINT_URL_STS=self.aws.endpoint)

    def test_web_identity(self):
        self.used(self.env(**self.web_identity()), f"web identity (AWS_WEB_IDENTITY_TOKEN_FILE, role {AwsCredentialServer.ROLE_ARN})",
                  AwsCredentialServer.TOKENS["sts"])
        posts = [r for r in self.aws.requests if r[0] == "POST"]
        self.assertIn("RoleSessionName=zanj", posts[-1][3])

    def test_a_refused_web_identity_is_an_error(self):
        bad = self.write("bad-identity", "someone-else")
        r = run("info", URL, env=self.env(**dict(self.web_identity(), AWS_WEB_IDENTITY_TOKEN_FILE=bad)))
        self.assertFails(r, 2, f"zanj: error: {URL}: AWS credentials from web identity")
        self.assertIn("HTTP 403 Forbidden (AccessDenied)", r.err)
        self.assertNotIn("someone-else", r.err)

    def test_shared_files_with_profile_and_region(self):
        files = dict(AWS_SHARED_CREDENTIALS_FILE=self.credentials, AWS_CONFIG_FILE=self.config)
        self.used(self.env(AWS_PROFILE="reader", **files), "profile reader of the shared files", PROFILE_TOKEN,
                  region="ap-northeast-2")
        # AWS_REGION wins over the profile's region.
        self.used(self.env(AWS_PROFILE="reader", AWS_REGION="eu-west-3", **files), "profile reader of the shared files",
                  PROFILE_TOKEN, region="eu-west-3")
        # Files found under HOME, as ~/.aws/credentials and ~/.aws/config.
        with tempfile.TemporaryDirectory() as home:
            os.mkdir(os.path.join(home, ".aws"))
            for name, path in (("credentials", self.credentials), ("config", self.config)):
                with open(path) as f, open(os.path.join(home, ".aws", name), "w") as g:
                    g.write(f.read())
            self.used(self.env(AWS_PROFILE="reader", HOME=home, AWS_SHARED_CREDENTIALS_FILE=None, AWS_CONFIG_FILE=None),
                      "profile reader of the shared files", PROFILE_TOKEN, region="ap-northeast-2")

    def test_a_missing_profile_is_an_error(self):
        r = run("info", URL, env=self.env(AWS_PROFILE="nobody", AWS_SHARED_CREDENTIALS_FILE=self.credentials,
                                          AWS_CONFIG_FILE=self.config))
        self.assertFails(r, 2, f"zanj: error: {URL}: AWS credentials from profile nobody of the shared files: no such profile")

    def test_container_endpoint(self):
        full = dict(AWS_CONTAINER_CREDENTIALS_FULL_URI=f"{self.aws.endpoint}/container",
                    AWS_CONTAINER_AUTHORIZATION_TOKEN=AwsCredentialServer.CONTAINER_AUTHORIZATION)
        self.used(self.env(**full), "the container endpoint", AwsCredentialServer.TOKENS["container"])
        token_file = self.write("container-token", AwsCredentialServer.CONTAINER_AUTHORIZATION)
        self.used(self.env(AWS_CONTAINER_CREDENTIALS_FULL_URI=f"{self.aws.endpoint}/container",
                           AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE=token_file),
                  "the container endpoint", AwsCredentialServer.TOKENS["container"])
        r = run("info", URL, env=self.env(AWS_CONTAINER_CREDENTIALS_FULL_URI=f"{self.aws.endpoint}/container"))
        self.assertFails(r, 2, f"zanj: error: {URL}: AWS credentials from the container endpoint: it answered HTTP 401")

    def test_imdsv2(self):
        self.used(self.env(AWS_EC2_METADATA_DISABLED=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=self.aws.endpoint),
                  f"IMDSv2 ({self.aws.endpoint})", AwsCredentialServer.TOKENS["imds"])
        self.assertTrue(any(r[0] == "PUT" and r[1] == "/latest/api/token" for r in self.aws.requests))

    def test_anonymous_when_nothing_answers(self):
        dead = f"http://127.0.0.1:{free_port()}"
        self.used(self.env(AWS_EC2_METADATA_DISABLED=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=dead), "anonymous", None)
        self.used(self.env(AWS_EC2_METADATA_SERVICE_ENDPOINT=self.aws.endpoint), "anonymous", None)  # disabled

    def test_order(self):
        everything = dict(AWS_ACCESS_KEY_ID="S3RVER", AWS_SECRET_ACCESS_KEY="S3RVER", AWS_SESSION_TOKEN=ENV_TOKEN,
                          **self.web_identity(), AWS_PROFILE="reader", AWS_SHARED_CREDENTIALS_FILE=self.credentials,
                          AWS_CONFIG_FILE=self.config, AWS_REGION="us-east-1",
                          AWS_CONTAINER_CREDENTIALS_FULL_URI=f"{self.aws.endpoint}/container",
                          AWS_CONTAINER_AUTHORIZATION_TOKEN=AwsCredentialServer.CONTAINER_AUTHORIZATION,
                          AWS_EC2_METADATA_DISABLED=None, AWS_EC2_METADATA_SERVICE_ENDPOINT=self.aws.endpoint)
        order = [("AWS_ACCESS_KEY_ID", "the environment (AWS_ACCESS_KEY_ID)", ENV_TOKEN),
                 ("AWS_ROLE_ARN", "web identity", AwsCredentialServer.TOKENS["sts"]),
                 ("AWS_PROFILE", "profile reader of the shared files", PROFILE_TOKEN),
                 ("AWS_CONTAINER_CREDENTIALS_FULL_URI", "the container endpoint", AwsCredentialServer.TOKENS["container"]),
                 ("AWS_EC2_METADATA_SERVICE_ENDPOINT", "IMDSv2", AwsCredentialServer.TOKENS["imds"])]
        for variable, source, token in order:
            with self.subTest(source=source):
                start = len(self.proxy.requests)
                r = self.assertOk(run("-v", "info", URL, env=self.env(**everything)))
                self.assertIn(f"zanj: info: {URL}: credentials: {source}", r.err)
                for _, _, headers in self.proxy.requests[start:]:
                    self.assertEqual(headers.get("x-amz-security-token"), token)
            everything[variable] = None  # that source gone, the next one answers
            if variable == "AWS_PROFILE":
                everything.update(AWS_SHARED_CREDENTIALS_FILE="/nonexistent", AWS_CONFIG_FILE="/nonexistent")


if __name__ == "__main__":
    main()
