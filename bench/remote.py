"""Remote rows of the benchmark (docs/remote.md): zanj on an http:// URL served by nginx on loopback,
beside curl's download followed by a local verify, in the same run. Bytes and requests are
counted from nginx's access log."""
import os
import subprocess
import sys
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "e2e"))
from remote_servers import GcsServer, Nginx  # noqa: E402  (the tests' nginx and GCS JSON-API server)

KIB = 1024
# Ten rows of 256 float32 (10 KiB) from the middle of a stored member, on each input's shape.
SLICES = {"1GiB": "w00017[1000:1010]", "10MiB": "w00017[100:110]"}


def served(nginx, cmd):
    """Run cmd once -> (bytes nginx sent, requests)."""
    nginx.reset_log()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    requests = nginx.requests()
    return sum(r[1] for r in requests), len(requests)


def directory_and_json_bytes(archive):
    with zipfile.ZipFile(archive) as z:
        infos = z.infolist()
        cd = sum(46 + len(i.orig_filename.encode()) + len(i.extra) + len(i.comment) for i in infos)
        js = sum(30 + len(i.orig_filename.encode()) + len(i.extra) + i.compress_size
                 for i in infos if i.filename in ("__zanj__.json", "__zanj_meta__.json"))
    return cd + js


def bench_remote(zanj, work, label, directory, runs, rows, facts, measure, sh):
    """Rows for input "remote": the `label` input packed with --store, read from its URL."""
    archive = os.path.join(work, f"{label}-stored.zanj")
    if not os.path.exists(archive):
        sh([zanj, "pack", directory, "-o", archive, "--store", "--force"])
    size = os.path.getsize(archive)
    downloaded = os.path.join(work, "downloaded.zanj")
    with Nginx(work) as nginx:
        url = nginx.url(os.path.basename(archive))
        commands = [
            ("info", "zanj info URL", [zanj, "info", url]),
            ("ls", "zanj ls URL", [zanj, "ls", url]),
            ("cat", "zanj cat URL slice", [zanj, "cat", url, SLICES[label]]),
            ("verify", "zanj verify URL", [zanj, "verify", "-q", url]),
            ("verify", "curl download + zanj verify",
             ["sh", "-c", f'curl -s -o "$1" "$2" && "$3" verify -q "$1"', "sh", downloaded, url, zanj]),
        ]
        for op, tool, cmd in commands:
            seconds, rss, made = measure(cmd, runs)
            sent, count = served(nginx, cmd)
            rows.append({"input": "remote", "op": op, "tool": tool, "seconds": seconds, "rss_mib": rss, "runs": made,
                         "bytes": sent, "requests": count})
            print(f"  remote     {op:8} {tool:30} {seconds * 1000:10.1f} ms {rss:8.1f} MiB  {sent:>12,} bytes "
                  f"{count:5} requests", flush=True)
    if os.path.exists(downloaded):
        os.remove(downloaded)
    bench_gcs(zanj, archive, label, size, runs, rows, measure)
    facts["remote_size"] = size
    facts["remote_budget"] = directory_and_json_bytes(archive) + 64 * KIB
    facts["inputs"].append(f"remote: the {label} input packed with `--store` ({size:,} bytes), served by nginx on "
                           f"127.0.0.1; bytes and requests from nginx's access log (one extra run of each command)")


def media_bytes(requests, size):
    """Bytes of the object a GCS server sent for these recorded requests: each alt=media
    request's Range (clamped to the object), or the whole object without one."""
    sent = 0
    for method, path, headers in requests:
        if method != "GET" or "alt=media" not in path:
            continue
        rng = headers.get("Range", "")
        if not rng.startswith("bytes="):
            sent += size
            continue
        first, _, last = rng[len("bytes="):].partition("-")
        if first == "":
            sent += min(int(last), size)
        else:
            sent += max(0, min(int(last) if last else size - 1, size - 1) - int(first) + 1)
    return sent


