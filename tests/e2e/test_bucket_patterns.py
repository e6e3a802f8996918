"""Bucket patterns, -j across archives and --shard (issue 28): an s3:// or gs:// operand with *, ?
or ** is expanded by listing the bucket (s3rver's ListObjectsV2, the suite's GCS JSON API), page
after page, into its matches, sorted; a pattern matching nothing is an error naming it while the
other operands are still read; -j N gives the same bytes as -j 1; --shard K/N splits the
operands into disjoint sets whose union is all of them."""
import json
import os
import unittest

from common import CORPUS, ZanjTest, archives, main, run
from remote_servers import S3RVER, GcsServer, S3rver
from test_remote_s3 import SIGNED

BUCKET = "models"
# Where each corpus archive is put: folders (for * and **), one-character names (for ?).
LAYOUT = {
    "run/a/model.zanj": "model.zanj",
    "run/b/model.zanj": "basic.zanj",
    "run/c/model.zanj": "dtypes.zanj",
    "run/c/deep/model.zanj": "stored.zanj",
    "run/top.zanj": "dataclass.zanj",
    "run/notes.txt": "basic.zanj",
    "other/x.zanj": "tuple_list.zanj",
}
# Many archives, so that listings take several pages and -j has work to share.
MANY = {f"many/{i:02d}/{name}": name for i in range(3) for name in archives()}


def names(output):
    return [json.loads(line)["file"] for line in output.decode().splitlines()]


