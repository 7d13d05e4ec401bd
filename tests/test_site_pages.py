"""What a reader of the built site gets, page by page (headless Debian Chromium).

One server and one browser for the module; every page of ``_toc.yml``:

* **Accessibility**: axe-core (axe-playwright-python, offline) in light and in dark mode
  (``html[data-theme=dark]``, what the theme switcher sets) finds no *serious* or
  *critical* violation. ``label-content-name-mismatch`` (a control whose accessible name
  differs from its visible text, e.g. a toggle announced "Toggle hidden content" that shows
  "Show code cell source") is experimental in axe: it runs too, over the page's article
  content.
* **Phone (390 CSS px)**, every chapter: no word in a table cell is broken across lines
  (tables scroll sideways instead), no table or display formula is clipped (each fits or
  sits in a box that scrolls), no display formula is wider than the column (beyond the
  known ones, :data:`WIDE_FORMULAS_KNOWN`: none), the page itself does not scroll
  sideways, every box that scrolls can be scrolled by keyboard (axe
  ``scrollable-region-focusable``), and every slider keeps a usable width
  (:data:`MIN_SLIDER_PX`).
* **One figure per idea, no plumbing**, every chapter: no image appears twice on the page
  (a demo's figure is the figure), and no rendered code cell shows a plumbing call
  (``widgets.show``, ``print(widgets.summary``, ``display(``): those cells are hidden with
  cell tags (tests/test_notebook_hygiene.py checks the tags).

Needs /usr/bin/chromium (Debian package ``chromium``; never ``playwright install``);
skipped with a message without it, failed under INTERCONNECTS_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import html
import re

import pytest

from browser_support import chromium_context, require_chromium, static_server
from conftest import HTML, toc_docnames

require_chromium()

PAGES = toc_docnames()
CHAPTERS = [d for d in PAGES if d.startswith("chapters/")]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 1000}
#: A slider narrower than this (CSS px) cannot be set precisely with a finger or a mouse.
MIN_SLIDER_PX = 150
BLOCKING = ("serious", "critical")
PLUMBING = re.compile(r"widgets\.show\(|print\(\s*widgets\.summary|(?<![\w.])display\(")


@pytest.fixture(scope="module")
def browser_site(book_build):
    assert book_build.returncode == 0, "book build failed:\n" + book_build.output[-4000:]
    with static_server(HTML) as url, chromium_context(viewport=(DESKTOP["width"],
                                                                DESKTOP["height"]),
                                                      save_data=True) as ctx:
        yield url, ctx


@pytest.fixture(scope="module")
def site(browser_site):
    url, ctx = browser_site
    page = ctx.new_page()
    yield url, page
    page.close()


def _open(page, url, docname, viewport):
    page.set_viewport_size(viewport)
    page.goto(f"{url}/{docname}.html", wait_until="load")
    if page.locator("div.math, span.math").count():
        # attached, not visible: a page whose first formula sits in a folded answer
        # (Chapter 7's worked problem) has it typeset but hidden
        page.wait_for_selector("mjx-container", state="attached", timeout=20000)
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")


# --- accessibility --------------------------------------------------------------------------

_AXE_OPTIONS = {"resultTypes": ["violations"]}
# Experimental in axe, so run on its own, over the article (the theme's icon-font
# buttons, named for what they do, would count their glyphs as visible text).
_AXE_NAME_MATCH = {"resultTypes": ["violations"],
                   "runOnly": {"type": "rule", "values": ["label-content-name-mismatch"]}}


# The theme's own switch (the navbar button: light -> auto -> dark, as a reader clicks it;
# pydata-sphinx-theme's setTheme sets html[data-mode][data-theme], the dropdown menus'
# class and localStorage), then the colour transitions finished: the same document a page
# loaded in dark mode shows, without loading and typesetting every page a second time.
_JS_TO_DARK = """async () => {
  const button = document.querySelector('.theme-switch-button');
  button.click();  // light -> auto (the system's scheme: light in headless Chromium)
  button.click();  // auto -> dark
  await Promise.all(document.getAnimations().map(a => a.finished));
  return document.documentElement.dataset.theme;
}"""


def _axe_violations(page, context, options) -> list:
    """``axe.run(context, options)``'s violations on ``page``, where axe-core is already
    injected (once per page load, :func:`desktop`). axe-playwright-python's
    ``Axe.run`` does exactly this after injecting its 570 kB script again on every call;
    axe.run sets up and tears down its own state each run, so the four runs of a page
    report the same as with four injections (checked on six pages: the same rules, nodes
    and impacts; only FontAwesome's random per-load SVG ids in the one example node of a
    pass differ, as between two loads)."""
    from axe_playwright_python.sync_playwright import Axe

    return page.evaluate("axe.run(%s)" % Axe._format_script_args(context=context,
                                                                  options=options)
                         )["violations"]


@pytest.fixture(scope="module")
def desktop(browser_site):
    """Every page loaded once at 1280 px, in light mode: its report link
    (:data:`_JS_REPORT_LINK`), what sticks out of its box (:data:`_JS_WIDER_THAN_BOX`) and,
    on a chapter, its images and rendered code (:data:`_JS_IMAGES_AND_CODE`); then axe in
    light, the page switched to dark, and axe again. ``{"axe": {mode: [problem, ...]},
    "wider": [...], "figures": {docname: ...}, "report": {docname: ...}}``: one load of the
    site serves the four desktop checks below."""
    from axe_playwright_python.sync_playwright import Axe

    url, ctx = browser_site
    page = ctx.new_page()
    # What the theme switcher stores; the theme applies it before the page is painted
    # (the previous page's switch to dark stored theme=dark: each page starts light).
    page.add_init_script("localStorage.setItem('mode', 'light'); "
                         "localStorage.setItem('theme', 'light')")
    axe = Axe()
    found = {"axe": {"light": [], "dark": []}, "wider": [], "figures": {}, "report": {}}
    for docname in PAGES:
        _open(page, url, docname, DESKTOP)
        found["report"][docname] = page.evaluate(_JS_REPORT_LINK) | {"url": page.url}
        found["wider"] += [f"{docname}: {w}" for w in page.evaluate(_JS_WIDER_THAN_BOX)]
        if docname in CHAPTERS:
            found["figures"][docname] = page.evaluate(_JS_IMAGES_AND_CODE)
        page.evaluate(axe.axe_script)  # once per load: _axe_violations
        for mode in ("light", "dark"):
            if mode == "dark":
                assert page.evaluate(_JS_TO_DARK) == "dark", docname
            assert page.evaluate("() => document.documentElement.dataset.theme") == mode
            problems = _axe_violations(page, None, _AXE_OPTIONS)
            problems += _axe_violations(page, ".bd-article", _AXE_NAME_MATCH)
            for v in problems:
                if v["impact"] in BLOCKING:
                    nodes = "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:3])
                    found["axe"][mode].append(
                        f"{docname} [{mode}] {v['impact']} {v['id']} ({len(v['nodes'])}x): "
                        f"{v['help']} | e.g. {nodes}")
    page.close()
    assert set(found["figures"]) == set(CHAPTERS)
    return found


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_axe_no_serious_violations(desktop, mode):
    problems = desktop["axe"][mode]
    assert not problems, "axe-core violations:\n" + "\n".join(problems)


# --- phone layout ---------------------------------------------------------------------------

# Every word (a run of letters, digits, dots, commas, %, ×) in a table cell that the
# browser laid out on more than one line. Breaks after hyphens and slashes are fine.
_JS_BROKEN_WORDS = r"""() => {
  const out = [];
  const word = /[\p{L}\p{N}.,%×]+/gu;
  for (const cell of document.querySelectorAll('.bd-content table td, .bd-content table th')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      for (const m of n.textContent.matchAll(word)) {
        if (m[0].length < 2) continue;
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const tops = new Set([...r.getClientRects()].filter(x => x.width > 0)
                               .map(x => Math.round(x.top)));
        if (tops.size > 1) out.push(m[0]);
      }
    }
  }
  return out;
}"""

# Tables and display formulas: a box that does not fit inside an ancestor that clips
# (overflow-x other than visible) is clipped, unless that ancestor scrolls sideways; and
# nothing may run off the page.
_JS_CLIPPED = r"""() => {
  const clipped = [];
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0) return;                          // not shown (a closed toggle)
    const text = (el.textContent || '').trim().slice(0, 60);
    for (let a = el.parentElement; a && a !== document.documentElement; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'visible') continue;
      const ar = a.getBoundingClientRect();
      if (r.right > ar.right + 1 || r.left < ar.left - 1) {
        if (ox !== 'auto' && ox !== 'scroll') clipped.push(what + ' clipped: ' + text);
        return;                                         // else: reachable by scrolling
      }
    }
    if (r.right > document.documentElement.clientWidth + 1)
      clipped.push(what + ' runs off the page: ' + text);
  };
  document.querySelectorAll('.bd-content table').forEach(t => check(t, 'table'));
  document.querySelectorAll('.bd-content div.math mjx-container')
          .forEach(m => check(m, 'display maths'));
  return clipped;
}"""

# Display formulas wider than the column they sit in (they scroll sideways in MathJax's
# container, which _JS_CLIPPED accepts): a reader on a phone should see a formula whole.
# Each is reported with the start of its TeX source (MathJax's own record of it).
_JS_WIDE_FORMULAS = r"""() => {
  const tex = new Map();
  const doc = window.MathJax && MathJax.startup && MathJax.startup.document;
  if (doc) for (const item of doc.math) if (item.typesetRoot) tex.set(item.typesetRoot, item.math);
  const out = [];
  document.querySelectorAll('.bd-content div.math mjx-container').forEach(m => {
    const col = m.closest('div.math').clientWidth;
    if (col === 0) return;                              // not shown (a closed toggle)
    const svg = m.querySelector('svg, mjx-math');
    const w = Math.max(m.scrollWidth, svg ? svg.getBoundingClientRect().width : 0);
    if (w > col + 1)
      out.push(`${Math.round(w)} px in ${col} px: ` +
               (tex.get(m) || m.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 70));
  });
  return out;
}"""

#: Display formulas still wider than a 390 px phone's column, by page: (start of the TeX,
#: why it stays). A ratchet: the phone test fails when a page has more than these.
#: None remain: every long display is split with gathered/aligned (issue 26).
WIDE_FORMULAS_KNOWN: dict[str, list[tuple[str, str]]] = {}

# Wider than its box: an image or table wider than the content column it sits in (at 1280 px
# nothing may need sideways scrolling), or a table whose caption is out of view.
_JS_WIDER_THAN_BOX = r"""() => {
  const out = [];
  const col = document.querySelector('.bd-content') || document.body;
  const colRight = col.getBoundingClientRect().right;
  const box = (el) => {
    for (let a = el.parentElement; a && a !== col; a = a.parentElement) {
      const ox = getComputedStyle(a).overflowX;
      if (ox === 'auto' || ox === 'scroll' || ox === 'hidden') return a;
    }
    return col;
  };
  const check = (el, what) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0) return;
    const b = box(el).getBoundingClientRect();
    const right = Math.min(b.right, colRight);
    if (r.right > right + 1)
      out.push(`${what} ${Math.round(r.width)} px in a ${Math.round(right - b.left)} px box: ` +
               (el.getAttribute('alt') || el.textContent || '').trim().slice(0, 50));
  };
  document.querySelectorAll('.bd-content img').forEach(i => check(i, 'image'));
  document.querySelectorAll('.bd-content table').forEach(t => check(t, 'table'));
  document.querySelectorAll('.bd-content table caption').forEach(c => check(c, 'caption'));
  return out;
}"""

# A demo's figure on a phone: the image must fit its box (a phone layout, not a cut one).
_JS_CUT_FIGURES = r"""() => [...document.querySelectorAll('.interlib-plot img')]
  .map(i => ({alt: (i.alt || '').slice(0, 40), w: i.getBoundingClientRect().width,
              box: i.closest('.interlib-plot').clientWidth}))
  .filter(x => x.w > x.box + 1)"""

# Touch targets (WCAG 2.5.5): every control of a demo at least 44 x 44 CSS px.
MIN_TARGET_PX = 44
_JS_SMALL_TARGETS = r"""(min) => [...document.querySelectorAll(
    '.interlib-demo select, .interlib-demo button, .interlib-demo input, ' +
    '.interlib-demo summary')]
  .map(e => ({what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : e.className ? '.' + e.className : ''),
              r: e.getBoundingClientRect()}))
  .filter(x => x.r.width > 0 && (x.r.height < min - 0.5 || x.r.width < min - 0.5))
  .map(x => `${x.what} ${Math.round(x.r.width)} x ${Math.round(x.r.height)} px`)"""

_JS_SLIDERS = """() => [...document.querySelectorAll('.bd-content input[type=range]')]
  .map(s => ({id: s.id, width: s.getBoundingClientRect().width}))"""


_AXE_SCROLL = {"resultTypes": ["violations"],
               "runOnly": {"type": "rule", "values": ["scrollable-region-focusable"]}}


def test_phone_layout(site):
    from axe_playwright_python.sync_playwright import Axe

    url, page = site
    axe = Axe()
    problems = []
    checked_sliders = 0
    for docname in CHAPTERS:
        _open(page, url, docname, PHONE)
        # What scrolls sideways here (tables, figures, formulas) can be scrolled by keyboard.
        for v in axe.run(page, options=_AXE_SCROLL).response["violations"]:
            problems += [f"{docname}: {v['id']}: {' '.join(map(str, n['target']))}"
                         for n in v["nodes"]]
        broken = page.evaluate(_JS_BROKEN_WORDS)
        if broken:
            problems.append(f"{docname}: table words broken across lines: {broken[:8]}")
        problems += [f"{docname}: {c}" for c in page.evaluate(_JS_CLIPPED)]
        wide_maths = page.evaluate(_JS_WIDE_FORMULAS)
        known = WIDE_FORMULAS_KNOWN.get(docname, [])
        if len(wide_maths) > len(known):
            problems.append(f"{docname}: {len(wide_maths)} display formulas wider than the "
                            f"column (known: {len(known)}): " + " | ".join(wide_maths))
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        if wide > PHONE["width"] + 1:
            problems.append(f"{docname}: the page is {wide} px wide at {PHONE['width']} px")
        problems += [f"{docname}: demo figure cut: {c}" for c in page.evaluate(_JS_CUT_FIGURES)]
        problems += [f"{docname}: touch target under {MIN_TARGET_PX} px: {t}"
                     for t in page.evaluate(_JS_SMALL_TARGETS, MIN_TARGET_PX)]
        for s in page.evaluate(_JS_SLIDERS):
            checked_sliders += 1
            if s["width"] < MIN_SLIDER_PX:
                problems.append(f"{docname}: slider {s['id']} is {s['width']:.0f} px wide "
                                f"(< {MIN_SLIDER_PX})")
    assert checked_sliders > 0, "no slider found on any chapter page: is the demo HTML shown?"
    assert not problems, "at 390 px:\n" + "\n".join(problems)


def test_desktop_nothing_wider_than_its_box(desktop):
    """At 1280 px every image and table (and a table's caption) fits the content column:
    nothing is hidden behind a sideways scroll on a desktop."""
    assert not desktop["wider"], "at 1280 px:\n" + "\n".join(desktop["wider"])


# --- one figure per idea, no plumbing -------------------------------------------------------

_JS_IMAGES_AND_CODE = """() => ({
  images: [...document.querySelectorAll('.bd-content img')].map(i => i.getAttribute('src')),
  code: [...document.querySelectorAll('.bd-content div.cell_input')].map(c => c.textContent)
})"""


def test_each_figure_once_and_no_plumbing(desktop):
    problems = []
    for docname, got in desktop["figures"].items():
        seen = {}
        for i, src in enumerate(got["images"]):
            if src in seen:
                problems.append(f"{docname}: image {i} repeats image {seen[src]} "
                                f"({src[:60]}...)")
            seen.setdefault(src, i)
        for code in got["code"]:
            m = PLUMBING.search(code)
            if m:
                problems.append(f"{docname}: a rendered code cell shows plumbing "
                                f"{m.group(0)!r}: {code.strip()[:80]!r}")
    assert not problems, "\n".join(problems)


# --- one way to report a problem --------------------------------------------------------------

#: Where the cluster checker lives: its "Share your run" section links to the share-a-run issue
#: form (interlib.nccltests.sharing.FORM), which is a contribution, not a report.
SHARE_PAGES = {"book/check_cluster"}


def _issue_template(href: str) -> str | None:
    from urllib.parse import parse_qs, urlsplit

    return parse_qs(urlsplit(html.unescape(href)).query).get("template", [None])[0]


def test_one_report_link_per_page(book_build):
    """Every page links to a new *report* exactly once: the footer's prefilled "Report a
    problem with this page" (book/_ext/open_book.py). The theme's own issue button, whose
    issue body reads "Your issue content here.", is off (_config.yml). The only other
    new-issue link a page may have is the cluster checker's share-a-run form, and only where
    the checker lives (:data:`SHARE_PAGES`): a link with no template, or another one, fails."""
    from interlib.nccltests.sharing import FORM

    assert book_build.returncode == 0, "book build failed:\n" + book_build.output[-4000:]
    problems = []
    shared = set()
    for docname in PAGES:
        text = (HTML / f"{docname}.html").read_text(encoding="utf-8")
        links = re.findall(r'href="([^"]*/issues/new[^"]*)"', text)
        templates = [_issue_template(h) for h in links]
        reports = [h for h, t in zip(links, templates) if t == "report-a-problem.yml"]
        if len(reports) != 1:
            problems.append(f"{docname}: {len(reports)} report links: {reports}")
        for h, t in zip(links, templates):
            if t == "report-a-problem.yml":
                continue
            if t == FORM and docname in SHARE_PAGES:
                shared.add(docname)
                continue
            problems.append(f"{docname}: a new-issue link that is neither its report link "
                            f"nor the checker's {FORM}: {h[:120]}")
        if "Your issue content here" in text:
            problems.append(f"{docname}: the theme's empty issue link is there")
    # the exception is used where it is granted (else it is a hole in the rule)
    assert shared == SHARE_PAGES, f"no share-a-run link on {sorted(SHARE_PAGES - shared)}"
    assert not problems, "\n".join(problems)


# The footer's report link as the reader's browser has it (book/_ext/open_book.py fills in
# the page's address when the page loads): how many, whether it shows, its href, the h1.
_JS_REPORT_LINK = """() => {
  const links = [...document.querySelectorAll('a.interlib-report')];
  const a = links[0], h1 = document.querySelector('article h1, main h1, h1');
  const r = a ? a.getBoundingClientRect() : null;
  return {count: links.length,
          visible: !!a && r.width > 0 && r.height > 0
                   && getComputedStyle(a).visibility !== 'hidden',
          href: a ? a.getAttribute('href') : null,
          h1: h1 ? h1.textContent.replace('#', '').trim() : null};
}"""


def test_every_page_has_a_prefilled_report_link(desktop):
    """In the browser, on every page: one report link, to the configured repository's issue
    form, prefilled with the page's own title (its h1), the address the reader has open,
    the edition and the page's source file (issue 29; the static count of report links is
    test_one_report_link_per_page above)."""
    from urllib.parse import parse_qs, urlparse

    from test_open_book import CONFIG, FORM, edition

    built = edition.current()
    repo = CONFIG["repository"]["url"].rstrip("/")
    assert set(desktop["report"]) == set(PAGES)
    for docname, got in desktop["report"].items():
        assert got["count"] == 1, f"{docname}: {got['count']} report links"
        assert got["visible"], f"{docname}: the report link is not visible"
        u = urlparse(got["href"])
        assert f"{u.scheme}://{u.netloc}{u.path}" == repo + "/issues/new", got["href"]
        q = {k: v[0] for k, v in parse_qs(u.query).items()}
        h1, address = got["h1"], got["url"].split("#")[0]
        assert q["template"] == FORM.name
        assert q["page"] == h1 and q["title"] == f"[{built.version}] {h1}: ", (docname, q)
        assert q["url"] == address, (docname, q["url"], got["url"])
        assert q["edition"] == built.text
        assert q["source-file"].startswith(docname + ".")
        assert address in q["body"] and built.text in q["body"]


# --- the checkers themselves ----------------------------------------------------------------

_DEFECTS = """<!doctype html><html><body><div class="bd-content" style="width:300px">
<table><tr><td style="width:40px;overflow-wrap:anywhere">Infiniband</td></tr></table>
<div class="math" style="display:flex;overflow:hidden"><mjx-container
  style="display:block;white-space:nowrap">a very long formula that does not fit in the
  column at all, clipped by its parent</mjx-container></div>
