"""Slides: one deck per session plan of book/instructors.md (`make slides`).

Each deck is generated, offline, from two sources and nothing else:

* the session plan in ``book/instructors.md`` (one slide per row of its table: the time,
  what to do, the demo questions to pose; then its "where students go wrong" paragraph);
* the chapters' **stored outputs**: each row's first named demo (*ring all reduce* ...)
  brings the figure that demo's cell stored in its chapter notebook, and each chapter of
  the session gives a slide of its Takeaway callouts, with their ``{eval}`` figures read
  from the values the notebook stored (``user_expressions``), not recomputed.

The deck is one self-contained HTML file (figures as data URIs, no script, no remote
URL) written to ``_build/slides/session-<k>.html`` and printed to a 16:9 PDF
``session-<k>.pdf`` with Debian's Chromium through Playwright (network blocked).

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
CSS = ("@page{size:254mm 142.875mm;margin:0}body{margin:0;font:15pt/1.4 'DejaVu Sans',"
       "sans-serif;color:#1a1a1a}.slide{box-sizing:border-box;width:254mm;min-height:142.875mm;"
       "padding:10mm 14mm;break-after:page;display:flex;flex-direction:column}"
       ".slide h1{font-size:26pt;margin:auto 0 .3em}.slide h2{font-size:19pt;margin:0 0 .4em;"
       "border-bottom:2px solid #76b900}.time{color:#555;font-size:12pt}.row{display:flex;"
       "gap:8mm;flex:1}.row>div{flex:1}.row img{max-width:100%;max-height:95mm;"
       "object-fit:contain}.ask{font-size:13pt}li{margin:.25em 0}.small{font-size:11pt}")


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


# ---------------------------------------------------------------------- the deck
def deck_html(s: dict) -> str:
    e = html.escape
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>Session {s['k']}: "
             f"{e(s['title'])}</title><style>{CSS}</style></head><body>",
             f"<section class='slide' data-section='title'><h1>Session {s['k']}: "
             f"{e(s['title'])}</h1><p>Interconnects: how GPUs talk to each other.</p><p>Read "
             "before: " + "; ".join(f"Chapter {n}, {e(chapter_title(n))}"
                                   for n in s["chapters"]) + ".</p></section>"]
    for time, what, ask in s["rows"]:
        demo = re.search(r"\*([a-z0-9 ]+)\*:", ask)
        fig = demo_figure(demo.group(1)) if demo else None
        img = (f"<div><img src='{fig[1]}' alt='the {e(demo.group(1))} demo's figure "
               f"(Chapter {fig[0]}, stored output)' data-chapter='{fig[0]}'></div>"
               if fig else "")
        ask_html = "" if ask == "none" else f"<p class='ask'><strong>Ask first:</strong> " \
                                             f"{_plain(ask)}</p>"
        parts.append(f"<section class='slide' data-section='{e(time)}'><h2>{_plain(what)}"
                     f"</h2><div class='time'>minutes {e(time)}</div><div class='row'><div>"
                     f"{ask_html}</div>{img}</div></section>")
    for n in s["chapters"]:
        items = "".join(f"<li>{_plain(t)}</li>" for t in takeaways(n))
        parts.append(f"<section class='slide' data-section='takeaways-{n}'><h2>Chapter {n}: "
                     f"{e(chapter_title(n))}, the takeaways</h2><ul class='small'>{items}</ul>"
                     "</section>")
    if s["wrong"]:
        parts.append("<section class='slide' data-section='wrong'><h2>Where students go "
                     f"wrong</h2><p>{_plain(s['wrong'])}</p></section>")
    parts.append("</body></html>")
    return "".join(parts)


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

        paths += print_pdfs([(out / f"session-{k}.pdf", page) for k, page in decks],
                            prefer_css_page_size=True, print_background=True)
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
