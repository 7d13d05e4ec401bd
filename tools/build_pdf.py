"""The whole book as one PDF, printed from the built site: ``_build/pdf/interconnects.pdf``.

    python tools/build_pdf.py [--site _build/html] [--out _build/pdf/interconnects.pdf]

(``make pdf`` builds the site first.) Jupyter Book's own ``--builder pdfhtml`` launches a
Chromium of its own, which is not installed and cannot be downloaded here; this prints the
site's pages instead, with Debian's Chromium (``/usr/bin/chromium``) through Playwright:

1. The site is served on 127.0.0.1 (a thread) and every page of ``_toc.yml`` is opened in
   order; printing waits until MathJax has typeset (``MathJax.startup.promise``), the
   fonts are loaded and every image (figures, each demo's default figure) has decoded.
   Each page prints on A4 with the book's and the page's title in the running header.
2. A contents page lists every part and page of ``_toc.yml`` with the page it starts on.
3. pypdf joins contents and pages, stamps the edition and continuous page numbers
   ("12 / 136") on every page (taken from one more print: a blank document with Chromium's
   page-number footer, merged onto each page), adds a bookmark per page, and drops links
   that point into the local server (links to other sites stay).
4. The print edition (issue 29; CONTRIBUTING.md, "PDF"): pages are laid out in print media at the
   A4 content width; web-only controls are not printed; folded answers go to an "Answers"
   section at the end of each page, while the folded "Going deeper" blocks (and the output
   of cells tagged ``going-deeper``) and each chapter's folded list of references print
   open, in place; demo controls become a line of the settings shown;
   tables and formulas are made to fit. Besides the whole book, each page of _toc.yml
   but the front page is written as a PDF of its own (``chapters/`` beside the book).

Nothing leaves 127.0.0.1 (the site is self-contained); a request that tries fails the build.
"""

from __future__ import annotations

import argparse
import html
import io
import shutil
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
from edition import current as current_edition  # noqa: E402
from toc import toc_docnames  # noqa: E402

sys.path.insert(0, str(REPO / "tests"))
from browser_support import chromium_context, static_server  # noqa: E402  (as the tests)

MARGIN = {"top": "18mm", "bottom": "16mm", "left": "14mm", "right": "14mm"}
# Chromium fills these templates per page; they need their own font size.
HEADER = ('<div style="font-size:7.5pt;color:#555;width:100%;margin:0 14mm;display:flex;'
          'justify-content:space-between;font-family:sans-serif">'
          '<span>{book}</span><span>{page}</span></div>')
FOOTER = ('<div style="font-size:7.5pt;color:#333;width:100%;margin:0 14mm;display:flex;'
          'justify-content:space-between;font-family:sans-serif"><span>{edition}</span>'
          '<span><span class="pageNumber"></span> / <span class="totalPages"></span></span>'
          '</div>')
# Wait for: MathJax typeset (pages without maths may not load it), web fonts, images.
READY_JS = """async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) {
    await MathJax.startup.promise;
  }
  await document.fonts.ready;
  const imgs = [...document.images];
  await Promise.all(imgs.map(i => i.complete ? null : new Promise(r => {
      i.addEventListener('load', r); i.addEventListener('error', r); })));
  await Promise.all(imgs.map(i => i.decode ? i.decode().catch(() => null) : null));
  return true;
}"""
# Every saved widget view drawn by the widget manager (each demo's default figure).
WIDGETS_JS = """() => [...document.querySelectorAll(
    'script[type="application/vnd.jupyter.widget-view+json"]')]
  .every(s => s.parentElement.querySelector('.jupyter-widgets') !== null)"""
