"""Upload rows (docs/remote.md, "Writing"): `zanj pack -o s3://` against s3rver on loopback, beside a
local `zanj pack` followed by `curl -T` of the result (SigV4-signed by curl), in the same run, with
each command's wall time and peak RSS. usage: python3 bench/upload.py ZANJ [MIB] [PART_SIZE]"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))
from common import npy_bytes  # noqa: E402
from remote_servers import S3rver  # noqa: E402

ENV = {"AWS_ACCESS_KEY_ID": "S3RVER", "AWS_SECRET_ACCESS_KEY": "S3RVER", "AWS_REGION": "us-east-1",
       "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_CONFIG_FILE": "/nonexistent",
       "AWS_EC2_METADATA_DISABLED": "true"}

def main():
    zanj = os.path.abspath(sys.argv[1])
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 256
    part = sys.argv[3] if len(sys.argv) > 3 else "16MiB"
    work = tempfile.mkdtemp(prefix="zanj-upload-bench-")
    try:
        npz = os.path.join(work, "in.npz")
        rng = random.Random(1)
        with zipfile.ZipFile(npz, "w") as z:  # 64 MiB arrays of random bytes (stored: incompressible)
            for i in range(mib // 64):
                z.writestr(f"w{i:03}.npy", npy_bytes("|u1", (64 << 20,), rng.randbytes(64 << 20)))
        env = dict(os.environ, **ENV)
        with S3rver("bench") as s3:
            env["ZANJ_S3_ENDPOINT"] = s3.endpoint
            # Each command in its own Python child, so RUSAGE_CHILDREN's maximum is that command's.
            rows = []
            for label, script in [
                (f"zanj pack -o s3:// (--part-size {part})",
                 f"{zanj} pack --store --part-size {part} {npz} -o s3://bench/direct.zanj"),
                ("zanj pack (local)", f"{zanj} pack --store {npz} -o {work}/local.zanj"),
                ("curl -T (SigV4)", f"curl -sf --aws-sigv4 aws:amz:us-east-1:s3 --user S3RVER:S3RVER "
                                    f"-H 'x-amz-content-sha256: UNSIGNED-PAYLOAD' -T {work}/local.zanj "
                                    f"{s3.endpoint}/bench/curl.zanj"),
            ]:
                out = subprocess.run([sys.executable, "-c", f"""
import resource, subprocess, time
t = time.perf_counter(); subprocess.run({script!r}, shell=True, check=True, stdout=subprocess.DEVNULL)
print(time.perf_counter() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)"""],
                                     env=env, check=True, capture_output=True, text=True).stdout.split()
                rows.append((label, float(out[0]), float(out[1])))
            size = os.path.getsize(f"{work}/local.zanj")
        print(f"input: {mib} MiB of random bytes, archive {size:,} bytes, s3rver on 127.0.0.1")
        for label, seconds, rss in rows:
            print(f"| {label} | {seconds:.2f} s | {rss:.1f} MiB |")
        local = rows[1][1] + rows[2][1]
        print(f"| zanj pack + curl -T (sum) | {local:.2f} s | {max(rows[1][2], rows[2][2]):.1f} MiB |")
    finally:
        shutil.rmtree(work, True)

if __name__ == "__main__":
    main()
