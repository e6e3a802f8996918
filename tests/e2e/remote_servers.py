"""Servers for the remote-archive tests (test_remote*.py), all on 127.0.0.1 only, each stopped
by the test that started it (and by a deadline of its own, so none outlives a broken run).

- Nginx: a real web server (Debian's nginx-light) with a temporary prefix and configuration,
  serving a directory; its access log gives the bytes and requests each command cost.
- FaultServer: a small threaded Python server that serves a directory with one fault injected
  per URL prefix (/drop/, /500/, /429/, /ignore/, /etag/, /badrange/, /slow/, /trickle/).
- GcsServer: Google Cloud Storage's JSON API, its OAuth token endpoint and the GCE metadata
  server, in one small threaded Python server.
- AwsCredentialServer: STS, the container credentials endpoint and IMDSv2.
- PutServer: stores what is PUT to it (plain-URL uploads).
"""
import http.server
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

LIFETIME = 540  # seconds: no server outlives this, whatever happens to the test (under ctest's 600 s
# timeout; a class-wide server must outlast a whole test class under ASan, about 3 minutes)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process=None, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on 127.0.0.1:{port}")


class Nginx:
    """nginx serving `root` at http://127.0.0.1:PORT/. Use as a context manager."""

    def __init__(self, root, tls=False):
        """tls: also serve https on `tls_port`, with a self-signed certificate, where
        /to-http/NAME redirects to http://.../NAME."""
        self.root = os.path.abspath(root)
        self.prefix = tempfile.mkdtemp(prefix="zanj-nginx-")
        self.port = free_port()
        self.tls_port = free_port() if tls else None
        self.log = os.path.join(self.prefix, "access.log")
        config = os.path.join(self.prefix, "nginx.conf")
        tls_server = ""
        if tls:
            subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                            "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1", "-keyout", f"{self.prefix}/key.pem",
                            "-out", f"{self.prefix}/cert.pem"], check=True, capture_output=True)
            tls_server = f"""  server {{
    listen 127.0.0.1:{self.tls_port} ssl;
    ssl_certificate {self.prefix}/cert.pem;
    ssl_certificate_key {self.prefix}/key.pem;
    root {self.root};
    location /to-http/ {{ rewrite ^/to-http/(.*)$ http://127.0.0.1:{self.port}/$1 redirect; }}
  }}
"""
        with open(config, "w") as f:
            f.write(f"""worker_processes 1;
daemon off;
pid {self.prefix}/nginx.pid;
error_log {self.prefix}/error.log;
events {{ worker_connections 64; }}
http {{
  log_format ranges '$status $body_bytes_sent "$http_range"';
  access_log {self.log} ranges;
  client_body_temp_path {self.prefix}/body;
  proxy_temp_path {self.prefix}/proxy;
  fastcgi_temp_path {self.prefix}/fastcgi;
  uwsgi_temp_path {self.prefix}/uwsgi;
  scgi_temp_path {self.prefix}/scgi;
  server {{
    listen 127.0.0.1:{self.port};
    root {self.root};
  }}
{tls_server}}}
""")
        self.process = subprocess.Popen(["nginx", "-p", self.prefix, "-c", config, "-e", f"{self.prefix}/error.log"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        self.timer = threading.Timer(LIFETIME, self.stop)
        self.timer.daemon = True
        self.timer.start()
        try:
            wait_for_port(self.port, self.process)
        except Exception:
            self.stop()
            raise

    def url(self, name):
        return f"http://127.0.0.1:{self.port}/{name}"

    def reset_log(self):
        open(self.log, "w").close()  # nginx appends (O_APPEND): truncating starts a new count

    def requests(self):
        """[(status, body bytes sent, Range header)] since the last reset_log()."""
        out = []
        with open(self.log) as f:
            for line in f:
                m = re.match(r'(\d+) (\d+) "(.*)"', line)
                if m:
                    out.append((int(m.group(1)), int(m.group(2)), m.group(3)))
        return out

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.timer.cancel()
        shutil.rmtree(self.prefix, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """What every fake's request handler shares: HTTP/1.1 (kept-alive connections, as real
    servers keep them), no log lines on the test's output, and reply(): a status, a body (bytes,
    text, or a dict or list sent as JSON) with its Content-Length, and headers."""
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=None):
        import json
        if isinstance(body, (dict, list)):
            body = json.dumps(body).encode()
            headers = dict(headers or {}, **{"Content-Type": "application/json"})
        elif isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)


class LoopbackServer:
    """An HTTP test server on 127.0.0.1 (a free port), serving on a thread of its own, that stops
    by itself after LIFETIME seconds if a test does not stop it: the servers below are these
    with their own handlers."""

    def serve(self, handler):
        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a client hanging up mid-response is part of what these servers test

        self.httpd = Server(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.timer = threading.Timer(LIFETIME, self.stop)
        self.timer.daemon = True
        self.timer.start()

    def stop(self):
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class FaultServer(LoopbackServer):
    """Serves the files of `root` at http://127.0.0.1:PORT/FAULT/NAME, where FAULT is one of
    ok, drop, 500, 429, ignore, etag, badrange, slow, trickle; the fault hits the second request for a
    file (the first, which fetches the tail, goes through), except `ignore`, which ignores
    every Range. `counts` holds the requests per path, `headers` each request's headers."""

    def __init__(self, root, slow_seconds=3):
        self.root, self.slow_seconds = root, slow_seconds
        self.counts, self.lock, self.headers = {}, threading.Lock(), []
        server = self

        class Handler(QuietHandler):
            def do_GET(self):
                server.handle(self)

        self.serve(Handler)

    def url(self, fault, name):
        return f"http://127.0.0.1:{self.port}/{fault}/{name}"

    def handle(self, h):
        _, fault, name = h.path.split("?")[0].split("/", 2)  # a query only makes a fresh count
        if not os.path.isfile(os.path.join(self.root, name)):
            return self.send(h, 404, b"not found", '"none"')
        with open(os.path.join(self.root, name), "rb") as f:
            body = f.read()
        with self.lock:
            n = self.counts.get(h.path, 0)
            self.counts[h.path] = n + 1
            self.headers.append(dict(h.headers.items()))
        etag = '"v2"' if fault == "etag" and n > 0 else '"v1"'
        first, last = 0, len(body) - 1
        m = re.fullmatch(r"bytes=(\d*)-(\d*)", h.headers.get("Range", ""))
        if fault == "ignore" or not m:
            return self.send(h, 200, body, etag)
        if m.group(1) == "":
            first = max(0, len(body) - int(m.group(2)))
        else:
            first, last = int(m.group(1)), min(int(m.group(2) or last), last)
        part = body[first:last + 1]
        content_range = f"bytes {first}-{last}/{len(body)}"
        if n == 1 and fault == "500":
            return self.send(h, 500, b"oops", etag)
        if n == 1 and fault == "429":
            return self.send(h, 429, b"slow down", etag, {"Retry-After": "1"})
        if n == 1 and fault == "badrange":
            content_range = f"bytes {first + 1}-{last + 1}/{len(body)}"
        if n == 1 and fault == "drop":  # half the range, then the connection goes
            self.send(h, 206, part, etag, {"Content-Range": content_range}, cut=len(part) // 2)
            h.close_connection = True
            return
        if n >= 1 and fault == "trickle":  # a byte every 0.3 s: never idle, never done
            h.send_response(206)
            h.send_header("Content-Length", str(len(part)))
            h.send_header("ETag", etag)
            h.send_header("Content-Range", content_range)
            h.end_headers()
            deadline = time.monotonic() + 20
            for i in range(len(part)):
                if time.monotonic() > deadline:
                    break
                try:
                    h.wfile.write(part[i:i + 1])
                    h.wfile.flush()
                except OSError:
                    break
                time.sleep(0.3)
            h.close_connection = True
            return
        if n == 1 and fault == "slow":  # headers, then nothing for longer than the idle timeout
            self.send(h, 206, part, etag, {"Content-Range": content_range}, cut=0)
            time.sleep(self.slow_seconds)
            h.close_connection = True
            return
        self.send(h, 206, part, etag, {"Content-Range": content_range})

    @staticmethod
    def send(h, status, body, etag, headers=None, cut=None):
        h.send_response(status)
        h.send_header("Content-Length", str(len(body)))
        h.send_header("ETag", etag)
        for k, v in (headers or {}).items():
            h.send_header(k, v)
        h.end_headers()
        h.wfile.write(body if cut is None else body[:cut])
        h.wfile.flush()


S3RVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "s3rver", "node_modules", ".bin", "s3rver")


class S3rver:
    """s3rver (installed by scripts/install-deps --test) on 127.0.0.1 with a temporary directory and
    one bucket; put() uploads a file. Use as a context manager."""

    def __init__(self, bucket):
        self.bucket = bucket
        self.directory = tempfile.mkdtemp(prefix="zanj-s3rver-")
        self.port = free_port()
        self.process = subprocess.Popen([S3RVER, "--directory", self.directory, "--address", "127.0.0.1", "--port",
                                         str(self.port), "--silent", "--configure-bucket", bucket],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                        # s3rver's ListObjectsV2 continuation tokens are DES, which
                                        # OpenSSL 3 only offers through its legacy provider.
                                        env=dict(os.environ, NODE_OPTIONS="--openssl-legacy-provider"))
        self.timer = threading.Timer(LIFETIME, self.stop)
        self.timer.daemon = True
        self.timer.start()
        try:
            wait_for_port(self.port, self.process, timeout=20)
        except Exception:
            self.stop()
            raise

    @property
    def endpoint(self):
        return f"http://127.0.0.1:{self.port}"

    def put(self, key, path):
        import urllib.request
        with open(path, "rb") as f:
            request = urllib.request.Request(f"{self.endpoint}/{self.bucket}/{key}", data=f.read(), method="PUT")
        urllib.request.urlopen(request, timeout=10).close()

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.timer.cancel()
        shutil.rmtree(self.directory, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


class RecordingProxy(LoopbackServer):
    """A loopback reverse proxy in front of `upstream` (http://127.0.0.1:PORT) that records each
    request's method, path and headers in `requests`, so tests can see what zanj signed. Any
    method is passed on with its body; `fault(method, path, headers)` may return a status (or a
    (status, body) pair) to answer instead (an injected failure, decided when the request
    arrives), and `delay(method, path)` seconds to wait first."""

    def __init__(self, upstream, fault=None, delay=None):
        import http.client
        import urllib.parse
        self.requests = []
        target = urllib.parse.urlsplit(upstream)
        proxy = self

        class Handler(QuietHandler):
            def do_GET(self):
                proxy.requests.append((self.command, self.path, dict(self.headers.items())))
                status = fault(self.command, self.path, dict(self.headers.items())) if fault else None
                body = self.rfile.read(int(self.headers.get("Content-Length", "0") or 0))
                if delay:
                    time.sleep(delay(self.command, self.path))
                if status:
                    self.reply(*(status if isinstance(status, tuple) else (status, b"")))
                    return
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
                connection.request(self.command, self.path, body=body if body else None,
                                   headers=dict(self.headers.items()))
                response = connection.getresponse()
                body = response.read()
                self.send_response(response.status)
                for name, value in response.getheaders():
                    if name.lower() not in ("connection", "keep-alive", "transfer-encoding", "content-length"):
                        self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                connection.close()

            do_PUT = do_POST = do_DELETE = do_GET

        self.serve(Handler)


# The OAuth scopes that let a token write objects (devstorage.read_only does not).
WRITE_SCOPES = ("devstorage.read_write", "devstorage.full_control", "auth/cloud-platform")


class GcsServer(LoopbackServer):
    """A small Google Cloud Storage JSON API on 127.0.0.1, with the OAuth token endpoint and the
    GCE metadata server Google's credentials come from, all on one port:

    - GET /storage/v1/b/BUCKET/o/OBJECT: the metadata (generation, size); with alt=media the
      bytes, one Range at a time, 412 when ifGenerationMatch is not the object's generation;
    - GET /storage/v1/b/BUCKET/o?prefix=&maxResults=&pageToken=: a listing, in pages;
    - POST /token: a refresh token (REFRESH_TOKEN) or an RS256 JWT assertion, checked with
      `openssl dgst -verify` against `public_key` (a PEM file), traded for an access token;
    - GET /computeMetadata/v1/instance/service-accounts/default/token with Metadata-Flavor;
    - POST /upload/storage/v1/b/BUCKET/o?uploadType=media&name=N: a whole object in one request;
      uploadType=resumable opens a session (its URL in Location): PUT chunks with Content-Range
      (308 with Range: bytes=0-N until the last one, which names the total), DELETE cancels it
      (499); ifGenerationMatch=0 refuses an existing object (412) when the session opens and when
      it completes. `short_keep` makes the first chunk of each session keep only that many bytes
      (the 308 says so, and the client must send the rest again); `fail_chunk` answers 403 to
      that chunk (1 for the first); `chunk_delay` sleeps before answering each chunk, and
      `media_delay` before answering each media request (a slow read).

    With `tokens` set, every storage request needs `Authorization: Bearer T` with T in it
    (else 401); `requests` records (method, path, headers); `replace_after` bumps an object's
    generation after that many media requests (a writer replacing it mid-read). With
    `token_lifetime` (seconds), the metadata server hands out a new token each time
    (METADATA_TOKEN-N, expires_in that long), counted in `issued`; an expired one is refused
    (401), counted in `refused`."""

    CLIENT_SECRET = "client-secret-7c1d"
    REFRESH_TOKEN = "refresh-token-5ab2"
    REFRESHED_TOKEN = "ya29.refreshed-b6f1"
    JWT_TOKEN = "ya29.service-account-90aa"
    METADATA_TOKEN = "ya29.metadata-4e3c"

    def __init__(self, bucket, tokens=None, public_key=None):
        import json
        import urllib.parse
        self.bucket, self.tokens, self.public_key = bucket, tokens, public_key
        self.objects = {}  # name -> [bytes, generation]
        self.requests, self.lock, self.replace_after, self.media_count = [], threading.Lock(), None, 0
        self.sessions, self.cancelled = {}, []  # session id -> {"name", "data", "no_clobber", "chunks"}
        self.short_keep, self.fail_chunk, self.chunk_delay, self.media_delay = None, None, 0, 0
        self.token_lifetime, self.expiry, self.refused = None, {}, 0  # token -> time.time() it expires
        self.jwt_scope = ""  # the scope of the last service-account JWT traded for JWT_TOKEN
        server = self

        class Handler(QuietHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                body = raw.decode(errors="replace")
                server.record(self)
                url = urllib.parse.urlsplit(self.path)
                if url.path == f"/upload/storage/v1/b/{server.bucket}/o":
                    return server.upload_start(self, dict(urllib.parse.parse_qsl(url.query)), raw)
                if self.path != "/token":
                    return self.reply(404, {"error": "not_found"})
                form = dict(urllib.parse.parse_qsl(body))
                if form.get("grant_type") == "refresh_token":
                    ok = form.get("refresh_token") == server.REFRESH_TOKEN and form.get("client_secret") == server.CLIENT_SECRET
                    token = server.REFRESHED_TOKEN
                elif form.get("grant_type") == "urn:ietf:params:oauth:grant-type:jwt-bearer":
                    ok, token = server.check_jwt(form.get("assertion", ""), f"http://127.0.0.1:{server.port}/token"), server.JWT_TOKEN
                else:
                    ok, token = False, None
                if not ok:
                    return self.reply(400, {"error": "invalid_grant", "error_description": "refused"})
                self.reply(200, {"access_token": token, "expires_in": 3599, "token_type": "Bearer"})

            def do_GET(self):
                server.record(self)
                url = urllib.parse.urlsplit(self.path)
                query = dict(urllib.parse.parse_qsl(url.query))
                if url.path == "/computeMetadata/v1/instance/service-accounts/default/token":
                    if self.headers.get("Metadata-Flavor") != "Google":
                        return self.reply(403, b"missing Metadata-Flavor")
                    token, expires_in = server.issue_metadata_token()
                    return self.reply(200, {"access_token": token, "expires_in": expires_in,
                                            "token_type": "Bearer"}, {"Metadata-Flavor": "Google"})
                prefix = f"/storage/v1/b/{server.bucket}/o"
                if not url.path.startswith(prefix):
                    return self.reply(404, {"error": {"code": 404, "message": "no such bucket"}})
                if not server.token_ok(self):
                    return self.reply(401, {"error": {"code": 401, "message": "Invalid Credentials"}})
                if url.path == prefix:
                    return self.reply(200, server.listing(query))
                name = urllib.parse.unquote(url.path[len(prefix) + 1:])
                with server.lock:
                    if name not in server.objects:
                        return self.reply(404, {"error": {"code": 404, "message": "No such object"}})
                    data, generation = server.objects[name]
                    if query.get("alt") == "media":
                        server.media_count += 1
                        if server.replace_after is not None and server.media_count > server.replace_after:
                            server.objects[name][1] = generation = generation + 1
                if query.get("alt") != "media":
                    return self.reply(200, {"kind": "storage#object", "bucket": server.bucket, "name": name,
                                            "generation": str(generation), "size": str(len(data))})
                time.sleep(server.media_delay)
                if "ifGenerationMatch" in query and query["ifGenerationMatch"] != str(generation):
                    return self.reply(412, {"error": {"code": 412, "message": "Precondition Failed"}})
                headers = {"ETag": f'"g{generation}"', "x-goog-generation": str(generation)}
                m = re.fullmatch(r"bytes=(\d*)-(\d*)", self.headers.get("Range", ""))
                if not m:
                    return self.reply(200, data, headers)
                if m.group(1) == "":
                    first, last = max(0, len(data) - int(m.group(2))), len(data) - 1
                else:
                    first, last = int(m.group(1)), min(int(m.group(2) or len(data) - 1), len(data) - 1)
                if first >= len(data):
                    return self.reply(416, b"", dict(headers, **{"Content-Range": f"bytes */{len(data)}"}))
                self.reply(206, data[first:last + 1], dict(headers, **{"Content-Range": f"bytes {first}-{last}/{len(data)}"}))

            def do_PUT(self):
                server.record(self)
                data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                server.upload_chunk(self, data)

            def do_DELETE(self):
                server.record(self)
                session = self.path.rsplit("/", 1)[-1]
                with server.lock:
                    found = server.sessions.pop(session, None)
                    if found:
                        server.cancelled.append(session)
                self.reply(499 if found else 404, b"")

        self.serve(Handler)

    @property
    def host(self):
        return f"127.0.0.1:{self.port}"

    @property
    def token_uri(self):
        return f"http://127.0.0.1:{self.port}/token"

    def put(self, name, data, generation=1000):
        with self.lock:
            self.objects[name] = [data, generation]

    def issue_metadata_token(self):
        if self.token_lifetime is None:
            return self.METADATA_TOKEN, 3599
        with self.lock:
            token = f"{self.METADATA_TOKEN}-{len(self.expiry)}"
            self.expiry[token] = time.time() + self.token_lifetime
            if self.tokens is not None:
                self.tokens.add(token)
        return token, self.token_lifetime

    @property
    def issued(self):
        with self.lock:
            return len(self.expiry)

    def token_ok(self, handler):
        token = handler.headers.get("Authorization", "")[len("Bearer "):]
        with self.lock:
            if token in self.expiry and time.time() >= self.expiry[token]:
                self.refused += 1
                return False
        return self.tokens is None or token in self.tokens

    def authorized(self, handler):
        if self.token_ok(handler):
            return True
        handler.reply(401, {"error": {"code": 401, "message": "Invalid Credentials"}})
        return False

    def may_write(self, handler):
        """An upload's check: a service account's token carries the scope its JWT asked for, and
        devstorage.read_only does not write (403, as GCS answers)."""
        if not self.authorized(handler):
            return False
        token = handler.headers.get("Authorization", "")[len("Bearer "):]
        if token == self.JWT_TOKEN and not any(s in self.jwt_scope for s in WRITE_SCOPES):
            handler.reply(403, {"error": {"code": 403, "message": "Insufficient Permission"}})
            return False
        return True

    def store(self, name):
        """A new generation for `name` (called with the lock held); its metadata."""
        generation = max([g for _, g in self.objects.values()] + [1000]) + 1
        return generation

    def upload_start(self, handler, query, body):
        import uuid
        if not self.may_write(handler):
            return None
        name = query.get("name", "")
        no_clobber = query.get("ifGenerationMatch") == "0"
        with self.lock:
            if no_clobber and name in self.objects:
                return handler.reply(412, {"error": {"code": 412, "message": "Precondition Failed"}})
            if query.get("uploadType") == "media":
                generation = self.store(name)
                self.objects[name] = [body, generation]
                return handler.reply(200, {"name": name, "generation": str(generation), "size": str(len(body))})
            if query.get("uploadType") != "resumable" or not name:
                return handler.reply(400, {"error": {"code": 400, "message": "bad upload"}})
            session = uuid.uuid4().hex
            self.sessions[session] = {"name": name, "data": b"", "no_clobber": no_clobber, "chunks": 0}
        handler.reply(200, b"", {"Location": f"http://127.0.0.1:{self.port}/upload/session/{session}"})

    def upload_chunk(self, handler, data):
        if not self.may_write(handler):
            return None
        time.sleep(self.chunk_delay)
        session_id = handler.path.rsplit("/", 1)[-1]
        m = re.fullmatch(r"bytes (?:(\d+)-(\d+)|\*)/(\d+|\*)", handler.headers.get("Content-Range", ""))
        with self.lock:
            session = self.sessions.get(session_id)
            if session is None or not m:
                return handler.reply(404 if session is None else 400, b"")
            session["chunks"] += 1
            if self.fail_chunk == session["chunks"]:
                return handler.reply(403, {"error": {"code": 403, "message": "Forbidden"}})
            if m.group(1) is not None:
                if int(m.group(1)) != len(session["data"]) or int(m.group(2)) - int(m.group(1)) + 1 != len(data):
                    return handler.reply(400, {"error": {"code": 400, "message": "bad Content-Range"}})
                if self.short_keep is not None and session["chunks"] == 1 and len(data) > self.short_keep:
                    data = data[:self.short_keep]
                session["data"] += data
            total = m.group(3)
            if total != "*" and int(total) == len(session["data"]):
                name = session["name"]
                if session["no_clobber"] and name in self.objects:
                    del self.sessions[session_id]
                    return handler.reply(412, {"error": {"code": 412, "message": "Precondition Failed"}})
                generation = self.store(name)
                self.objects[name] = [session["data"], generation]
                del self.sessions[session_id]
                return handler.reply(200, {"name": name, "generation": str(generation), "size": total})
            kept = len(session["data"])
        handler.reply(308, b"", {"Range": f"bytes=0-{kept - 1}"} if kept else {})

    def record(self, handler):
        with self.lock:
            self.requests.append((handler.command, handler.path, dict(handler.headers.items())))

    def listing(self, query):
        names = sorted(n for n in self.objects if n.startswith(query.get("prefix", "")))
        start = int(query.get("pageToken") or 0)
        size = int(query.get("maxResults") or 1000)
        page = names[start:start + size]
        out = {"kind": "storage#objects", "items": [{"name": n, "bucket": self.bucket, "size": str(len(self.objects[n][0])),
                                                     "generation": str(self.objects[n][1])} for n in page]}
        if start + size < len(names):
            out["nextPageToken"] = str(start + size)
        return out

    def check_jwt(self, assertion, audience):
        """The assertion's RS256 signature (checked by openssl against public_key) and claims."""
        import base64
        import json

        def decode(part):
            return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))
        try:
            header, claims, signature = assertion.split(".")
            if json.loads(decode(header)).get("alg") != "RS256" or not self.public_key:
                return False
            body = json.loads(decode(claims))
            if body.get("aud") != audience or "devstorage" not in body.get("scope", "") or body["exp"] <= time.time():
                return False
            self.jwt_scope = body["scope"]  # what the token it is traded for may do
            with tempfile.TemporaryDirectory() as tmp:
                with open(f"{tmp}/data", "w") as f:
                    f.write(f"{header}.{claims}")
                with open(f"{tmp}/sig", "wb") as f:
                    f.write(decode(signature))
                return subprocess.run(["openssl", "dgst", "-sha256", "-verify", self.public_key, "-signature",
                                       f"{tmp}/sig", f"{tmp}/data"], capture_output=True).returncode == 0
        except (ValueError, KeyError):
            return False


class PutServer(LoopbackServer):
    """A loopback server that stores what is PUT to it (WebDAV's PUT, or what a presigned URL
    takes): `objects` maps a path (query stripped) to its bytes. If-None-Match: * refuses an
    existing path (412); `fail` answers every PUT with that status; each PUT is read whole
    before anything is stored, so a failed or cut request stores nothing. GET serves them."""

    def __init__(self):
        import hashlib
        self.objects, self.requests, self.fail, self.lock = {}, [], None, threading.Lock()
        server = self

        class Handler(QuietHandler):
            def do_PUT(self):
                path = self.path.split("?", 1)[0]
                with server.lock:
                    server.requests.append((self.command, self.path, dict(self.headers.items())))
                length = int(self.headers.get("Content-Length", "-1"))
                if length < 0:
                    return self.reply(411)
                data = self.rfile.read(length)
                if len(data) != length:
                    return None
                if server.fail:
                    return self.reply(server.fail)
                with server.lock:
                    if self.headers.get("If-None-Match") == "*" and path in server.objects:
                        return self.reply(412)
                    server.objects[path] = data
                self.reply(201, b"", {"ETag": '"' + hashlib.md5(data).hexdigest() + '"'})

            def do_GET(self):
                data = server.objects.get(self.path.split("?", 1)[0])
                self.reply(200 if data is not None else 404, data or b"")

        self.serve(Handler)


class AwsCredentialServer(LoopbackServer):
    """The places AWS credentials come from, on 127.0.0.1, one port: STS's
    AssumeRoleWithWebIdentity (POST /), a container credentials endpoint (GET /container, with
    an Authorization check) and IMDSv2 (PUT /latest/api/token, then the role and its
    credentials under /latest/meta-data/iam/security-credentials/, each needing the session
    token). Every source hands out `key_id`/`secret` with a session token of its own, so a
    test sees which one was used. `requests` records (method, path, headers, body).

    With `lifetime` (seconds), every answer is a new session token (TOKENS[source]-N) whose
    Expiration is that far ahead or a little more (whole seconds, as AWS writes it): `issued` counts them, and
    expired(token) tells a proxy in front of S3 which ones to refuse."""

    WEB_IDENTITY = "oidc-web-identity-8d21"
    ROLE_ARN = "arn:aws:iam::123456789012:role/reader"
    CONTAINER_AUTHORIZATION = "container-auth-6f0e"
    IMDS_SESSION = "imds-session-2a7b"
    TOKENS = {"sts": "sts-session-token-41c9", "container": "container-session-token-93ab",
              "imds": "imds-session-token-c5d0"}

    def __init__(self, key_id, secret, lifetime=None):
        import json
        import urllib.parse
        self.requests, self.lock = [], threading.Lock()
        self.lifetime, self.expiry = lifetime, {}  # token -> time.time() it expires
        server = self

        class Handler(QuietHandler):
            def reply(self, status, body, content_type="application/json"):
                body = body if isinstance(body, str) else json.dumps(body)
                QuietHandler.reply(self, status, body, {"Content-Type": content_type})

            def read_body(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0"))).decode()
                with server.lock:
                    server.requests.append((self.command, self.path, dict(self.headers.items()), body))
                return body

            def credentials(self, source):
                token, expiration = server.issue(source)
                return {"AccessKeyId": key_id, "SecretAccessKey": secret, "Token": token,
                        "Expiration": expiration, "Code": "Success"}

            def do_POST(self):
                form = dict(urllib.parse.parse_qsl(self.read_body()))
                if (form.get("Action") != "AssumeRoleWithWebIdentity" or form.get("RoleArn") != server.ROLE_ARN
                        or form.get("WebIdentityToken") != server.WEB_IDENTITY):
                    return self.reply(403, "<ErrorResponse><Error><Code>AccessDenied</Code></Error></ErrorResponse>",
                                      "text/xml")
                token, expiration = server.issue("sts")
                self.reply(200, f"""<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult><Credentials>
<AccessKeyId>{key_id}</AccessKeyId><SecretAccessKey>{secret}</SecretAccessKey>
<SessionToken>{token}</SessionToken><Expiration>{expiration}</Expiration>
</Credentials></AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>""", "text/xml")

            def do_PUT(self):
                self.read_body()
                if self.path != "/latest/api/token" or "X-aws-ec2-metadata-token-ttl-seconds" not in self.headers:
                    return self.reply(400, "")
                self.reply(200, server.IMDS_SESSION, "text/plain")

            def do_GET(self):
                self.read_body()
                if self.path == "/container":
                    if self.headers.get("Authorization") != server.CONTAINER_AUTHORIZATION:
                        return self.reply(401, {"message": "unauthorized"})
                    return self.reply(200, self.credentials("container"))
                base = "/latest/meta-data/iam/security-credentials/"
                if self.path.startswith(base):
                    if self.headers.get("X-aws-ec2-metadata-token") != server.IMDS_SESSION:
                        return self.reply(401, "")
                    if self.path == base:
                        return self.reply(200, "reader-role", "text/plain")
                    if self.path == base + "reader-role":
                        return self.reply(200, self.credentials("imds"))
                self.reply(404, "")

        self.serve(Handler)

    def issue(self, source):
        """A session token from `source` and its Expiration text."""
        if self.lifetime is None:
            return self.TOKENS[source], "2099-01-01T00:00:00Z"
        with self.lock:
            token = f"{self.TOKENS[source]}-{len(self.expiry)}"
            expires = math.ceil(time.time() + self.lifetime)  # whole seconds, as AWS writes them
            self.expiry[token] = expires
        return token, time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(expires))

    @property
    def issued(self):
        with self.lock:
            return len(self.expiry)

    def expired(self, token):
        with self.lock:
            return token in self.expiry and time.time() >= self.expiry[token]
