#!/usr/bin/env python3
"""How long "Check your cluster" takes on real logs: ``nccltests.parse`` + ``compare``, on
CPython and in the reader's browser (the site's own Pyodide and interlib wheel).

    .venv/bin/python tools/bench_cluster.py              # CPython only
    .venv/bin/python tools/bench_cluster.py --browser    # also the browser (needs make book)

The logs are real ones from the test corpus (tests/fixtures/nccltests/SOURCES.md): the page's
example (64 lines), the largest (596 lines of NCCL INFO inside the table, 2 x 8 A100 over
EFA), a rack-scale run (GB200 NVL72, 5 rows) and a rows-only paste. Each is parsed and
compared as the page does it (the example on its own hardware, the others on their catalogue
system). The budget (issue 36): a median of at most :data:`BUDGET_CPYTHON_MS` on CPython and
:data:`BUDGET_BROWSER_MS` in the browser, per log. Timings on a shared machine are noisy:
compare them within one run.

``tools/bench.py`` (``make bench``) calls :func:`cpython` and :func:`browser` and prints
their rows; run alone, this prints them itself.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
FIX = REPO / "tests" / "fixtures" / "nccltests"
HTML = REPO / "_build" / "html"

BUDGET_CPYTHON_MS = 50.0
"""Largest median parse + compare of one log on CPython, milliseconds (issue 36)."""

BUDGET_BROWSER_MS = 300.0
"""Largest median parse + compare of one log in the browser (Pyodide), milliseconds."""

CASES = (
    ("example (A3 Mega, 64 lines)", "a3mega_h100_2x8_all_reduce.log", "a3m", None),
    ("largest (p4d EFA, 596 lines)", "aws_efa_p4d_2x8_all_reduce.log", "dgx-a100", None),
    ("rack (GB200 NVL72, 12 lines)", "coreweave_gb200_nvl72_1rack_all_reduce.log",
     "gb200-nvl72", None),
    ("rows only (p4de, 31 lines)", "aws_p4de_a100_2x8_all_reduce_slurm_rows.log", "dgx-a100",
     None),
)
"""``(label, corpus file, system, collective)``: the logs timed. ``"a3m"`` is the example's
own hardware as the book's data records it (the page's default)."""


def _system(name):
    if name != "a3m":
        return name
    from interlib import validation

    first = next(m for m in validation.load_measurements() if m.series == "A3M")
    return validation.node_for(first)


def cpython(runs: int = 30) -> dict:
    """Median parse + compare per corpus log on CPython, ms: ``{label: {"first_ms",
    "median_ms", "runs", "budget_ms"}}`` (the first call of the process also reads the
    published runs and the intervals once)."""
    from interlib import nccltests

    out = {}
    for label, name, system, coll in CASES:
        text = nccltests.decode((FIX / name).read_bytes())
        sys_ = _system(system)
        times = []
        for _ in range(max(runs, 5) + 1):
            t = time.perf_counter()
            nccltests.compare(nccltests.parse(text, collective=coll), sys_)
            times.append((time.perf_counter() - t) * 1e3)
        out[label] = {"first_ms": times[0], "median_ms": statistics.median(times[1:]),
                      "runs": len(times) - 1, "budget_ms": BUDGET_CPYTHON_MS}
    return out


_JS = """async ([pyodideUrl, wheelUrl, logs, runs]) => {
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
  py.globals.set("LOGS", logs);
  py.globals.set("RUNS", runs);
  return py.runPython(`
import json, statistics, time
from interlib import nccltests, validation
def system(name):
    if name != "a3m":
        return name
    first = next(m for m in validation.load_measurements() if m.series == "A3M")
    return validation.node_for(first)
out = {}
for label, text, name in json.loads(LOGS):
    s = system(name)
    ms = []
    for _ in range(RUNS + 1):
        t = time.perf_counter()
        nccltests.compare(nccltests.parse(text), s)
        ms.append((time.perf_counter() - t) * 1e3)
    out[label] = [ms[0], statistics.median(ms[1:]), len(ms) - 1]
json.dumps(out)`);
}"""


def browser(runs: int = 10) -> dict:
    """The same in the browser: the built site's Pyodide and interlib wheel in a page of the
    site (headless Chromium, 127.0.0.1 only), timed inside Python, per log as
    :func:`cpython`. Needs ``make book`` (``_build/html``)."""
    sys.path.insert(0, str(REPO / "tests"))
    import browser_support as bs

    if not (HTML / "_static" / "interlib-live.json").is_file():
        raise SystemExit("no built site: run make book first")
    manifest = json.loads((HTML / "_static" / "interlib-live.json").read_text())
    from interlib import nccltests

    logs = [(label, nccltests.decode((FIX / name).read_bytes()), system)
            for label, name, system, _ in CASES]
    with bs.static_server(HTML) as url, bs.chromium_context() as ctx:
        page = ctx.new_page()
        # saveData: the page's own live demo does not start quietly beside the measurement
        page.add_init_script("Object.defineProperty(navigator, 'connection', "
                             "{value: {saveData: true}});")
        page.goto(f"{url}/book/check_cluster.html", wait_until="load")
        raw = page.evaluate(_JS, [f"{url}/_static/pyodide/",
                                  f"{url}/_static/{manifest['wheel']}", json.dumps(logs),
                                  max(runs, 3)])
    got = json.loads(raw)
    return {label: {"first_ms": v[0], "median_ms": v[1], "runs": v[2],
                    "budget_ms": BUDGET_BROWSER_MS} for label, v in got.items()}


def rows(where: str, result: dict) -> list:
    """Markdown table rows for a result of :func:`cpython` or :func:`browser`."""
    return [f"| check your cluster, {where}: {label} | {r['first_ms']:.0f} ms | "
            f"{r['median_ms']:.1f} ms | {r['budget_ms']:.0f} ms | "
            f"{'ok' if r['median_ms'] <= r['budget_ms'] else 'OVER'} |"
            for label, r in result.items()]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=30, help="timed calls per log (CPython)")
    p.add_argument("--browser", action="store_true", help="also time it in the browser")
    p.add_argument("--browser-runs", type=int, default=10, help="timed calls per log there")
    args = p.parse_args(argv)
    out = ["| what | first call | median | budget | |", "|---|---|---|---|---|"]
    res = cpython(args.runs)
    out += rows("CPython", res)
    over = any(r["median_ms"] > r["budget_ms"] for r in res.values())
    if args.browser:
        b = browser(args.browser_runs)
        out += rows("browser", b)
        over = over or any(r["median_ms"] > r["budget_ms"] for r in b.values())
    print("\n".join(out))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
