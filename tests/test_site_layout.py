"""Every page of the built site laid out whole, at 1280, 960 and 390 CSS px, light and dark
(headless Debian Chromium; issue 34, "tables that read whole").

One server, one browser, each page loaded once per width; both colour modes are measured on
that load (the mode is switched in place, as the theme's switcher does), all in-page:

* **No word or number on two lines.** Every word of every table (cells, headings, captions:
  the generated ``interlib.display.Table`` ones, the pages' markdown tables, tables in
  notebook outputs), and of the rest of the page's text outside code, is laid out on one
  line. A word may break after a hyphen or a dash, and where the HTML offers a break
  (``<wbr>``, which splits the text: long paths and code names, ``display.breakable``); in
  a link or code also after a slash; a link whose text is a URL may break anywhere (a
  commit hash in it is no word). Nowhere else: "4,0/96", "NVLi/nk", "$4,358,54/0" and
  "GB//s" fail.
* **No sideways scroll of the page.** The document is no wider than the window.
* **No table wider than its box** (nothing hidden behind a sideways scroll), except on a
  phone a table that keeps its first column in place (``position: sticky``) while the rest
  scrolls, the layout the site falls back to without its script.
* **Columns that do not run together.** In a table laid out as a table (not as cards), the
  text of each cell ends at least :data:`MIN_COLUMN_GAP` px before the text of the cell to
  its right begins ("AWS Trainium3 (Trn3" and "NeuronLink-v3" 2 px apart read as one run).
* **No tall blank rows.** No table row :data:`TALL_ROW_LINES` or more lines high because one
  of its cells holds fewer than :data:`SQUEEZED_CHARS_PER_LINE` characters a line (a column
  squeezed to a word's width, the rest of the row blank); a table too wide for a phone
  becomes a card per row instead.
* **Figures and formulas fit.** Every image (demo figures, diagrams, static plots) and every
  formula lies inside its box and the window.
* **A demo's controls inside its border.** Every slider, menu, readout and number box of a
  demo lies within the demo's box (on the static page: saveData, so no demo goes live;
  tests/test_site_slider_ends.py drags them live).

Counted by this test on main at a78d13d, before the fix (the same in light and dark): at
1280 px 607 table words on two lines on 16 pages, 25 tall blank rows on 7 pages, 1 page
scrolling sideways (Appendix C); at 960 px 694 words on 16 pages, 26 tall rows on 8 pages, 1
page sideways; at 390 px 37 tables wider than their box on 15 pages, 93 tall blank rows on
14 pages, 2 pages sideways (the instructors' page, Appendix C), 2 static figures of 600 px in
a 358 px box, 1 inline formula outside its box and 1 word on two lines outside tables.

Needs /usr/bin/chromium (Debian package ``chromium``; never ``playwright install``);
skipped with a message without it, failed under INTERCONNECTS_REQUIRE_BROWSER=1.
"""

from __future__ import annotations

import sys

import pytest

from browser_support import chromium_context, require_chromium, static_server
from conftest import HTML, REPO, toc_docnames

require_chromium()

sys.path.insert(0, str(REPO / "book" / "_ext"))
from book_site import SQUEEZED_CHARS_PER_LINE, TALL_ROW_LINES  # noqa: E402

PAGES = toc_docnames()
WIDTHS = (1280, 960, 390)
PHONE = 600  # below this a table may scroll with its first column held (no script)
MODES = ("light", "dark")
#: The least space (CSS px) between the text of two neighbouring cells of a row.
MIN_COLUMN_GAP = 6

