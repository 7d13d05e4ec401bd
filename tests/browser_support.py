"""Headless Debian Chromium and a throwaway JupyterLab server, for the browser tests and
``tools/bench.py``.

* :func:`chromium_context`: Playwright driving ``/usr/bin/chromium`` (never a downloaded
  browser) with a fresh profile.
* :func:`static_server`: a directory (the built site) served on 127.0.0.1, a free port.
* :class:`Recorder`: every request a page makes, which are still pending, what failed, and
  the console errors and uncaught exceptions.
* :data:`SITE_MOVE_JS`: move one control of a demo on the static site, as a reader does,
  timing the move to the demo's next live render (tests/test_site_live.py, tools/bench.py).
* :func:`jupyterlab_server`: JupyterLab on 127.0.0.1, a free port and a random token, as
  root with ``--allow-root``, serving a temporary *copy* of the repository's notebooks (so
  nothing a test does can modify them), with announcements, update checks and the PyPI
  extension manager switched off (no request leaves the machine). The server and its
  kernels are always stopped: kernels shut down over the REST API, then SIGTERM to the
  server's process group, then SIGKILL to anything left (server, kernels, their children).
* :class:`LabNotebook`: open a notebook, run all cells, find a demo, move its first
  control and wait for the new plot.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import io
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
    # No host but 127.0.0.1 resolves, for every request of the browser: Playwright's routes
    # (which record and refuse what a page asks for elsewhere) do not see a shared
    # worker's requests, so this is what keeps those local too.
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
SKIP_REASON = (
    "SKIPPED: /usr/bin/chromium not found, so the real-browser checks (static site and "
    "JupyterLab) did not run. Install it with `apt-get install -y chromium` (never "
    "`playwright install`).")


def require_chromium():
    """Skip the calling test module, saying why, when /usr/bin/chromium is absent; fail
    instead when INTERCONNECTS_REQUIRE_BROWSER=1 (set by .ci/run: in CI they must run)."""
    import pytest

    if CHROMIUM.exists():
        return
    if os.environ.get("INTERCONNECTS_REQUIRE_BROWSER") == "1":
        pytest.fail("INTERCONNECTS_REQUIRE_BROWSER=1 but " + SKIP_REASON[len("SKIPPED: "):],
                    pytrace=False)
    pytest.skip(SKIP_REASON, allow_module_level=True)


def external_requests(urls) -> list[str]:
    """The URLs that leave 127.0.0.1 (data:, blob: and about: are local)."""
    return [u for u in urls if urlparse(u).scheme not in ("data", "blob", "about")
            and urlparse(u).hostname != "127.0.0.1"]


#: A browser that asks to save data (``navigator.connection.saveData``): the site's live
#: demos then do not start Python by themselves when a demo nears the screen (the quiet
#: start, book/_vendor/static/interlib-live.js ``prestart``). The script reads saveData for
#: nothing else, so the page is otherwise the same (tests/test_site_offline.py loads every
#: page so and checks that nothing of the Python runtime is fetched).
SAVE_DATA_JS = "Object.defineProperty(navigator, 'connection', {value: {saveData: true}});"


@contextlib.contextmanager
def chromium_context(viewport=(1280, 1600), *, save_data: bool = False):
    """A fresh Chromium profile (one browser) for a module. ``save_data=True`` for checks of
    the static page (layout, accessibility, links, print): every page of the context asks
    to save data (:data:`SAVE_DATA_JS`), so loading a page with a demo does not also boot
    Python in a shared worker behind the check, which is CPU those checks do not look at
    (Pyodide and a first figure, per browser and per page with a demo in view). What the
    quiet start does is tested where it is the subject: tests/test_site_live_start.py,
    tests/test_site_live.py."""
    from playwright.sync_api import sync_playwright

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True,
                viewport={"width": viewport[0], "height": viewport[1]})
            if save_data:
                context.add_init_script(SAVE_DATA_JS)
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass

    def send_head(self):
        """Every request is logged (the server sees what a page's workers fetch, which
        Playwright does not report for a shared worker); a path ending in one of the
        server's ``blocked`` names is answered 404."""
        url = self.server.url
        path = self.path.split("?", 1)[0]
        url.served.append(path)
        if any(path.endswith("/" + name) for name in url.blocked):
            self.send_error(404, "blocked by the test")
            return None
        for name, body in url.replaced.items():
            if path.endswith("/" + name):
                self.send_response(200)
                self.send_header("Content-Type", "application/octet-stream")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Cache-Control", "no-store")
                self.end_headers()
                return io.BytesIO(body)
        return super().send_head()


