"""`make bench`: how fast the book is where a reader or an author waits.

Not a test: it prints a table of medians over repeated runs, writes ``_build/bench.json``
and (with ``--readme``) the table into CONTRIBUTING.md's "## Benchmarks" section. Comparisons
are measured side by side in the same run:

1. Slider move -> updated plot in JupyterLab (headless Debian Chromium, a throwaway
   JupyterLab server: tests/browser_support.py). A generated notebook shows every demo in
   ``interlib.widgets.DEMOS`` twice: with ``widgets.show`` (the book's pattern) and with the
   naive pattern (``interactive_output`` whose callback builds and displays a new Figure on
   every move). Moves alternate between the two, per demo; each is timed in the page from
   the key press (or dropdown pick) to the moment a new plot image is in the DOM. p50/p95
   over all moves, and the ratio of the p50s.
2. A vectorised sweep of 10^5 (size, N) points (1000 sizes x 100 values of N) of the ring
   all-reduce cost, ``collectives.alpha_beta_grid`` (one numpy expression), against a
   scalar Python loop of ``collectives.alpha_beta``; the results must agree. Beside it,
   ``nccltests.parse`` + ``compare`` of a 40-size log (the "Check your cluster" page and
   ``python -m interlib.check``): the first call of a process and the median of later ones,
   on CPython and in Chromium with the site's own Pyodide and interlib wheel.
3. Wall time of strict nbval over every notebook in _toc.yml, and of a full book build
   (``jupyter-book build . --all -W -n --keep-going``, what ``make book`` does from a
   fresh clone).
4. Built page weight per chapter: the HTML plus the images it references, excluding the
   theme's and the vendored scripts under _static/ (shared by all pages). This is what a
   reader fetches before going live.
5. Live demos on the static site (Chromium, the built site on 127.0.0.1): per chapter page,
   each in a fresh browser (cold cache), scroll to the first demo and click "Run live" at
   once -> the first live figure, three ways side by side in the same run: with
   ``navigator.connection.saveData`` (no quiet start: the behaviour before it, and the
   stage times, which then start at the click), with the quiet start (Python starts when
   a demo nears the screen), and with the quiet start after ``--live-read`` seconds with
   the demo in view (a reader reading it). Bytes fetched on going live; every demo's
   controls moved in turn (``--live-moves`` per demo), each timed from the move to the
   demo's new live render, p50/p95 over all demos; the next chapter page in the same
   browser (files cached), at once and after reading. ``--live-only`` measures just this
   (and page weights) and merges it into the last ``_build/bench.json`` and CONTRIBUTING.md's
   table; ``--live-pages N`` only the first N pages.

6. The levers of the first live figure (``--phases levers``): per chapter page (the first
   ``--live-pages``, default 3) and round (``--lever-runs``), each in a fresh browser, scroll
   and click at once with each lever of the worker alone (the interpreter snapshot, the
   page's own chapter module, the wheels prefetched while Python starts), all of them, what
   the site ships, and none; beside them in the same round Pyodide's own bare start
   (``loadPyodide``, no package) and the snapshot's restore alone. Each is reported as a
   median, its difference from "none", its ratio to the bare start, and the worker's
   stages (which stage a lever moves).
7. JupyterLite: kernel ready, as built (the kernel's packages preloaded with Pyodide's
   start, tools/build_lite.py KERNEL_PRELOAD) and, alternating, one at a time as before.

Every phase runs in a child process with a time limit (``PHASE_LIMITS_S``, about four times
an idle 2-core machine's time; ``--limit-scale`` stretches them): one that passes it is
stopped with what it started, and the table says which measurement was not taken, why, and
the last thing the phase reported. ``--phases a,b`` runs only those phases and keeps the
others from the last ``_build/bench.json``.

Needs /usr/bin/chromium for part 1 (skipped with a message otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

import browser_support as bs  # noqa: E402
from readme_section import DEVELOPER_GUIDE  # noqa: E402  (CONTRIBUTING.md)
from toc import toc_notebooks  # noqa: E402

HTML = REPO / "_build" / "html"
OUT = REPO / "_build" / "bench.json"
BIN = Path(sys.executable).parent


def pct(values, q):
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


# --- time limits ------------------------------------------------------------------------
# Every phase runs in a child process of its own with a time limit. A phase that passes it
# is stopped (SIGTERM: its browsers and servers are closed by their context managers; what
# is left after 30 s is killed), and the run goes on: the table says which measurement was
# not taken and why, with the last thing the phase reported. Limits are about four times an
# idle 2-core machine's time; --limit-scale stretches them all (a busy machine).
PHASE_LIMITS_S = {"sweep": 300, "check": 300, "check_browser": 600, "check_real": 300,
                  "check_real_browser": 600, "book": 2400,
                  "nbval": 3600, "sliders": 1800, "live": 3600, "levers": 2400, "lite": 900}
PHASE_TITLES = {"sweep": "vectorised sweep", "check": "check your cluster (CPython)",
                "check_browser": "check your cluster (Pyodide)",
                "check_real": "check your cluster on real logs (CPython)",
                "check_real_browser": "check your cluster on real logs (Pyodide)", "book": "full book build",
                "nbval": "strict nbval", "sliders": "JupyterLab slider latency",
                "live": "live static site", "levers": "live start: the levers",
                "lite": "JupyterLite kernel ready"}
PROGRESS = OUT.parent / "bench-progress.log"


def say(text: str) -> None:
    """Print a progress line and keep it as the running phase's last words (what the table
    shows if the phase is stopped at its limit)."""
    print(text, flush=True)
    with open(PROGRESS, "a", encoding="utf-8") as f:
        f.write(text.rstrip("\n").splitlines()[-1] + "\n" if text.strip() else "")


class PhaseStopped(Exception):
    """Raised in a phase's process when its time limit has passed (SIGTERM)."""