# The print edition (CONTRIBUTING.md, "PDF"). The page is laid out in print media at the width of the
# A4 content box (PRINT_WIDTH_PX), so what PRINT_JS measures is what Chromium prints.
# PRINT_CSS hides what only works on a screen: navigation, buttons, the footer's links, the
# "Show code cell source" toggles and the code they fold (plumbing), the demos' live bar and
# the quizzes' Check buttons; scroll boxes become plain boxes (nothing scrolls on paper).
PRINT_WIDTH_PX = round((210 - 14 - 14) / 25.4 * 96)  # A4 minus MARGIN left and right
PRINT_CSS = """
@media print {
  .bd-header-article, .header-article-items, .bd-sidebar-primary, .bd-sidebar-secondary,
  .prev-next-area, .bd-footer, .bd-footer-content, .bd-footer-article, .bd-header,
  #pst-back-to-top, .headerlink, .skip-link, .search-button-field, .copybtn,
  .interlib-live-bar, .interlib-live-button, .interlib-live-status, .interlib-quiz-check,
  .interlib-quiz-feedback, .toggle-details__summary, .dropdown-toggle,
  .cell.tag_hide-input > details.above-input { display: none !important; }
  html, body, .bd-page-width, .bd-container, .bd-container__inner, .bd-main, .bd-content,
  .bd-article-container, .bd-article { max-width: none !important; width: auto !important;
    min-width: 0 !important; margin-left: 0 !important; margin-right: 0 !important;
    padding-left: 0 !important; padding-right: 0 !important; overflow: visible !important;
    flex: 1 1 auto !important; }
  .pst-scrollable-table-container, .table-wrapper, .interlib-table-wrap, .interlib-plot,
  div.cell_output, div.output, div.highlight, div.math, span.math, mjx-container,
  .interlib-numbers,
  .interlib-demo { overflow: visible !important; max-width: 100% !important; }
  pre { white-space: pre-wrap !important; overflow-wrap: anywhere !important;
        overflow: visible !important; }
  img { max-width: 100% !important; height: auto !important; }
  table td, table th { white-space: normal !important; }
  /* a table set as cards (book_site.TABLE_JS) labels every cell: its heading row, kept for
     screen readers on the site, is not printed */
  table.interlib-cards thead { display: none !important; }
  pre, img, figure, table, .cell_output, .print-answer { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
  .print-settings { font-size: 90%; color: #333; margin: 0.3em 0; }
  .print-answer-ref { font-style: italic; color: #333; }
  .print-answers { break-before: page; }
  .print-answer { margin: 0 0 1em; }
  .print-deeper { margin: 0.6em 0 1em; padding-left: 0.8em; border-left: 0.5mm solid #999; }
  .print-deeper-title { margin: 0 0 0.3em; }
  /* MathJax draws formulas as SVG paths, which a PDF reader cannot search or copy. Its
     assistive MathML (the same formula as text, normally clipped away) is printed on top
     of each formula, almost transparent: the PDF's text layer then holds the formulas. */
  mjx-container mjx-assistive-mml { clip: auto !important; opacity: 0.01 !important; }
}
"""
# Run in the page after PRINT_CSS, in print media at PRINT_WIDTH_PX:
# 1. Folded depth prints open and in place: a dropdown whose title starts "Going deeper"
#    (its title kept as a heading line), the output of a cell tagged going-deeper (its code
#    is plumbing), and the chapter's folded references ("The sources this chapter cites").
#    Every other fold is an answer and goes to an "Answers" section at the end of the page
#    (the print edition prints them there, numbered, with a pointer where each was): the
#    demos' thought-question answers, the quizzes' answers and the worked solutions
#    (hide-output and hide-cell cells). Folded code sources (hide-input) are dropped: the
#    output they made stays.
# 2. Each demo's controls become one line, "Shown at: label value; ...", the settings its
#    default figure and numbers were computed with.
# 3. Anything still wider than the content box (a table, a display formula, a figure) is
#    scaled to fit with CSS zoom, which scales its layout too; returns the zooms it applied.
PRINT_JS = r"""() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main')
      || document.body;
  const text = el => (el ? el.textContent : '').replace(/[#\u00b6]/g, '').replace(/\s+/g, ' ')
      .trim();
  // 1. Folded depth in place, folded answers to the end.
  const IN_PLACE = /^(Going deeper\b|The sources this chapter cites\b)/;
  const title = d => text(d.querySelector(':scope > summary .sd-summary-text')
      || d.querySelector(':scope > summary'));
  const answers = [];
  let inPlace = 0;
  for (const d of [...article.querySelectorAll('details')]) {
    if (!d.isConnected) continue;
    const cell = d.closest('.cell');
    if (cell && cell.classList.contains('tag_hide-input') && d.classList.contains('above-input')) {
      d.remove();
      continue;
    }
    if (cell && cell.classList.contains('tag_going-deeper') && d.parentElement === cell) {
      for (const x of [...d.children]) if (x.classList.contains('cell_input')) x.remove();
      d.replaceWith(...[...d.childNodes].filter(n => n.nodeName !== 'SUMMARY'));
      inPlace++;
      continue;
    }
    if (d.classList.contains('sd-dropdown') && IN_PLACE.test(title(d))) {
      const box = document.createElement('div');
      box.className = 'print-deeper';
      const head = document.createElement('p');
      head.className = 'print-deeper-title';
      const strong = document.createElement('strong');
      strong.textContent = title(d);
      head.append(strong);
      box.append(head);
      for (const child of [...d.childNodes]) if (child.nodeName !== 'SUMMARY') box.append(child);
      d.replaceWith(box);
      inPlace++;
      continue;
    }
    if (d.closest('details') !== d) continue;  // nested: moves with its outer answer
    const n = answers.length + 1;
    const section = d.closest('section');
    const where = section ? text(section.querySelector('h1, h2, h3, h4')) : '';
    let what = 'Worked solution';
    const li = d.closest('li');
    const quiz = d.closest('.interlib-quiz-q');
    if (quiz) what = 'Quiz: ' + text(quiz.querySelector('legend'));
    else if (li && d.classList.contains('interlib-answer')) what = 'Question: ' + text(li.querySelector('p'));
    const entry = document.createElement('div');
    entry.className = 'print-answer';
    const head = document.createElement('p');
    const strong = document.createElement('strong');
    strong.textContent = `Answer ${n}`;
    head.append(strong, ` (${where}). ${what.length > 300 ? what.slice(0, 297) + '...' : what}`);
    entry.append(head);
    for (const child of [...d.childNodes]) if (child.nodeName !== 'SUMMARY') entry.append(child);
    const ref = document.createElement('p');
    ref.className = 'print-answer-ref';
    ref.textContent = `Answer ${n}: at the end of this ${document.body.dataset.printUnit || 'chapter'}.`;
    d.replaceWith(ref);
    answers.push(entry);
  }
  if (answers.length) {
    const sec = document.createElement('section');
    sec.className = 'print-answers';
    const h = document.createElement('h2');
    h.textContent = 'Answers';
    sec.append(h, ...answers);
    article.append(sec);
  }
  // 2. Demo controls as the settings shown.
  for (const form of [...article.querySelectorAll('form.interlib-controls')]) {
    const parts = [...form.querySelectorAll('[data-kind]')].map(f => {
      const label = text(form.querySelector(`label[for="${f.id}"]`)) || f.name;
      const row = f.closest('.interlib-control, .interlib-slider-row');
      const readout = row && row.querySelector('.interlib-readout');
      const value = f.tagName === 'SELECT' ? text(f.options[f.selectedIndex])
          : f.tagName === 'TEXTAREA'
          ? `the example text (${f.value.trim().split('\n').length} lines; paste your own on the website)`
          : (readout && text(readout)) || f.value;
      return `${label} ${value}`;
    });
    const p = document.createElement('p');
    p.className = 'print-settings';
    p.textContent = 'Shown at: ' + parts.join('; ') + '.';
    form.replaceWith(p);
  }
  // 3. Fit what is still too wide: the content box is the viewport (the printed width).
  const box = {left: 0, right: document.documentElement.clientWidth};
  const zooms = [];
  // A table never breaks inside a word or a number (issue 34): one too wide for the page
  // was set as cards by the site's table script (book_site.TABLE_JS), at this width too;
  // anything left a little too wide is scaled.
  for (const el of article.querySelectorAll('*')) {
    if (el.closest('mjx-assistive-mml')) continue;
    const tag = el.tagName.toLowerCase();
    if (tag !== 'svg' && el.closest('svg')) continue;  // scales with its <svg>
    const r = el.getBoundingClientRect();
    if (r.width === 0 || (r.right <= box.right + 0.5 && r.left >= box.left - 0.5)) continue;
    // CSS zoom does not reach inside an <svg> (a MathJax formula): it gets a smaller size
    // instead, which its viewBox scales to.
    const parent = tag === 'svg' ? el.parentElement.getBoundingClientRect() : r;
    const z = Math.floor(Math.max(0.3, (box.right - Math.max(parent.left, box.left)) / r.width)
                         * 1000) / 1000;
    if (tag === 'svg') {
      el.style.width = `${r.width * z}px`;
      el.style.height = `${r.height * z}px`;
    } else {
      el.style.zoom = String(z);
    }
    zooms.push({tag, zoom: z, cls: typeof el.className === 'string' ? el.className.slice(0, 40)
                                                                 : ''});
  }
  return {answers: answers.length, inPlace, zooms};
}"""
# In print media at the printed width: every element of the article inside the content box,
# nothing clipped by a box narrower than its content. tests/test_pdf.py uses it.
OVERFLOW_JS = r"""() => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main')
      || document.body;
  const box = {left: 0, right: document.documentElement.clientWidth,
               width: document.documentElement.clientWidth};
  const out = [];
  for (const el of article.querySelectorAll('*')) {
    if (el.closest('mjx-assistive-mml')) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const name = el.tagName.toLowerCase() + (el.className && typeof el.className === 'string'
        ? '.' + el.className.trim().split(/\s+/).join('.') : '');
    if (r.right > box.right + 1 || r.left < box.left - 1) {
      out.push(`${name}: ${Math.round(r.left - box.left)}..${Math.round(r.right - box.left)} px `
               + `of ${Math.round(box.width)}`);
      continue;
    }
    const ox = getComputedStyle(el).overflowX;
    if (ox !== 'visible' && el.scrollWidth > el.clientWidth + 1) {
      out.push(`${name}: content ${el.scrollWidth} px clipped to ${el.clientWidth} px (${ox})`);
    }
  }
  return out;
}"""
# Text that only means something on a screen; pdftotext must find none of it in the PDF.
WEB_CONTROL_TEXT = ("Show code cell", "Hide code cell", "Run live in your browser",
                    "Show the answer", "Show answer", "Copy to clipboard", "Skip to main content",
                    "Report a problem with this page", "Launch Binder", "Open in a browser tab",
                    "Ctrl+K", "Toggle navigation", "Back to top", "Download this page",
                    "Or read a file")