class ServedURL(str):
    """The base URL of a :func:`static_server`, with what it served: ``served`` (every
    request's path, in order), ``blocked`` (file names to answer 404) and ``replaced``
    (file name -> the bytes to serve instead), both changeable while the server runs."""

    served: list
    blocked: set
    replaced: dict

    def since(self, mark: int, name: str) -> int:
        """How many requests for a path ending in ``/name`` the server had after the first
        ``mark`` (``mark = len(url.served)`` taken before)."""
        return sum(p.endswith("/" + name) for p in self.served[mark:])


@contextlib.contextmanager
def static_server(directory):
    """``directory`` served over HTTP on 127.0.0.1 (a free port); yields the base URL (a
    :class:`ServedURL`: a str that also logs what was served and can refuse files)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    url = ServedURL(f"http://127.0.0.1:{httpd.server_address[1]}")
    url.served, url.blocked, url.replaced = [], set(), {}
    httpd.url = url
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield url
    finally:
        httpd.shutdown()
        httpd.server_close()


class Recorder:
    """Every request a page makes (its dedicated workers' too: Chromium reports them on the
    page), which are still pending, what went wrong, and the console errors."""

    def __init__(self, page):
        self.requests: list[str] = []
        self.pending: dict[object, str] = {}
        self.failures: list[str] = []
        self.console_errors: list[str] = []
        self.page_errors: list[str] = []
        self.bytes = 0
        self.last_activity = time.monotonic()
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_finished)
        page.on("requestfailed", self._on_failed)
        page.on("response", self._on_response)
        page.on("console", lambda m: self.console_errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", self._on_page_error)

    def _on_page_error(self, error):
        self.page_errors.append(f"uncaught: {error}")
        self.console_errors.append(f"uncaught: {error}")

    def _on_request(self, request):
        self.requests.append(request.url)
        self.pending[request] = request.url
        self.last_activity = time.monotonic()

    def _on_done(self, request):
        self.pending.pop(request, None)
        self.last_activity = time.monotonic()

    def _on_finished(self, request):
        with contextlib.suppress(Exception):
            self.bytes += request.sizes()["responseBodySize"]
        self._on_done(request)

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


# Moves one control of a static-site demo (interlib/widgets/page.py markup) and returns the
# value it set: a slider goes to the value a third of its range away from where it is
# (towards the far end; snapped to its step), a dropdown to its next option. Fires 'input'
# and 'change' as a reader's move does. Arms an observer first, so window.__liveMoveMs is the
# time from the move to the demo's next live render (data-live-renders changes) or error.
SITE_MOVE_JS = """([demo, name]) => {
  const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
  const el = d.querySelector(`form.interlib-controls [name="${name}"]`);
  window.__liveMoveMs = null;
  const obs = new MutationObserver(() => {
    if (window.__liveMoveMs === null) { window.__liveMoveMs = performance.now() - t0; obs.disconnect(); }
  });
  obs.observe(d, {attributes: true, attributeFilter: ['data-live-renders', 'data-live-errors']});
  const t0 = performance.now();
  if (el.tagName === 'SELECT') {
    el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
  } else if (el.tagName === 'TEXTAREA') {  // a pasted log: drop its last results row
    const lines = el.value.split('\\n');
    let i = lines.length - 1;
    while (i >= 0 && !/^\\s*\\d+\\s+\\d+\\s/.test(lines[i])) i--;
    if (i >= 0) lines.splice(i, 1);
    el.value = lines.join('\\n');
  } else {
    const lo = Number(el.min), hi = Number(el.max), step = Number(el.step), x = Number(el.value);
    const up = hi - x >= x - lo;
    el.value = String(lo + Math.round(((up ? x + (hi - lo) / 3 : x - (hi - lo) / 3) - lo) / step) * step);
    if (Number(el.value) === x) el.value = String(x + (up ? step : -step));
  }
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
  return el.value;
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# JupyterLab user settings for the test server: no news or update checks (network), all
# cells attached to the DOM (the default 'full' windowing detaches cells out of view).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


def copy_notebooks(dest: Path, notebooks) -> None:
    """Copy the given notebooks (paths inside REPO) and the folders beside them that hold
    no notebooks' outputs (data files a chapter may read) into dest, same layout."""
    for nb in notebooks:
        rel = Path(nb).resolve().relative_to(REPO)
        (dest / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, dest / rel)
    for extra in ("chapters/data",):
        if (REPO / extra).is_dir() and not (dest / extra).exists():
            shutil.copytree(REPO / extra, dest / extra)


class LabServer:
    def __init__(self, proc, url, token, root):
        self.proc, self.url, self.token, self.root = proc, url, token, root

    def api(self, path, method="GET"):
        req = urllib.request.Request(f"{self.url}{path}", method=method,
                                     headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            body = r.read()
        return json.loads(body) if body else None

    def lab_url(self, rel: str) -> str:
        return f"{self.url}/lab/tree/{rel}?token={self.token}&reset"


@contextlib.contextmanager
def jupyterlab_server(notebooks, startup_timeout=300.0):
    """A JupyterLab server over a temporary copy of ``notebooks``; always stopped."""
    import psutil

    tmp = Path(tempfile.mkdtemp(prefix="interconnects-lab-"))
    root = tmp / "root"
    root.mkdir()
    copy_notebooks(root, notebooks)
    settings = tmp / "settings"
    for name, value in LAB_SETTINGS.items():
        (settings / name).parent.mkdir(parents=True, exist_ok=True)
        (settings / name).write_text(json.dumps(value))
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env.update(JUPYTERLAB_SETTINGS_DIR=str(settings), JUPYTERLAB_WORKSPACES_DIR=str(tmp / "ws"),
               JUPYTER_RUNTIME_DIR=str(tmp / "runtime"), JUPYTER_CONFIG_DIR=str(tmp / "config"),
               IPYTHONDIR=str(tmp / "ipython"), JUPYTER_PLATFORM_DIRS="1")
    port, token = _free_port(), secrets.token_hex(16)
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
           f"--ServerApp.token={token}", f"--ServerApp.root_dir={root}",
           "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
           "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.expose_app_in_browser=True", "--ServerApp.open_browser=False"]
    if os.geteuid() == 0:
        cmd.append("--allow-root")
    log = open(tmp / "server.log", "wb")
    proc = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    server = LabServer(proc, f"http://127.0.0.1:{port}", token, root)
    try:
        deadline = time.monotonic() + startup_timeout
        while True:
            if proc.poll() is not None:
                raise RuntimeError("JupyterLab exited:\n" + (tmp / "server.log").read_text()[-3000:])
            try:
                server.api("/api/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("JupyterLab did not start:\n"
                                       + (tmp / "server.log").read_text()[-3000:])
                time.sleep(0.25)
        yield server
    finally:
        family = []
        with contextlib.suppress(psutil.Error):
            family = psutil.Process(proc.pid).children(recursive=True)
        with contextlib.suppress(Exception):
            for k in server.api("/api/kernels"):
                server.api(f"/api/kernels/{k['id']}", method="DELETE")
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        for child in family:  # kernels run in their own sessions: not in the group above
            with contextlib.suppress(psutil.Error):
                child.kill()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


# In-page helpers. A demo made by interlib.widgets.show() is a `.interlib-demo` box holding
# its controls, a `.interlib-plot` (an <img>) and `.interlib-numbers` (a <pre>).
_JS_STATE = """(demo) => {
  const img = demo.querySelector('.interlib-plot img, .jp-OutputArea-output img');
  const pre = demo.querySelector('.interlib-numbers pre');
  const outText = demo.querySelector('.jp-OutputArea-output pre');
  return {src: img ? img.getAttribute('src') : null,
          alt: img ? img.getAttribute('alt') : null,
          width: img ? img.naturalWidth : 0,
          text: pre ? pre.textContent : (outText ? outText.textContent : null)};
}"""

# Arms a MutationObserver that stamps the first new plot image in the demo, then moves the
# demo's first control in the same task, so the clock starts at the change itself: a
# slider gets a keydown on its noUiSlider handle (one step; back if at the end, or when
# asked), a dropdown the next option (the previous one when asked) and a 'change' event.
_JS_MOVE = """(demo, [back, kind, index]) => {
  const current = () => { const i = demo.querySelector('.interlib-plot img, .jp-OutputArea-output img');
                          return i ? i.getAttribute('src') : null; };
  const before = current();
  window.__plotChanged = null;
  const obs = new MutationObserver(() => {
    const now = current();
    if (now && now !== before && window.__plotChanged === null) {
      window.__plotChanged = performance.now() - window.__t0; obs.disconnect();
    }
  });
  obs.observe(demo, {subtree: true, childList: true, attributes: true, attributeFilter: ['src']});
  const handle = kind === 'select' ? null : demo.querySelectorAll('.noUi-handle')[index];
  window.__t0 = performance.now();
  if (handle) {
    const atMax = handle.getAttribute('aria-valuenow') === handle.getAttribute('aria-valuemax');
    const atMin = handle.getAttribute('aria-valuenow') === handle.getAttribute('aria-valuemin');
    const key = (back && !atMin) || atMax ? 'ArrowLeft' : 'ArrowRight';
    handle.dispatchEvent(new KeyboardEvent('keydown', {key, bubbles: true, cancelable: true}));
    return 'slider ' + key;
  }
  const sel = demo.querySelectorAll('select')[kind === 'select' ? index : 0];
  const n = sel.options.length;
  sel.selectedIndex = (sel.selectedIndex + (back ? n - 1 : 1)) % n;
  sel.dispatchEvent(new Event('change', {bubbles: true}));
  return 'dropdown ' + sel.value;
}"""


HANG_MS = 300_000
"""How long the JupyterLab helpers wait for the app, a kernel or a notebook before calling it
a hang: a bound, not a pause (each wait returns as soon as its event comes). Generous: on a
2-core machine shared by several busy processes, a kernel start took over 90 s."""


class LabNotebook:
    """One notebook open in JupyterLab: in a new page (loads JupyterLab), or, given the
    ``page`` of an earlier LabNotebook that was closed with :meth:`close_notebook`, in
    that same JupyterLab (``docmanager:open``; saves reloading the app for each one)."""

    _JS_READY = """(rel) => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        if (!w || !w.context || w.context.path !== rel || !w.sessionContext) return false;
        const k = w.sessionContext.session && w.sessionContext.session.kernel;
        return !!k && k.connectionStatus === 'connected' && k.status === 'idle'
               && w.content.widgets.length > 0; }"""

    def __init__(self, context, server: LabServer, rel: str, page=None):
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.rel = rel
        self._on_request = lambda r: self.requests.append(r.url)
        self._on_error = lambda e: self.errors.append(f"uncaught: {e}")
        if page is None:
            self.page = context.new_page()
            self.page.on("request", self._on_request)
            self.page.on("pageerror", self._on_error)
            self.page.goto(server.lab_url(rel), wait_until="load")
            self.page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=HANG_MS)
            self.page.wait_for_function("() => window.jupyterapp !== undefined",
                                        timeout=HANG_MS)
        else:
            self.page = page
            self.page.on("request", self._on_request)
            self.page.on("pageerror", self._on_error)
            self.page.evaluate("(rel) => { window.jupyterapp.commands.execute("
                               "'docmanager:open', {path: rel}); }", rel)
        # The toolbar can say idle before the kernel is connected: wait for the kernel of
        # this notebook to be connected and idle.
        self.page.wait_for_function(self._JS_READY, arg=rel, timeout=HANG_MS, polling=200)

    _JS_CLOSE = """async (rel) => { const w = window.jupyterapp.shell.currentWidget;
        if (!(w && w.context && w.context.path === rel)) return [];
        const k = w.sessionContext.session && w.sessionContext.session.kernel;
        // control-channel requests (the debugger's debug_request) awaiting their reply; a
        // kernel connection forgets such a future once it is done (execute futures stay
        // with their output area, so they are not counted)
        const pending = () => (k && k._futures) ? [...k._futures.values()]
            .filter(f => f.msg.channel === "control")
            .map(f => f.msg.header.msg_type + " " + (f.msg.content.command || "")) : [];
        for (let t0 = Date.now(); pending().length > 0 && Date.now() - t0 < 15000; )
            await new Promise(r => setTimeout(r, 50));
        const left = pending();
        w.dispose();
        return left; }"""

    def close_notebook(self):
        """Close this notebook's tab without saving (the page stays, for the next one);
        its kernel is left for the caller to shut down.

        It first waits (up to 15 s) until the kernel has answered every control-channel
        request the page sent it: disposing a kernel connection cancels the requests still
        awaiting replies, and JupyterLab's debugger does not catch that for its
        ``debugInfo`` request (an uncaught "Canceled future for debug_request message
        before replies were done", jupyterlab/jupyterlab#12392), which the next notebook's
        page then reports. A request still unanswered after 15 s is an error of its own."""
        left = self.page.evaluate(self._JS_CLOSE, self.rel)
        self.page.remove_listener("request", self._on_request)
        self.page.remove_listener("pageerror", self._on_error)
        if left:
            raise AssertionError(f"{self.rel}: the kernel left control requests unanswered "
                                 f"for 15 s before the notebook was closed: {left}")

    _JS_COUNTS = """() => { const nb = window.jupyterapp.shell.currentWidget.content;
        return nb.widgets.filter(c => c.model.type === 'code')
                         .map(c => c.model.executionCount); }"""

    def run_all(self, timeout_s=600.0):
        """Clear the stored outputs (and execution counts), run all cells, and wait until
        every code cell has run and the kernel is idle again."""
        self.page.evaluate("""async () => {
            const c = window.jupyterapp.commands;
            await c.execute('notebook:clear-all-cell-outputs');
            await c.execute('notebook:run-all-cells'); }""")
        self.page.wait_for_function(
            f"() => ({self._JS_COUNTS})().every(n => n !== null && n > 0)",
            timeout=timeout_s * 1000, polling=250)
        self.page.wait_for_function(self._JS_READY, arg=self.rel, timeout=timeout_s * 1000,
                                    polling=200)

    def execution_counts(self) -> list:
        return self.page.evaluate(self._JS_COUNTS)

    def error_outputs(self) -> list[str]:
        return self.page.eval_on_selector_all(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']",
            "els => els.map(e => e.textContent.slice(0, 500))")

    def demos(self):
        return self.page.locator(".interlib-demo")

    def state(self, demo) -> dict:
        return demo.evaluate(_JS_STATE)

    def move_first_control(self, demo, back=False, kind=None, index=0) -> float | None:
        """Move the demo's first slider one step (``back``: towards its minimum), or
        (``kind="select"``, or no slider) pick the next option of its first dropdown (the
        previous one with ``back``);
        ``index`` picks a later slider (or dropdown) instead of the first. Returns the ms
        from the change to a new plot image in the page, or None if none came within 60 s
        (a bound on a hang, not a speed check: speed is measured in make bench)."""
        demo.scroll_into_view_if_needed()
        demo.evaluate(_JS_MOVE, [back, kind, index])
        try:
            self.page.wait_for_function("() => window.__plotChanged !== null", timeout=60000,
                                        polling="raf")
        except Exception:  # noqa: BLE001 - reported as None
            return None
        return self.page.evaluate("() => window.__plotChanged")

    def close(self):
        self.page.close()



