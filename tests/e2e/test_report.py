"""End-to-end: `zanj report`, rendered by headless Chromium (and three pages by Firefox, to
compare the two renderings). The pages of every corpus archive,
of an archive with hostile keys and of a comparison are loaded together, as iframes of one
test page, in ONE browser launch (Chromium takes seconds to start): a script there reads each
page's DOM (paths, figures, scripts, resource timing) into the dumped DOM. Every host name
resolves to nowhere, and the browser's console is checked for errors. Screenshots for a person
to look at go to the build directory (report-screenshots/reports.png and reports-firefox.png,
not committed)."""
import html.parser
import itertools
import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest
import zipfile
import zlib

from common import (ZANJ, ZanjTest, archives, corpus, external_array, facts, inline_array, main, npy_bytes, obj_path,
                    pack_values, run, run_on_terminal, write_zanj)

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FIREFOX = shutil.which("firefox-esr") or shutil.which("firefox")
SHOTS = os.path.join(os.path.dirname(os.path.abspath(ZANJ)) if ZANJ else tempfile.gettempdir(), "report-screenshots")
HOSTILE_KEYS = ["<script>alert(1)</script>", "\"quoted\" & 'single'", "<img src=x onerror=alert(2)>",
                "\u202eevil.exe \u05e9\u05dc\u05d5\u05dd", "zero\u200bwidth\u200d", "k" * 3000]


def browser(*args, user_dir):
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                           "--disable-background-networking", "--disable-component-update", "--disable-sync",
                           f"--user-data-dir={user_dir}", "--host-resolver-rules=MAP * ~NOTFOUND",
                           "--enable-logging=stderr", "--v=0", *args],
                          capture_output=True, timeout=60)


# Firefox's profile (user.js): every connection goes to a dead loopback port (DNS too, through
# the "proxy"), the services that would call home are off, and the page is drawn light (the
# "system" theme Firefox reports to prefers-color-scheme) at one device pixel per CSS pixel, as
# headless Chromium draws it.
FIREFOX_PREFS = {
    "network.proxy.type": 1, "network.proxy.no_proxies_on": "", "network.proxy.socks_remote_dns": True,
    **{f"network.proxy.{p}": "127.0.0.1" for p in ("http", "ssl", "socks")},
    **{f"network.proxy.{p}_port": 9 for p in ("http", "ssl", "socks")},
    "network.dns.disablePrefetch": True, "network.prefetch-next": False, "network.http.speculative-parallel-limit": 0,
    "network.captive-portal-service.enabled": False, "network.connectivity-service.enabled": False,
    "services.settings.server": "http://127.0.0.1:9/v1", "app.normandy.enabled": False,
    "app.update.enabled": False, "app.update.auto": False, "extensions.update.enabled": False,
    "extensions.getAddons.cache.enabled": False, "browser.search.update": False,
    "browser.safebrowsing.malware.enabled": False, "browser.safebrowsing.phishing.enabled": False,
    "browser.safebrowsing.downloads.enabled": False, "toolkit.telemetry.enabled": False,
    "toolkit.telemetry.unified": False, "datareporting.healthreport.uploadEnabled": False,
    "datareporting.policy.dataSubmissionEnabled": False, "browser.shell.checkDefaultBrowser": False,
    "ui.systemUsesDarkTheme": 0,
    "layout.css.devPixelsPerPx": "1.0",
}


def firefox_screenshot(url, shot, width, height, work):
    """Headless Firefox, in a fresh profile and HOME under `work`, saves `url` as a PNG."""
    profile, home = os.path.join(work, "profile"), os.path.join(work, "home")
    os.makedirs(profile)
    os.makedirs(home)
    with open(os.path.join(profile, "user.js"), "w", encoding="utf-8") as f:
        f.writelines(f"user_pref({json.dumps(k)}, {json.dumps(v)});\n" for k, v in FIREFOX_PREFS.items())
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"), XDG_CONFIG_HOME=os.path.join(home, ".config"),
               MOZ_CRASHREPORTER_DISABLE="1")
    return subprocess.run([FIREFOX, "--headless", "-no-remote", "-profile", profile, "--screenshot", shot,
                           f"--window-size={width},{height}", url], capture_output=True, timeout=60, env=env)