def prepare_for_print(page, unit: str = "chapter") -> dict:
    """Lay the loaded page out as it prints and apply PRINT_CSS and PRINT_JS."""
    page.emulate_media(media="print")
    page.add_style_tag(content=PRINT_CSS)
    page.evaluate("u => { document.body.dataset.printUnit = u; }", unit)
    return page.evaluate(PRINT_JS)


def toc_parts(repo: Path = REPO) -> list[tuple[str | None, list[str]]]:
    """[(part caption or None, [docnames])] in _toc.yml order (the root first, alone)."""
    import yaml

    toc = yaml.safe_load((repo / "_toc.yml").read_text())

    def strip(d):
        return str(Path(d).with_suffix("")) if Path(d).suffix in {".md", ".ipynb"} else d

    parts: list[tuple[str | None, list[str]]] = [(None, [strip(toc["root"])])]
    for part in toc.get("parts", []):
        names: list[str] = []

        def walk(node):
            if isinstance(node, dict):
                if isinstance(node.get("file"), str):
                    names.append(strip(node["file"]))
                for key in ("chapters", "sections"):
                    for child in node.get(key, []) or []:
                        walk(child)

        walk(part)
        parts.append((part.get("caption"), names))
    # Same pages, same order as tools/toc.py, or the contents would lie.
    assert [d for _, ds in parts for d in ds] == toc_docnames(repo), "unexpected _toc.yml"
    return parts