def bench_gcs(zanj, archive, label, size, runs, rows, measure):
    """Rows for gs://: the same stored archive in the suite's GCS JSON-API server on loopback,
    read with a bearer token from the environment (no other credential source is looked at).
    Bytes from the Range headers of the media requests the server received."""
    url = "gs://bench/run/model.zanj"
    env = {"STORAGE_EMULATOR_HOST": None, "GOOGLE_OAUTH_ACCESS_TOKEN": "bench-token"}
    saved = {k: os.environ.get(k) for k in env}
    with GcsServer("bench", tokens={"bench-token"}) as gcs:
        with open(archive, "rb") as f:
            gcs.put("run/model.zanj", f.read())
        env["STORAGE_EMULATOR_HOST"] = gcs.host
        os.environ.update(env)
        try:
            for op, tool, cmd in [("info", "zanj info gs://", [zanj, "info", url]),
                                  ("cat", "zanj cat gs:// slice", [zanj, "cat", url, SLICES[label]])]:
                seconds, rss, made = measure(cmd, runs)
                with gcs.lock:
                    gcs.requests.clear()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                with gcs.lock:
                    sent, count = media_bytes(gcs.requests, size), len(gcs.requests)
                rows.append({"input": "remote", "op": op, "tool": tool, "seconds": seconds, "rss_mib": rss,
                             "runs": made, "bytes": sent, "requests": count})
                print(f"  remote     {op:8} {tool:30} {seconds * 1000:10.1f} ms {rss:8.1f} MiB  {sent:>12,} bytes "
                      f"{count:5} requests", flush=True)
        finally:
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def remote_goals():
    def row(get, tool):
        return get.get(("remote", tool))

    def info_bytes(get, facts):
        r = row(get, "zanj info URL")
        if not r or "remote_budget" not in facts:
            return None
        return (f"{r['bytes']:,} bytes in {r['requests']} requests (budget {facts['remote_budget']:,} bytes, 4 requests)",
                r["bytes"] <= facts["remote_budget"] and r["requests"] <= 4)

    def cat_bytes(get, _facts):
        # cat opens the archive as info does (its end, both JSON members); the slice is the rest.
        r, opening = row(get, "zanj cat URL slice"), row(get, "zanj info URL")
        if not (r and opening):
            return None
        extra = r["bytes"] - opening["bytes"]
        return (f"{extra:,} bytes in {r['requests'] - opening['requests']} requests beyond opening "
                f"({r['bytes']:,} in all)", extra <= 64 * KIB)

    def verify_bytes(get, facts):
        r = row(get, "zanj verify URL")
        if not r or "remote_size" not in facts:
            return None
        ratio = r["bytes"] / facts["remote_size"]
        return f"{ratio:.4f}x the file ({r['bytes']:,} bytes, {r['requests']} requests)", ratio <= 1.02

    def verify_time(get, _facts):
        a, b = row(get, "zanj verify URL"), row(get, "curl download + zanj verify")
        if not (a and b and b["seconds"] > 0):
            return None
        ratio = a["seconds"] / b["seconds"]
        return f"{ratio:.2f}x ({a['seconds'] * 1000:.1f} / {b['seconds'] * 1000:.1f} ms)", ratio <= 0.9

    def gcs_info_bytes(get, facts):  # issue 28: info gs:// on the benchmark archive reads <= 1% of it
        r = row(get, "zanj info gs://")
        if not r or "remote_size" not in facts:
            return None
        share = r["bytes"] / facts["remote_size"]
        return f"{share:.3%} of the file ({r['bytes']:,} bytes, {r['requests']} requests)", share <= 0.01

    def rss(get, _facts):
        mine = [r for (i, t), r in get.items() if i == "remote" and t.startswith("zanj")]
        if not mine:
            return None
        worst = max(mine, key=lambda r: r["rss_mib"])
        return f"{worst['rss_mib']:.1f} MiB ({worst['tool']})", worst["rss_mib"] < 64

    return [
        ("remote", "info transfers <= directory + both JSON members + 64 KiB, in <= 4 requests", info_bytes),
        ("remote", "cat of a 10-row slice of a stored member transfers <= 64 KiB beyond opening", cat_bytes),
        ("remote", "verify transfers <= 1.02x the file", verify_bytes),
        ("remote", "verify <= 0.9x curl download + local verify", verify_time),
        ("remote", "info gs:// transfers <= 1% of the file (issue 28)", gcs_info_bytes),
        ("remote", "peak RSS < 64 MiB for every command on a URL", rss),
    ]
