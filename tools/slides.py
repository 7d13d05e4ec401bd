"""Slides: one deck per session plan of book/instructors.md (`make slides`).

Each deck is generated, offline, from two sources and nothing else:

* the session plan in ``book/instructors.md`` (one slide per row of its table: the time,
  what to do, the demo questions to pose; then its "where students go wrong" paragraph);
* the chapters' **stored outputs**: each row's first named demo (*ring all reduce* ...)
  brings the figure that demo's cell stored in its chapter notebook, and each chapter of
  the session gives a slide of its Takeaway callouts, with their ``{eval}`` figures read
  from the values the notebook stored (``user_expressions``), not recomputed.

The deck is one self-contained HTML file (figures as data URIs, no remote URL; one inline
script: keyboard navigation and fitting each slide's text to its page) written to
``_build/slides/session-<k>.html`` and printed to a 16:9 PDF ``session-<k>.pdf``, one page
per slide, tagged (a structure a screen reader follows) with the session's title and the
language set, with Debian's Chromium through Playwright (network blocked). A chapter's
takeaways are at most four bullets a slide (each callout's first sentence) beside the
chapter's first demo figure, large.

Keys in the HTML deck: → / Page Down / Space next slide, ← / Page Up previous, Home and
End the first and the last; each slide is a focusable, labelled region.

    .venv/bin/python tools/slides.py [--out _build/slides] [--no-pdf]
"""

from __future__ import annotations

import argparse
import ast
import html
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
GUIDE = REPO / "book" / "instructors.md"
CHAPTERS = REPO / "chapters"
CSS = ("@page{size:254mm 142.875mm;margin:0}html,body{margin:0}body{font:15pt/1.35 "
       "'DejaVu Sans',sans-serif;color:#1a1a1a}.slide{box-sizing:border-box;width:254mm;"
       "height:142.875mm;padding:9mm 13mm;break-after:page;page-break-after:always;"
       "display:flex;flex-direction:column;overflow:hidden;background:#fff}"
       ".slide:focus{outline:3px solid #4a7a00;outline-offset:-3px}"
       ".slide h1{font-size:26pt;margin:auto 0 .3em}.slide h2{font-size:19pt;margin:0 0 .3em;"
       "border-bottom:2px solid #76b900}.time{color:#555;font-size:12pt}.row{display:flex;"
       "gap:8mm;flex:1;min-height:0}.row>.text{flex:1;min-width:0;overflow:hidden}"
       ".row>figure{flex:1.35;margin:0;min-width:0;display:flex;align-items:center;"
       "justify-content:center}.row img{max-width:100%;max-height:100%;object-fit:contain}"
       ".ask{font-size:13pt}li{margin:.3em 0}"
       "@media screen{body{background:#444}.slide{margin:0 auto 6mm}}")

# Keyboard navigation, and each slide's text shrunk (in 5 % steps, to 55 % at least) until
# it fits its page; runs in the browser and before printing.
SCRIPT = """<script>
(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('.slide'));
  function fit() {
    slides.forEach(function (s) {
      var f = 1;
      while (f > 0.56 && (s.scrollHeight > s.clientHeight + 1 ||
             Array.prototype.some.call(s.querySelectorAll('.text'), function (t) {
               return t.scrollHeight > t.clientHeight + 1; }))) {
        f -= 0.05; s.style.fontSize = Math.round(f * 100) + '%';
      }
    });
  }
  function current() {
    var y = window.scrollY + 1, k = 0;
    slides.forEach(function (s, i) { if (s.offsetTop <= y) { k = i; } });
    var a = document.activeElement, j = slides.indexOf(a);
    return j >= 0 ? j : k;
  }
  function go(i) {
    i = Math.max(0, Math.min(slides.length - 1, i));
    slides[i].focus(); slides[i].scrollIntoView({block: 'start'});
    if (history.replaceState) { history.replaceState(null, '', '#' + slides[i].id); }
  }
  document.addEventListener('keydown', function (e) {
    var k = e.key;
    if (k === 'ArrowRight' || k === 'PageDown' || k === ' ') { go(current() + 1); }
    else if (k === 'ArrowLeft' || k === 'PageUp') { go(current() - 1); }
    else if (k === 'Home') { go(0); } else if (k === 'End') { go(slides.length - 1); }
    else { return; }
    e.preventDefault();
  });
  fit();
  window.interlibDeck = {slides: slides.length, go: go, current: current};
})();
</script>"""
#: At most this many takeaways on one slide
TAKEAWAYS_PER_SLIDE = 4