def edition_lines(e=None) -> tuple[str, str]:
    """(the footer line of every PDF page, the title page's paragraph): edition, licences."""
    e = e or current_edition()
    short = f"{_book_short()} · edition {e.version} · CC BY 4.0 (text), MIT (code)"
    commit = html.escape(e.commit_text)
    para = (f"<p class=\"edition\"><strong>Edition {html.escape(e.version)}</strong>, "
            f"{html.escape(e.date)}, commit <code>{commit}</code>.<br>"
            f"Text and figures: Creative Commons Attribution 4.0 (CC BY 4.0); code: MIT. "
            f"Third-party material keeps its own terms (THIRD_PARTY_NOTICES.md).<br>"
            f"Source, changelog, errata and problem reports: "
            f"{html.escape(e.repository)}</p>")
    return short, para


def contents_html(book: str, parts, titles: dict, starts: dict, edition_para: str = "") -> str:
    rows = []
    for caption, docs in parts:
        if caption:
            rows.append(f'<tr class="part"><td colspan="2">{html.escape(caption)}</td></tr>')
        for d in docs:
            rows.append(f'<tr><td>{html.escape(titles[d])}</td><td class="n">{starts[d]}</td>'
                        "</tr>")
    return f"""<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<title>Contents</title><style>
body {{ font-family: sans-serif; font-size: 11pt; }}
h1 {{ font-size: 22pt; margin: 0 0 4mm; }} h2 {{ font-size: 14pt; margin: 10mm 0 3mm; }}
table {{ width: 100%; border-collapse: collapse; }}
td {{ padding: 1.2mm 0; border-bottom: 0.2mm dotted #999; }}
td.n {{ text-align: right; width: 20mm; }}
tr.part td {{ font-weight: bold; border: none; padding-top: 5mm; }}
p.edition {{ font-size: 10pt; line-height: 1.5; }}
</style></head><body><h1>{html.escape(book)}</h1>{edition_para}
<p>Printed from the website edition. The interactive demos show their default settings
(each says which); the website, JupyterLab, Binder and JupyterLite let you move them. The
answers to the questions and worked problems of each chapter are printed at its end; the
blocks the website folds as "Going deeper" are printed where they stand.</p>
<h2>Contents</h2><table>{''.join(rows)}</table></body></html>"""