def run_phase(key: str, limit_s: float, fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` in a forked child, at most ``limit_s`` seconds: ``(result,
    None)``, or ``(None, why)`` when it failed or passed its limit (the child and everything
    it started are stopped)."""
    import multiprocessing as mp
    import signal
    import traceback

    import psutil

    title = PHASE_TITLES.get(key, key)
    OUT.parent.mkdir(exist_ok=True)
    PROGRESS.write_text("")
    say(f"{title} ... (time limit {limit_s:.0f} s)")
    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def child():
        def stop(signum, frame):
            raise PhaseStopped(f"stopped at its time limit of {limit_s:.0f} s")
        signal.signal(signal.SIGTERM, stop)
        try:
            send.send(("ok", fn(*args, **kwargs)))
        except BaseException as e:  # noqa: BLE001 - reported to the parent in words
            send.send(("error", f"{type(e).__name__}: {e}".strip(), traceback.format_exc()))

    proc = ctx.Process(target=child, name=f"bench-{key}")
    t0 = time.monotonic()
    proc.start()
    send.close()
    got = None
    if recv.poll(limit_s):
        try:
            got = recv.recv()
        except EOFError:
            got = None
    proc.join(timeout=30 if got is not None else 0)
    if proc.is_alive():
        family = []
        try:
            family = psutil.Process(proc.pid).children(recursive=True)
        except psutil.Error:
            pass
        proc.terminate()  # SIGTERM: PhaseStopped in the child closes its browsers/servers
        proc.join(timeout=30)
        for p in family + ([proc] if proc.is_alive() else []):
            try:
                (p if isinstance(p, psutil.Process) else psutil.Process(p.pid)).kill()
            except (psutil.Error, ValueError):
                pass
        proc.join(timeout=10)
    last = [x for x in PROGRESS.read_text(encoding="utf-8").splitlines() if x.strip()]
    last = last[-1].strip() if last else "nothing"
    took = time.monotonic() - t0
    if got is None:
        why = (f"not measured: {title} did not finish within its time limit of {limit_s:.0f} s "
               f"(stopped after {took:.0f} s; --limit-scale raises the limits); the last thing "
               f"it reported: {last!r}")
        say(f"  {why}")
        return None, why
    if got[0] == "error":
        why = f"not measured: {title} failed after {took:.0f} s: {got[1][:300]}"
        say(f"  {why}")
        print(got[2], file=sys.stderr, flush=True)
        return None, why
    say(f"  {title}: done in {took:.0f} s")
    return got[1], None


# --- 1. slider latency in JupyterLab -------------------------------------------------

NAIVE = '''import ipywidgets as W
from IPython.display import display


def naive(name):
    """The naive pattern: a new Figure built and displayed on every move."""
    demo = widgets.get(name)
    ctrls = {k: c.make() for k, c in demo.controls.items()}

    def _draw(**kw):
        display(demo.func(**kw))
        if demo.summary is not None:
            print(demo.summary(**kw))

    box = W.VBox([W.VBox(list(ctrls.values())), W.interactive_output(_draw, ctrls)])
    box.add_class("interlib-demo")
    box.add_class("naive-demo")
    return box'''


def bench_notebook(path: Path, names):
    import nbformat

    cells = [nbformat.v4.new_markdown_cell("# Slider benchmark"),
             nbformat.v4.new_code_cell("%matplotlib inline\nfrom interlib import widgets"),
             nbformat.v4.new_code_cell(NAIVE)]
    for name in names:
        cells.append(nbformat.v4.new_code_cell(f'widgets.show("{name}")'))
        cells.append(nbformat.v4.new_code_cell(f'naive("{name}")'))
    nb = nbformat.v4.new_notebook(cells=cells)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, path)


MOVE_TIMEOUT_S = 60  # browser_support.LabNotebook.move_first_control's bound on one move
GIVE_UP_AFTER = 3    # moves in a row without a new plot: that demo's pattern is skipped


def bench_sliders(moves: int):
    sys.path.insert(0, str(REPO))
    from interlib.widgets import DEMOS

    names = sorted(DEMOS)
    results = {"fast": [], "naive": []}
    per_demo = {}
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        nb = Path(tmp) / "chapters" / "slider_bench.ipynb"
        bench_notebook(nb, names)
        # jupyterlab_server copies notebooks given as paths inside the repo; this one is
        # not, so hand it over through a path the server copies from.
        with _served(nb) as (server, rel), bs.chromium_context() as ctx:
            say("  JupyterLab started; opening the notebook and running it")
            lab = bs.LabNotebook(ctx, server, rel)
            lab.run_all()
            demos = lab.demos()
            assert demos.count() == 2 * len(names), f"{demos.count()} demos rendered"
            for i, name in enumerate(names):
                fast, naive = demos.nth(2 * i), demos.nth(2 * i + 1)
                # Move the first control whose one step changes the picture (found in
                # Python, before the browser moves it: an unchanged picture leaves the
                # page unchanged and there is nothing to time).
                kind, index = moving_control(DEMOS[name])
                per_demo[name] = {"fast": [], "naive": []}
                missed = {"fast": 0, "naive": 0}
                for m in range(moves):
                    for pattern, demo in (("fast", fast), ("naive", naive)):
                        if missed[pattern] >= GIVE_UP_AFTER:
                            continue
                        ms = lab.move_first_control(demo, back=m % 2 == 1, kind=kind,
                                                    index=index)
                        if ms is None:
                            missed[pattern] += 1
                            shot = REPO / "_build" / f"bench-timeout-{name}-{pattern}.png"
                            demo.screenshot(path=str(shot))
                            # A move that leaves the picture as it was: the page rightly
                            # does not change. Skip the sample, go on (and give up on this
                            # demo's pattern after GIVE_UP_AFTER in a row: a stuck kernel).
                            failures.append(f"{name} ({pattern}, move {m + 1}): no new plot "
                                            f"within {MOVE_TIMEOUT_S} s; {shot.name}"
                                            + ("; giving up on this demo's moves"
                                               if missed[pattern] >= GIVE_UP_AFTER else ""))
                            continue
                        missed[pattern] = 0
                        results[pattern].append(ms)
                        per_demo[name][pattern].append(ms)
                        lab.page.wait_for_timeout(50)
                say(f"  sliders: {i + 1}/{len(names)} {name}: "
                    f"{len(per_demo[name]['fast'])} + {len(per_demo[name]['naive'])} moves, "
                    f"p50 {pct(per_demo[name]['fast'], 0.5):.0f} / "
                    f"{pct(per_demo[name]['naive'], 0.5):.0f} ms (book / naive)")
            lab.close()
    return results, per_demo, failures


def sliders_phase(moves: int) -> dict:
    """:func:`bench_sliders`, summarised: p50/p95 per pattern, their ratio, per demo."""
    res, per_demo, failures = bench_sliders(moves)
    out = {k: {"p50": pct(v, 0.5), "p95": pct(v, 0.95), "n": len(v), "all_ms": v}
           for k, v in res.items()}
    out["ratio_p50"] = out["fast"]["p50"] / out["naive"]["p50"]
    out["per_demo_p50"] = {name: {k: pct(v, 0.5) for k, v in d.items()}
                           for name, d in per_demo.items()}
    out["failures"] = failures
    return out


def _stepped(c):
    """A control's value one step from its default, as the page's keyboard step makes it
    (towards the maximum, or back when at it); a dropdown's next option."""
    if hasattr(c, "options"):
        opts = list(c.options)
        return opts[(opts.index(c.default) + 1) % len(opts)]
    if hasattr(c, "positions"):  # a slider steps through its positions
        pos = c.positions()
        i = pos.index(c.default)
        return pos[i + 1] if i + 1 < len(pos) else pos[i - 1]
    return c.default


def moving_control(demo):
    """``(kind, index)`` of the first control, in declared order, whose one step away from
    the defaults changes the rendered picture: kind "slider" or "select", index among the
    demo's controls of that kind (their order on the page)."""
    from interlib.widgets import DemoFrames

    frames = DemoFrames(demo)

    def picture(params=None):  # the PNG alone: the alt text names the settings
        return frames.frame({**demo.defaults(), **(params or {})})[0]

    base = picture()
    counts = {"slider": 0, "select": 0}
    for key, c in demo.controls.items():
        kind = "select" if hasattr(c, "options") else "slider"
        if picture({key: _stepped(c)}) != base:
            return kind, counts[kind]
        counts[kind] += 1
    raise RuntimeError(f"demo {demo.name!r}: no single step of any control changes the picture")


class _served:
    """jupyterlab_server over one generated notebook (copied into the server's root)."""

    def __init__(self, nb: Path):
        self.nb = nb

    def __enter__(self):
        import contextlib
        import shutil

        self._stack = contextlib.ExitStack()
        server = self._stack.enter_context(bs.jupyterlab_server([]))
        dest = server.root / "chapters" / self.nb.name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(self.nb, dest)
        return server, f"chapters/{self.nb.name}"

    def __exit__(self, *exc):
        return self._stack.__exit__(*exc)


# --- 2. vectorised sweep -----------------------------------------------------------------

def bench_sweep(runs: int, scalar_runs: int):
    import numpy as np

    from interlib import collectives
    from interlib.units import GB_per_s, us

    sizes = np.logspace(3, 10, 1000)  # 1 kB .. 10 GB
    ns = np.arange(2, 102)            # 100 values of N: 10^5 points in all
    alpha, bw = 5 * us, 400 * GB_per_s

    def vectorised():
        return collectives.alpha_beta_grid("all_reduce", "ring", sizes, ns, alpha, bw)

    def scalar():
        return np.array([[collectives.alpha_beta("all_reduce", "ring", float(s), int(n),
                                                 alpha, bw) for s in sizes] for n in ns])

    a = vectorised()
    vec = []
    for _ in range(runs):
        t = time.perf_counter()
        vectorised()
        vec.append(time.perf_counter() - t)
    sca = []
    for _ in range(scalar_runs):
        t = time.perf_counter()
        b = scalar()
        sca.append(time.perf_counter() - t)
    assert np.allclose(a, b, rtol=1e-12), "vectorised and scalar sweeps disagree"
    return {"points": int(a.size), "vectorised_ms": statistics.median(vec) * 1e3,
            "scalar_ms": statistics.median(sca) * 1e3, "runs": runs, "scalar_runs": scalar_runs}


# --- 2b. check your cluster: parse + compare ---------------------------------------------

def check_log(n_sizes: int = 40) -> str:
    """An nccl-tests all_reduce_perf log of ``n_sizes`` sizes (8 B to 8 GiB, geometric, in
    whole elements), 2 nodes x 8 ranks, in the current layout; times from a smooth latency +
    size / bandwidth curve (what it says does not matter here, only its length and layout)."""
    import numpy as np

    head = ["# nThread 1 nGpus 1 minBytes 8 maxBytes 8589934592 step: 2(factor) warmup "
            "iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0", "#", "# Using devices"]
    head += [f"#  Rank {r:2d} Group  0 Pid {100 + r:6d} on node-{r // 8} device {r % 8:2d} "
             f"[0000:{r:02x}:00] NVIDIA H100 80GB HBM3" for r in range(16)]
    head += ["#", "#       size         count      type   redop    root     time   algbw   "
             "busbw #wrong     time   algbw   busbw #wrong",
             "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)"
             "            (us)  (GB/s)  (GB/s)"]
    sizes = np.unique((np.geomspace(8, 2**33, n_sizes) // 4 * 4).astype(np.int64))
    assert len(sizes) == n_sizes
    rows = []
    for s in sizes:
        t = 120e-6 + s / 180e9
        a = s / t / 1e9
        rows.append(f"{s:12d} {s // 4:13d}     float     sum      -1 {t * 1e6:8.1f} {a:7.2f} "
                    f"{a * 1.875:7.2f}      0 {t * 1e6:8.1f} {a:7.2f} {a * 1.875:7.2f}      0")
    tail = ["# Out of bounds values : 0 OK", "# Avg bus bandwidth    : 70.742", "#"]
    return "\n".join(head + rows + tail) + "\n"


def bench_check(runs: int):
    """``nccltests.parse`` + ``compare`` of a 40-size log on CPython: the first call of the
    process (it also reads the published runs and the intervals' bounds once) and the median
    of later calls."""
    from interlib import nccltests

    log = check_log()

    def once():
        return nccltests.compare(nccltests.parse(log), "dgx-h100")

    t = time.perf_counter()
    once()
    first = time.perf_counter() - t
    later = []
    for _ in range(max(runs, 5)):
        t = time.perf_counter()
        once()
        later.append(time.perf_counter() - t)
    return {"sizes": 40, "first_ms": first * 1e3, "median_ms": statistics.median(later) * 1e3,
            "runs": len(later)}


_JS_CHECK_IN_PYODIDE = """async ([pyodideUrl, wheelUrl, log, runs]) => {
  await new Promise((ok, fail) => {
    const s = document.createElement("script");
    s.src = pyodideUrl + "pyodide.js"; s.onload = ok; s.onerror = fail;
    document.head.appendChild(s);
  });
  const py = await loadPyodide({indexURL: pyodideUrl, stdout: () => {}, stderr: () => {}});
  await py.loadPackage(["numpy", "matplotlib"], {messageCallback: () => {}});
  const wheel = await (await fetch(wheelUrl)).arrayBuffer();
  const site = py.runPython("import site; site.getsitepackages()[0]");
  py.unpackArchive(wheel, "wheel", {extractDir: site});
  py.globals.set("LOG", log);
  py.globals.set("RUNS", runs);
  return py.runPython(`
import time
t = time.perf_counter()
from interlib import nccltests
from interlib import collectives, validation  # what the page has imported once live
validation.load_measurements()
ms = [(time.perf_counter() - t) * 1e3]
for _ in range(RUNS + 1):  # the first call, then RUNS more
    t = time.perf_counter()
    nccltests.compare(nccltests.parse(LOG), "dgx-h100")
    ms.append((time.perf_counter() - t) * 1e3)
ms`).toJs();
}"""


def bench_check_browser(runs: int):
    """The same parse + compare in the browser: the site's own Pyodide and interlib wheel,
    loaded in a page of the built site (Chromium, 127.0.0.1 only), timed inside Python; the
    imports (done once when the page goes live), the first call after them and the median
    of later ones (what a reader waits for after pasting, before the figure is drawn)."""
    manifest = json.loads((HTML / "_static" / "interlib-live.json").read_text())
    with bs.static_server(HTML) as url, bs.chromium_context() as ctx:
        page = ctx.new_page()
        # saveData: the page's own live demos do not start quietly beside the measurement
        page.add_init_script(SAVE_DATA_JS)
        page.goto(f"{url}/book/check_cluster.html", wait_until="load")
        ms = page.evaluate(_JS_CHECK_IN_PYODIDE, [f"{url}/_static/pyodide/",
                                                  f"{url}/_static/{manifest['wheel']}",
                                                  check_log(), max(runs, 5)])
    return {"sizes": 40, "import_ms": ms[0], "first_ms": ms[1],
            "median_ms": statistics.median(ms[2:]), "runs": len(ms) - 2}


def bench_check_real(runs: int):
    """Parse + compare of four real logs of the test corpus on CPython
    (``tools/bench_cluster.py``: the page's example, the largest, a rack-scale run, a
    rows-only paste), each with its budget."""
    import bench_cluster

    return bench_cluster.cpython(max(runs, 5))


def bench_check_real_browser(runs: int):
    """The same four real logs in the browser (the site's own Pyodide and wheel)."""
    import bench_cluster

    return bench_cluster.browser(max(runs, 5))


# --- 3. nbval and the book build -----------------------------------------------------------

def timed(cmd, runs):
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{(proc.stdout + proc.stderr)[-3000:]}")
    return {"median_s": statistics.median(times), "runs": runs, "all_s": times}


def bench_nbval(runs):
    nbs = [str(p.relative_to(REPO)) for p in toc_notebooks()]
    return timed([str(BIN / "pytest"), "-p", "no:cacheprovider", "-q", "--nbval",
                  "--nbval-current-env", "-o", "addopts=", *nbs], runs)


def bench_book(runs):
    return timed([str(BIN / "jupyter-book"), "build", ".", "--all", "-W", "-n",
                  "--keep-going"], runs)


# --- 4. page weight ----------------------------------------------------------------------

def page_weights():
    out = {}
    for nb in toc_notebooks():
        rel = nb.relative_to(REPO).with_suffix(".html")
        page = HTML / rel
        if not page.exists() or not str(rel).startswith("chapters/"):
            continue
        text = page.read_text(encoding="utf-8", errors="replace")
        images = set(re.findall(r"""<img[^>]+src=["']([^"'#?]+)""", text))
        img_bytes = 0
        for src in images:
            if src.startswith(("data:", "http")) or "_static/" in src:
                continue
            f = (page.parent / src).resolve()
            if f.is_file():
                img_bytes += f.stat().st_size
        out[str(rel)] = {"html_kb": page.stat().st_size / 1e3, "images_kb": img_bytes / 1e3,
                         "total_kb": (page.stat().st_size + img_bytes) / 1e3}
    return out


# --- 5. live demos on the static site ---------------------------------------------------

def _served_bytes(paths) -> int:
    """Bytes of the files behind these paths of the local site, as the static server logged
    them (``ServedURL.served``; each file once): what a plain HTTP server without
    compression sends for them."""
    from urllib.parse import unquote

    files = {HTML / unquote(p).lstrip("/") for p in paths}
    return sum(f.stat().st_size for f in files if f.is_file())


_JS_FIRST_FIGURE = """(demo) => new Promise((resolve, reject) => {
    const d = document.querySelector(`.interlib-demo[data-demo="${demo}"]`);
    const t0 = performance.now();
    setTimeout(() => reject(new Error("no first live figure within 180 s")), 180000);
    const obs = new MutationObserver(() => {
      if (d.dataset.liveRenders) { obs.disconnect(); resolve(performance.now() - t0); }
      else if (d.querySelector('.interlib-live-error:not([hidden])')) {
        obs.disconnect(); reject(new Error(d.querySelector('.interlib-live-error').textContent)); }
    });
    obs.observe(d, {attributes: true, subtree: true, childList: true});
    d.querySelector('.interlib-live-button').click();
  })"""

#: The worker's stages (interlib-live-worker.js ``lap``), each a time since it started.
STAGES = (("runtime", "runtime: fetch + compile pyodide.asm.wasm"),
          ("packages", "numpy + matplotlib wheels"), ("wheel", "interlib wheel"),
          ("matplotlib", "import matplotlib"), ("import", "import interlib"))


def _stage_medians(stages: dict, first: list) -> dict:
    """Median time of each stage (its own duration, ms) over the pages, and of the first
    figure after the worker is ready (click to figure minus the worker's total)."""
    out, prev = {}, {}
    for key, _ in STAGES:
        durs = [t[key] - prev.get(rel, 0) for rel, t in stages.items() if key in t]
        for rel, t in stages.items():
            if key in t:
                prev[rel] = t[key]
        if durs:
            out[key] = pct(durs, 0.5)
    rest = [f - stages[rel]["import"] for rel, f in zip(stages, first)
            if "import" in stages[rel]]
    if rest:
        out["first figure (click to frame, less the worker's stages)"] = pct(rest, 0.5)
    return out


#: navigator.connection.saveData = true: the page then starts Python only when the reader
#: asks (no quiet start when a demo comes near the screen): the behaviour before the quiet
#: start, measured beside it in the same run.
SAVE_DATA_JS = """Object.defineProperty(navigator, 'connection', {value: {saveData: true}});"""

#: Scroll the page's first demo into view (as a reader reaching it); returns nothing.
_JS_SCROLL = """(demo) => document.querySelector(`.interlib-demo[data-demo="${demo}"]`)
    .scrollIntoView({block: 'center'})"""


def _first_figure(ctx, url, rel, demo, read_s, save_data=False):
    """A new page of ``ctx`` at ``rel``: scroll ``demo`` into view, wait ``read_s`` (a
    reader reading it), click its "Run live": ms to the first live figure, the page and
    its Recorder (requests since the page opened)."""
    page = ctx.new_page()
    if save_data:
        page.add_init_script(SAVE_DATA_JS)
    rec = bs.Recorder(page)
    page.goto(f"{url}/{rel}", wait_until="load")
    rec.settle(page, quiet_s=0.5)
    page.evaluate(_JS_SCROLL, demo)
    if read_s:
        page.wait_for_timeout(read_s * 1000)
    ms = page.evaluate(_JS_FIRST_FIGURE, demo)
    return ms, page, rec


def bench_live(moves: int, read_s: float = 3.0, max_pages: int | None = None):
    """Per chapter page, each in a fresh browser (cold cache): scroll to the first demo and
    click "Run live" at once, with the quiet start ("first_ms") and with saveData, which
    turns it off (the behaviour before it: "save_data_ms"), and after ``read_s`` seconds
    with the demo in view ("read_ms"); bytes fetched; then every demo's controls moved
    (move -> new figure). The next chapter page in the same browser (files cached): at once
    and after reading."""
    sys.path.insert(0, str(REPO))
    from interlib.widgets import DEMOS

    pages = {}
    for nb in toc_notebooks():
        rel = nb.relative_to(REPO).with_suffix(".html")
        if (HTML / rel).exists():
            names = re.findall(r'<div class="interlib-demo" data-demo="([^"]+)"',
                               (HTML / rel).read_text(encoding="utf-8"))
            if names:
                pages[str(rel)] = names
    if max_pages:
        pages = dict(list(pages.items())[:max_pages])
    first, save_data, read, sizes, move_ms, per_page, stages = [], [], [], [], [], {}, {}
    warm, warm_read = [], []
    failures = []
    with bs.static_server(HTML) as url:
        for i, (rel, names) in enumerate(pages.items()):
            # The two behaviours alternate which goes first (the machine's load drifts).
            for mode in (("save", "quiet") if i % 2 else ("quiet", "save")):
                with bs.chromium_context() as ctx:  # a fresh profile: cold cache
                    mark = len(url.served)  # the server's log: a shared worker's fetches too
                    ms, page, rec = _first_figure(ctx, url, rel, names[0], 0,
                                                  save_data=mode == "save")
                    timings = json.loads(page.evaluate(
                        "(demo) => document.querySelector(`.interlib-demo[data-demo=\"${demo}\"]`)"
                        ".dataset.liveTimings", names[0]) or "{}")
                    if mode == "save":  # started at the click: its stages add up to it
                        save_data.append(ms)
                        stages[rel] = timings
                        continue
                    rec.settle(page, quiet_s=0.5)
                    first.append(ms)
                    sizes.append(_served_bytes([p for p in url.served[mark:]
                                                if "/_static/pyodide/" in p
                                                or "/_static/interlib" in p]))
                    page_moves = []
                    for name in names:
                        keys = list(DEMOS[name].controls)
                        for m in range(moves):
                            page.evaluate(bs.SITE_MOVE_JS, [name, keys[m % len(keys)]])
                            try:
                                page.wait_for_function("() => window.__liveMoveMs !== null",
                                                       timeout=30000)
                            except Exception:  # noqa: BLE001 - reported, not counted
                                failures.append(f"{rel} {name} move {m + 1}: no render in 30 s")
                                continue
                            page_moves.append(page.evaluate("() => window.__liveMoveMs"))
                    move_ms += page_moves
                    page.close()
                    # The next chapter page in the same browser (files cached).
                    nxt = list(pages)[(i + 1) % len(pages)]
                    if i < 3:
                        ms2, p2, _ = _first_figure(ctx, url, nxt, pages[nxt][0], 0)
                        warm.append(ms2)
                        p2.close()
                        ms3, p3, _ = _first_figure(ctx, url, nxt, pages[nxt][0], read_s)
                        warm_read.append(ms3)
                        p3.close()
                        say(f"  {nxt} after {rel}, same browser: first live figure "
                              f"{ms2:.0f} ms at once, {ms3:.0f} ms after {read_s:g} s")
            with bs.chromium_context() as ctx:
                ms, page, _ = _first_figure(ctx, url, rel, names[0], read_s)
                read.append(ms)
                page.close()
            per_page[rel] = {"first_ms": first[-1], "save_data_ms": save_data[-1],
                             "read_ms": read[-1], "bytes": sizes[-1],
                             "move_p50": pct(page_moves, 0.5), "moves": len(page_moves)}
            say(f"  {rel}: first live figure {first[-1]:.0f} ms (saveData, no quiet start: "
                  f"{save_data[-1]:.0f} ms; after {read_s:g} s in view: {read[-1]:.0f} ms), "
                  f"{sizes[-1] / 1e6:.1f} MB, move p50 {pct(page_moves, 0.5):.0f} ms "
                  f"({len(page_moves)} moves)")
    med = lambda xs: {"median": pct(xs, 0.5), "max": max(xs), "all": xs}  # noqa: E731
    return {"first_ms": med(first), "save_data_ms": med(save_data), "read_ms": med(read),
            "read_s": read_s,
            "bytes": {"median": pct(sizes, 0.5), "all": sizes},
            "move_ms": {"p50": pct(move_ms, 0.5), "p95": pct(move_ms, 0.95), "n": len(move_ms),
                        "all": move_ms},
            "per_page": per_page, "stages_ms": stages, "failures": failures,
            "warm_second_page_ms": warm, "warm_second_page_read_ms": warm_read,
            "stage_medians_ms": _stage_medians(stages, [per_page[r]["save_data_ms"]
                                                        for r in stages])}