# Everything is measured by this one function, in the page; ``opts`` sets the thresholds.
_JS_LAYOUT = r"""(opts) => {
  const col = document.querySelector('.bd-content') || document.body;
  const W = document.documentElement.clientWidth;
  const out = {broken: [], brokenText: [], sideways: null, wide: [], tall: [], figures: [],
               maths: [], cramped: [], controls: [],
               tables: col.querySelectorAll('table').length};
  const lineCount = (rects) => {
    const tops = [...rects].filter(r => r.width > 0 && r.height > 0)
                           .sort((a, b) => a.top - b.top);
    let n = 0, last = -1e9;
    for (const r of tops) if (r.top > last + 0.6 * r.height) { n++; last = r.top; }
    return n;
  };
  const shown = (el) => el.getClientRects().length > 0;
  // Words laid out on more than one line. A word is a run without white space; it may
  // break after a hyphen or dash; in a link or code, also after a slash.
  const walk = (root, skip, sink) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || el.closest(skip) || !shown(el)) continue;
      const link = el.closest('a');
      if (link && /^(https?:\/\/|www\.)/.test(link.textContent.trim())) continue;  // a URL
      const split = link || el.closest('code') ? /(?<=[-\u2010\u2013\u2014\/])/u
                                               : /(?<=[-\u2010\u2013\u2014])/u;
      for (const m of n.textContent.matchAll(/[^\s\u200b]+/gu)) {
        let start = m.index;
        for (const piece of m[0].split(split)) {
          const end = start + piece.length;
          if (piece.replace(/[-\u2010\u2013\u2014\/]/gu, '').length >= 2) {
            const r = document.createRange();
            r.setStart(n, start); r.setEnd(n, end);
            if (lineCount(r.getClientRects()) > 1) sink.push(piece);
          }
          start = end;
        }
      }
    }
  };
  const SKIP = 'mjx-container, script, style, svg';
  for (const t of col.querySelectorAll('table')) walk(t, SKIP, out.broken);
  walk(col, SKIP + ', table, div.cell_input, div.highlight, pre', out.brokenText);
  // The page scrolls sideways: name what sticks out (outside any scroll box).
  if (document.documentElement.scrollWidth > W + 1) {
    const culprits = [];
    for (const el of document.body.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.right <= W + 1) continue;
      if ([...el.children].some(c => c.getBoundingClientRect().right > W + 1)) continue;
      culprits.push((el.textContent || el.tagName).trim().replace(/\s+/g, ' ').slice(0, 60));
    }
    out.sideways = `${document.documentElement.scrollWidth} px wide: ` +
                   culprits.slice(0, 3).join(' | ');
  }
  const boxOf = (el) => {
    for (let a = el.parentElement; a && a !== col; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') return a;
    return col;
  };
  for (const t of col.querySelectorAll('table')) {
    const r = t.getBoundingClientRect();
    if (r.width === 0) continue;
    const name = (t.tHead ? t.tHead.textContent : t.textContent).trim()
                 .replace(/\s+/g, ' ').slice(0, 50);
    const box = boxOf(t);
    if (r.width > box.clientWidth + 1) {
      const first = t.rows[0] && t.rows[0].cells[0];
      const sticky = !!first && getComputedStyle(first).position === 'sticky';
      if (!(sticky && W < opts.phone))
        out.wide.push(`${Math.round(r.width)} px table in a ${box.clientWidth} px box` +
                      `${sticky ? ' (first column held)' : ''}: ${name}`);
    }
    // Columns that run together: the text of neighbouring cells closer than opts.gap px.
    const textBox = (c) => {
      const range = document.createRange(); range.selectNodeContents(c);
      const rs = [...range.getClientRects()].filter(x => x.width > 0 && x.height > 0);
      return rs.length ? {left: Math.min(...rs.map(x => x.left)),
                          right: Math.max(...rs.map(x => x.right))} : null;
    };
    if (!t.classList.contains('interlib-cards'))
      for (const row of t.rows) {
        if (!shown(row)) continue;
        const boxes = [...row.cells].map(textBox);
        for (let i = 0; i + 1 < boxes.length; i++) {
          const a = boxes[i], b = boxes[i + 1];
          if (a && b && b.left - a.right < opts.gap && b.left > a.left) {
            out.cramped.push(`${(b.left - a.right).toFixed(1)} px between ` +
              `"${row.cells[i].textContent.trim().slice(-20)}" and ` +
              `"${row.cells[i + 1].textContent.trim().slice(0, 20)}" (in ${name})`);
            break;
          }
        }
      }
    // Tall blank rows: a row opts.tall lines or more high whose tallest cell holds fewer
    // than opts.squeezed characters per line.
    for (const row of t.rows) {
      const head = row.closest('thead');    // visually hidden (cards): not laid out to read
      if (!shown(row) || head && getComputedStyle(head).clipPath !== 'none') continue;
      let most = 0, chars = 0;
      for (const c of row.cells) {
        const range = document.createRange(); range.selectNodeContents(c);
        const n = lineCount(range.getClientRects());
        if (n > most) { most = n; chars = c.textContent.trim().length; }
      }
      if (most >= opts.tall && chars / most < opts.squeezed)
        out.tall.push(`${most} lines of ${chars} characters: ` +
                      row.textContent.trim().replace(/\s+/g, ' ').slice(0, 50) + ` (in ${name})`);
    }
  }
  // Figures and formulas: inside their box and the window.
  for (const img of col.querySelectorAll('img')) {
    const r = img.getBoundingClientRect();
    if (r.width === 0) continue;
    const b = boxOf(img).getBoundingClientRect();
    if (r.right > b.right + 1 || r.left < b.left - 1 || r.right > W + 1)
      out.figures.push(`${Math.round(r.width)} px image in a ${Math.round(b.width)} px box: ` +
                       (img.alt || img.src).slice(0, 60));
  }
  for (const m of col.querySelectorAll('mjx-container')) {
    const r = m.getBoundingClientRect();
    if (r.width === 0) continue;
    const box = m.getAttribute('display') === 'true' ? m.closest('div.math') || boxOf(m) : boxOf(m);
    const b = box.getBoundingClientRect();
    const svg = m.querySelector('svg');
    const w = Math.max(r.width, svg ? svg.getBoundingClientRect().width : 0);
    if (r.left + w > b.right + 1 || r.left < b.left - 1 || r.left + w > W + 1)
      out.maths.push(`${Math.round(w)} px formula in a ${Math.round(b.width)} px box: ` +
                     (m.textContent || '').trim().slice(0, 50));
  }
  // A demo's controls (inputs, selects, readouts, number boxes) inside its border.
  for (const d of document.querySelectorAll('.interlib-demo')) {
    const r = d.getBoundingClientRect();
    for (const el of d.querySelectorAll('input, select, output, textarea')) {
      const b = el.getBoundingClientRect();
      if (b.width && (b.right > r.right || b.left < r.left))
        out.controls.push(`${d.dataset.demo}.${el.name || el.className} sticks out ` +
                          `by ${Math.round(Math.max(b.right - r.right, r.left - b.left))} px`);
    }
  }
  return out;
}"""