def numbers_html(n_pages: int) -> str:
    """n blank pages: printed with the page-number footer, they are the number stamps."""
    pages = '<div style="break-after: page; height: 1px"></div>' * (n_pages - 1) + "<div></div>"
    return f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{pages}</body></html>'


def build(site: Path, out: Path, chapters_dir: Path | None = None) -> dict:
    """The whole book into ``out`` and, into ``chapters_dir`` (default: ``chapters/`` beside
    ``out``), one PDF per page of _toc.yml but the front page (each chapter, problem set and
    appendix on its own, for handouts), each with the edition footer and its own page
    numbers."""
    from pypdf import PdfReader, PdfWriter

    t0 = time.perf_counter()
    site = site.resolve()
    config_title = _book_title()
    parts = toc_parts()
    docs = [d for _, ds in parts for d in ds]
    missing = [d for d in docs if not (site / f"{d}.html").is_file()]
    if missing:
        raise SystemExit(f"build_pdf: not in {site}: {missing}; build the site first "
                         "(make book)")
    printed: dict[str, bytes] = {}
    titles: dict[str, str] = {}
    fitted: dict[str, dict] = {}
    overflow: dict[str, list] = {}   # what lies outside the A4 content box, as printed
    widths: dict[str, int] = {}      # the printed layout's width (PRINT_WIDTH_PX)
    edition_short, edition_para = edition_lines()
    chapters_dir = chapters_dir or out.parent / "chapters"
    outside: list[str] = []
    # The tests' browser (a fresh profile, only 127.0.0.1 resolves), asking to save data:
    # paper shows each demo's default figure, so no page starts Python in the background.
    with static_server(site) as base, chromium_context(viewport=(PRINT_WIDTH_PX, 1600),
                                                       save_data=True) as ctx:
        ctx.on("request", lambda r: outside.append(r.url)
               if urlparse(r.url).scheme in ("http", "https", "ws", "wss")
               and urlparse(r.url).hostname != "127.0.0.1" else None)
        page = ctx.new_page()
        for d in docs:
            page.goto(f"{base}/{d}.html", wait_until="load")
            page.wait_for_function(WIDGETS_JS, timeout=30000)
            page.evaluate(READY_JS)
            fitted[d] = prepare_for_print(
                page, "chapter" if d.startswith("chapters/") else "page")
            overflow[d] = page.evaluate(OVERFLOW_JS)
            widths[d] = page.evaluate("() => document.documentElement.clientWidth")
            titles[d] = page.evaluate(
                "() => (document.querySelector('article h1, main h1, h1')"
                " || {textContent: document.title}).textContent.replace('#', '').trim()")
            printed[d] = page.pdf(
                format="A4", margin=MARGIN, print_background=True,
                display_header_footer=True, footer_template="<span></span>",
                header_template=HEADER.format(book=html.escape(config_title),
                                              page=html.escape(titles[d])))
        counts = {d: len(PdfReader(io.BytesIO(printed[d])).pages) for d in docs}

        def print_html(markup: str, footer: bool) -> bytes:
            page.set_content(markup, wait_until="load")
            return page.pdf(format="A4", margin=MARGIN, print_background=False,
                            display_header_footer=footer,
                            header_template="<span></span>",
                            footer_template=FOOTER.format(edition=html.escape(edition_short))
                            if footer else "<span></span>")

        # The contents' own length does not depend on the numbers in it: print it
        # once with the final numbers, check the length it was computed with.
        n_front = 1
        for _ in range(3):
            starts, at = {}, n_front + 1
            for d in docs:
                starts[d], at = at, at + counts[d]
            front = print_html(contents_html(config_title, parts, titles, starts,
                                             edition_para), False)
            if len(PdfReader(io.BytesIO(front)).pages) == n_front:
                break
            n_front = len(PdfReader(io.BytesIO(front)).pages)
        total = at - 1
        stamps = PdfReader(io.BytesIO(print_html(numbers_html(total), True)))
        # Per-page PDFs: number stamps for each distinct length.
        own_stamps = {n: PdfReader(io.BytesIO(print_html(numbers_html(n), True)))
                      for n in sorted({counts[d] for d in docs[1:]})}
    if outside:
        raise SystemExit(f"build_pdf: requests left 127.0.0.1: {sorted(set(outside))[:5]}")
    if len(stamps.pages) != total:
        raise SystemExit(f"build_pdf: {len(stamps.pages)} number stamps for {total} pages")

    writer = PdfWriter()
    for data in [front] + [printed[d] for d in docs]:
        for pg in PdfReader(io.BytesIO(data)).pages:
            _drop_local_links(pg)
            writer.add_page(pg)
    for i, pg in enumerate(writer.pages):
        pg.merge_page(stamps.pages[i])
    writer.add_outline_item(title="Contents", page_number=0)
    for caption, ds in parts:
        parent = (writer.add_outline_item(title=caption, page_number=starts[ds[0]] - 1) if caption else None)
        for d in ds:
            writer.add_outline_item(title=titles[d], page_number=starts[d] - 1, parent=parent)
    writer.add_metadata({"/Title": config_title, "/Author": _book_author(),
                         "/Creator": "tools/build_pdf.py (Chromium via Playwright, pypdf)"})
    writer.page_mode = "/UseOutlines"
    _compress(writer)
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        writer.write(fh)
    if chapters_dir.exists():
        shutil.rmtree(chapters_dir)
    chapters_dir.mkdir(parents=True)
    chapter_files = {}
    for d in docs[1:]:
        w = PdfWriter()
        for i, pg in enumerate(PdfReader(io.BytesIO(printed[d])).pages):
            _drop_local_links(pg)
            w.add_page(pg)
            w.pages[i].merge_page(own_stamps[counts[d]].pages[i])
        w.add_metadata({"/Title": f"{titles[d]} ({config_title}, edition "
                                  f"{current_edition().version})",
                        "/Author": _book_author(),
                        "/Creator": "tools/build_pdf.py (Chromium via Playwright, pypdf)"})
        _compress(w)
        chapter_files[d] = chapters_dir / f"{Path(d).name}.pdf"
        with open(chapter_files[d], "wb") as fh:
            w.write(fh)
    seconds = time.perf_counter() - t0
    zooms = [z["zoom"] for f in fitted.values() for z in f["zooms"]]
    print(f"build_pdf: {len(docs)} pages of _toc.yml -> {total} A4 pages, "
          f"{out.stat().st_size / 1e6:.1f} MB, {out} in {seconds:.1f} s; "
          f"{len(chapter_files)} single PDFs in {chapters_dir}; "
          f"{sum(f['answers'] for f in fitted.values())} folded answers printed at page ends; "
          f"{len(zooms)} elements scaled to fit (smallest zoom "
          f"{min(zooms) if zooms else 1:.2f})"
          + (f"; {sum(map(bool, overflow.values()))} pages with content outside the A4 "
             "content box" if any(overflow.values()) else ""))
    return {"pages": total, "starts": starts, "titles": titles, "seconds": seconds,
            "front_pages": n_front,
            "counts": counts, "chapter_files": chapter_files, "fitted": fitted,
            "overflow": overflow, "client_width": widths}


