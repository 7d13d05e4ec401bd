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
3. pypdf joins contents and pages, stamps continuous page numbers ("12 / 136") on every
   page (taken from one more print: a blank document with Chromium's page-number footer,
   merged onto each page), adds a bookmark per page, and drops links that point into the
   local server (links to other sites stay).

Nothing leaves 127.0.0.1 (the site is self-contained); a request that tries fails the build.
"""

from __future__ import annotations

import argparse
import html
import io
import shutil
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tools"))
from toc import toc_docnames  # noqa: E402

sys.path.insert(0, str(REPO / "tests"))
from browser_support import static_server  # noqa: E402  (as the browser tests serve it)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
MARGIN = {"top": "18mm", "bottom": "16mm", "left": "14mm", "right": "14mm"}
# Chromium fills these templates per page; they need their own font size.
HEADER = ('<div style="font-size:7.5pt;color:#555;width:100%;margin:0 14mm;display:flex;'
          'justify-content:space-between;font-family:sans-serif">'
          '<span>{book}</span><span>{page}</span></div>')
FOOTER = ('<div style="font-size:8pt;color:#333;width:100%;text-align:center;'
          'font-family:sans-serif"><span class="pageNumber"></span> / '
          '<span class="totalPages"></span></div>')
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
# The printed page: hide what only makes sense on screen (navigation, buttons). Answers
# behind "Show answer" stay folded, as on the site.
PRINT_CSS = """
@media print {
  .bd-header-article, .header-article-items, .bd-sidebar-primary, .bd-sidebar-secondary,
  .prev-next-area, .bd-footer, .bd-footer-content, .bd-header, #pst-back-to-top,
  .headerlink, .skip-link, .search-button-field { display: none !important; }
  .bd-main .bd-content .bd-article-container { max-width: 100% !important; }
  pre, img, figure, table, .cell_output { break-inside: avoid; }
  h1, h2, h3 { break-after: avoid; }
  /* MathJax draws formulas as SVG paths, which a PDF reader cannot search or copy. Its
     assistive MathML (the same formula as text, normally clipped away) is printed on top
     of each formula, almost transparent: the PDF's text layer then holds the formulas. */
  mjx-container mjx-assistive-mml { clip: auto !important; opacity: 0.01 !important; }
}
"""


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


def contents_html(book: str, parts, titles: dict, starts: dict) -> str:
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
</style></head><body><h1>{html.escape(book)}</h1>
<p>Printed from the website edition, {time.strftime('%Y-%m-%d')}. The interactive demos
show their default settings; the website, JupyterLab, Binder and JupyterLite let you move
them.</p><h2>Contents</h2><table>{''.join(rows)}</table></body></html>"""


def numbers_html(n_pages: int) -> str:
    """n blank pages: printed with the page-number footer, they are the number stamps."""
    pages = '<div style="break-after: page; height: 1px"></div>' * (n_pages - 1) + "<div></div>"
    return f'<!DOCTYPE html><html><head><meta charset="utf-8"></head><body>{pages}</body></html>'


def build(site: Path, out: Path) -> dict:
    from playwright.sync_api import sync_playwright
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
    outside: list[str] = []
    profile = tempfile.mkdtemp(prefix="interconnects-pdf-")
    try:
        with static_server(site) as base, sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True,
                viewport={"width": 1200, "height": 1600})
            ctx.on("request", lambda r: outside.append(r.url)
                   if urlparse(r.url).scheme in ("http", "https", "ws", "wss")
                   and urlparse(r.url).hostname != "127.0.0.1" else None)
            page = ctx.new_page()
            for d in docs:
                page.goto(f"{base}/{d}.html", wait_until="load")
                page.add_style_tag(content=PRINT_CSS)
                page.wait_for_function(WIDGETS_JS, timeout=30000)
                page.evaluate(READY_JS)
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
                                footer_template=FOOTER if footer else "<span></span>")

            # The contents' own length does not depend on the numbers in it: print it
            # once with the final numbers, check the length it was computed with.
            n_front = 1
            for _ in range(3):
                starts, at = {}, n_front + 1
                for d in docs:
                    starts[d], at = at, at + counts[d]
                front = print_html(contents_html(config_title, parts, titles, starts), False)
                if len(PdfReader(io.BytesIO(front)).pages) == n_front:
                    break
                n_front = len(PdfReader(io.BytesIO(front)).pages)
            total = at - 1
            stamps = PdfReader(io.BytesIO(print_html(numbers_html(total), True)))
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
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
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "wb") as fh:
        writer.write(fh)
    seconds = time.perf_counter() - t0
    print(f"build_pdf: {len(docs)} pages of _toc.yml -> {total} A4 pages, "
          f"{out.stat().st_size / 1e6:.1f} MB, {out} in {seconds:.1f} s")
    return {"pages": total, "starts": starts, "titles": titles, "seconds": seconds}


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


def _book_author() -> str:
    return str(_config().get("author", ""))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=REPO / "_build" / "html")
    parser.add_argument("--out", type=Path, default=REPO / "_build" / "pdf" / "interconnects.pdf")
    args = parser.parse_args(argv)
    build(args.site, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
