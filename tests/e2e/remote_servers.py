"""Servers for the remote-archive tests (test_remote*.py), all on 127.0.0.1 only, each stopped
by the test that started it (and by a deadline of its own, so none outlives a broken run).

- Nginx: a real web server (Debian's nginx-light) with a temporary prefix and configuration,
  serving a directory; its access log gives the bytes and requests each command cost.
- FaultServer: a small threaded Python server that serves a directory with one fault injected
  per URL prefix (/drop/, /500/, /429/, /ignore/, /etag/, /badrange/, /slow/).
"""
import http.server
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

LIFETIME = 120  # seconds: no server outlives this, whatever happens to the test


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


class FaultServer:
    """Serves the files of `root` at http://127.0.0.1:PORT/FAULT/NAME, where FAULT is one of
    ok, drop, 500, 429, ignore, etag, badrange, slow; the fault hits the second request for a
    file (the first, which fetches the tail, goes through), except `ignore`, which ignores
    every Range. `counts` holds the requests per path, `headers` each request's headers."""

    def __init__(self, root, slow_seconds=3):
        self.root, self.slow_seconds = root, slow_seconds
        self.counts, self.lock, self.headers = {}, threading.Lock(), []
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                server.handle(self)

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass  # a client hanging up mid-response is what the faults are about

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.timer = threading.Timer(LIFETIME, self.stop)
        self.timer.daemon = True
        self.timer.start()

    def url(self, fault, name):
        return f"http://127.0.0.1:{self.port}/{fault}/{name}"

    def handle(self, h):
        _, fault, name = h.path.split("?")[0].split("/", 2)  # a query only makes a fresh count
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

    def stop(self):
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


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
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
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


class RecordingProxy:
    """A loopback reverse proxy in front of `upstream` (http://127.0.0.1:PORT) that records each
    request's method, path and headers in `requests`, so tests can see what zanj signed."""

    def __init__(self, upstream):
        import http.client
        import urllib.parse
        self.requests = []
        target = urllib.parse.urlsplit(upstream)
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_GET(self):
                proxy.requests.append((self.command, self.path, dict(self.headers.items())))
                connection = http.client.HTTPConnection(target.hostname, target.port, timeout=10)
                connection.request("GET", self.path, headers=dict(self.headers.items()))
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

        class Server(http.server.ThreadingHTTPServer):
            def handle_error(self, request, client_address):
                pass

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.endpoint = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.timer = threading.Timer(LIFETIME, self.stop)
        self.timer.daemon = True
        self.timer.start()

    def stop(self):
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()