_OPTS = {"phone": PHONE, "tall": TALL_ROW_LINES, "squeezed": SQUEEZED_CHARS_PER_LINE,
         "gap": MIN_COLUMN_GAP}

_WHAT = {
    "broken": "table words laid out on two lines",
    "brokenText": "words laid out on two lines (outside tables and code)",
    "sideways": "the page scrolls sideways",
    "wide": "tables wider than their box",
    "tall": "tall blank table rows",
    "cramped": "table columns whose text runs together",
    "figures": "images outside their box",
    "maths": "formulas outside their box",
    "controls": "demo controls outside their demo's border",
}


@pytest.fixture(scope="module")
def site(book_build):
    assert book_build.returncode == 0, "book build failed:\n" + book_build.output[-4000:]
    with static_server(HTML) as url, chromium_context(viewport=(1280, 900), save_data=True) as ctx:
        page = ctx.new_page()
        yield url, page
        page.close()


def _settle(page):
    """Two animation frames: the table script's and the stylesheet's work is done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => "
                  "requestAnimationFrame(r)))")


def measure(page, url, docname, width) -> dict[str, dict]:
    """The layout problems of one page at ``width`` px, by colour mode."""
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"{url}/{docname}.html", wait_until="load")
    if page.locator("div.math, span.math").count():
        page.wait_for_selector("mjx-container", state="attached", timeout=20000)
        page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    found = {}
    for mode in MODES:
        page.evaluate("(m) => { document.documentElement.dataset.theme = m; }", mode)
        _settle(page)
        found[mode] = page.evaluate(_JS_LAYOUT, _OPTS)
    return found


def _report(found_by_page) -> list[str]:
    problems = []
    for docname, by_mode in found_by_page.items():
        for mode, found in by_mode.items():
            for key, what in _WHAT.items():
                got = found[key]
                if got:
                    items = got if isinstance(got, list) else [got]
                    problems.append(f"{docname} [{mode}]: {what} ({len(items)}): "
                                    + " | ".join(map(str, items[:6])))
    return problems


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_reads_whole(site, width):
    url, page = site
    found = {docname: measure(page, url, docname, width) for docname in PAGES}
    tables = sum(by_mode["light"]["tables"] for by_mode in found.values())
    assert tables >= 50, f"only {tables} tables on the site: is the content shown?"
    problems = _report(found)
    assert not problems, f"at {width} px:\n" + "\n".join(problems)


# --- the checker itself ------------------------------------------------------------------

_DEFECTS = """<!doctype html><html><head><style>body{margin:8px;font:16px sans-serif}</style>
</head><body><div class="bd-content" style="width:360px">
<table id="split"><tr><td style="width:30px;overflow-wrap:anywhere">4,096</td>
<td style="width:12px;overflow-wrap:anywhere">GB/s</td><td>ok</td></tr></table>
<table id="fine"><tr><td style="width:60px">NVLink-C2C links</td>
<td style="width:40px"><a href="#">github.com/<wbr>NVIDIA/</a></td></tr></table>
<table id="tall"><tr><td>one</td><td style="width:20px">a b c d e f</td></tr></table>
<table id="cramped" style="border-collapse:collapse"><tr><td style="padding:1px">AWS (Trn3</td>
<td style="padding:1px">NeuronLink</td></tr></table>
<p style="width:40px;overflow-wrap:anywhere">Infiniband</p>
<div style="overflow-x:auto"><table id="wide"><tr><td style="white-space:nowrap">a table
far wider than the three hundred and sixty pixel column it sits in, scrolled</td></tr></table></div>
<div class="interlib-demo" data-demo="d" style="width:100px"><input name="wide"
style="box-sizing:border-box;width:200px"><input name="fits" style="width:50px"></div>
<img alt="too wide" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='500' height='10'/%3E">
</div><div style="width:2000px">x</div></body></html>"""


def test_checker_catches_known_defects(site):
    """The in-page checker finds each defect on a page made to have it, and accepts the
    breaks a reader expects (after a hyphen; at a <wbr> in a URL)."""
    _, page = site
    page.set_viewport_size({"width": 390, "height": 900})
    page.set_content(_DEFECTS)
    got = page.evaluate(_JS_LAYOUT, _OPTS)
    assert "4,096" in got["broken"] and "GB/s" in got["broken"]
    assert "NVLink-C2C" not in " ".join(got["broken"]) and "links" not in got["broken"]
    assert not [w for w in got["broken"] if "github" in w or "https" in w]
    assert "Infiniband" in got["brokenText"]
    assert got["sideways"] and got["sideways"].startswith("2")
    assert any("table in a" in w for w in got["wide"]), got["wide"]
    assert any(" lines of 11 characters" in t for t in got["tall"]), got["tall"]
    assert [c for c in got["cramped"] if '"AWS (Trn3" and "NeuronLink"' in c], got["cramped"]
    assert not [c for c in got["cramped"] if "NVLink-C2C" in c], got["cramped"]
    assert any("too wide" in f for f in got["figures"]), got["figures"]
    assert got["controls"] == ["d.wide sticks out by 100 px"], got["controls"]
