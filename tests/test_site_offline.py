"""The built site works offline in a real browser (headless Debian Chromium via Playwright).

For every page in the table of contents: serve _build/html on 127.0.0.1, load the page,
record every request, and assert that no request leaves 127.0.0.1, none fails or returns
an HTTP error, and the console shows no error. Pages with saved widget state must render
the widgets, and every demo (``interlib.widgets.show``) its controls and its default plot
image; pages with maths must be typeset by MathJax. Every image on every page has loaded
and has meaningful alt text (not empty, not a file name, not a generic word). Every link
inside the site resolves to a built page, and a link's #fragment to an id on that page.
The site search returns results that link to built pages. A screenshot of each widget
page (the viewport at its first widget) is written to _build/screenshots/.

Needs /usr/bin/chromium (Debian package `chromium`; never `playwright install`). Without it
the tests are skipped with a message saying so.
"""

from __future__ import annotations

import functools
import http.server
import re
import shutil
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from conftest import HTML, REPO, toc_docnames

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
SCREENSHOTS = REPO / "_build" / "screenshots"

from browser_support import require_chromium  # noqa: E402

require_chromium()

from playwright.sync_api import sync_playwright  # noqa: E402


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@pytest.fixture(scope="module")
def server(book_build):
    assert book_build.returncode == 0, "book build failed:\n" + book_build.output[-4000:]
    handler = functools.partial(_QuietHandler, directory=str(HTML))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
            viewport={"width": 1280, "height": 1600},
        )
        try:
            yield context
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