# --- 5b. the levers of the first live figure ----------------------------------------------
#: The worker's levers (interlib-live-worker.js LEVERS), each measured alone and all together
#: against none (the start before them), in the same run, beside Pyodide's own bare start.
LEVER_CONFIGS = {
    "none": {"snapshot": False, "ownModules": False, "prefetch": False},
    "snapshot": {"snapshot": True, "ownModules": False, "prefetch": False},
    "own module": {"snapshot": False, "ownModules": True, "prefetch": False},
    "prefetch": {"snapshot": False, "ownModules": False, "prefetch": True},
    "all": {"snapshot": True, "ownModules": True, "prefetch": True},
    "shipped": {"snapshot": True, "ownModules": True, "prefetch": False},
}
LEVER_TITLES = {
    "none": "no lever (a plain start, every chapter's demos imported)",
    "snapshot": "snapshot of the started interpreter restored",
    "own module": "the page's own chapter module imported, not every chapter's",
    "prefetch": "numpy's and matplotlib's wheels fetched while Python starts",
    "all": "all three",
    "shipped": "what the site ships (snapshot and own module; prefetch off)",
}

#: In a page of the built site: a dedicated worker that starts Pyodide and nothing else
#: ("bare": loadPyodide, no package), or restores the interpreter snapshot the way the live
#: worker does (fetch, check its sha256, unpack, loadPyodide({_loadSnapshot})): ms from the
#: worker's creation to Python ready.
_JS_BARE_START = """([base, mode]) => new Promise((resolve, reject) => {
  const code = `
    const t0 = performance.now();
    onmessage = async (e) => {
      const [base, mode] = e.data;
      try {
        importScripts(base + "pyodide.js");
        let opts = {indexURL: base, stdout: () => {}, stderr: () => {}};
        if (mode === "snapshot") {
          const info = await (await fetch(base + "pyodide-snapshot.json")).json();
          const gz = await (await fetch(base + "pyodide-snapshot.bin.gz")).arrayBuffer();
          const d = new Uint8Array(await crypto.subtle.digest("SHA-256", gz));
          const hex = Array.from(d, (b) => b.toString(16).padStart(2, "0")).join("");
          if (hex !== info.gz_sha256) throw new Error("snapshot sha256 differs");
          const raw = await new Response(new Blob([gz]).stream()
            .pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
          opts = {...opts, _loadSnapshot: new Uint8Array(raw)};
        }
        const py = await loadPyodide(opts);
        py.runPython("import random; random.seed()");
        postMessage({ms: performance.now() - t0});
      } catch (err) { postMessage({error: String(err)}); }
    };`;
  const w = new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})));
  const timer = setTimeout(() => { w.terminate(); reject(new Error("no start within 180 s")); },
                           180000);
  w.onmessage = (e) => { clearTimeout(timer); w.terminate();
                         e.data.error ? reject(new Error(e.data.error)) : resolve(e.data.ms); };
  w.postMessage([base, mode]);
})"""


