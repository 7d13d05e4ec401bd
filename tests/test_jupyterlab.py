"""Every notebook in the table of contents works in a real JupyterLab (headless Chromium).

One JupyterLab server for the module (127.0.0.1, free port, random token, ``--allow-root``
as root, a temporary copy of the notebooks as root_dir, no news/update/extension-manager
requests) and one browser. For each notebook listed in ``_toc.yml``:

* open it and wait for the kernel to be idle; clear the stored outputs and Run All; every
  code cell gets an execution count, none shows an error or stderr output, the page has no
  uncaught JavaScript error and makes no request that leaves 127.0.0.1;
* every demo (``interlib.widgets.show``) renders its plot image (with alt text) and its
  numbers; moving its first slider one step (a keydown on the slider handle) replaces the
  plot image within 20 s; if the printed numbers did not change (or the demo has no
  slider), its first dropdown is moved to the next option too, and the plot must follow
  again; the printed numbers must have changed after one of the moves, and must equal what
  CPython's ``interlib`` prints at the control values the kernel used (read from the
  figure's alt text; ``browser_support.expected_numbers_after``), each within 0.5 %;
* the notebook file in the repository is byte-identical afterwards (the copy is never
  saved either).

Why every chapter runs in full: demos only exist after their cells ran, and a chapter is
short (about 5 s of kernel time on 2 cores). JupyterLab itself is loaded once (~15 s) and
each further notebook is opened in it; after a failure the next test starts a fresh page. Servers and kernels are always stopped
(browser_support.jupyterlab_server).
"""

from __future__ import annotations

import hashlib

import pytest

from browser_support import REPO, external_requests, require_chromium

from conftest import toc_notebooks

require_chromium()

from browser_support import (LabNotebook, chromium_context,  # noqa: E402
                             expected_numbers_after, jupyterlab_server, numbers_agree)

NOTEBOOKS = toc_notebooks()


@pytest.fixture(scope="module")
def lab():
    """The server, the browser, and the JupyterLab page the next notebook reuses (None:
    load JupyterLab in a new page, as after a failure)."""
    with jupyterlab_server(NOTEBOOKS) as server, chromium_context() as context:
        yield server, context, {"page": None}


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[str(n.relative_to(REPO)) for n in NOTEBOOKS])
def test_notebook_runs_and_demos_update_in_jupyterlab(lab, nb):
    server, context, shared = lab
    rel = str(nb.relative_to(REPO))
    digest = hashlib.sha256(nb.read_bytes()).hexdigest()
    reuse, shared["page"] = shared["page"], None
    page = LabNotebook(context, server, rel, page=reuse)
    ok = False
    try:
        page.run_all()
        counts = page.execution_counts()
        assert counts and all(isinstance(n, int) and n > 0 for n in counts), (
            f"{rel}: not every code cell ran: {counts}")
        assert not page.error_outputs(), f"{rel}: error/stderr outputs:\n" + "\n".join(
            page.error_outputs())
        demos = page.demos()
        problems = []
        for i in range(demos.count()):
            demo = demos.nth(i)
            before = page.state(demo)
            if not (before["src"] and before["width"] > 0):
                problems.append(f"demo {i}: no plot image rendered")
                continue
            if len((before["alt"] or "").strip()) < 15:
                problems.append(f"demo {i}: plot image without meaningful alt text")
            label = f"demo {i} ({before['alt'][:60]})"
            has_slider = demo.locator(".noUi-handle").count() > 0
            has_select = demo.locator("select").count() > 0
            # A slider first (one step); if the numbers do not depend on it (or there is
            # none), the first dropdown as well: the plot must follow each move, and the
            # printed numbers at least one of them.
            kinds = (["slider"] if has_slider else []) + (["select"] if has_select else [])
            text_changed = False
            start = before["text"]
            for kind in kinds:
                ms = page.move_first_control(demo, kind=kind)
                after = page.state(demo)
                if ms is None:
                    problems.append(f"{label}: plot did not update after a {kind} move")
                    break
                text_changed = text_changed or before["text"] != after["text"]
                before = after
                if text_changed:
                    break
            if kinds and before["text"] is not None and not text_changed:
                problems.append(f"{label}: printed numbers unchanged after moving {kinds}")
            elif kinds and before["text"] is not None:
                # the numbers the kernel printed are CPython's interlib for the same values
                want = expected_numbers_after(start, before["alt"] or "")
                if want is None:
                    problems.append(f"{label}: no demo prints {start!r} at its defaults")
                elif not numbers_agree(before["text"], want):
                    problems.append(f"{label}: printed {before['text']!r}, "
                                    f"interlib gives {want!r}")
        assert not problems, f"{rel}:\n" + "\n".join(problems)
        assert not page.errors, f"{rel}: JavaScript errors:\n" + "\n".join(page.errors)
        external = external_requests(page.requests)
        assert not external, f"{rel}: requests leaving 127.0.0.1:\n" + "\n".join(external)
        ok = True
    finally:
        if ok:  # keep JupyterLab loaded for the next notebook
            page.close_notebook()
            shared["page"] = page.page
        else:
            page.close()
        for k in server.api("/api/kernels"):  # one kernel at a time on 2 cores
            server.api(f"/api/kernels/{k['id']}", method="DELETE")
    assert hashlib.sha256(nb.read_bytes()).hexdigest() == digest, f"{rel} was modified"
