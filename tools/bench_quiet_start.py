"""`tools/bench_quiet_start.py`: the live demos' quiet start, measured (issue 26, item 7).

Per chapter page, each in a fresh browser (cold cache), side by side:

* quiet start: scroll to the first demo, time until the worker is ready (the lead a reader
  needs beside the demo), wait for its warm-up frame to come back, then click "Run live":
  ms to the first live figure;
* saveData (no quiet start, the behaviour before it): scroll, click at once: ms to the
  first live figure.

Needs the built site (make book) and /usr/bin/chromium. Not a test: the numbers depend on
the machine's load, so compare the lines of one run. Prints one line per run, then JSON.
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import bench as B  # noqa: E402
import browser_support as bs  # noqa: E402

PAGES = ("chapters/01_why_connect.html", "chapters/04_nvswitch.html",
         "chapters/07_hierarchy.html")


def main():
    pages = {rel: re.findall(r'<div class="interlib-demo" data-demo="([^"]+)"',
                             (B.HTML / rel).read_text(encoding="utf-8")) for rel in PAGES}
    out = []
    with bs.static_server(B.HTML) as url:
        for i, (rel, names) in enumerate(pages.items()):
            # the two ways alternate which goes first (the machine's load drifts)
            for mode in (("quiet", "save") if i % 2 == 0 else ("save", "quiet")):
                with bs.chromium_context() as ctx:
                    page = ctx.new_page()
                    if mode == "save":
                        page.add_init_script(B.SAVE_DATA_JS)
                    page.goto(f"{url}/{rel}", wait_until="load")
                    bs.Recorder(page).settle(page, quiet_s=0.5)  # the page's own loads done
                    t0 = time.monotonic()
                    page.evaluate(B._JS_SCROLL, names[0])
                    if mode == "quiet":
                        page.wait_for_function(
                            "() => window.interlibLive.state().phase === 'ready'",
                            timeout=300000)
                        ready = time.monotonic() - t0
                        page.wait_for_function(  # the warm-up frame drawn and back
                            "() => { const s = window.interlibLive.state();"
                            "        return s.sent >= 1 && s.inflight === 0; }",
                            timeout=300000)
                        ms = page.evaluate(B._JS_FIRST_FIGURE, names[0])
                        print(f"{rel}: quiet start ready {ready:.1f} s after the scroll; then "
                              f"click -> first live figure {ms:.0f} ms", flush=True)
                    else:
                        ready = None
                        ms = page.evaluate(B._JS_FIRST_FIGURE, names[0])
                        print(f"{rel}: saveData, click at once -> first live figure "
                              f"{ms:.0f} ms", flush=True)
                    out.append({"page": rel, "mode": mode, "ready_s": ready, "first_ms": ms})
    print(json.dumps(out))


if __name__ == "__main__":
    main()