def expected_numbers_after(text_before: str, alt_after: str) -> str | None:
    """What CPython's ``interlib`` prints for the demo whose numbers at its defaults are
    ``text_before`` (exactly one demo must print them), at the control values the kernel
    used for the figure now shown: read from the figure's alt text, whose "(settings: label:
    value; ...)" lists every control as the reader sees it (a slider's readout, a dropdown's
    label; :func:`interlib.widgets.figure_alt`): each value is the control's position (or
    option) that reads so. None if no single demo prints ``text_before``."""
    from interlib import widgets
    from interlib.widgets import Dropdown, FloatSlider, IntSlider
    from interlib.widgets.core import setting_text

    text_before = text_before.strip()
    names = [n for n, d in widgets.DEMOS.items() if d.summary is not None
             and widgets.summary(n).strip() == text_before]
    if len(names) != 1:
        return None
    demo = widgets.get(names[0])
    settings = alt_after.rsplit("(settings: ", 1)[1]
    settings = settings[:-1] if settings.endswith(")") else settings  # the one closing it
    params = {}
    by_label = {c.label: k for k, c in demo.controls.items()}
    # values may contain "; " or ": " (a label): split on "; label: " for known labels,
    # longest first so that no label is read as the tail of another
    pattern = "|".join(re.escape(lab) for lab in sorted(by_label, key=len, reverse=True))
    parts = re.split(rf"(?:^|; )({pattern}): ", settings)[1:]
    for label, val in zip(parts[::2], parts[1::2]):
        key = by_label[label]
        c = demo.controls[key]
        if isinstance(c, Dropdown):
            (params[key],) = [o for o in c.options if setting_text(c, o) == val]
        elif isinstance(c, (IntSlider, FloatSlider)):
            near = [x for x in c.positions() if setting_text(c, x) == val]
            if near:
                params[key] = near[len(near) // 2]
            else:  # a value valid at the others' values (Demo.resolve), off the full grid
                params[key] = type(c.default)(float(val.replace(",", "")))
        else:  # a text control (a pasted log): the alt text summarises it; no move edits it
            params[key] = c.default
    keys = list(demo.controls)
    assert set(params) == set(keys), (settings, keys)
    return widgets.summary(names[0], **params).strip()


_NUMBER = re.compile(r"[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


def numbers_agree(got: str, want: str, rel: float = 0.005) -> bool:
    """The same text with the same numbers, each within ``rel`` (the alt text gives float
    settings to 4 significant figures; the numbers move by about as much)."""
    got, want = got.strip(), want.strip()
    if _NUMBER.sub("#", got) != _NUMBER.sub("#", want):
        return False
    for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        x, y = float(a.replace(",", "")), float(b.replace(",", ""))
        if abs(x - y) > rel * max(abs(x), abs(y)) + 1e-12:
            return False
    return True