def _bare_start(url, rel: str, mode: str) -> float:
    """ms to a started Pyodide in a fresh browser (cold cache), from the page ``rel`` of the
    site: ``mode`` "bare" or "snapshot" (:data:`_JS_BARE_START`)."""
    with bs.chromium_context() as ctx:
        page = ctx.new_page()
        page.add_init_script(SAVE_DATA_JS)  # the page's own demos stay static
        page.goto(f"{url}/{rel}", wait_until="load")
        ms = page.evaluate(_JS_BARE_START, [f"{url}/_static/pyodide/", mode])
        page.close()
    return ms


def bench_levers(runs: int = 3, max_pages: int | None = 3):
    """The first live figure, cold (fresh browser), scroll and click at once, with each
    lever of the worker alone, all of them, and none (:data:`LEVER_CONFIGS`), on the first
    ``max_pages`` chapter pages, ``runs`` rounds; in every round beside them Pyodide's own
    bare start and the snapshot's restore alone (:data:`_JS_BARE_START`). The order of the
    configurations rotates each round (the machine's load drifts). Each lever's effect is
    reported as its median, its difference from "none" and its ratio to the same run's bare
    start."""
    pages = {}
    for nb in toc_notebooks():
        rel = nb.relative_to(REPO).with_suffix(".html")
        if (HTML / rel).exists():
            names = re.findall(r'<div class="interlib-demo" data-demo="([^"]+)"',
                               (HTML / rel).read_text(encoding="utf-8"))
            if names:
                pages[str(rel)] = names
    pages = dict(list(pages.items())[:max_pages or len(pages)])
    configs = list(LEVER_CONFIGS) + ["bare", "restore"]
    first = {c: [] for c in configs}
    stages = {c: [] for c in LEVER_CONFIGS}
    starts = {c: [] for c in LEVER_CONFIGS}
    failures = []
    with bs.static_server(HTML) as url:
        for r in range(runs):
            for i, (rel, names) in enumerate(pages.items()):
                k = (r * len(pages) + i) % len(configs)
                for config in configs[k:] + configs[:k]:
                    try:
                        if config in ("bare", "restore"):
                            ms = _bare_start(url, rel,
                                             "bare" if config == "bare" else "snapshot")
                            first[config].append(ms)
                            continue
                        with bs.chromium_context() as ctx:
                            lev = json.dumps(LEVER_CONFIGS[config])
                            ctx.add_init_script(f"window.interlibLiveLevers = {lev};")
                            ms, page, _ = _first_figure(ctx, url, rel, names[0], 0)
                            timings = json.loads(page.evaluate(
                                "(demo) => document.querySelector("
                                "`.interlib-demo[data-demo=\"${demo}\"]`).dataset.liveTimings",
                                names[0]) or "{}")
                            page.close()
                        first[config].append(ms)
                        stages[config].append(timings)
                        starts[config].append(timings.get("start", "?"))
                    except Exception as e:  # noqa: BLE001 - reported, not counted
                        failures.append(f"{rel} {config}: {str(e).splitlines()[0][:200]}")
                        say(f"  levers: {rel} {config}: not measured: {failures[-1]}")
                        continue
                say(f"  levers round {r + 1}/{runs}, {rel}: " + "; ".join(
                    f"{c} {first[c][-1] / 1e3:.2f} s" for c in configs if first[c]))
    med = {c: pct(v, 0.5) for c, v in first.items() if v}
    bare = med.get("bare")
    out = {"pages": list(pages), "runs": runs, "first_ms": first, "median_ms": med,
           "ratio_to_bare": {c: m / bare for c, m in med.items()} if bare else {},
           "vs_none_ms": {c: m - med["none"] for c, m in med.items()
                          if "none" in med and c in LEVER_CONFIGS},
           "starts": starts, "failures": failures,
           "stage_medians_ms": {c: _lever_stages(v) for c, v in stages.items() if v}}
    return out