class Patterns:
    """The tests, run against each store; subclasses give url() and env()."""

    def test_star_stays_within_a_folder(self):
        r = self.assertOk(run("info", "--json", "--no-members", self.url("run/*/model.zanj"), env=self.env()))
        self.assertEqual(names(r.out), [self.url(k) for k in ("run/a/model.zanj", "run/b/model.zanj",
                                                              "run/c/model.zanj")])
        r = self.assertOk(run("hash", self.url("run/*.zanj"), env=self.env()))
        self.assertEqual(r.out.decode().split(), [run("hash", os.path.join(CORPUS, "dataclass.zanj")).out.split()[0].decode(),
                                                  self.url("run/top.zanj")])

    def test_question_mark_is_one_character(self):
        r = self.assertOk(run("verify", "--json", self.url("run/?/model.zanj"), env=self.env()))
        self.assertEqual(len(names(r.out)), 3)
        r = run("verify", self.url("run/??/model.zanj"), env=self.env())
        self.assertEqual(r.code, 2, r.err)  # no folder there has a two-letter name

    def test_double_star_crosses_folders(self):
        r = self.assertOk(run("verify", "--json", self.url("run/**/model.zanj"), env=self.env()))
        self.assertEqual(names(r.out), [self.url(k) for k in ("run/a/model.zanj", "run/b/model.zanj",
                                                              "run/c/deep/model.zanj", "run/c/model.zanj")])
        r = self.assertOk(run("hash", self.url("**.zanj"), env=self.env()))
        listed = [line.split()[1] for line in r.out.decode().splitlines()]
        self.assertEqual(listed, sorted(listed))
        self.assertEqual(len(listed), len([k for k in {**LAYOUT, **MANY} if k.endswith(".zanj")]))

    def test_many_pages_sorted(self):
        r = self.assertOk(run("info", "--json", "--no-members", "-v", self.url("many/*/*.zanj"),
                              env=self.env(ZANJ_LIST_PAGE_SIZE="4")))
        self.assertEqual(names(r.out), sorted(self.url(k) for k in MANY))
        self.assertGreaterEqual(r.err.count("listing, page"), len(MANY) // 4, r.err)

    def test_matches_give_what_the_files_give(self):
        for command in (["verify"], ["info"], ["hash"]):
            with self.subTest(command=command[0]):
                on_urls = self.assertOk(run(*command, self.url("run/*/model.zanj"), env=self.env()))
                on_files = self.assertOk(run(*command, *[self.url(k) for k in ("run/a/model.zanj",
                                                                                "run/b/model.zanj",
                                                                                "run/c/model.zanj")], env=self.env()))
                self.assertEqual(on_urls.out, on_files.out)

    def test_ls_lists_each_match(self):
        r = self.assertOk(run("ls", "-1", self.url("run/*/model.zanj"), env=self.env()))
        text = r.out.decode()
        for key, name in (("run/a/model.zanj", "model.zanj"), ("run/b/model.zanj", "basic.zanj")):
            self.assertIn(self.url(key) + ":\n" + run("ls", "-1", os.path.join(CORPUS, name)).out.decode(), text)

    def test_no_match_is_an_error_naming_the_pattern(self):
        pattern = self.url("run/*/nothing-*.zanj")
        r = run("verify", pattern, env=self.env())
        self.assertFails(r, code=2, message=None)
        self.assertIn(pattern + ": no object matches the pattern", r.err)
        # The other operands are still checked, and the exit status is the worst.
        r = run("verify", "--json", pattern, os.path.join(CORPUS, "basic.zanj"), env=self.env())
        self.assertEqual(r.code, 2, r.err)
        lines = [json.loads(line) for line in r.out.decode().splitlines()]
        self.assertEqual([(x["file"], x["ok"]) for x in lines], [(pattern, False), (os.path.join(CORPUS, "basic.zanj"), True)])
        for command in ("info", "hash", "ls"):
            with self.subTest(command=command):
                r = run(command, pattern, env=self.env())
                self.assertEqual(r.code, 2, r.err)
                self.assertIn(pattern + ": no object matches the pattern", r.err)

    def test_jobs_give_the_same_bytes(self):
        pattern = self.url("many/**")
        for command in (["verify"], ["verify", "--json"], ["info"], ["info", "--json"], ["hash"], ["hash", "--json"]):
            with self.subTest(command=command):
                serial = self.assertOk(run(*command, "-j", "1", pattern, env=self.env()))
                parallel = self.assertOk(run(*command, "-j", "4", pattern, env=self.env()))
                if "--json" in command and command[0] != "verify":  # requests and bytes may differ by a block
                    strip = lambda out: [{k: v for k, v in json.loads(line).items() if k not in ("requests", "bytes_fetched")}
                                         for line in out.decode().splitlines()]
                    self.assertEqual(strip(parallel.out), strip(serial.out))
                else:
                    self.assertEqual(parallel.out, serial.out)

    def test_shards_are_disjoint_and_cover_everything(self):
        pattern = self.url("many/*/*.zanj")
        everything = names(self.assertOk(run("verify", "--json", pattern, env=self.env())).out)
        for count in (1, 3, 7, len(everything) + 2):
            with self.subTest(shards=count):
                shares = [names(self.assertOk(run("verify", "--json", "--shard", f"{k}/{count}", pattern,
                                                  env=self.env())).out) for k in range(count)]
                self.assertEqual(sorted(sum(shares, [])), everything)
                for k, share in enumerate(shares):
                    self.assertEqual(share, everything[k::count])


@unittest.skipUnless(os.access(S3RVER, os.X_OK), "s3rver is not installed (scripts/install-deps --test)")
class S3Patterns(Patterns, ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.s3 = S3rver(BUCKET)
        for key, name in {**LAYOUT, **MANY}.items():
            cls.s3.put(key, os.path.join(CORPUS, name))

    @classmethod
    def tearDownClass(cls):
        cls.s3.stop()

    def url(self, key):
        return f"s3://{BUCKET}/{key}"

    def env(self, **changes):
        return {**SIGNED, "ZANJ_S3_ENDPOINT": self.s3.endpoint, "ZANJ_LIST_PAGE_SIZE": None, **changes}


class GcsPatterns(Patterns, ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.gcs = GcsServer(BUCKET)
        for key, name in {**LAYOUT, **MANY}.items():
            with open(os.path.join(CORPUS, name), "rb") as f:
                cls.gcs.put(key, f.read())
        cls.gcs.put("run/x/model.zanj.tmp", b"not listed by run/*/model.zanj")

    @classmethod
    def tearDownClass(cls):
        cls.gcs.stop()

    def url(self, key):
        return f"gs://{BUCKET}/{key}"

    def env(self, **changes):
        return {"STORAGE_EMULATOR_HOST": self.gcs.host, "GOOGLE_OAUTH_ACCESS_TOKEN": "ya29.test-token",
                "CLOUDSDK_AUTH_ACCESS_TOKEN": None, "GOOGLE_APPLICATION_CREDENTIALS": None,
                "ZANJ_LIST_PAGE_SIZE": None, **changes}


class Shard(ZanjTest):
    def test_malformed_values_are_usage_errors(self):
        basic = os.path.join(CORPUS, "basic.zanj")
        for value in ("", "1", "3/3", "4/3", "a/3", "1/0", "-1/3", "1/3/4", "1/x"):
            for command in ("verify", "info", "hash", "ls"):
                with self.subTest(value=value, command=command):
                    r = run(command, "--shard", value, basic)
                    self.assertFails(r, code=2)
                    self.assertIn("--shard", r.err)

    def test_local_operands_are_split_too(self):
        files = [os.path.join(CORPUS, name) for name in archives()]
        shares = [names(self.assertOk(run("verify", "--json", "--shard", f"{k}/3", *files)).out) for k in range(3)]
        self.assertEqual(shares, [files[k::3] for k in range(3)])


if __name__ == "__main__":
    main()