def _compress(writer) -> None:
    """Deflate the pages' content streams (the merged page-number stamps leave them raw) and
    share identical objects (fonts, images printed on several pages): 20.7 -> 8.1 MB for
    the whole book, about 13 s."""
    for pg in writer.pages:
        pg.compress_content_streams()
    writer.compress_identical_objects()


def _drop_local_links(pdf_page) -> None:
    """Links into the temporary local server would be dead in the PDF: drop them."""
    annots = pdf_page.get("/Annots")
    if not annots:
        return
    keep = []
    for ref in annots:
        a = ref.get_object()
        uri = (a.get("/A") or {}).get("/URI")
        if uri is not None and urlparse(str(uri)).hostname == "127.0.0.1":
            continue
        keep.append(ref)
    from pypdf.generic import ArrayObject, NameObject

    pdf_page[NameObject("/Annots")] = ArrayObject(keep)


def _config():
    import yaml

    return yaml.safe_load((REPO / "_config.yml").read_text())


def _book_title() -> str:
    return str(_config().get("title", "Interconnects"))


def _book_short() -> str:
    return _book_title().split(":")[0].strip()


def _book_author() -> str:
    return str(_config().get("author", ""))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "_build" / "html")
    parser.add_argument("--out", type=Path, default=REPO / "_build" / "pdf" / "interconnects.pdf")
    parser.add_argument("--chapters-dir", type=Path, default=None,
                        help="one PDF per page of _toc.yml (default: chapters/ beside --out)")
    args = parser.parse_args(argv)
    build(args.site, args.out, args.chapters_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main())
