"""verify -j 4 over 20 archives in a bucket (issue 28's goal: >= 2.5x faster than one after
another), s3rver on loopback: the 20 archives verified by 20 zanj runs one after another, by one
run on the bucket pattern with -j 1, and by one with -j 4; best of 5 each.
Usage: python3 bench/bucket_jobs.py ZANJ CORPUS_DIR"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from remote_servers import S3rver  # noqa: E402  (the tests' s3rver, in a temporary directory)


def best_of(cmd, env, times=5):
    best = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True, shell=isinstance(cmd, str))
        best = min(best, time.perf_counter() - start)
    return best


def main(zanj, corpus):
    env = dict(os.environ, AWS_ACCESS_KEY_ID="S3RVER", AWS_SECRET_ACCESS_KEY="S3RVER", AWS_REGION="us-east-1",
               AWS_EC2_METADATA_DISABLED="true", AWS_SHARED_CREDENTIALS_FILE="/nonexistent",
               AWS_CONFIG_FILE="/nonexistent")
    with S3rver("bench") as s3:
        env["ZANJ_S3_ENDPOINT"] = s3.endpoint
        names = sorted(f for f in os.listdir(corpus) if f.endswith(".zanj"))
        keys = [f"run/{i:02d}/{names[i % len(names)]}" for i in range(20)]
        for key in keys:
            s3.put(key, os.path.join(corpus, os.path.basename(key)))
        one_by_one = best_of(" && ".join(f"{zanj} verify -j 1 s3://bench/{k} >/dev/null" for k in keys), env)
        serial = best_of([zanj, "verify", "-j", "1", "s3://bench/run/*/*.zanj"], env)
        parallel = best_of([zanj, "verify", "-j", "4", "s3://bench/run/*/*.zanj"], env)
    print(json.dumps({"20 runs one after another (s)": round(one_by_one, 3), "pattern, -j 1 (s)": round(serial, 3),
                      "pattern, -j 4 (s)": round(parallel, 3), "speedup over 20 runs": round(one_by_one / parallel, 2),
                      "speedup over -j 1": round(serial / parallel, 2), "cpus": os.cpu_count()}))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