def _lever_stages(timings: list) -> dict:
    """Median duration of each worker stage (ms) over the runs of one configuration."""
    out, durs = {}, {}
    for t in timings:
        prev = 0
        for key, _ in STAGES:
            if key in t:
                durs.setdefault(key, []).append(t[key] - prev)
                prev = t[key]
    for key, v in durs.items():
        out[key] = pct(v, 0.5)
    return out


def lever_rows(r) -> list[str]:
    lv = r.get("levers")
    if not lv or not lv.get("median_ms"):
        return []
    med, ratio = lv["median_ms"], lv.get("ratio_to_bare", {})
    rows = []
    if "bare" in med:
        rows.append(f"| live site: lever baseline — Pyodide's own bare start (`loadPyodide`, no "
                    f"package), cold, median of {len(lv['first_ms']['bare'])} | "
                    f"{med['bare'] / 1e3:.2f} s (1.00×) | |")
    if "restore" in med:
        rows.append(f"| live site: lever — the snapshot's restore alone (fetch, check, unpack, "
                    f"restore), cold | {med['restore'] / 1e3:.2f} s "
                    f"({ratio.get('restore', float('nan')):.2f}× the bare start) | |")
    for c in LEVER_CONFIGS:
        if c not in med:
            continue
        diff = lv["vs_none_ms"].get(c)
        rows.append(f"| live site: lever — {LEVER_TITLES[c]}: click at once → first live "
                    f"figure, cold, median of {len(lv['first_ms'][c])} over "
                    f"{len(lv['pages'])} pages | {med[c] / 1e3:.2f} s "
                    f"({ratio.get(c, float('nan')):.2f}× the bare start"
                    + (f"; {diff / 1e3:+.2f} s against none" if c != "none" else "")
                    + ") | " + ("≤ 3 s" if c == "shipped" else "") + " |")
    names = dict(STAGES)
    for c, st in lv.get("stage_medians_ms", {}).items():
        rows.append(f"| live site: lever — {c}: the worker's stages, median | " + "; ".join(
            f"{names.get(k, k)} {v / 1e3:.2f} s" for k, v in st.items()) + " | |")
    rows += [f"| live site: lever not measured | {f} | |" for f in lv.get("failures", [])]
    return rows


