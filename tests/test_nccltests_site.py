"""'Check your cluster' on the static site, in a real browser (headless Debian Chromium).

The built site is served on 127.0.0.1 and every request elsewhere is refused (and fails the
test). A published log is pasted into the page's text box and another read from a file
(the browser reads it; nothing is uploaded); after each the live figure's alt text and the
printed verdict must equal CPython's ``interlib`` for the same values, and no host name of
the log may appear in them. A file over the limit is refused in place.
Needs /usr/bin/chromium (skipped with a message otherwise, as the other browser tests).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import browser_support as bs

bs.require_chromium()

FIX = Path(__file__).parent / "fixtures" / "nccltests"
DEMO = "check_cluster"
LOAD_TIMEOUT_MS = 180_000
RENDER_TIMEOUT_MS = 60_000
HOSTS = ("nccl-tests-efa", "nccl-allreduce-job0", "172.31.", "10.0.122.91")

_STATE = """() => {
  const d = document.querySelector('.interlib-demo[data-demo="check_cluster"]');
  const err = d.querySelector('.interlib-live-error');
  return {alt: d.querySelector('.interlib-plot img').getAttribute('alt'),
          numbers: (d.querySelector('.interlib-numbers pre') || {}).textContent || '',
          params: d.dataset.params || null, renders: Number(d.dataset.liveRenders || 0),
          error: err && !err.hidden ? err.textContent : null}; }"""


@pytest.fixture(scope="module")
def page(server):
    with bs.chromium_context() as context:
        refused = []

        def guard(route):
            if bs.external_requests([route.request.url]):
                refused.append(route.request.url)
                route.abort()
            else:
                route.continue_()

        context.route("**/*", guard)
        pg = context.new_page()
        pg.goto(f"{server}/book/check_cluster.html", wait_until="load")
        pg.locator(f'.interlib-demo[data-demo="{DEMO}"] .interlib-live-button').click()
        pg.wait_for_function(
            """() => Number(document.querySelector('.interlib-demo[data-demo="check_cluster"]')
                             .dataset.liveRenders || 0) > 0""", timeout=LOAD_TIMEOUT_MS)
        yield pg
        assert not refused, "requests leaving 127.0.0.1:\n" + "\n".join(refused)


def _wait(page, renders):
    page.wait_for_function(
        """(n) => { const d = document.querySelector('.interlib-demo[data-demo="check_cluster"]');
                    return Number(d.dataset.liveRenders || 0) > n
                           && !d.querySelector('.interlib-plot[aria-busy]'); }""",
        arg=renders, timeout=RENDER_TIMEOUT_MS)
    return page.evaluate(_STATE)


def _expected(params):
    import matplotlib.pyplot as plt

    from interlib import widgets

    fig = widgets.get(DEMO).func(**params)
    try:
        return widgets.summary(DEMO, **params), widgets.figure_alt(fig, DEMO, params)
    finally:
        plt.close(fig)


def _own_node(page, gpu, nics, gbps, fabric):
    sel = f'.interlib-demo[data-demo="{DEMO}"] form.interlib-controls'
    page.select_option(f'{sel} [name="hardware"]', json.dumps("Your node (set below)"))
    page.select_option(f'{sel} [name="gpu"]', json.dumps(gpu))
    page.select_option(f'{sel} [name="nic_gbps"]', json.dumps(gbps))
    page.select_option(f'{sel} [name="fabric"]', json.dumps(fabric))
    page.evaluate("""([n]) => { const el = document.querySelector(
        '.interlib-demo[data-demo="check_cluster"] [name="nics_per_node"]');
        el.value = String(n); el.dispatchEvent(new Event('input', {bubbles: true})); }""", [nics])


def test_pasted_log_matches_cpython(page):
    _own_node(page, "A100 SXM 80GB", 4, 100.0, "EFA")
    state = page.evaluate(_STATE)
    text = (FIX / "aws_efa_p4d_2x8_all_reduce.log").read_text(encoding="utf-8")
    page.fill(f'.interlib-demo[data-demo="{DEMO}"] textarea[name="log"]', text)
    state = _wait(page, state["renders"])
    params = json.loads(state["params"])
    assert params["log"] == text and params["nics_per_node"] == 4
    numbers, alt = _expected(params)
    assert state["numbers"] == numbers and state["alt"] == alt
    assert "within the band" in numbers and "A100" in numbers
    assert not [h for h in HOSTS if h in state["numbers"] + state["alt"]]


def test_file_is_read_in_the_browser(page, tmp_path):
    state = page.evaluate(_STATE)
    log = FIX / "oci_oke_a100_2x8_all_reduce.log"
    page.set_input_files(f'.interlib-demo[data-demo="{DEMO}"] input[type=file]', str(log))
    state = _wait(page, state["renders"])
    params = json.loads(state["params"])
    assert params["log"] == log.read_text(encoding="utf-8")
    numbers, alt = _expected(params)
    assert state["numbers"] == numbers and state["alt"] == alt
    assert not [h for h in HOSTS if h in state["numbers"] + state["alt"]]


def test_file_over_the_limit_is_refused(page, tmp_path):
    from interlib import nccltests

    big = tmp_path / "huge.log"
    big.write_bytes(b"#" * (nccltests.MAX_CHARS + 1))
    before = page.evaluate(_STATE)
    page.set_input_files(f'.interlib-demo[data-demo="{DEMO}"] input[type=file]', str(big))
    page.wait_for_function(
        """() => !!document.querySelector('.interlib-demo[data-demo="check_cluster"] '
                                          + '.interlib-live-error:not([hidden])')""",
        timeout=RENDER_TIMEOUT_MS)
    state = page.evaluate(_STATE)
    assert "the limit is 10 MB" in state["error"]
    assert state["renders"] == before["renders"]


def test_utf16_file_and_amd_log_in_the_browser(page, tmp_path):
    """A file saved by Windows PowerShell (UTF-16) reads to the same verdict as in CPython,
    and an AMD rccl-tests log is read, then not compared, in the page's words."""
    state = page.evaluate(_STATE)
    log = FIX / "oci_oke_a100_2x8_all_reduce.utf16le.log"
    page.set_input_files(f'.interlib-demo[data-demo="{DEMO}"] input[type=file]', str(log))
    state = _wait(page, state["renders"])
    params = json.loads(state["params"])
    numbers, alt = _expected(params)
    assert state["numbers"] == numbers and "16 GPUs" in numbers
    amd = (FIX / "amd_mi300x_1x8_all_reduce_k8s.log").read_text(encoding="utf-8")
    page.fill(f'.interlib-demo[data-demo="{DEMO}"] textarea[name="log"]', amd)
    state = _wait(page, state["renders"])
    assert state["numbers"].startswith("Read, not compared: Read exactly: 31 sizes on 8 ranks")
    assert "nvidia-smi" not in state["numbers"] and "collective=" not in state["numbers"]


def test_unreadable_paste_says_why(page):
    state = page.evaluate(_STATE)
    page.fill(f'.interlib-demo[data-demo="{DEMO}"] textarea[name="log"]', "not a log at all")
    state = _wait(page, state["renders"])
    assert state["numbers"].startswith("No comparison: no nccl-tests results table found")