class _Recorder:
    """Every request a page makes, which are still pending, and what went wrong."""

    def __init__(self, page):
        self.requests: list[str] = []
        self.pending: dict[object, str] = {}
        self.failures: list[str] = []
        self.console_errors: list[str] = []
        self.last_activity = time.monotonic()
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.on("console", lambda m: self.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.console_errors.append(f"uncaught: {e}"))

    def _on_request(self, request):
        self.requests.append(request.url)
        self.pending[request] = request.url
        self.last_activity = time.monotonic()

    def _on_done(self, request):
        self.pending.pop(request, None)
        self.last_activity = time.monotonic()

    def _on_failed(self, request):
        self.failures.append(f"{request.url} ({request.failure})")
        self._on_done(request)

    def _on_response(self, response):
        if response.status >= 400:
            self.failures.append(f"{response.url} (HTTP {response.status})")

    def settle(self, page, quiet_s: float = 0.75, timeout_s: float = 20.0) -> list[str]:
        """Wait until nothing is pending and nothing new happened for quiet_s; return the
        URLs still pending if timeout_s passes first."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            page.wait_for_timeout(100)  # lets Playwright dispatch events
            if not self.pending and time.monotonic() - self.last_activity >= quiet_s:
                return []
        return sorted(self.pending.values())


@pytest.mark.parametrize("docname", toc_docnames())
def test_page_renders_offline(server, browser, docname):
    html_file = HTML / f"{docname}.html"
    source = html_file.read_text(encoding="utf-8")
    has_widgets = "application/vnd.jupyter.widget-state+json" in source
    has_math = 'class="math' in source

    page = browser.new_page()
    rec = _Recorder(page)
    try:
        page.goto(f"{server}/{docname}.html", wait_until="load")
        if has_widgets:
            page.wait_for_selector(".jupyter-widgets", timeout=20000)
        if has_math:
            page.wait_for_selector("mjx-container", timeout=20000)
        still_pending = rec.settle(page)  # late fonts, modules, images

        external = [u for u in rec.requests
                    if urlparse(u).scheme not in ("data", "blob", "about")
                    and urlparse(u).hostname != "127.0.0.1"]
        assert not external, f"{docname}: requests leaving 127.0.0.1:\n" + "\n".join(external)
        assert not rec.failures, f"{docname}: failed requests:\n" + "\n".join(rec.failures)
        assert not rec.console_errors, (
            f"{docname}: console errors:\n" + "\n".join(rec.console_errors))
        assert not still_pending, f"{docname}: requests never finished:\n" + "\n".join(still_pending)

        if has_widgets:
            n_views = source.count('type="application/vnd.jupyter.widget-view+json"')
            rendered = page.locator(".jupyter-widgets").count()
            assert rendered >= n_views, f"{docname}: {rendered} widgets for {n_views} views"
            assert page.locator(".widget-slider, .jupyter-widgets .widget-inline-hbox").count() > 0
            # A viewport screenshot at the first widget (full-page captures of long pages
            # come out shifted in headless Chromium, and the widget is what matters here).
            page.locator(".jupyter-widgets").first.scroll_into_view_if_needed()
            page.wait_for_timeout(200)
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{docname.replace('/', '__')}.png"))
        if has_math:
            assert page.locator("mjx-container").count() > 0, f"{docname}: MathJax did not typeset"
            raw = page.locator("div.math, span.math").filter(has_text="\\(").count()
            assert raw == 0, f"{docname}: {raw} maths elements left as raw LaTeX"
        if docname.startswith("chapters/"):
            _check_demos(page, docname, source)
        _check_images(page, docname)
        _check_links(page, docname, server)
    finally:
        page.close()


def _check_demos(page, docname, source):
    """Every demo in a chapter renders its controls and its default plot from saved state."""
    expected = source.count('type="application/vnd.jupyter.widget-view+json"')
    demos = page.locator(".interlib-demo")
    assert demos.count() >= 1 or expected == 0, (
        f"{docname}: {expected} widget views but no interlib demo rendered")
    for i in range(demos.count()):
        info = demos.nth(i).evaluate("""d => {
            const img = d.querySelector('.interlib-plot img');
            return {controls: d.querySelectorAll('.widget-slider, .widget-dropdown select').length,
                    loaded: !!img && img.complete && img.naturalWidth > 0,
                    numbers: !!d.querySelector('.interlib-numbers')}; }""")
        assert info["controls"] > 0, f"{docname}: demo {i} has no slider or dropdown"
        assert info["loaded"], f"{docname}: demo {i} has no default plot image"


# Alt text that says nothing: empty, a file name, or a generic word.
_VACUOUS_ALT = re.compile(
    r"^(|image|img|figure|fig|plot|graph|chart|picture|png|logo|untitled|output)\s*\d*$"
    r"|\.(png|jpe?g|svg|gif|webp)$", re.I)


def _check_images(page, docname):
    images = page.eval_on_selector_all("img", """els => els.map(e => ({
        src: (e.getAttribute('src') || '').slice(0, 80), alt: e.getAttribute('alt'),
        loaded: e.complete && e.naturalWidth > 0}))""")
    bad = [f"{im['src']} (alt={im['alt']!r})" for im in images
           if im["alt"] is None or _VACUOUS_ALT.search(im["alt"].strip())]
    assert not bad, f"{docname}: images without meaningful alt text:\n" + "\n".join(bad)
    broken = [im["src"] for im in images if not im["loaded"]]
    assert not broken, f"{docname}: images that did not load:\n" + "\n".join(broken)


@functools.lru_cache(maxsize=None)
def _ids(path: Path) -> frozenset:
    text = path.read_text(encoding="utf-8", errors="replace")
    return frozenset(re.findall(r"""\sid=["']([^"']+)["']""", text))


def _check_links(page, docname, server):
    """Links within the site (as the browser resolves them) point to built files, and a
    #fragment to an element id on the target page."""
    hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.href)")
    bad = []
    for href in sorted(set(hrefs)):
        url = urlparse(href)
        if url.scheme not in ("http", "https") or f"{url.scheme}://{url.netloc}" != server:
            continue
        target = HTML / unquote(url.path).lstrip("/")
        if target.is_dir():
            target = target / "index.html"
        if not target.is_file():
            bad.append(f"{href}: no such file")
        elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in _ids(target):
            bad.append(f"{href}: no id {url.fragment!r} on that page")
    assert not bad, f"{docname}: broken internal links:\n" + "\n".join(bad)


@pytest.mark.parametrize("query", ["all-reduce", "NVLink"])
def test_search_returns_results(server, browser, query):
    """Sphinx's client-side search (searchindex.js, local) finds pages for a book term."""
    page = browser.new_page()
    rec = _Recorder(page)
    try:
        page.goto(f"{server}/search.html?q={query}", wait_until="load")
        page.wait_for_selector("#search-results ul.search li", timeout=20000)
        links = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(e => e.href)")
        assert links, f"search for {query!r} returned nothing"
        for href in links:
            path = HTML / unquote(urlparse(href).path).lstrip("/")
            assert path.is_file(), f"search result {href} is not a built page"
        assert not rec.console_errors, "search page console errors:\n" + "\n".join(rec.console_errors)
        external = [u for u in rec.requests if urlparse(u).scheme not in ("data", "blob", "about")
                    and urlparse(u).hostname != "127.0.0.1"]
        assert not external, "search page requests leaving 127.0.0.1:\n" + "\n".join(external)
    finally:
        page.close()