def not_measured_rows(r) -> list[str]:
    return [f"| {PHASE_TITLES.get(k, k)} | {why} | |"
            for k, why in r.get("not_measured", {}).items()]


#: The chapter JupyterLite's kernel-ready time is measured on (its launch button's target).
LITE_CHAPTER = "chapters/01_why_connect.ipynb"


def _serve_text(body: str):
    """A Playwright route handler that answers with ``body`` (JSON)."""
    def handler(route):
        route.fulfill(status=200, content_type="application/json", body=body)
    return handler


def _one_at_a_time(config_text: str) -> str:
    """The JupyterLite config with the kernel told to preload interlib only (what it did
    before tools/build_lite.py's KERNEL_PRELOAD): it then installs the rest one at a time."""
    config = json.loads(config_text)
    plugin = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    plugin["loadPyodideOptions"]["packages"] = ["interlib"]
    return json.dumps(config)


def bench_lite(runs: int = 3):
    """JupyterLite (``_build/html/lite``), each run in a fresh browser (cold cache): from
    opening Chapter 1's notebook (the chapter page's launch link) to its Pyodide kernel
    connected and idle ("kernel ready", what a reader waits for before Run All), and the
    bytes served until then; as built (the kernel's packages preloaded with Pyodide's start)
    and, alternating with it, with the config served as before the preload (interlib only;
    the kernel installs the rest one at a time). None when the site has no JupyterLite
    build."""
    lab = HTML / "lite" / "lab" / "index.html"
    if not lab.exists():
        return None
    config_file = HTML / "lite" / "jupyter-lite.json"
    ways = {"preloaded": None, "one at a time": _one_at_a_time(config_file.read_text())}
    ready_ms = {w: [] for w in ways}
    sizes = []
    with bs.static_server(HTML) as url:
        for i in range(runs):
            for way in (list(ways) if i % 2 == 0 else list(ways)[::-1]):
                with bs.chromium_context() as ctx:
                    if ways[way] is not None:
                        ctx.route("**/lite/jupyter-lite.json", _serve_text(ways[way]))
                    page = ctx.new_page()
                    mark = len(url.served)
                    t0 = time.perf_counter()
                    page.goto(f"{url}/lite/lab/index.html?path={LITE_CHAPTER}",
                              wait_until="load")
                    page.wait_for_function("() => window.jupyterapp !== undefined",
                                           timeout=120000)
                    page.wait_for_function(bs.LabNotebook._JS_READY, arg=LITE_CHAPTER,
                                           timeout=180000, polling=100)
                    ready_ms[way].append((time.perf_counter() - t0) * 1000)
                    if way == "preloaded":
                        sizes.append(_served_bytes(url.served[mark:]))
                    say(f"  JupyterLite ({way}): {LITE_CHAPTER} kernel ready in "
                        f"{ready_ms[way][-1]:.0f} ms")
                    page.close()
    med = lambda xs: {"median": pct(xs, 0.5), "max": max(xs), "all": xs}  # noqa: E731
    return {"ready_ms": med(ready_ms["preloaded"]),
            "one_at_a_time_ms": med(ready_ms["one at a time"]),
            "bytes": {"median": pct(sizes, 0.5), "all": sizes}}