<input type="range" id="narrow" style="width:60px">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="a">
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="b">
<div class="cell_input"><pre>widgets.show("x")</pre></div>
<div style="overflow-x:auto"><table><tr><td style="white-space:nowrap">a table much wider
than the three hundred pixel column it sits in</td></tr></table></div>
<div class="interlib-demo"><select id="tiny" style="height:20px"><option>1</option></select>
<div class="interlib-plot" style="width:200px;overflow:hidden"><img alt="cut"
  src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='400' height='10'/%3E"></div></div>
</div></body></html>"""


def test_checkers_catch_known_defects(site):
    """Each in-page checker finds its defect on a page made to have it (so a passing
    test above means the defect is absent, not that the checker is blind)."""
    _, page = site
    page.set_viewport_size(PHONE)
    page.set_content(_DEFECTS)
    assert "Infiniband" in page.evaluate(_JS_BROKEN_WORDS)
    assert any(c.startswith("display maths clipped") for c in page.evaluate(_JS_CLIPPED))
    assert [s["id"] for s in page.evaluate(_JS_SLIDERS)
            if s["width"] < MIN_SLIDER_PX] == ["narrow"]
    assert any(w.startswith("table") for w in page.evaluate(_JS_WIDER_THAN_BOX))
    assert [c["alt"] for c in page.evaluate(_JS_CUT_FIGURES)] == ["cut"]
    assert any(t.startswith("select#tiny") for t in page.evaluate(_JS_SMALL_TARGETS, 44))
    got = page.evaluate(_JS_IMAGES_AND_CODE)
    assert len(got["images"]) == 3 and len(set(got["images"][:2])) == 1
    assert PLUMBING.search(got["code"][0])