def png_rows(path, count):
    """The first `count` rows of an 8-bit RGB or RGBA, non-interlaced PNG, unfiltered: (bytes per
    pixel, rows of bytes). Filters depend on the rows above, so only the rows asked for are decoded."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, compressed = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            compressed.append(body)
        pos += 12 + length
    assert depth == 8 and color in (2, 6) and interlace == 0, (path, depth, color, interlace)
    bpp, count = (3 if color == 2 else 4), min(count, height)
    stride = width * bpp
    raw = zlib.decompressobj().decompress(b"".join(compressed), (stride + 1) * count)
    rows, above = [], bytes(stride)
    for y in range(count):
        kind, line = raw[y * (stride + 1)], raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)]
        if kind == 1:  # Sub: a running sum along each channel
            out = bytearray(stride)
            for c in range(bpp):
                out[c::bpp] = bytes(v & 255 for v in itertools.accumulate(line[c::bpp]))
            line = bytes(out)
        elif kind == 2:  # Up
            line = bytes(map(lambda x, b: (x + b) & 255, line, above))
        elif kind in (3, 4):  # Average, Paeth: byte by byte, with bpp zeros left of the row
            out, up = bytearray(bpp) + bytearray(line), bytes(bpp) + above
            for i in range(stride):
                a, b, c = out[i], up[i + bpp], up[i]
                if kind == 3:
                    out[i + bpp] = (out[i + bpp] + ((a + b) >> 1)) & 255
                    continue
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                out[i + bpp] = (out[i + bpp] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            line = bytes(out[bpp:])
        rows.append(line)
        above = line
    return bpp, rows


DARK = bytes(range(128))


def dark_per_row(bpp, rows, left, width):
    """Dark pixels (green below 128: text, rules, figures' bars; not the light background) in
    each row of the `width` pixels from `left`."""
    return [width - len(row[(left * bpp) + 1:(left + width) * bpp:bpp].translate(None, DARK)) for row in rows]


def ink_profile(dark, band=25):
    """Dark pixels per band of `band` rows, as a share of all of them."""
    total = sum(dark) or 1
    return [sum(dark[i:i + band]) / total for i in range(0, len(dark), band)]


def profile_distance(x, y):
    """0 for the same profile, 2 for profiles with no band in common."""
    return sum(abs(a - b) for a, b in zip(ink_profile(x), ink_profile(y)))


# Runs in the test page once every report has loaded: what each one shows, as JSON.
PROBE = """<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><pre id="out"></pre>%s<script>
// Each tree item's path: the names (<b>) of it and its ancestors joined by '/'.
function paths(d) {
  return [].map.call(d.querySelectorAll('.tree li'), function(li) {
    var names = [];
    for (var e = li; e; e = e.parentElement.closest('li'))
      names.unshift(e.querySelector(':scope>b,:scope>details>summary>b').textContent);
    return names.slice(1).join('/') || '/';
  });
}
window.addEventListener('load', function() {
  var frames = [].slice.call(document.querySelectorAll('iframe')), out = [];
  // the search box of the largest page: type into it, look once its filter has run
  var big = frames[frames.length - 1].contentDocument, q = big.getElementById('q');
  var folded = function(d) {
    return [].filter.call(d.querySelectorAll('.tree ul, .tree details'), function(e) {
      return e.tagName === 'DETAILS' ? !e.open : e.offsetParent === null; }).length;
  };
  var closed = folded(big);
  q.value = 'l01234';
  q.dispatchEvent(new Event('input'));
  setTimeout(function() {
    frames.forEach(function(f) {
      var d = f.contentDocument, w = f.contentWindow, q = d.getElementById('q');
      var big = f === frames[frames.length - 1];
      out.push({page: f.getAttribute('src'), paths: big ? [] : paths(d),
        items: d.querySelectorAll('.tree li').length,
        shown: [].filter.call(d.querySelectorAll('.tree li'), function(li) { return li.offsetParent !== null; }).length,
        closed: big ? closed : folded(d),
        svgs: d.querySelectorAll('svg').length, titled: d.querySelectorAll('svg > title').length,
        h3: [].map.call(d.querySelectorAll('h3'), function(h) { return h.textContent; }),
        scripts: d.querySelectorAll('script').length, imgs: d.querySelectorAll('img').length,
        handlers: d.querySelectorAll('[onerror],[onload],[onclick]').length,
        resources: w.performance.getEntriesByType('resource').map(function(r) { return r.name; }),
        search: !!q && !q.parentElement.hidden, matching: (d.getElementById('qn') || {}).textContent,
        text: big ? '' : d.body.innerText});
    });
    document.getElementById('out').textContent = JSON.stringify(out);
  }, 1000);
});
</script></body></html>"""


class Tags(html.parser.HTMLParser):
    """Tags must nest; records the URLs in attributes and <details> without `open`."""
    VOID = {"meta", "input", "br", "img", "hr", "link", "path", "rect"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors, self.urls, self.closed_details = [], [], [], 0

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("src", "href") and value and not value.startswith("#"):
                self.urls.append(value)
        if tag == "details" and "open" not in dict(attrs):
            self.closed_details += 1
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        if tag in self.VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()


def check_static(test, page, where):
    """Tags nest, no attribute loads a URL, one script, the tree's top open without the script."""
    text = page.decode("utf-8")
    tags = Tags()
    tags.feed(text)
    test.assertEqual((tags.errors[:3], tags.stack), ([], []), where)
    test.assertEqual(tags.urls, [], where)
    if '<ul class="tree">' in text:  # a small tree: <details>, the root and its children open
        test.assertTrue(re.search(r'<ul class="tree">\n<li><details open>', text), where)
    test.assertEqual(text.count("<script"), 1, where)
    return text


class Page(html.parser.HTMLParser):
    """A page read for its structure: the text of each section (by id), the order of the <h2>
    headings, each table's rows (cells' text), the classes of <span>s with their text, and the
    <g> groups of the SVGs (their <title>s and classes)."""

    def __init__(self, text):
        super().__init__()
        self.sections, self.h2, self.tables, self.spans, self.groups = {}, [], [], [], []
        self.section, self.tag_stack, self.cell, self.row, self.span, self.group = None, [], None, None, None, None
        self.in_h2 = False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("id"):
            self.section = a["id"]
            self.sections[self.section] = ""
        elif tag == "h2":
            self.in_h2 = True
            self.h2.append("")
        elif tag == "table":
            self.tables.append({"id": a.get("id"), "class": a.get("class"), "section": self.section, "rows": []})
        elif tag == "tr":
            self.row = []
            self.tables[-1]["rows"].append(self.row)
        elif tag in ("td", "th") and self.row is not None:
            self.cell = ""
        elif tag == "span":
            self.span = [a.get("class"), ""]
            self.spans.append(self.span)
        elif tag == "g":
            self.group = {"class": a.get("class"), "title": ""}
            self.groups.append(self.group)
        self.tag_stack.append(tag)

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        elif tag in ("td", "th") and self.cell is not None:
            self.row.append(self.cell)
            self.cell = None
        elif tag == "span":
            self.span = None
        elif tag == "g":
            self.group = None
        elif tag == "section":
            self.section = None

    def handle_data(self, data):
        if self.section:
            self.sections[self.section] += data
        if self.in_h2:
            self.h2[-1] += data
        if self.cell is not None:
            self.cell += data
        if self.span is not None:
            self.span[1] += data
        if self.group is not None and self.tag_stack and self.tag_stack[-1] == "title":
            self.group["title"] += data


def changed_copy(source, target, member, change):
    """A copy of a corpus archive with one member's bytes changed."""
    with zipfile.ZipFile(source) as z, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info in z.infolist():
            data = z.read(info)
            out.writestr(info.filename, change(data) if info.filename == member else data)
    return target


@unittest.skipUnless(CHROMIUM, "chromium is not installed (scripts/install-deps --test installs it)")
class Report(ZanjTest):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.dir = cls.tmp.name
        cls.pages = {}
        for name in archives():
            out = os.path.join(cls.dir, name + ".html")
            r = run("report", corpus(name), "-o", out)
            assert r.code == 0, (name, r.err)
            cls.pages[name + ".html"] = name
        # hostile keys, on a scalar, a container and an array each
        root = {k: {"v": k, "a": inline_array("array_list_meta", "float32", [2, 2], [[1, 2], [3, 4]])}
                for k in HOSTILE_KEYS}
        cls.hostile = write_zanj(os.path.join(cls.dir, "hostile.zanj"), root)
        assert run("report", cls.hostile, "-o", os.path.join(cls.dir, "hostile.html")).code == 0
        # a corpus archive and a copy with one weight scaled: a comparison that differs
        weight = "state_dict/net.0.weight.npy"
        with zipfile.ZipFile(corpus("model.zanj")) as z:
            assert weight in z.namelist()

        def scale(data):
            header = len(data) - 512 * 4
            values = struct.unpack("<512f", data[header:])
            return data[:header] + struct.pack("<512f", *(v * 1.5 if i % 7 == 0 else v for i, v in enumerate(values)))
        cls.changed = changed_copy(corpus("model.zanj"), os.path.join(cls.dir, "changed.zanj"), weight, scale)
        cls.comparison = run("report", corpus("model.zanj"), cls.changed, "--rtol", "1e-9",
                             "-o", os.path.join(cls.dir, "compare.html"))
        # large trees: layers of two small arrays and a number. The browser gets 5,000 nodes
        # (parsing a page of 50,000 takes it seconds); the 50,000-node page is checked as text.
        for name, count in (("big", 1250), ("huge", 12500)):
            layers = {f"l{i:05d}": {"w": inline_array("array_list_meta", "float32", [2, 2], [[i, 1], [2, 3]]),
                                    "b": inline_array("array_list_meta", "float32", [2], [0.5, i]), "n": i}
                      for i in range(count)}
            archive = write_zanj(os.path.join(cls.dir, name + ".zanj"), {"layers": layers})
            # 50,000 nodes: minutes under ASan on two busy cores, seconds in the normal build
            assert run("report", archive, "-o", os.path.join(cls.dir, name + ".html"), timeout=400).code == 0
        frames = "".join(f'<iframe src="{p}"></iframe>' for p in [*cls.pages, "hostile.html", "compare.html", "big.html"])
        with open(os.path.join(cls.dir, "probe.html"), "w", encoding="utf-8") as f:
            f.write(PROBE % frames)
        r = browser("--allow-file-access-from-files", "--virtual-time-budget=10000", "--dump-dom", "file://" + os.path.join(cls.dir, "probe.html"),
                    user_dir=os.path.join(cls.dir, "profile"))
        cls.console = [line for line in r.stderr.decode("utf-8", "replace").splitlines() if ":CONSOLE" in line]
        found = re.search(r'<pre id="out">(.*?)</pre>', r.stdout.decode("utf-8"), re.S)
        assert found, r.stderr.decode("utf-8", "replace")[-2000:]
        cls.seen = {p["page"]: p for p in json.loads(html.unescape(found.group(1)))}

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def read(self, page):
        with open(os.path.join(self.dir, page), "rb") as f:
            return f.read()

    def test_no_request_and_no_console_message(self):
        self.assertEqual(self.console, [])
        self.assertEqual(len(self.seen), len(self.pages) + 3)
        for page, seen in self.seen.items():
            self.assertEqual(seen["resources"], [], page)
            check_static(self, self.read(page), page)

    def test_every_array_path_and_its_figures(self):
        for page, name in self.pages.items():
            seen = self.seen[page]
            want = [obj_path(a["path"]) or "/" for a in facts(name)["arrays"]]
            for path in want:
                self.assertIn(path, seen["paths"], f"{name}: {path}")
            # a histogram for each array with finite real values, a bar chart; all titled
            self.assertGreaterEqual(seen["svgs"], 1 if want else 0, name)
            self.assertEqual(seen["svgs"], seen["titled"], name)
            self.assertTrue(seen["search"], f"{name}: the script showed the search box")
            self.assertIn("Verify", seen["text"])
        model = self.seen["model.zanj.html"]
        self.assertIn("state_dict/net.2.weight", model["paths"])
        self.assertIn("all zero", model["text"])  # state_dict/running
        self.assertIn("valid", model["text"])
        self.assertGreaterEqual(model["svgs"], 1 + 7 + 3)  # bars, 7 histograms, 3 heatmaps (2-D arrays)
        self.assertIn("NaN", self.seen["nan_values.zanj.html"]["text"])

    def test_hostile_keys_are_inert_text(self):
        seen = self.seen["hostile.html"]
        self.assertEqual((seen["scripts"], seen["imgs"], seen["handlers"]), (1, 0, 0))
        for key in HOSTILE_KEYS:
            self.assertIn(key, seen["text"])
        page = check_static(self, self.read("hostile.html"), "hostile")
        self.assertNotIn("<script>alert", page)
        self.assertNotIn("<img", page)

    def test_comparison_shows_the_differing_array_and_its_histogram(self):
        self.assertOk(self.comparison)
        seen = self.seen["compare.html"]
        self.assertEqual(seen["h3"], ["state_dict/net.0.weight"])
        self.assertIn("array_values", seen["text"])
        self.assertIn("largest differences", seen["text"])
        self.assertGreaterEqual(seen["svgs"], 2)  # changed subtrees, histogram of a - b
        # the page is written even when the archives differ; diff's verdict is diff's
        self.assertEqual(run("diff", "-q", corpus("model.zanj"), self.changed).code, 1)

    def test_large_trees(self):
        huge = self.read("huge.html")
        self.assertLessEqual(len(huge), 8 << 20, "50,000 nodes")
        text = check_static(self, huge, "huge")
        self.assertEqual(text.count("<li"), 1 + 1 + 12500 * 4)
        self.assertIn("The 1000 largest arrays have their figures", text)
        seen = self.seen["big.html"]
        self.assertEqual(seen["items"], 1 + 1 + 1250 * 4)
        self.assertGreater(seen["closed"], 1000, "folded below the second level")
        # the filter kept l01234, its three children and its ancestors
        self.assertEqual((seen["matching"], seen["shown"]), ("4 matching", 6))
        self.assertEqual(seen["svgs"], seen["titled"])

    # The screenshot galleries: every page's top in a grid of iframes. The first row holds the
    # pages Firefox draws too: a single archive, a comparison and the hostile keys.
    COLUMNS, WIDTH, HEIGHT = 3, 1000, 900
    COMPARED = ["model.zanj.html", "compare.html", "hostile.html"]

    def gallery(self, name, pages):
        path = os.path.join(self.dir, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><body style='margin:0;display:grid;grid-template-columns:repeat(%d,%dpx)'>%s"
                    "</body></html>" % (self.COLUMNS, self.WIDTH, "".join(
                        f"<iframe src='{p}' scrolling='no' style='width:{self.WIDTH}px;height:{self.HEIGHT}px;"
                        "border:1px solid #888'></iframe>" for p in pages)))
        return path

    def chromium_screenshot(self):
        """One picture of every page's top, in one more browser launch (once for both tests)."""
        cls = type(self)
        if getattr(cls, "chromium_shot", None) is None:
            pages = [*self.COMPARED, *[p for p in [*self.pages, "big.html"] if p not in self.COMPARED]]
            os.makedirs(SHOTS, exist_ok=True)
            shot = os.path.join(SHOTS, "reports.png")
            rows = -(-len(pages) // self.COLUMNS)
            r = browser("--hide-scrollbars", f"--window-size={self.COLUMNS * (self.WIDTH + 2)},{rows * (self.HEIGHT + 2)}",
                        f"--screenshot={shot}", "file://" + self.gallery("gallery.html", pages),
                        user_dir=os.path.join(self.dir, "profile-shot"))
            self.assertEqual(r.returncode, 0, r.stderr[-500:])
            cls.chromium_shot = shot
        return cls.chromium_shot

    def test_screenshot(self):
        with open(self.chromium_screenshot(), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    @unittest.skipUnless(FIREFOX, "firefox-esr is not installed (scripts/install-deps --test installs it)")
    def test_firefox_draws_what_chromium_draws(self):
        """The first row of Chromium's gallery, drawn by Firefox in one launch, compared pixel row
        by pixel row over the top TOP pixels of each page. Fonts, antialiasing and line breaks
        differ a little between the browsers, so no pixel has to match: the criterion is where the
        ink is. Per page, both pictures must
        - not be blank, nor mostly dark (a page drawn in dark mode by one browser only): 1% to 50%
          of the pixels are dark;
        - have about as much ink (dark pixels within 15% of each other);
        - start the heading on the same row (within 3 pixels): margins and fonts agree;
        - put the ink at the same heights: the share of all dark pixels in each band of 25 rows,
          summed |difference| over the bands (0 = same, 2 = disjoint), at most 0.25. The two
          browsers measure 0.02-0.05 here; the single archive's page against the comparison page
          measures about 0.95, which the test checks too, so the criterion tells pages apart.
        (Firefox drawing the pages in dark mode fails the first check.)"""
        TOP = 500
        chromium = self.chromium_screenshot()
        width, height = self.COLUMNS * (self.WIDTH + 2), self.HEIGHT + 2
        shot = os.path.join(SHOTS, "reports-firefox.png")
        with tempfile.TemporaryDirectory() as work:
            r = firefox_screenshot("file://" + self.gallery("gallery-firefox.html", self.COMPARED), shot, width, height, work)
        log = (r.stdout + r.stderr).decode("utf-8", "replace")
        self.assertEqual(r.returncode, 0, log[-1000:])
        # Errors in the pages' script (Firefox logs them as "JavaScript error: <file URL>, ...")
        self.assertEqual([line for line in log.splitlines() if re.match(r"JavaScript (error|warning): file:", line)], [])
        seen = {}
        for browser_name, path in (("chromium", chromium), ("firefox", shot)):
            bpp, rows = png_rows(path, TOP + 1)
            rows = rows[1:]  # below the iframes' top border
            seen[browser_name] = [dark_per_row(bpp, rows, i * (self.WIDTH + 2) + 1, self.WIDTH)
                                  for i in range(len(self.COMPARED))]
        for i, page in enumerate(self.COMPARED):
            c, f = seen["chromium"][i], seen["firefox"][i]
            for name, dark in (("chromium", c), ("firefox", f)):
                self.assertTrue(0.01 <= sum(dark) / (TOP * self.WIDTH) <= 0.5, f"{page} in {name}: {sum(dark)} dark pixels")
            self.assertLessEqual(abs(sum(f) - sum(c)), 0.15 * sum(c), f"{page}: dark pixels")
            first = [next(y for y, n in enumerate(d) if n) for d in (c, f)]
            self.assertLessEqual(abs(first[0] - first[1]), 3, f"{page}: heading's first row {first}")
            self.assertLessEqual(profile_distance(c, f), 0.25, f"{page}: where the ink is")
        # a single archive's page against the comparison page: the criterion sees the difference
        self.assertGreater(profile_distance(seen["chromium"][0], seen["firefox"][1]), 0.5)


class ReportCommand(ZanjTest):
    """What needs no browser: output, options and errors."""

    def page(self, *args):
        return Page(self.assertOk(run("report", *args, timeout=400)).text)

    def test_verdict_then_summary_and_settings_tables(self):
        page = self.page(corpus("model.zanj"))
        self.assertLess(page.h2.index("Verify"), page.h2.index("Summary"))
        summary = next(t for t in page.tables if t["section"] == "summary" and t["id"] is None)
        self.assertIn(["root", "MLP"], summary["rows"])  # no unexplained "(5)"
        settings = next(t for t in page.tables if t["id"] == "settings")
        rows = dict((r[0], r[1]) for r in settings["rows"])
        self.assertEqual(rows["array_mode"], "array_list_meta")
        self.assertEqual(rows["external_array_threshold"], "256")
        self.assertTrue(rows["serialization_handlers"].startswith("numpy.ndarray:external, torch.Tensor:external"))
        self.assertNotIn('{"', page.sections["summary"])  # no raw JSON
        # a plain dict root says how many keys it has
        summary = next(t for t in self.page(corpus("basic.zanj")).tables if t["section"] == "summary")
        self.assertTrue(any(r[0] == "root" and re.fullmatch(r"dict, \d+ keys?", r[1]) for r in summary["rows"]))

    def test_all_zero_is_a_note_not_an_alarm(self):
        page = self.page(corpus("model.zanj"))
        self.assertNotIn(["flag", "all zero"], page.spans)
        self.assertIn(["note", "all zero"], page.spans)
        self.assertIn("only zeros, as freshly initialised biases", page.sections["attention"])
        self.assertIn("No array holds NaN", page.sections["attention"])
        flags = [t for c, t in self.page(corpus("nan_values.zanj")).spans if c == "flag"]
        self.assertTrue(any("NaN" in t for t in flags), flags)  # NaN stays an alarm

    def test_inline_arrays_say_inline(self):
        for name in ("inline_b64.zanj", "inline_hex.zanj", "model.zanj"):
            with self.subTest(name=name):
                page = self.page(corpus(name))
                titles = [g["title"] for g in page.groups]
                self.assertTrue(any("inline" in t for t in titles), titles)
                self.assertFalse(any(t.endswith("/ 0 B packed") for t in titles), titles)

    def test_byte_bars_grouped_under_their_parent(self):
        with tempfile.TemporaryDirectory() as tmp:
            layers = {f"l{i:02d}": {"w": inline_array("array_list_meta", "float32", [2, 2], [[i, 1], [2, 3]]),
                                    "b": inline_array("array_list_meta", "float32", [2], [0.5, i])} for i in range(24)}
            root = {"model": {"layers": layers, "head": inline_array("array_list_meta", "float64", [3], [1, 2, 3])}}
            page = self.page(write_zanj(os.path.join(tmp, "layers.zanj"), root))
        groups = [g for g in page.groups if g["title"]]
        labels = [(g["class"], g["title"].split(":")[0]) for g in groups]
        # "model" alone is skipped: the bars start at its children, layers with its largest below it
        self.assertEqual(labels[0], (None, "model/layers"))
        self.assertEqual([c for c, _ in labels[1:7]], ["sub"] * 6)
        self.assertEqual(labels[7], ("sub", "and 18 more in model/layers"))
        self.assertEqual(labels[8], (None, "model/head"))
        self.assertEqual(len(labels), 9)

    def test_tall_heatmap_readable_with_its_caption(self):
        with tempfile.TemporaryDirectory() as tmp:
            shape = [1000, 34, 2]
            values = [float(i % 97) for i in range(1000 * 34 * 2)]
            root = {"tall": external_array("tall.npy", "float32", shape)}
            archive = write_zanj(os.path.join(tmp, "tall.zanj"), root,
                                 {"tall.npy": npy_bytes("<f4", shape, pack_values("<f", values))})
            text = self.assertOk(run("report", archive)).text
        svg = re.search(r'<svg[^>]*width="(\d+)" height="(\d+)"[^>]*><title>Heatmap thumbnail of tall', text)
        self.assertTrue(svg, text[-3000:])
        self.assertEqual((int(svg.group(1)), int(svg.group(2))), (32, 128))
        self.assertIn("34000 \u00d7 2 (rows \u00d7 last axis); a cell averages about 266 rows", text)

    def test_tree_collapsed_below_the_second_level(self):
        text = self.assertOk(run("report", corpus("model.zanj"))).text
        self.assertIn("<li><details open><summary><b>meta</b>", text)
        self.assertIn("<li><details><summary><b>class_source</b>", text)

    def test_comparison_cells_filled(self):
        with tempfile.TemporaryDirectory() as tmp:
            def scale(data):
                header = len(data) - 512 * 4
                values = struct.unpack("<512f", data[header:])
                return data[:header] + struct.pack("<512f", *(v * 2 for v in values))
            changed = changed_copy(corpus("model.zanj"), os.path.join(tmp, "changed.zanj"),
                                   "state_dict/net.0.weight.npy", scale)
            page = self.page(corpus("model.zanj"), changed)
        table = next(t for t in page.tables if t["section"] == "differences")
        row = next(r for r in table["rows"] if r[0] == "state_dict/net.0.weight")
        self.assertEqual(row[1], "array_values")
        a, b = row[2], row[3]
        self.assertTrue(a.startswith("torch.float32 [32, 16]: mean ") or a.startswith("float32 [32, 16]: mean "), a)
        mean = lambda cell: float(re.search(r"mean (\S+),", cell).group(1))
        self.assertAlmostEqual(mean(b), 2 * mean(a), places=4)

    def test_page_bounded_on_many_members(self):
        """A container lists 20,000 children and counts the rest; the page stays small."""
        with tempfile.TemporaryDirectory() as tmp:
            root = {f"k{i:05d}": i for i in range(25000)}
            root["zeros"] = {f"b{i:03d}": inline_array("array_list_meta", "float32", [2], [0, 0]) for i in range(150)}
            archive = write_zanj(os.path.join(tmp, "many.zanj"), root)
            out = os.path.join(tmp, "many.html")
            self.assertOk(run("report", archive, "-o", out, timeout=400))
            size = os.path.getsize(out)
            with open(out, encoding="utf-8") as f:
                text = f.read()
        self.assertLess(size, 4 << 20)
        self.assertIn("and 5001 more, not listed to keep the page small", text)
        self.assertNotIn("<b>k24999</b>", text)
        # the 150 arrays of zeros are not listed in the tree, but counted, and 100 named
        page = Page(text)
        self.assertIn("150 arrays hold only zeros", page.sections["attention"])
        self.assertIn("and 50 more", page.sections["attention"])

    @unittest.skipUnless(os.access("/usr/bin/time", os.X_OK), "needs GNU time for peak RSS")
    @unittest.skipIf(os.environ.get("ZANJ_SANITIZE", "").upper() in ("1", "ON", "TRUE", "YES"),
                     "the sanitizers' own memory is no measure")
    def test_peak_memory_on_many_members(self):
        """Issue 30: report's peak stays close to verify's (the bench's goal: 64 MiB on 50,000
        members). verify runs from the archive report opened, so the JSON members are parsed
        once: on this 10,000-member archive (the benchmark's layout scaled down) report held
        both documents twice and peaked at 1.8x verify's, then about 1.55x; now 1.47x to 1.52x
        (arrays without figures keep a 112-byte statistics record, not a whole profile, and
        verify's freed pages go back to the OS before the tree is written). Both on 2 threads,
        so that the machine's CPUs (each thread's malloc arena) do not change the ratio."""
        def peak_kib(*args):
            with tempfile.NamedTemporaryFile("r") as rss:
                p = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", rss.name, ZANJ, *args],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                self.assertEqual(p.returncode, 0, p.stderr)
                return int(rss.read().split()[-1])

        count, header = 10_000, npy_bytes("<f4", [1, 16], b"")
        with tempfile.TemporaryDirectory() as tmp:
            root, externals, members = {}, {}, {}
            for i in range(count):
                key = f"w{i:06d}"
                root[key] = external_array(key + ".npy", "float32", [1, 16])
                externals[key + ".npy"] = {"item_type": "npy", "path": [key], "type(data)": "<class 'numpy.ndarray'>",
                                           "len(data)": 1}
                members[key + ".npy"] = header + struct.pack("<16f", *(float((i * 16 + j) % 97) for j in range(16)))
            archive = os.path.join(tmp, "many.zanj")
            with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("__zanj_meta__.json", json.dumps({"externals_info": externals}, indent="\t"))
                z.writestr("__zanj__.json", json.dumps(root, indent="\t"))
                for name, data in members.items():
                    z.writestr(name, data)
            verify = peak_kib("verify", "-j", "2", archive)
            report = peak_kib("report", "-j", "2", archive, "-o", os.path.join(tmp, "many.html"))
            self.assertLess(os.path.getsize(os.path.join(tmp, "many.html")), 8 << 20)
        self.assertLess(report, 1.6 * verify, f"report {report} KiB, verify {verify} KiB")

    def test_terminal_gets_a_file_not_the_page(self):
        with tempfile.TemporaryDirectory() as tmp:
            r = run_on_terminal("report", corpus("basic.zanj"), streams=("stdout",), cwd=tmp)
            self.assertEqual(r.code, 0, r.err)
            self.assertEqual(r.out, b"")
            self.assertIn("wrote basic.html", r.err)
            self.assertEqual(os.listdir(tmp), ["basic.html"])
            r = run_on_terminal("report", corpus("basic.zanj"), streams=("stdout",), cwd=tmp)
            self.assertEqual(r.code, 2)
            self.assertIn("basic.html exists", r.err)
            self.assertNotIn(b"<html", r.out)

    def test_stdout_and_output_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r.html")
            self.assertOk(run("report", corpus("basic.zanj"), "-o", out))
            with open(out, "rb") as f:
                written = f.read()
            self.assertEqual(os.listdir(tmp), ["r.html"])
            printed = self.assertOk(run("report", corpus("basic.zanj"))).out
            self.assertEqual(printed, written)
            with open(corpus("basic.zanj"), "rb") as f:
                piped = self.assertOk(run("report", "-", stdin=f.read())).text
            # verified from the bytes read once, as a file is
            self.assertIn('<p class="ok">valid</p>', piped)
            self.assertNotIn("Not verified", piped)

    def test_jobs_give_the_same_page(self):
        for args in ([corpus("basic.zanj")], [corpus("model.zanj")], [corpus("basic.zanj"), corpus("dtypes.zanj")],
                     [corpus("malformed", "bad_crc.zanj")]):
            with self.subTest(args=args):
                one = self.assertOk(run("report", "-j", "1", *args)).out
                self.assertIn(b"<html", one)
                for jobs in ("3", "8"):
                    self.assertEqual(self.assertOk(run("report", "-j", jobs, *args)).out, one)

    def test_errors(self):
        self.assertFails(run("report", "/nonexistent.zanj"), 2)
        self.assertFails(run("report", corpus("basic.zanj"), "--rtol", "0.1"), 2, "two archives")
        self.assertFails(run("report", corpus("basic.zanj"), "-o", "/nonexistent-dir/r.html"), 2)
        # a damaged archive still gets its page: verify's verdict, the unreadable array flagged
        page = self.assertOk(run("report", corpus("malformed", "bad_crc.zanj"))).text
        self.assertIn("INVALID", page)
        self.assertIn("unreadable", page)
        self.assertFails(run("report", corpus("malformed", "truncated.zanj")), 1)
        self.assertIn("Exit status", self.assertOk(run("report", "--help")).text)


if __name__ == "__main__":
    main()