def lite_rows(r) -> list[str]:
    lt = r.get("lite")
    if not lt:
        return []
    n = len(lt["ready_ms"]["all"])
    together = {"levers", "lite"} <= set(r.get("measured_together", []))
    bare = ((r.get("levers") or {}).get("median_ms") or {}).get("bare") if together else None
    of_bare = (f"; {lt['ready_ms']['median'] / bare:.1f}× Pyodide's bare start in the same run"
               if bare else "")
    rows = [f"| JupyterLite: open Chapter 1's notebook → kernel ready, cold cache, median (max) "
            f"of {n} | {lt['ready_ms']['median'] / 1e3:.1f} ({lt['ready_ms']['max'] / 1e3:.1f}) s"
            f"{of_bare} | ≤ 8 s |"]
    if lt.get("one_at_a_time_ms"):
        o = lt["one_at_a_time_ms"]
        rows.append(f"| JupyterLite: same, the kernel's packages installed one at a time after "
                    f"Pyodide's start (as before the preload), alternating with it | "
                    f"{o['median'] / 1e3:.1f} ({o['max'] / 1e3:.1f}) s | |")
    return rows + [
            f"| JupyterLite: bytes fetched until then, median | "
            f"{lt['bytes']['median'] / 1e6:.1f} MB | |"]


# --- report -------------------------------------------------------------------------------

def table(r) -> str:
    rows = ["| measure | result | target |", "|---|---|---|"]
    s = r.get("sliders")
    if s:
        f, n = s["fast"], s["naive"]
        rows.append(f"| slider → new plot, book demos (`widgets.show`), p50 / p95 | "
                    f"{f['p50']:.0f} / {f['p95']:.0f} ms ({f['n']} moves) | p50 ≤ 60 ms |")
        rows.append(f"| slider → new plot, naive rebuild + display, p50 / p95 | "
                    f"{n['p50']:.0f} / {n['p95']:.0f} ms ({n['n']} moves) | |")
        rows.append(f"| ratio of p50s (book / naive) | {s['ratio_p50']:.2f}× | ≤ 0.5× |")
        for f in r.get("slider_failures", []):
            rows.append(f"| move without a new plot (not counted) | {f} | |")
    elif r.get("sliders_skipped"):
        rows.append(f"| slider → new plot | not measured: {r.get('sliders_skipped')} | |")
    rows += live_rows(r)
    rows += lever_rows(r)
    rows += lite_rows(r)
    rows += not_measured_rows(r)
    w = r.get("sweep")
    if w:
        rows.append(f"| sweep of {w['points']:,} (size, N) points, vectorised | "
                    f"{w['vectorised_ms']:.2f} ms | ≤ 10 ms |")
        rows.append(f"| same sweep, scalar Python loop | {w['scalar_ms']:.0f} ms | |")
        rows.append(f"| speed-up | {w['scalar_ms'] / w['vectorised_ms']:.0f}× | ≥ 50× |")
    c = r.get("check")
    if c:
        rows.append(f"| check your cluster: parse + compare of a {c['sizes']}-size log, "
                    f"median (first call of a process) | {c['median_ms']:.1f} ms "
                    f"({c['first_ms']:.0f} ms) | ≤ 50 ms |")
    c = r.get("check_browser")
    if c:
        rows.append(f"| same in the browser (Pyodide, once live), median (first call; "
                    f"imports) | {c['median_ms']:.0f} ms ({c['first_ms']:.0f} ms; "
                    f"{c['import_ms']:.0f} ms) | ≤ 300 ms |")
    for key, where in (("check_real", "CPython"), ("check_real_browser", "browser")):
        for label, c in (r.get(key) or {}).items():
            rows.append(f"| check your cluster, {where}, real log: {label}, median (first "
                        f"call) | {c['median_ms']:.1f} ms ({c['first_ms']:.0f} ms) | "
                        f"≤ {c['budget_ms']:.0f} ms |")
    if "nbval" in r:
        rows.append(f"| strict nbval, all notebooks ({r['nbval']['runs']} runs) | "
                    f"{r['nbval']['median_s']:.1f} s | |")
    if "book" in r:
        rows.append(f"| book build, full (`--all`, {r['book']['runs']} runs) | "
                    f"{r['book']['median_s']:.1f} s | |")
    for page, wgt in r.get("page_weight", {}).items():
        rows.append(f"| page weight {page} (HTML + images) | {wgt['total_kb']:.0f} kB "
                    f"({wgt['html_kb']:.0f} + {wgt['images_kb']:.0f}) | |")
    return "\n".join(rows)


def live_rows(r) -> list[str]:
    lv = r.get("live")
    if not lv:
        return []
    n = len(lv["first_ms"]["all"])
    rows = [f"| live site: scroll to a demo, click → first live figure at once, median (max) over "
            f"{n} chapter pages, cold cache | {lv['first_ms']['median'] / 1e3:.1f} "
            f"({lv['first_ms']['max'] / 1e3:.1f}) s | ≤ 3 s |"]
    if lv.get("save_data_ms"):
        rows.append(f"| live site: same, with saveData (no quiet start: the behaviour before it) | "
                    f"{lv['save_data_ms']['median'] / 1e3:.1f} ({lv['save_data_ms']['max'] / 1e3:.1f}) s | |")
    if lv.get("read_ms"):
        rows.append(f"| live site: click {lv['read_s']:g} s after the demo came into view, cold "
                    f"cache, median (max) | {lv['read_ms']['median'] / 1e3:.1f} "
                    f"({lv['read_ms']['max'] / 1e3:.1f}) s | ≤ 3 s |")
    rows += [f"| live site: bytes fetched on going live, median per page | "
             f"{lv['bytes']['median'] / 1e6:.1f} MB | |",
             f"| live site: move → new figure (Pyodide), p50 / p95 | {lv['move_ms']['p50']:.0f} / "
             f"{lv['move_ms']['p95']:.0f} ms ({lv['move_ms']['n']} moves, all demos) | p50 ≤ 250 ms |"]
    if lv.get("warm_second_page_ms"):
        w = lv["warm_second_page_ms"]
        rows.append(f"| live site: next chapter page in the same browser (files cached; "
                    f"Python still running: the shared worker), click at once, median of "
                    f"{len(w)} | {pct(w, 0.5) / 1e3:.1f} s | ≤ 1.5 s |")
    if lv.get("warm_second_page_read_ms"):
        w = lv["warm_second_page_read_ms"]
        rows.append(f"| live site: same, click {lv['read_s']:g} s after the demo came into view, "
                    f"median of {len(w)} | {pct(w, 0.5) / 1e3:.1f} s | ≤ 1.5 s |")
    if lv.get("stage_medians_ms"):
        names = dict(STAGES)
        rows.append("| live site: where going live spends its time (saveData runs, started at "
                    "the click), median per page | " +
                    "; ".join(f"{names.get(k, k)} {v / 1e3:.2f} s"
                              for k, v in lv["stage_medians_ms"].items()) + " | |")
    rows += [f"| live site: move without a render (not counted) | {f} | |" for f in lv["failures"]]
    return rows