# ---------------------------------------------------------------- the session plans
def _plain(md: str) -> str:
    """MyST inline markup to HTML: roles to their text, *em*, **strong**, `code`, $math$."""
    s = html.escape(md, quote=False)
    s = re.sub(r"\{(?:doc|ref)\}`([^`<]*?)\s*&lt;[^`]*&gt;`", r"\1", s)
    s = re.sub(r"\{(?:doc|ref|term)\}`([^`]*)`", r"\1", s)
    s = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", s)
    s = re.sub(r"\*([^*]+)\*", r"<em>\1</em>", s)
    s = re.sub(r"`([^`]+)`", r"<code>\1</code>", s)
    s = re.sub(r"\$([^$]+)\$", lambda m: _tex(m.group(1)), s)
    return s


def _tex(m: str) -> str:
    """The few TeX commands the guide and the takeaways use, as plain text."""
    m = re.sub(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", r"(\1)/(\2)", m)
    for tex, txt in (("\\sim", "~"), ("\\times", "×"), ("\\approx", "≈"), ("\\le", "≤"),
                     ("\\ge", "≥"), ("\\cdot", "·"), ("\\to", "→")):
        m = m.replace(tex, txt)
    return re.sub(r"[{}]", "", m).replace("\\", "")


def sessions(guide: Path = GUIDE) -> list[dict]:
    """The session plans of the instructor guide: ``{"k", "title", "chapters", "rows",
    "wrong"}``; each row is ``(time, what, ask)`` in MyST markdown."""
    text = guide.read_text()
    out = []
    heads = list(re.finditer(r"^### Session (\d+): (.+)$", text, re.M))
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else text.find("\n## ", h.end())
        body = text[h.end():end]
        rows = []
        for line in body.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if line.startswith("|") and len(cells) == 3 and cells[0] not in ("time", "---"):
                rows.append(tuple(cells))
        wrong = re.search(r"Where students go wrong here:(.+?)(?:\n\n|$)", body, re.S)
        first, last = re.search(r"Chapters? (\d)(?: (?:and|to) (\d))?", h.group(2)).groups()
        out.append(dict(k=int(h.group(1)), title=h.group(2).strip(),
                        chapters=list(range(int(first), int(last or first) + 1)),
                        rows=rows, wrong=" ".join(wrong.group(1).split()) if wrong else ""))
    return out


# ---------------------------------------------------- the chapters' stored outputs
def _notebook(n: int) -> dict:
    (path,) = CHAPTERS.glob(f"{n:02d}_*.ipynb")
    return json.loads(path.read_text())


def chapter_title(n: int) -> str:
    src = "".join(_notebook(n)["cells"][0]["source"])
    return re.sub(r"^\d+\.\s*", "", src.splitlines()[0].lstrip("# ").strip())


def demo_figure(name: str) -> tuple[int, str] | None:
    """``(chapter, data URI)`` of the first figure the demo ``name`` stored in its
    chapter's notebook (the ``widgets.show`` cell's output), or None."""
    key = name.strip().replace(" ", "_")
    for n in range(1, 9):
        for c in _notebook(n)["cells"]:
            if c["cell_type"] != "code" or f'widgets.show("{key}")' not in "".join(c["source"]):
                continue
            for o in c.get("outputs", []):
                page = "".join(o.get("data", {}).get("text/html", []))
                m = re.search(r'data:image/png;base64,[A-Za-z0-9+/=]+', page)
                if m:
                    return n, m.group(0)
                png = o.get("data", {}).get("image/png")
                if png:
                    return n, "data:image/png;base64," + "".join(png).replace("\n", "")
    return None


def takeaways(n: int) -> list[str]:
    """Chapter ``n``'s Takeaway callouts (MyST), each ``{eval}`` replaced by the value the
    notebook stored for it."""
    out = []
    for c in _notebook(n)["cells"]:
        src = "".join(c["source"])
        if c["cell_type"] != "markdown" or ":::{admonition} Takeaway" not in src:
            continue
        stored = {}
        for ue in c.get("metadata", {}).get("user_expressions", []):
            val = ue.get("result", {}).get("data", {}).get("text/plain")
            if val is not None:
                stored[ue["expression"]] = str(ast.literal_eval(val)) \
                    if val[:1] in "'\"" else val
        for block in re.findall(r":::\{admonition\} Takeaway\n(?::class:[^\n]*\n)?(.*?)\n:::",
                                src, re.S):
            text = re.sub(r"\{eval\}`([^`]+)`", lambda m: stored[m.group(1)], block)
            out.append(" ".join(text.split()))
    return out


def first_sentence(text: str) -> str:
    """A takeaway as a bullet: its first sentence."""
    m = re.match(r"(.+?[.!?])(?:\s+(?=[A-Z(])|$)", text.strip(), re.S)
    return (m.group(1) if m else text).strip()


def chapter_figure(n: int) -> tuple[int, str] | None:
    """Chapter ``n``'s first demo's stored figure (for its takeaway slides)."""
    for c in _notebook(n)["cells"]:
        m = re.search(r'widgets\.show\("([a-z0-9_]+)"\)', "".join(c["source"]))
        if c["cell_type"] == "code" and m:
            fig = demo_figure(m.group(1).replace("_", " "))
            if fig:
                return fig
    return None


# ---------------------------------------------------------------------- the deck
def deck_html(s: dict) -> str:
    e = html.escape
    title = f"Session {s['k']}: {s['title']}"
    slides = [("title", f"<h1>{e(title)}</h1><p>Interconnects: how GPUs talk to each "
               "other.</p><p>Read before: " + "; ".join(
                   f"Chapter {n}, {e(chapter_title(n))}" for n in s["chapters"]) + ".</p>")]
    for time, what, ask in s["rows"]:
        demo = re.search(r"\*([a-z0-9 ]+)\*:", ask)
        fig = demo_figure(demo.group(1)) if demo else None
        img = (f"<figure><img src='{fig[1]}' alt='the {e(demo.group(1))} demo\u2019s figure "
               f"(Chapter {fig[0]}, stored output)' data-chapter='{fig[0]}' "
               "data-role='demo'></figure>" if fig else "")
        ask_html = "" if ask == "none" else f"<p class='ask'><strong>Ask first:</strong> " \
                                             f"{_plain(ask)}</p>"
        slides.append((time, f"<h2>{_plain(what)}</h2><div class='time'>minutes {e(time)}"
                       f"</div><div class='row'><div class='text'>{ask_html}</div>{img}</div>"))
    for n in s["chapters"]:
        items = [first_sentence(t) for t in takeaways(n)]
        fig = chapter_figure(n)
        img = (f"<figure><img src='{fig[1]}' alt='a figure of Chapter {n}, "
               f"{e(chapter_title(n))} (stored output)' data-chapter='{fig[0]}' "
               "data-role='takeaway'></figure>" if fig else "")
        chunks = [items[i:i + TAKEAWAYS_PER_SLIDE]
                  for i in range(0, len(items), TAKEAWAYS_PER_SLIDE)] or [[]]
        for j, chunk in enumerate(chunks):
            part = f" ({j + 1} of {len(chunks)})" if len(chunks) > 1 else ""
            name = f"takeaways-{n}" + (f"-{j + 1}" if j else "")
            lis = "".join(f"<li>{_plain(t)}</li>" for t in chunk)
            slides.append((name, f"<h2>Chapter {n}: {e(chapter_title(n))}, the takeaways"
                           f"{part}</h2><div class='row'><div class='text'><ul "
                           f"class='takeaways'>{lis}</ul></div>{img}</div>"))
    if s["wrong"]:
        slides.append(("wrong", "<h2>Where students go wrong</h2><div class='row'><div "
                       f"class='text'><p>{_plain(s['wrong'])}</p></div></div>"))
    body = "".join(
        f"<section class='slide' id='slide-{i + 1}' tabindex='-1' role='region' "
        f"aria-label='slide {i + 1} of {len(slides)}' data-section='{e(name)}'>{inner}"
        "</section>" for i, (name, inner) in enumerate(slides))
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{e(title)}"
            f"</title><style>{CSS}</style></head><body>{body}{SCRIPT}</body></html>")


#: Playwright's PDF options for the decks (16:9 pages from the CSS; tagged, with bookmarks)
PDF = dict(prefer_css_page_size=True, print_background=True, tagged=True, outline=True)


def build(out: Path = REPO / "_build" / "slides", pdf: bool = True) -> list[Path]:
    """Write every session's deck (HTML, and PDF unless ``pdf`` is False) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    decks = [(s["k"], deck_html(s)) for s in sessions()]
    paths = []
    for k, page in decks:
        path = out / f"session-{k}.html"
        path.write_text(page)
        paths.append(path)
    if pdf:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from handouts import print_pdfs

        paths += print_pdfs([(out / f"session-{k}.pdf", page) for k, page in decks], **PDF)
    return paths


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=REPO / "_build" / "slides")
    ap.add_argument("--no-pdf", action="store_true", help="write the HTML decks only")
    args = ap.parse_args(argv)
    for p in build(args.out, pdf=not args.no_pdf):
        print(p.relative_to(REPO) if p.is_relative_to(REPO) else p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