def update_readme(text: str):
    readme = DEVELOPER_GUIDE
    src = readme.read_text()
    start, end = "<!-- bench:start -->", "<!-- bench:end -->"
    block = f"{start}\n{text}\n{end}"
    if start in src and end in src:
        src = src[:src.index(start)] + block + src[src.index(end) + len(end):]
    else:
        head = "## Benchmarks\n"
        i = src.index(head) + len(head)
        rest = src[i:]
        nxt = rest.find("\n## ")
        tail = rest[nxt:] if nxt >= 0 else "\n"
        src = src[:i] + "\n" + block + "\n" + tail
    readme.write_text(src)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--moves", type=int, default=10, help="slider moves per demo and pattern")
    ap.add_argument("--runs", type=int, default=9, help="runs of the vectorised sweep")
    ap.add_argument("--scalar-runs", type=int, default=3, help="runs of the scalar loop")
    ap.add_argument("--slow-runs", type=int, default=2, help="runs of nbval and the build")
    ap.add_argument("--skip-slow", action="store_true", help="skip nbval and the build")
    ap.add_argument("--readme", action="store_true", help="write the table into CONTRIBUTING.md")
    ap.add_argument("--live-moves", type=int, default=6,
                    help="control moves per demo on the live static site")
    ap.add_argument("--live-read", type=float, default=3.0,
                    help="seconds a demo is in view before the click (the quiet start's lead)")
    ap.add_argument("--live-pages", type=int, default=None,
                    help="measure only the first N chapter pages with demos")
    ap.add_argument("--lever-runs", type=int, default=3,
                    help="cold starts per lever and page in the levers phase")
    ap.add_argument("--lite-runs", type=int, default=4,
                    help="cold JupyterLite starts per way (preloaded, one at a time)")
    ap.add_argument("--limit-scale", type=float, default=1.0,
                    help="multiply every phase's time limit (a busy machine: 2 or 3)")
    ap.add_argument("--phases", default=None,
                    help="run only these phases (comma-separated: " + ", ".join(PHASE_LIMITS_S)
                         + "); the others keep their results from the last _build/bench.json")
    ap.add_argument("--live-only", action="store_true",
                    help="measure only the live static site (and page weights); merge into "
                         "the last _build/bench.json")
    args = ap.parse_args(argv)

    r = {"when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
         "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"}
    if not HTML.joinpath("_static", "interlib-live.json").exists():
        print("building the site (make book) ...", flush=True)
        subprocess.run([str(BIN / "jupyter-book"), "build", ".", "-W", "-n", "--keep-going"],
                       cwd=REPO, check=True, capture_output=True)
    if args.live_only:
        return live_only(args, r)
    limit = lambda key: PHASE_LIMITS_S[key] * args.limit_scale  # noqa: E731
    not_measured = r["not_measured"] = {}

    only = set(args.phases.split(",")) if args.phases else None
    if only is not None:
        unknown = only - set(PHASE_LIMITS_S)
        if unknown:
            sys.exit(f"--phases: unknown {sorted(unknown)}; phases: {', '.join(PHASE_LIMITS_S)}")
        prev = json.loads(OUT.read_text()) if OUT.exists() else {}
        r.update({k: v for k, v in prev.items() if k in PHASE_LIMITS_S and k not in only})

    r["measured_together"] = []  # the phases of this run (a ratio between two needs both)

    def phase(key, fn, *a):
        if only is not None and key not in only:
            return
        r["measured_together"].append(key)
        got, why = run_phase(key, limit(key), fn, *a)
        if why:
            not_measured[key] = why
        else:
            r[key] = got

    phase("sweep", bench_sweep, args.runs, args.scalar_runs)
    phase("check", bench_check, args.runs)
    phase("check_real", bench_check_real, args.runs)
    if bs.CHROMIUM.exists():
        phase("check_browser", bench_check_browser, args.runs)
        phase("check_real_browser", bench_check_real_browser, args.runs)
    if not args.skip_slow:
        phase("book", bench_book, args.slow_runs)
        phase("nbval", bench_nbval, args.slow_runs)
    r["page_weight"] = page_weights()
    if bs.CHROMIUM.exists():
        phase("sliders", sliders_phase, args.moves)
        if "sliders" in r:
            r["slider_failures"] = r["sliders"].pop("failures")
        phase("live", bench_live, args.live_moves, args.live_read, args.live_pages)
        phase("levers", bench_levers, args.lever_runs, args.live_pages)
        phase("lite", bench_lite, args.lite_runs)
    else:
        r["sliders_skipped"] = bs.SKIP_REASON
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps(r, indent=1))
    text = table(r)
    note = (f"\n\n`make bench` on {r['machine']}, {r['when']}; medians over repeated runs "
            f"(`_build/bench.json` has every sample).")
    print()
    print(text + note)
    if "sliders" in r:
        print("\nper demo, p50 ms (book / naive):")
        for name, d in r["sliders"]["per_demo_p50"].items():
            print(f"  {name:28s} {d['fast']:7.0f} / {d['naive']:7.0f}")
    if args.readme:
        update_readme(text + note)
        print(f"\n{DEVELOPER_GUIDE.name}: Benchmarks section updated")


def live_only(args, r):
    """``--live-only``: measure the live site and page weights; merge into the last run."""
    if not bs.CHROMIUM.exists():
        sys.exit(bs.SKIP_REASON)
    r["not_measured"] = {}
    r["measured_together"] = ["live", "levers", "lite"]
    for key, fn, a in (("live", bench_live, (args.live_moves, args.live_read, args.live_pages)),
                       ("levers", bench_levers, (args.lever_runs, args.live_pages)),
                       ("lite", bench_lite, (args.lite_runs,))):
        got, why = run_phase(key, PHASE_LIMITS_S[key] * args.limit_scale, fn, *a)
        if why:
            r["not_measured"][key] = why
        else:
            r[key] = got
    r["page_weight"] = page_weights()
    rows = live_rows(r) + lever_rows(r) + lite_rows(r) + not_measured_rows(r) + [
        row for row in table({"page_weight": r["page_weight"]}).splitlines()
        if row.startswith("| page weight")]
    prev = json.loads(OUT.read_text()) if OUT.exists() else {}
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({**prev, **{k: r[k] for k in ("live", "levers", "lite")
                                          if k in r},
                               "page_weight": r["page_weight"],
                               "not_measured": {**prev.get("not_measured", {}),
                                                **r["not_measured"]},
                               "live_when": r["when"]}, indent=1))
    print("\n".join(rows))
    if args.readme:
        readme = DEVELOPER_GUIDE
        src = readme.read_text()
        start, end = "<!-- bench:start -->", "<!-- bench:end -->"
        block = src[src.index(start) + len(start):src.index(end)].strip("\n").splitlines()
        keep = [x for x in block
                if not x.startswith(("| live site", "| JupyterLite", "| page weight",
                                     "Live-site rows"))]
        while keep and not keep[-1].strip():
            keep.pop()
        at = max((i for i, x in enumerate(keep) if x.startswith(("| ratio of p50s",
                                                                  "| move without"))),
                 default=1) + 1
        table_end = max(i for i, x in enumerate(keep) if x.startswith("|")) + 1
        pw = [x for x in rows if x.startswith("| page weight")]
        lv = [x for x in rows if x.startswith(("| live site", "| JupyterLite"))]
        new = keep[:at] + lv + keep[at:table_end] + pw + keep[table_end:]
        new += ["", f"Live-site rows: `tools/bench.py --live-only` on {r['machine']}, "
                    f"{r['when']} (the other rows are from the run dated above)."]
        src = (src[:src.index(start)] + start + "\n" + "\n".join(new) + "\n" + end
               + src[src.index(end) + len(end):])
        readme.write_text(src)
        print(f"\n{DEVELOPER_GUIDE.name}: live rows and page weights updated")
    return 0


if __name__ == "__main__":
    main()
